package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/resumelint/resumelint/internal/cli"
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
func TestGolden(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                "../../testdata/golden",
		UpdateScripts:      *update,
		RequireUniqueNames: true,
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "1")
			// A fixed clock: time-based rules must not depend on the day.
			env.Setenv("SOURCE_DATE_EPOCH", "1782000000") // 2026-06-21T00:00:00Z
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
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

func ExampleMain() {
	fmt.Println(cli.ExitOK, cli.ExitFindings, cli.ExitUsage, cli.ExitInternal)
	// Output: 0 1 2 3
}
