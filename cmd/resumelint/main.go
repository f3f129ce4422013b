// Command resumelint lints the state files AI-agent workflows keep so a
// fresh session can resume. See README.md.
package main

import (
	"os"
	"runtime/debug"

	"github.com/resumelint/resumelint/internal/cli"
)

func main() {
	// A lint is a short-lived process whose live heap stays small (each
	// file's trees are dropped once it is checked) while it allocates
	// hundreds of MiB of parse trees. Collecting only when the heap nears
	// a fixed limit saves most collections and keeps peak RSS bounded
	// however many files a run checks. GOGC and GOMEMLIMIT still win.
	ownGC, ownLimit := os.Getenv("GOGC") == "", os.Getenv("GOMEMLIMIT") == ""
	if ownLimit {
		debug.SetMemoryLimit(64 << 20)
	}
	switch {
	case ownGC && ownLimit:
		debug.SetGCPercent(-1)
	case ownGC:
		// The user's limit may be far away: keep collecting before it.
		debug.SetGCPercent(400)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
