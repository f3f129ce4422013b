package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/cli"
	"github.com/resumelint/resumelint/internal/report"
)

// The examples/ tree is what the README runs: examples/clean must stay
// clean under every rule, and every problem planted in examples/broken
// must be reported at its place. The clock is the real one, as for a
// user who runs the README command.

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// lintExamples runs resumelint in-process from the repository root.
func lintExamples(t *testing.T, args ...string) (int, report.JSONDoc, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"NO_COLOR": "1"}
	c := &cli.Command{Stdout: &stdout, Stderr: &stderr, Cwd: moduleRoot(t), Getenv: func(k string) string { return env[k] }}
	code := c.Main(append([]string{"lint", "--format", "json"}, args...))
	var doc report.JSONDoc
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("resumelint %v: %v\nstdout: %s\nstderr: %s", args, err, stdout.String(), stderr.String())
	}
	return code, doc, stderr.String()
}

func TestExamplesClean(t *testing.T) {
	code, doc, stderr := lintExamples(t, "examples/clean")
	for _, f := range doc.Findings {
		t.Errorf("%s:%d:%d: %s: %s [%s %s]", f.Path, f.Line, f.Column, f.Severity, f.Message, f.Code, f.Name)
	}
	if code != cli.ExitOK {
		t.Errorf("exit code %d, want 0 (stderr: %s)", code, stderr)
	}
	// One unit of every kind: orchestration, checkpoint, precompact state,
	// resume context, a bundle of four files, an agent run of four.
	if doc.Summary.Files != 12 {
		t.Errorf("checked %d files, want 12", doc.Summary.Files)
	}
}

// brokenExample is one problem planted in examples/broken: the finding
// expected for it and the text it is reported at.
type brokenExample struct {
	path  string // under examples/broken
	code  string
	at    string // the reported text: the finding starts where it starts
	atEnd bool   // the finding is at the end of the line ending with at
}

var brokenExamples = []brokenExample{
	{"ORCHESTRATION.yaml", "RL102", `"COMPLETED"`, false},
	{".jerry/checkpoints/cx-001-checkpoint.json", "RL201", `"CX-001"`, false},
	{"02-projects/07-example-project/01-planning/resume-context.md", "RL311", `1.0`, false},
	{"00-system/.cache/precompact_state.json", "RL301", `"certain"`, false},
	{"bundles/site-build-0142/STATUS.json", "RL403", `"succeeded"`, false},
	// out/index.html was edited after the bundle was written.
	{"bundles/site-build-0142/OUTPUT_HASHES.json", "RL405", `"sha256:a300334a`, false},
	{".agent-memory/runs/2026-02-20-001/task-graph.json", "RL501", `4,`, false},
	{".agent-memory/runs/2026-02-20-001/events/planner/0001.jsonl", "RL503", `"timesta`, true},
}

// examplePosition returns the 1-based line and character column of the first
// occurrence of text in the file, or with atEnd the end of the first line
// that ends with text.
func examplePosition(t *testing.T, path, text string, atEnd bool) (int, int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if atEnd {
			if strings.HasSuffix(line, text) {
				return i + 1, len([]rune(line)) + 1
			}
		} else if j := strings.Index(line, text); j >= 0 {
			return i + 1, len([]rune(line[:j])) + 1
		}
	}
	t.Fatalf("%s does not contain %q", path, text)
	return 0, 0
}

func TestExamplesBroken(t *testing.T) {
	code, doc, stderr := lintExamples(t, "examples/broken")
	if code != cli.ExitFindings {
		t.Errorf("exit code %d, want 1 (stderr: %s)", code, stderr)
	}
	for _, b := range brokenExamples {
		path := "examples/broken/" + b.path
		line, col := examplePosition(t, filepath.Join(moduleRoot(t), filepath.FromSlash(path)), b.at, b.atEnd)
		found := false
		for _, f := range doc.Findings {
			if f.Path == path && f.Code == b.code && f.Line == line && f.Column == col {
				found = true
			}
		}
		if !found {
			var got []string
			for _, f := range doc.Findings {
				if f.Path == path {
					got = append(got, fmt.Sprintf("%s at %d:%d: %s", f.Code, f.Line, f.Column, f.Message))
				}
			}
			t.Errorf("%s: want %s at %d:%d; the file has %q", path, b.code, line, col, got)
		}
	}
	// The broken files are copies of the clean ones with one change each:
	// examples/clean must hold every one of them.
	for _, b := range brokenExamples {
		if _, err := os.Stat(filepath.Join(moduleRoot(t), "examples", "clean", filepath.FromSlash(b.path))); err != nil {
			t.Errorf("examples/clean has no counterpart of %s: %v", b.path, err)
		}
	}
}

// The README's main command lints both trees and fails because of the
// broken one.
func TestExamplesReadmeCommand(t *testing.T) {
	code, doc, _ := lintExamples(t, "examples/")
	if code != cli.ExitFindings {
		t.Errorf("exit code %d, want 1", code)
	}
	for _, f := range doc.Findings {
		if !strings.HasPrefix(f.Path, "examples/broken/") {
			t.Errorf("finding outside examples/broken: %s:%d:%d %s %s", f.Path, f.Line, f.Column, f.Code, f.Message)
		}
	}
}
