package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/resumelint/resumelint/internal/cli"
	"github.com/resumelint/resumelint/test/golden"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/golden/*.txtar (read every diff it makes)")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"resumelint": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestGolden runs every testdata/golden/*.txtar case: input files, a
// command, its exit code and its expected output in one file.
//
// Besides testscript's builtins, a case can use
//
//	rl CODE ARGS...   run resumelint in-process and require exit code CODE
//	hook CODE EVENT   run resumelint hook in-process with the event file
//	                  on stdin ($WORK and other variables in it expanded)
//	                  and require exit code CODE
//	fixture NAME [DEST]
//	                  write the files of testdata/golden/fixtures/NAME.txtar
//	                  into the work folder (or DEST in it); a file that is
//	                  already there is an error
//	set FILE PATH VALUE
//	                  set the YAML/JSON value at the dotted PATH of FILE
//	                  (its front matter, for Markdown), leaving every other
//	                  byte as it was
//	del FILE PATH     delete the entry at PATH of a YAML block collection
//	replace FILE OLD NEW
//	                  replace the one occurrence of OLD in FILE (\n is a
//	                  newline)
//
// A path that does not exist, or text that is not found, fails the case:
// an edit never does nothing silently. See test/golden.
func TestGolden(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                "../../testdata/golden",
		UpdateScripts:      *update,
		RequireUniqueNames: true,
		// resumelint runs in-process through rl and hook; a bare
		// `resumelint` must say it starts a process.
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			// A fixed clock: time-based rules must not depend on the day.
			env.Setenv("SOURCE_DATE_EPOCH", "1782000000") // 2026-06-21T00:00:00Z
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"fixture": cmdFixture,
			"set":     cmdEdit("set"),
			"del":     cmdEdit("del"),
			"replace": cmdEdit("replace"),
			"rl": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 1 {
					ts.Fatalf("usage: rl CODE ARGS...")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("rl: exit code %q is not a number", args[0])
				}
				c := &cli.Command{Stdin: nil, Stdout: ts.Stdout(), Stderr: ts.Stderr(), Getenv: ts.Getenv, Cwd: ts.MkAbs(".")}
				if got := c.Main(args[1:]); got != want {
					ts.Fatalf("resumelint %v: exit code %d, want %d", args[1:], got, want)
				}
			},
			"hook": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: hook CODE EVENT")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("hook: exit code %q is not a number", args[0])
				}
				event := os.Expand(ts.ReadFile(args[1]), ts.Getenv)
				c := &cli.Command{Stdin: strings.NewReader(event), Stdout: ts.Stdout(), Stderr: ts.Stderr(), Getenv: ts.Getenv, Cwd: ts.Getenv("WORK")}
				if got := c.Main([]string{"hook"}); got != want {
					ts.Fatalf("resumelint hook < %s: exit code %d, want %d", args[1], got, want)
				}
			},
		},
	})
}

// fixtureDir is the shared fixtures' folder, from the package directory
// the tests run in.
var fixtureDir = filepath.Join("..", "..", filepath.FromSlash(golden.FixtureDir))

// cmdFixture writes a shared fixture into the work folder.
func cmdFixture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: fixture NAME [DEST]")
	}
	dest := ""
	if len(args) == 2 {
		dest = args[1]
	}
	files, err := golden.Fixture(fixtureDir, args[0], dest)
	ts.Check(err)
	ts.Check(golden.WriteFiles(ts.MkAbs("."), files, false))
}

// cmdEdit returns the script command that applies edit cmd to a file.
func cmdEdit(cmd string) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: set FILE PATH VALUE | del FILE PATH | replace FILE OLD NEW")
		}
		p := ts.MkAbs(args[0])
		data, err := os.ReadFile(p)
		ts.Check(err)
		out, err := golden.Edit(cmd, args[0], data, args[1:])
		ts.Check(err)
		ts.Check(os.WriteFile(p, out, 0o644))
	}
}

func ExampleMain() {
	fmt.Println(cli.ExitOK, cli.ExitFindings, cli.ExitUsage, cli.ExitInternal)
	// Output: 0 1 2 3
}
