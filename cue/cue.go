// Package cue holds the CUE definitions of every kind resumelint checks,
// embedded in the binary. The Go code that compiles and applies them lives
// in internal/schema.
package cue

import "embed"

// FS holds the .cue files of this directory.
//
//go:embed *.cue
var FS embed.FS
