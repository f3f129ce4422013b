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

// A run reads each file once for its findings: cross-file findings
// (RL508) and unused suppressions (RL007) get their snippets and
// suppressions from what was kept when the file was read. A run with a
// safe fix lints once more to check it (fix.Settle), no more.
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
	var mu sync.Mutex
	reads := map[string]int{}
	load.OnRead = func(p string) {
		mu.Lock()
		reads[p]++
		mu.Unlock()
	}
	defer func() { load.OnRead = nil }()
	var out, errb strings.Builder
	c := &Command{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Cwd: dir, Getenv: func(string) string { return "" }}
	c.Main([]string{"lint", "."})
	for _, want := range []string{"[RL508 multiple-incomplete-runs]", "[RL007 unused-suppression]", "1 | # resumelint:ignore-file RL101"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s%s", want, out.String(), errb.String())
		}
	}
	if !strings.Contains(out.String(), "1 | {") {
		t.Errorf("the RL508 finding has no snippet:\n%s", out.String())
	}
	if len(reads) == 0 {
		t.Fatal("no read was counted")
	}
	// A safe fix (RL007 in ORCHESTRATION.yaml) is checked by a dry run
	// that lints the repository again as `fix` would (docs/fixes.md, "One
	// answer"): each file is read at most twice, never a third time.
	for p, n := range reads {
		if n > 2 {
			t.Errorf("%s read %d times", p, n)
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
