package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/test/golden"
)

// A run reads each file once: cross-file findings (RL508) and unused
// suppressions (RL007) get their snippets and suppressions from what was
// kept when the file was read, and the dry run that checks a safe fix
// (fix.Settle) lints from the bytes the run read (the command's
// load.Files).
func TestNoFileReadTwice(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"rl508_multiple_incomplete_runs", "rl007_unused_suppression"} {
		a, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", name+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if !strings.Contains(f.Name, "/") && f.Name != "ORCHESTRATION.yaml" {
				continue // expected outputs and files the script copies
			}
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if name == "rl508_multiple_incomplete_runs" {
			second := filepath.Join(dir, ".agent-memory", "runs", "2026-06-20-audit-log")
			for file, data := range map[string]string{
				"task-graph.json":                 archiveFile(a, "second-graph.json"),
				"events/planner/2026-06-20.jsonl": archiveFile(a, "second-events.jsonl"),
				"plan.md":                         "# Plan\n",
			} {
				p := filepath.Join(second, filepath.FromSlash(file))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	out, errb, reads := lintCountingReads(t, dir)
	for _, want := range []string{"[RL508 multiple-incomplete-runs]", "[RL007 unused-suppression]", "1 | # resumelint:ignore-file RL101", "fixable with `resumelint fix`"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s%s", want, out, errb)
		}
	}
	if !strings.Contains(out, "1 | {") {
		t.Errorf("the RL508 finding has no snippet:\n%s", out)
	}
	// A safe fix (RL007 in ORCHESTRATION.yaml) is checked by a dry run
	// that lints the repository again as `fix` would (docs/fixes.md, "One
	// answer"): it works from the bytes the lint read.
	readOnce(t, reads, "ORCHESTRATION.yaml", "task-graph.json")
}

// The examples' project has a steps file that two rules read (RL317
// through files_to_load, RL319): it is read once.
func TestExamplesReadOnce(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, reads := lintCountingReads(t, dir)
	readOnce(t, reads, "ORCHESTRATION.yaml", "01-planning/steps.md", "resume-context.md")
}

// status takes each record's state from the lint's own reading of it:
// the orchestration file and the resume file are read once, beside the
// files the rules read.
func TestStatusReadsRecordsOnce(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	out, errb, reads := runCountingReads(t, dir, "status")
	if !strings.Contains(out, "ORCHESTRATION.yaml") || !strings.Contains(out, "resume-context.md") {
		t.Fatalf("status lists neither record:\n%s%s", out, errb)
	}
	readOnce(t, reads, "ORCHESTRATION.yaml", "resume-context.md", "01-planning/steps.md")
}

// The SessionStart hook takes each active workflow's resume state from
// the lint's own reading of its file.
func TestSessionStartReadsWorkflowsOnce(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	out, errb, reads := runCountingReadsIn(t, dir, hookEvent(dir, "SessionStart", "", ""), "hook")
	if !strings.Contains(out, "resume state of clean/ORCHESTRATION.yaml") {
		t.Fatalf("no resume state of the active workflow:\n%s%s", out, errb)
	}
	readOnce(t, reads, "clean/ORCHESTRATION.yaml")
}

// The SessionStart report of an agent run reads the run through the
// hook's lint: its task graph and events files are read once.
func TestSessionStartReadsTheRunOnce(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "broken"))
	if err != nil {
		t.Fatal(err)
	}
	out, errb, reads := runCountingReadsIn(t, dir, hookEvent(dir, "SessionStart", "", ""), "hook")
	if !strings.Contains(out, "2026-02-20-001") {
		t.Fatalf("no report of the agent run:\n%s%s", out, errb)
	}
	readOnce(t, reads, "2026-02-20-001/task-graph.json", "events/builder/0001.jsonl")
}

// A safe fix in a nexus project: the dry run that settles it lints the
// repository again, and neither the units nor the files the rules read
// (the steps file RL317 and RL319 read) are read a second time.
func TestDryRunReadsRuleFilesOnce(t *testing.T) {
	dir := withUnusedSuppression(t)
	out, errb, reads := lintCountingReads(t, dir)
	if !strings.Contains(out, "[RL007 unused-suppression]") || !strings.Contains(out, "fixable with `resumelint fix`") {
		t.Fatalf("no safe fix to settle:\n%s%s", out, errb)
	}
	readOnce(t, reads, "ORCHESTRATION.yaml", "01-planning/steps.md", "resume-context.md")
}

// fix lints again after it writes, from the disk: the file it wrote is
// read again (once), so the suppression it removed is not reported from
// the bytes the first lint kept.
func TestFixReadsWhatItWrote(t *testing.T) {
	dir := withUnusedSuppression(t)
	out, errb, reads := runCountingReads(t, dir, "fix", ".")
	if !strings.Contains(out, "1 fix applied in 1 file.") || strings.Contains(out, "[RL007") {
		t.Fatalf("want the fix applied and RL007 gone:\n%s%s", out, errb)
	}
	orch := filepath.ToSlash(filepath.Join(dir, "ORCHESTRATION.yaml"))
	if reads[orch] != 2 {
		t.Errorf("ORCHESTRATION.yaml read %d times, want 2 (before and after the write)", reads[orch])
	}
	for p, n := range reads {
		if p != orch && n != 1 {
			t.Errorf("%s read %d times: fix wrote only ORCHESTRATION.yaml", p, n)
		}
	}
}

// withUnusedSuppression is a copy of examples/clean whose orchestration
// file suppresses a rule that finds nothing: RL007 with a safe fix.
func withUnusedSuppression(t *testing.T) string {
	t.Helper()
	dir := copyDir(t, filepath.Join("..", "..", "examples", "clean"))
	orch := filepath.Join(dir, "ORCHESTRATION.yaml")
	data, err := os.ReadFile(orch)
	if err != nil {
		t.Fatal(err)
	}
	data = append([]byte("# resumelint:ignore-file RL101 -- the section is v2 already\n"), data...)
	if err := os.WriteFile(orch, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// lintCountingReads lints dir and counts the reads of each file.
func lintCountingReads(t *testing.T, dir string) (string, string, map[string]int) {
	t.Helper()
	return runCountingReads(t, dir, "lint", ".")
}

// runCountingReads runs a command in dir and counts the reads of each file.
func runCountingReads(t *testing.T, dir string, args ...string) (string, string, map[string]int) {
	t.Helper()
	return runCountingReadsIn(t, dir, "", args...)
}

// runCountingReadsIn is runCountingReads with stdin.
func runCountingReadsIn(t *testing.T, dir, stdin string, args ...string) (string, string, map[string]int) {
	t.Helper()
	var mu sync.Mutex
	reads := map[string]int{}
	load.OnRead = func(p string) {
		mu.Lock()
		reads[filepath.ToSlash(p)]++
		mu.Unlock()
	}
	defer func() { load.OnRead = nil }()
	var out, errb strings.Builder
	c := &Command{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Cwd: dir, Getenv: func(string) string { return "" }}
	c.Main(args)
	return out.String(), errb.String(), reads
}

// readOnce fails on a file read more than once, and when no file ending
// in one of wants was read at all (the run did not look where the test
// means it to).
func readOnce(t *testing.T, reads map[string]int, wants ...string) {
	t.Helper()
	for p, n := range reads {
		if n != 1 {
			t.Errorf("%s read %d times", p, n)
		}
	}
	for _, w := range wants {
		seen := false
		for p := range reads {
			seen = seen || strings.HasSuffix(p, "/"+w)
		}
		if !seen {
			t.Errorf("no file ending in %s was read: %v", w, reads)
		}
	}
}

func archiveFile(a *txtar.Archive, name string) string {
	for _, f := range a.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}
