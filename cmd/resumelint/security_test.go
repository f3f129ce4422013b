//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/resumelint/resumelint/internal/cli"
)

// The guarantees of docs/security.md, as tests: resumelint never opens the
// network, runs nothing but git with fixed arguments, and writes nothing
// but the files it fixes.

// snapshot records every path under dir with its mode and content hash.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		out[rel] = fmt.Sprintf("%v %s", info.Mode(), sum)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type countingTransport struct{ calls atomic.Int64 }

func (c *countingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.calls.Add(1)
	return nil, fmt.Errorf("resumelint must not use the network")
}

func TestNoNetworkNoExecNoStrayWrites(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, "../../examples", dir)
	// A .git marker: git is run only for a folder holding one.
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}

	// A fake git on PATH records every invocation; it fails, so discovery
	// falls back to walking.
	bin := t.TempDir()
	logPath := filepath.Join(bin, "git.log")
	script := "#!/bin/sh\necho \"$@\" >> " + logPath + "\nexit 128\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)

	tr := &countingTransport{}
	saved := http.DefaultTransport
	http.DefaultTransport = tr
	defer func() { http.DefaultTransport = saved }()

	before := snapshot(t, dir)
	for _, args := range [][]string{
		{"lint", "."},
		{"lint", "--format", "sarif", "."},
		{"lint", "--format", "github", "."},
		{"bundle", "verify", "clean/bundles/site-build-0142", "broken/bundles/site-build-0142"},
		{"status", "clean/.agent-memory/runs/2026-02-20-001"},
		{"fix", "--diff", "."},
		{"schema", "export"},
	} {
		var out, errb bytes.Buffer
		c := &cli.Command{Stdout: &out, Stderr: &errb, Cwd: dir, Getenv: func(string) string { return "" }}
		if code := c.Main(args); code > 2 {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
		}
	}
	if n := tr.calls.Load(); n != 0 {
		t.Errorf("%d network requests", n)
	}
	after := snapshot(t, dir)
	for p, v := range after {
		if before[p] != v {
			t.Errorf("%s changed or appeared (%s)", p, v)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s disappeared", p)
		}
	}
	logged, _ := os.ReadFile(logPath)
	var subcommands []string
	for _, line := range strings.Split(strings.TrimSpace(string(logged)), "\n") {
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		// git --no-pager -C DIR -c SAFE... SUBCOMMAND ...: the only program
		// run, with fixed verbs, and the repository's hooks and fsmonitor off.
		if len(fields) < 4 || fields[0] != "--no-pager" || fields[1] != "-C" ||
			!strings.Contains(line, "-c core.fsmonitor=false") || !strings.Contains(line, "-c core.hooksPath=/dev/null") {
			t.Errorf("unexpected git invocation: %q", line)
			continue
		}
		i := 3
		for i+1 < len(fields) && fields[i] == "-c" {
			i += 2
		}
		subcommands = append(subcommands, fields[i])
	}
	if len(subcommands) == 0 {
		t.Error("the fake git was never run: the test checks nothing")
	}
	sort.Strings(subcommands)
	for _, s := range subcommands {
		if s != "ls-files" && s != "rev-parse" {
			t.Errorf("git %s run without --base", s)
		}
	}
}

// fix writes only the files it fixes, through a temporary file in the same
// folder that does not survive.
func TestFixWritesOnlyFixedFiles(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, "../../examples/clean", dir)
	orch := filepath.Join(dir, "ORCHESTRATION.yaml")
	b, err := os.ReadFile(orch)
	if err != nil {
		t.Fatal(err)
	}
	// decisions: is the draft name; its fix renames the key (RL103).
	edited := bytes.Replace(b, []byte("  decision_log:"), []byte("  decisions:"), 1)
	if bytes.Equal(edited, b) {
		t.Fatal("examples/clean/ORCHESTRATION.yaml has no decision_log to rename")
	}
	if err := os.WriteFile(orch, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	var out, errb bytes.Buffer
	c := &cli.Command{Stdout: &out, Stderr: &errb, Cwd: dir, Getenv: func(string) string { return "" }}
	c.Main([]string{"fix", "."})
	after := snapshot(t, dir)
	var changed []string
	for p, v := range after {
		if before[p] != v {
			changed = append(changed, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			changed = append(changed, p+" (removed)")
		}
	}
	sort.Strings(changed)
	if strings.Join(changed, ",") != "ORCHESTRATION.yaml" {
		t.Errorf("fix changed %v, want only ORCHESTRATION.yaml\nstdout: %s\nstderr: %s", changed, out.String(), errb.String())
	}
}
