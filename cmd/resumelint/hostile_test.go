package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/cli"
)

// Hostile inputs: each must end with a finding and exit 1 or 2, never a
// crash, a hang or unbounded memory. Each case runs the whole CLI in
// process with a deadline and reports the heap it grew.

type hostileCase struct {
	name  string
	setup func(t *testing.T, dir string) []string // returns the lint arguments
	code  string                                  // a finding code that must be reported
}

func runHostile(t *testing.T, dir string, args []string) (int, []map[string]any, uint64) {
	t.Helper()
	code, stdout, stderr, alloc := runMeasured(t, dir, append([]string{"lint", "--format", "json"}, args...))
	var out struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil && code != 2 {
		t.Fatalf("exit %d, output is not JSON: %v\n%s\nstderr: %s", code, err, stdout, stderr)
	}
	return code, out.Findings, alloc
}

// runMeasured runs resumelint with args in dir, failing the test after
// 10 s, and returns its exit code, output and bytes allocated.
func runMeasured(t *testing.T, dir string, args []string) (code int, stdout, stderr string, alloc uint64) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := &cli.Command{Stdout: &out, Stderr: &errOut, Cwd: dir, Getenv: func(string) string { return "" }}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	done := make(chan int, 1)
	go func() { done <- c.Main(args) }()
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("resumelint %v did not finish within 10s", args)
	}
	runtime.ReadMemStats(&after)
	return code, out.String(), errOut.String(), after.TotalAlloc - before.TotalAlloc
}

// hostileCases are the inputs of TestHostileInputs, each with the finding
// it must end with.
var hostileCases = []hostileCase{
	{"yaml alias bomb", func(t *testing.T, dir string) []string {
		var sb strings.Builder
		sb.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i < 12; i++ {
			fmt.Fprintf(&sb, "a%d: &a%d [", i, i)
			for j := 0; j < 10; j++ {
				if j > 0 {
					sb.WriteString(", ")
				}
				fmt.Fprintf(&sb, "*a%d", i-1)
			}
			sb.WriteString("]\n")
		}
		sb.WriteString("resumption: *a11\n")
		return []string{write(t, dir, "ORCHESTRATION.yaml", sb.String())}
	}, "RL003"},
	{"1 GiB file refused by size", func(t *testing.T, dir string) []string {
		p := filepath.Join(dir, "ORCHESTRATION.yaml")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(1 << 30); err != nil { // sparse: costs no disk
			t.Fatal(err)
		}
		f.Close()
		return []string{p}
	}, "RL003"},
	{"100,000-deep YAML", func(t *testing.T, dir string) []string {
		return []string{write(t, dir, "ORCHESTRATION.yaml", "resumption: "+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+"\n")}
	}, "RL003"},
	{"100,000-deep JSON", func(t *testing.T, dir string) []string {
		return []string{write(t, dir, ".jerry/checkpoints/cx-001.json", `{"a": `+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+"}")}
	}, "RL003"},
	{"invalid UTF-8", func(t *testing.T, dir string) []string {
		return []string{write(t, dir, "ORCHESTRATION.yaml", "resumption:\n  next_step: \"caf\xe9\"\n")}
	}, "RL004"},
	{"binary STATUS.json", func(t *testing.T, dir string) []string {
		b := make([]byte, 4096)
		for i := range b {
			b[i] = byte(i * 7)
		}
		write(t, dir, "bundle/STATUS.json", string(b))
		return []string{filepath.Join(dir, "bundle")}
	}, "RL004"},
	{"3 MB single-line scalar", func(t *testing.T, dir string) []string {
		return []string{write(t, dir, "ORCHESTRATION.yaml", "resumption:\n  next_step: \""+strings.Repeat("a", 3<<20)+"\"\n")}
	}, "RL003"},
	{"one line holding a flow list of 200,000 items", func(t *testing.T, dir string) []string {
		return []string{write(t, dir, "ORCHESTRATION.yaml", "workflow:\n  id: w\nlist: [é, "+strings.Repeat("a, ", 200000)+"a]\n")}
	}, "RL100"},
	{"FIFO named ORCHESTRATION.yaml", func(t *testing.T, dir string) []string {
		p := filepath.Join(dir, "ORCHESTRATION.yaml")
		if err := mkfifo(p); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		return []string{p}
	}, "RL003"},
	{"FIFO found by discovery", func(t *testing.T, dir string) []string {
		if err := os.MkdirAll(filepath.Join(dir, "w"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mkfifo(filepath.Join(dir, "w", "ORCHESTRATION.yaml")); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		return []string{filepath.Join(dir, "w")}
	}, "RL003"},
	{"events file of 300,000 garbage lines", func(t *testing.T, dir string) []string {
		run := ".agent-memory/runs/2026-02-20-001/"
		write(t, dir, run+"task-graph.json", `{"tasks": [{"id": "T1", "title": "Draft"}]}`)
		write(t, dir, run+"plan.md", "# Plan\n")
		var sb strings.Builder
		for i := 0; i < 300000; i++ {
			fmt.Fprintf(&sb, "garbage %d {not json\n", i)
		}
		write(t, dir, run+"events/builder/0001.jsonl", sb.String())
		// RL503 is a warning (seed 003: warn and proceed), so the gate
		// fails on it only when asked to.
		return []string{"--fail-on", "warning", filepath.Join(dir, ".agent-memory")}
	}, "RL503"},
	{"events file of 2.7 million tiny values", func(t *testing.T, dir string) []string {
		run := ".agent-memory/runs/2026-02-20-001/"
		write(t, dir, run+"task-graph.json", `{"tasks": [{"id": "T1", "title": "Draft"}]}`)
		write(t, dir, run+"plan.md", "# Plan\n")
		// Under the size limit, but a tree per value would take GiBs.
		write(t, dir, run+"events/builder/0001.jsonl", strings.Repeat("{}\n", 2_700_000))
		return []string{filepath.Join(dir, ".agent-memory")}
	}, "RL003"},
	{"JSON document of 2.7 million tiny values", func(t *testing.T, dir string) []string {
		write(t, dir, ".jerry/checkpoints/cx-001-checkpoint.json", "[\n"+strings.Repeat("0,\n", 2_700_000)+"0]\n")
		return []string{filepath.Join(dir, ".jerry")}
	}, "RL003"},
	{"symlink loop in discovery", func(t *testing.T, dir string) []string {
		d := filepath.Join(dir, "repo")
		write(t, dir, "repo/ORCHESTRATION.yaml", "workflow: {}\n")
		if err := os.Symlink(".", filepath.Join(d, "loop")); err != nil {
			t.Skipf("symlink: %v", err)
		}
		if err := os.Symlink("self", filepath.Join(d, "self")); err != nil {
			t.Skipf("symlink: %v", err)
		}
		return []string{d}
	}, "RL100"},
}

// TestHostileInputs lints each of hostileCases and wants an exit code of 1
// or 2, the case's finding, and at most 512 MiB allocated.
func TestHostileInputs(t *testing.T) {
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := tc.setup(t, dir)
			code, findings, alloc := runHostile(t, dir, args)
			if code != 1 && code != 2 {
				t.Errorf("exit code %d, want 1 or 2", code)
			}
			found := false
			for _, f := range findings {
				if f["code"] == tc.code {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s finding; got %v", tc.code, findings)
			}
			if alloc > 512<<20 {
				t.Errorf("allocated %d MiB, over 512 MiB", alloc>>20)
			}
		})
	}
}

func write(t *testing.T, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
