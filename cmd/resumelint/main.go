// Command resumelint lints the state files AI-agent workflows keep so a
// fresh session can resume. See README.md.
package main

import (
	"os"

	"github.com/resumelint/resumelint/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
