// Package cue holds the CUE definitions of every kind resumelint checks,
// embedded in the binary. The Go code that compiles and applies them lives
// in internal/schema.
package cue

import "embed"

// FS holds the .cue files of this directory.
//
//go:embed *.cue
var FS embed.FS

// Views holds definitions that only the typed views are generated from
// (internal/model): no check validates against them, so they stay out of
// FS, the schema the checks, the generated checker and `schema export` use.
//
//go:embed views/*.cue
var Views embed.FS
