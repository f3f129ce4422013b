// Command resumelint lints the state files AI-agent workflows keep so a
// fresh session can resume. See README.md.
package main

import (
	_ "github.com/resumelint/resumelint/internal/gctune/heapstart"
	"os"

	"github.com/resumelint/resumelint/internal/cli"
	"github.com/resumelint/resumelint/internal/gctune"
)

func main() {
	if gctune.Batch(os.Args[1:]) {
		gctune.Start(os.Getenv)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
