// Package docs embeds the rule pages so `resumelint explain` works from the
// binary alone.
package docs

import "embed"

// Rules holds docs/rules/<CODE>.md.
//
//go:embed rules/*.md
var Rules embed.FS
