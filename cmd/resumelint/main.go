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
	// file's trees are dropped once it is checked): collecting less often
	// saves CPU, and the soft memory limit keeps peak RSS bounded however
	// many files a run checks. GOGC and GOMEMLIMIT still win.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(80 << 20)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
