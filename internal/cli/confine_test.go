//go:build unix

package cli

import (
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Every entry point reads through the repository root, as lint does
// (docs/security.md "Reads never leave the repository"): a state file,
// checkpoint, run file, bundle folder or configuration that is a link
// leading out of the repository is neither opened nor quoted. The files
// outside hold outsideMarker in the values resumelint would quote, and
// their folders are watched (inotify, on Linux) for any open.

const outsideMarker = "OUTSIDE-MARKER-5c1e"

// outsideFiles are what lies outside the repository: a workflow, a
// checkpoint, an agent run's task graph and events, a bundle and a
// configuration, each holding the marker where a finding or a report
// would show it.
var outsideFiles = map[string]string{
	"orch/ORCHESTRATION.yaml": `workflow:
  id: "` + outsideMarker + `-wf"
  status: "ACTIVE"
resumption:
  recovery_state:
    workflow_status: "` + outsideMarker + `-status"
    next_step: "` + outsideMarker + `-next"
`,
	"cp/cx-001.json": `{"event_id": "` + outsideMarker + `-cp", "timestamp": "` + outsideMarker + `-ts", "trigger": "` + outsideMarker + `-trigger"}`,
	"run/task-graph.json": `{"tasks": [
  {"id": "` + outsideMarker + `-T1", "title": "` + outsideMarker + ` title", "depends_on": ["` + outsideMarker + `-T9"]}
]}`,
	"run/events.jsonl":          `{"event": "task_started", "task_id": "` + outsideMarker + `-T1", "timestamp": "2026-06-18T09:00:00Z", "actor": "` + outsideMarker + `"}` + "\n",
	"bundle/STATUS.json":        `{"status": "` + outsideMarker + `", "cmp01": "` + outsideMarker + `"}`,
	"bundle/TASK_SPEC.json":     `{"task_id": "` + outsideMarker + `", "expected_outputs": ["` + outsideMarker + `.txt"]}`,
	"bundle/OUTPUT_HASHES.json": `{"validator_semver": "` + outsideMarker + `", "validator_build_id": "git:abc", "hashes": {"` + outsideMarker + `.txt": "sha256:00"}}`,
	"config/resumelint.yaml":    "fail_on: " + outsideMarker + "\n",
}

// confinedRepo makes a repository whose state files are links to the
// outside files, next to a real agent run, and returns it with a function
// listing what was opened outside since.
func confinedRepo(t *testing.T, linkConfig bool) (repo string, opened func() []string) {
	t.Helper()
	top := t.TempDir()
	repo, outside := filepath.Join(top, "repo"), filepath.Join(top, "outside")
	for name, text := range outsideFiles {
		writeFile(t, filepath.Join(outside, filepath.FromSlash(name)), text)
	}
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(repo, ".agent-memory", "runs", "r1", "prd.md"), "# PRD: session token rotation\n")
	writeFile(t, filepath.Join(repo, "docs", "notes.md"), "# Notes\n")
	links := map[string]string{
		"ORCHESTRATION.yaml":                     "orch/ORCHESTRATION.yaml",
		".jerry/checkpoints/cx-001.json":         "cp/cx-001.json",
		".agent-memory/runs/r1/task-graph.json":  "run/task-graph.json",
		".agent-memory/runs/r1/events/b/a.jsonl": "run/events.jsonl",
		"bundles/b1":                             "bundle",
	}
	if linkConfig {
		links[".resumelint.yaml"] = "config/resumelint.yaml"
	}
	for link, target := range links {
		p := filepath.Join(repo, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(outside, filepath.FromSlash(target)), p); err != nil {
			t.Fatal(err)
		}
	}
	var watches []func() []string
	for _, d := range []string{"orch", "cp", "run", "bundle", "config"} {
		watches = append(watches, watchOpens(t, filepath.Join(outside, d)))
	}
	return repo, func() []string {
		var out []string
		for _, w := range watches {
			out = append(out, w()...)
		}
		return out
	}
}

// confined fails the test when out quotes the outside files or anything
// outside was opened.
func confined(t *testing.T, what, out string, opened func() []string) {
	t.Helper()
	if strings.Contains(out, outsideMarker) {
		t.Errorf("%s printed a file outside the repository:\n%s", what, out)
	}
	if o := opened(); len(o) > 0 {
		t.Errorf("%s opened %v outside the repository", what, o)
	}
}

func TestHookReadsNothingOutsideTheRepository(t *testing.T) {
	for _, linkConfig := range []bool{false, true} {
		repo, opened := confinedRepo(t, linkConfig)
		for _, ev := range []struct{ name, json string }{
			{"PreCompact", hookEvent(repo, "PreCompact", "", "")},
			{"SessionStart", hookEvent(repo, "SessionStart", "", "")},
			{"PostToolUse of a linked file", hookEvent(repo, "PostToolUse", "Write", filepath.Join(repo, "ORCHESTRATION.yaml"))},
			{"PostToolUse of a run's file", hookEvent(repo, "PostToolUse", "Write", filepath.Join(repo, ".agent-memory/runs/r1/prd.md"))},
			{"PostToolUse of a file of no kind", hookEvent(repo, "PostToolUse", "Edit", filepath.Join(repo, "docs/notes.md"))},
			{"PostToolUse of a linked bundle", hookEvent(repo, "PostToolUse", "Write", filepath.Join(repo, "bundles/b1/STATUS.json"))},
		} {
			_, stdout, stderr := run(t, repo, ev.json, "hook")
			confined(t, ev.name, stdout+stderr, opened)
		}
	}
}

func TestLintAndFixReadNothingOutsideTheRepository(t *testing.T) {
	for _, args := range [][]string{{"lint"}, {"lint", "--format", "json"}, {"fix"}, {"fix", "--diff"}} {
		repo, opened := confinedRepo(t, false)
		_, stdout, stderr := run(t, repo, "", args...)
		confined(t, strings.Join(args, " "), stdout+stderr, opened)
	}
}

func TestStatusReadsNothingOutsideTheRepository(t *testing.T) {
	for _, args := range [][]string{{"status"}, {"status", "--format", "json"}, {"status", ".agent-memory/runs/r1"}} {
		repo, opened := confinedRepo(t, false)
		_, stdout, stderr := run(t, repo, "", args...)
		confined(t, strings.Join(args, " "), stdout+stderr, opened)
	}
	// The whole .agent-memory folder a link leading out.
	repo, opened := confinedRepo(t, false)
	top := filepath.Dir(repo)
	if err := os.RemoveAll(filepath.Join(repo, ".agent-memory")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(top, "outside", "mem", "runs", "r2", "task-graph.json"), outsideFiles["run/task-graph.json"])
	writeFile(t, filepath.Join(top, "outside", "mem", "runs", "r2", "events", "b", "a.jsonl"), outsideFiles["run/events.jsonl"])
	if err := os.Symlink(filepath.Join(top, "outside", "mem"), filepath.Join(repo, ".agent-memory")); err != nil {
		t.Fatal(err)
	}
	opened2 := watchOpens(t, filepath.Join(top, "outside", "mem", "runs", "r2"))
	for _, args := range [][]string{{"status"}, {"status", ".agent-memory/runs/r2"}, {"status", ".agent-memory/runs"}} {
		_, stdout, stderr := run(t, repo, "", args...)
		confined(t, strings.Join(args, " ")+" (linked .agent-memory)", stdout+stderr, func() []string { return append(opened(), opened2()...) })
		if args[len(args)-1] != ".agent-memory/runs/r2" && strings.Contains(stdout+stderr, "r2") {
			t.Errorf("%s named a run that lies outside the repository:\n%s", strings.Join(args, " "), stdout+stderr)
		}
	}
}

func TestBundleVerifyReadsNothingOutsideTheRepository(t *testing.T) {
	repo, opened := confinedRepo(t, false)
	for _, args := range [][]string{{"bundle", "verify", "bundles/b1"}, {"bundle", "verify", "--format", "json", "bundles/b1"}} {
		code, stdout, stderr := run(t, repo, "", args...)
		confined(t, strings.Join(args, " "), stdout+stderr, opened)
		if code == ExitOK {
			t.Errorf("%s: exit 0 for a bundle folder that leads outside", strings.Join(args, " "))
		}
	}
	// Answered exactly like a missing folder: nothing tells what is outside.
	_, _, linked := run(t, repo, "", "bundle", "verify", "bundles/b1")
	_, _, missing := run(t, repo, "", "bundle", "verify", "bundles/b9")
	if strings.ReplaceAll(missing, "b9", "b1") != linked {
		t.Errorf("a bundle folder linked outside is answered %q, a missing one %q", linked, missing)
	}
}

// startServer runs `resumelint server` in dir and returns a client that
// has initialized it.
func startServer(t *testing.T, dir string) *lspClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		c := &Command{Stdin: inR, Stdout: outW, Stderr: io.Discard, Cwd: dir, Getenv: func(string) string { return "" }}
		c.Main([]string{"server"})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	c := newLSPClient(t, inW, outR, nil)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	return c
}

func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

// openAndWait opens a document and returns the params of every message
// the server sent until the diagnostics of that document.
func openAndWait(c *lspClient, uri, lang, text string) string {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": text}})
	var seen strings.Builder
	for {
		m := c.next()
		seen.Write(m["params"])
		if string(m["method"]) == strconv.Quote("textDocument/publishDiagnostics") && strings.Contains(string(m["params"]), strconv.Quote(uri)) {
			return seen.String()
		}
	}
}

func TestServerReadsNothingOutsideTheRepository(t *testing.T) {
	for _, linkConfig := range []bool{false, true} {
		repo, opened := confinedRepo(t, linkConfig)
		c := startServer(t, repo)
		for _, rel := range []string{"bundles/b1/STATUS.json", ".agent-memory/runs/r1/prd.md", ".agent-memory/runs/r1/task-graph.json", "ORCHESTRATION.yaml"} {
			uri := fileURI(filepath.Join(repo, rel))
			// What the editor shows of the file is its own business; the
			// server must read nothing more through the link.
			confined(t, "server on "+rel, openAndWait(c, uri, "json", "{}\n"), opened)
		}
	}
}

// runWithin is run with a deadline: a write that waits on a FIFO fails
// the test instead of hanging it.
func runWithin(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	type result struct {
		code         int
		stdout, errs string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := run(t, dir, "", args...)
		done <- result{code, stdout, stderr}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout + r.errs
	case <-time.After(10 * time.Second):
		t.Fatalf("resumelint %s did not finish within 10s", strings.Join(args, " "))
	}
	return 0, ""
}

// writeRepo is a repository with one state file, next to an outside
// folder holding a file with the marker, and the outside file's path.
func writeRepo(t *testing.T) (repo, outside, victim string) {
	t.Helper()
	top := t.TempDir()
	repo, outside = filepath.Join(top, "repo"), filepath.Join(top, "outside")
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(repo, "ORCHESTRATION.yaml"), brokenOrchestration)
	victim = filepath.Join(outside, "victim.json")
	writeFile(t, victim, outsideMarker+"\n")
	return repo, outside, victim
}

// untouched fails the test when the outside folder changed: the victim's
// bytes, or a file added next to it.
func untouched(t *testing.T, what, outside, victim string) {
	t.Helper()
	if data, err := os.ReadFile(victim); err != nil || string(data) != outsideMarker+"\n" {
		t.Errorf("%s: the file outside the repository was overwritten (%q, %v)", what, data, err)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("%s: wrote into the folder outside the repository: %v", what, names)
	}
}

func TestOutputsAreNotWrittenThroughLinks(t *testing.T) {
	cases := []struct {
		name  string
		plant func(t *testing.T, repo, outside, victim string)
		args  []string
	}{
		{"schema export over a file link", func(t *testing.T, repo, outside, victim string) {
			mustSymlink(t, victim, filepath.Join(repo, "schemas", "orchestration.schema.json"))
		}, []string{"schema", "export", "--out", "schemas"}},
		{"schema export into a folder link", func(t *testing.T, repo, outside, victim string) {
			mustSymlink(t, outside, filepath.Join(repo, "schemas"))
		}, []string{"schema", "export", "--out", "schemas"}},
		{"schema export over a FIFO", func(t *testing.T, repo, outside, victim string) {
			mkfifo(t, filepath.Join(repo, "schemas", "orchestration.schema.json"))
		}, []string{"schema", "export", "--out", "schemas"}},
		{"--output-file over a file link", func(t *testing.T, repo, outside, victim string) {
			mustSymlink(t, victim, filepath.Join(repo, "report.json"))
		}, []string{"lint", "--format", "json", "--output-file", "report.json"}},
		{"--output-file into a folder link", func(t *testing.T, repo, outside, victim string) {
			mustSymlink(t, outside, filepath.Join(repo, "reports"))
		}, []string{"lint", "--format", "json", "--output-file", "reports/report.json"}},
		{"-o into a folder link", func(t *testing.T, repo, outside, victim string) {
			mustSymlink(t, outside, filepath.Join(repo, "reports"))
		}, []string{"lint", "-o", "sarif=reports/deep/results.sarif"}},
		{"-o over a FIFO", func(t *testing.T, repo, outside, victim string) {
			mkfifo(t, filepath.Join(repo, "results.sarif"))
		}, []string{"lint", "-o", "sarif=results.sarif"}},
		{"--write-baseline into a folder link", func(t *testing.T, repo, outside, victim string) {
			mustSymlink(t, outside, filepath.Join(repo, "ci"))
		}, []string{"lint", "--write-baseline", "ci/baseline.json"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			repo, outside, victim := writeRepo(t)
			tc.plant(t, repo, outside, victim)
			_, out := runWithin(t, repo, tc.args...)
			untouched(t, tc.name, outside, victim)
			if strings.Contains(out, outsideMarker) {
				t.Errorf("printed the outside file:\n%s", out)
			}
		})
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// The hook tells the agent what lint tells CI about a state file that is
// not a regular file: it is not read (RL003), and nothing blocks on it.
func TestHookReportsSpecialFile(t *testing.T) {
	dir := hookRepo(t, false)
	p := filepath.Join(dir, "ORCHESTRATION.yaml")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, p)
	code, stdout, stderr := run(t, dir, hookEvent(dir, "PostToolUse", "Write", p), "hook")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "RL003") || !strings.Contains(stderr, "a FIFO (named pipe)") {
		t.Errorf("hook on a FIFO: exit %d, stdout %q, stderr %q; want 2 and the RL003 lint gives", code, stdout, stderr)
	}
	code, stdout, _ = run(t, dir, "", "lint", "--quiet", "ORCHESTRATION.yaml")
	if code != 1 || !strings.Contains(stdout, "RL003") {
		t.Errorf("lint of the FIFO: exit %d, stdout %q; want 1 and RL003", code, stdout)
	}
}

// TestLinkedCheckoutReadsNothing: a link inside the repository to a folder
// outside that is itself a git checkout is no repository of its own for
// any entry point: named, opened or written through, it leads outside.
func TestLinkedCheckoutReadsNothing(t *testing.T) {
	for _, git := range []bool{true, false} {
		t.Run(map[bool]string{true: "in a work tree", false: "in a folder git did not make"}[git], func(t *testing.T) {
			linkedCheckoutReadsNothing(t, git)
		})
	}
}

// linkedCheckoutReadsNothing is TestLinkedCheckoutReadsNothing in a
// repository with a .git marker, or without one (a tarball's checkout).
func linkedCheckoutReadsNothing(t *testing.T, git bool) {
	repo, opened := confinedRepo(t, false)
	if !git {
		if err := os.RemoveAll(filepath.Join(repo, ".git")); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(filepath.Dir(repo), "outside")
	for _, d := range []string{"orch", "bundle"} {
		writeFile(t, filepath.Join(outside, d, ".git", "HEAD"), "ref: refs/heads/main\n")
		if err := os.Symlink(filepath.Join(outside, d), filepath.Join(repo, "co-"+d)); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"lint", "co-orch"}, {"lint", "co-orch/ORCHESTRATION.yaml"}, {"lint", "--format", "json", "co-orch"},
		{"lint", "co-orch/**/ORCHESTRATION.yaml"}, {"lint", "co-*/**/*.yaml"},
		{"fix", "co-orch"}, {"fix", "co-orch/ORCHESTRATION.yaml"}, {"status", "co-orch"},
		{"bundle", "verify", "co-bundle"}, {"lint", "co-bundle"},
	} {
		code, stdout, stderr := run(t, repo, "", args...)
		confined(t, strings.Join(args, " "), stdout+stderr, opened)
		if code == ExitOK {
			t.Errorf("%s: exit 0 for a checkout behind a link", strings.Join(args, " "))
		}
	}
	_, stdout, stderr := run(t, repo, hookEvent(repo, "PostToolUse", "Write", filepath.Join(repo, "co-orch", "ORCHESTRATION.yaml")), "hook")
	confined(t, "hook on a file behind the link", stdout+stderr, opened)

	c := startServer(t, repo)
	uri := fileURI(filepath.Join(repo, "co-orch", "ORCHESTRATION.yaml"))
	confined(t, "server on a file behind the link", openAndWait(c, uri, "yaml", "workflow: {id: x}\n"), opened)
}
