//go:build unix

package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/resumelint/resumelint/internal/cli"
)

// Hostile repositories, filesystem side (docs/security.md): a pull request
// must not make resumelint read or write outside the repository, hang on
// a special file, or tell whether a path outside the repository exists.
// Each test is named after the attack; each run has a deadline.

// secret is what an attacker wants printed: it lives outside the
// repository, next to it.
const secret = "ghp_SECRETSECRETSECRETSECRETSECRET0123"

// hostileRepo makes a repository folder and, next to it, an outside
// folder holding a secret file. Both lie in one temporary folder.
func hostileRepo(t *testing.T) (repo, outside string) {
	t.Helper()
	top := t.TempDir()
	repo, outside = filepath.Join(top, "repo"), filepath.Join(top, "outside")
	for _, d := range []string{repo, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(t, outside, "token", secret+"\n")
	return repo, outside
}

// runIn runs the CLI in dir with a deadline and returns the exit code and
// everything it printed (stdout and stderr).
func runIn(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	c := &cli.Command{Stdout: &stdout, Stderr: &stderr, Cwd: dir, Getenv: func(string) string { return "" }}
	done := make(chan int, 1)
	go func() { done <- c.Main(args) }()
	select {
	case code := <-done:
		return code, stdout.String() + stderr.String()
	case <-time.After(10 * time.Second):
		t.Fatalf("resumelint %s did not finish within 10s", strings.Join(args, " "))
	}
	return 0, ""
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func noSecret(t *testing.T, out string) {
	t.Helper()
	if strings.Contains(out, "SECRETSECRET") {
		t.Errorf("the secret outside the repository was printed:\n%s", out)
	}
}

// orchestrationNaming is a workflow whose one compaction event names
// checkpoint (and files_to_read names read).
func orchestrationNaming(checkpoint, read string) string {
	return `workflow:
  id: "wf-1"
  status: "ACTIVE"
resumption:
  recovery_state:
    last_checkpoint: "CP-001"
    current_phase: 1
    current_phase_name: "One"
    workflow_status: "ACTIVE"
    current_activity: "work"
    next_step: "go on"
    context_fill_at_update: 0.4
    updated_at: "2026-02-16T19:31:00Z"
  files_to_read:
    - "` + read + `"
  decision_log: []
  agent_summaries: {}
  compaction_events:
    count: 1
    events:
      - id: "CX-001"
        timestamp: "2026-02-16T15:45:00Z"
        trigger: "auto"
        estimated_fill_before: 0.886
        checkpoint_file: "` + checkpoint + `"
        acknowledged: true
`
}

func TestConfigLinkedToATokenFileOutside(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, repo, "ORCHESTRATION.yaml", "workflow: {}\n")
	symlink(t, filepath.Join(outside, "token"), filepath.Join(repo, ".resumelint.yaml"))
	for _, format := range []string{"text", "json", "github", "sarif"} {
		code, out := runIn(t, repo, "lint", "--format", format)
		if code != 2 {
			t.Errorf("--format %s: exit %d, want 2 (a configuration that cannot be read)\n%s", format, code, out)
		}
		noSecret(t, out)
		if !strings.Contains(out, "outside the repository") {
			t.Errorf("--format %s: the message does not say why the configuration was not read:\n%s", format, out)
		}
	}
}

func TestConfigHoldingATokenIsNotQuoted(t *testing.T) {
	repo, _ := hostileRepo(t)
	write(t, repo, "ORCHESTRATION.yaml", "workflow: {}\n")
	write(t, repo, ".resumelint.yaml", secret+"\n")
	code, out := runIn(t, repo, "lint")
	if code != 2 {
		t.Errorf("exit %d, want 2\n%s", code, out)
	}
	noSecret(t, out)
}

func TestStateFileLinkedOutside(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, outside, "precompact_state.json", `{"active_project_id": "`+secret+`"}`)
	symlink(t, filepath.Join(outside, "precompact_state.json"), filepath.Join(repo, "precompact_state.json"))
	symlink(t, "../../outside/token", filepath.Join(repo, "w", "ORCHESTRATION.yaml"))
	symlink(t, "/proc/self/environ", filepath.Join(repo, "v", "ORCHESTRATION.yaml"))
	code, out := runIn(t, repo, "lint", "--format", "json")
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, out)
	}
	noSecret(t, out)
	if n := strings.Count(out, "outside the repository"); n != 3 {
		t.Errorf("%d findings say the path leads outside the repository, want 3:\n%s", n, out)
	}
	if strings.Contains(out, "PATH=") || strings.Contains(out, "HOME=") {
		t.Errorf("the environment was printed:\n%s", out)
	}
}

// quotedRef is the quoted path after what names it in a JSON message line;
// messages clip long paths in the middle, so the path is matched, not
// replaced verbatim.
var quotedRef = regexp.MustCompile(`(checkpoint_file|files_to_read\[0\]) \\"[^\\]*\\"`)

func TestCheckpointFileNamingAnOutsidePath(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, outside, "cx.json", `{"schema_version": "1.0.0", "event_type": "compaction", "event_id": "cx-777", "timestamp": "2026-02-16T15:45:00Z"}`)
	cases := map[string]string{
		"absolute, exists":         filepath.Join(outside, "cx.json"),
		"absolute with .., exists": filepath.Join(repo, "..", "outside", "cx.json"),
		"relative .., exists":      "../outside/cx.json",
		"absolute, missing":        filepath.Join(outside, "nothing.json"),
		"relative .., missing":     "../outside/nothing.json",
		"inside, missing":          ".jerry/checkpoints/nothing.json",
	}
	symlink(t, filepath.Join(outside, "cx.json"), filepath.Join(repo, ".jerry", "checkpoints", "link.json"))
	cases["inside link to outside"] = ".jerry/checkpoints/link.json"
	msgs := map[string]string{}
	for name, ref := range cases {
		write(t, repo, "ORCHESTRATION.yaml", orchestrationNaming(ref, "README.md"))
		write(t, repo, "README.md", "# readme\n")
		code, out := runIn(t, repo, "lint", "--format", "json", "ORCHESTRATION.yaml")
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s", name, code, out)
		}
		if strings.Contains(out, "cx-777") {
			t.Errorf("%s: the outside checkpoint was read:\n%s", name, out)
		}
		msg := ""
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, `"message"`) && strings.Contains(line, "checkpoint_file") {
				msg = quotedRef.ReplaceAllString(line, `$1 \"REF\"`)
			}
		}
		if msg == "" {
			t.Errorf("%s: no finding about checkpoint_file:\n%s", name, out)
		}
		msgs[name] = msg
	}
	for name, msg := range msgs {
		if msg != msgs["inside, missing"] {
			t.Errorf("%s: the message differs from a missing file's inside the repository, so it tells what exists outside:\n%s\n%s", name, msg, msgs["inside, missing"])
		}
	}
}

func TestFilesToReadOutsideIsNotLookedAt(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, repo, ".jerry/checkpoints/cx-001.json", "{}")
	var msgs []string
	for _, ref := range []string{filepath.Join(outside, "token"), "../outside/token", filepath.Join(outside, "missing"), "missing.md"} {
		write(t, repo, "ORCHESTRATION.yaml", orchestrationNaming(".jerry/checkpoints/cx-001.json", ref))
		_, out := runIn(t, repo, "lint", "--format", "json", "--enable", "RL113", "ORCHESTRATION.yaml")
		msg := ""
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, `"message"`) && strings.Contains(line, "files_to_read") {
				msg = quotedRef.ReplaceAllString(line, `$1 \"REF\"`)
			}
		}
		msgs = append(msgs, msg)
	}
	for i, m := range msgs {
		if m == "" || m != msgs[len(msgs)-1] {
			t.Errorf("files_to_read case %d: message %q, want the one of a missing file inside: %q", i, m, msgs[len(msgs)-1])
		}
	}
}

func TestResumeContextTargetLinkedOutside(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, outside, "notes.md", "# notes\n"+secret+"\n")
	proj := "02-projects/01-demo/"
	write(t, repo, proj+"01-planning/resume-context.md", `---
resume_schema_version: "1.0"
project_id: "01-demo"
project_name: "Demo"
current_phase: "execution"
next_action: "continue"
files_to_load:
  - "01-planning/notes.md"
  - "01-planning/missing.md"
last_updated: "2026-02-16"
---
# Resume
`)
	symlink(t, filepath.Join(outside, "notes.md"), filepath.Join(repo, proj+"01-planning/notes.md"))
	_, out := runIn(t, repo, "lint", "--format", "json")
	noSecret(t, out)
	if n := strings.Count(out, "does not exist in the project folder"); n != 2 {
		t.Errorf("%d files_to_load entries do not exist, want 2 (a link leading outside names nothing):\n%s", n, out)
	}
}

func TestBaselineLinkedToDevZero(t *testing.T) {
	repo, _ := hostileRepo(t)
	write(t, repo, "ORCHESTRATION.yaml", "workflow: {}\n")
	symlink(t, "/dev/zero", filepath.Join(repo, "baseline.json"))
	code, out := runIn(t, repo, "lint", "--baseline", "baseline.json")
	if code != 2 {
		t.Errorf("exit %d, want 2\n%s", code, out)
	}
}

func TestBaselineIsAFIFO(t *testing.T) {
	repo, _ := hostileRepo(t)
	write(t, repo, "ORCHESTRATION.yaml", "workflow: {}\n")
	if err := syscall.Mkfifo(filepath.Join(repo, "baseline.json"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	code, out := runIn(t, repo, "lint", "--baseline", "baseline.json")
	if code != 2 || !strings.Contains(out, "FIFO") {
		t.Errorf("exit %d, want 2 naming the FIFO\n%s", code, out)
	}
}

func TestBaselineLinkedOutside(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, repo, "ORCHESTRATION.yaml", "workflow: {}\n")
	symlink(t, filepath.Join(outside, "token"), filepath.Join(repo, "baseline.json"))
	code, out := runIn(t, repo, "lint", "--baseline", "baseline.json")
	if code != 2 {
		t.Errorf("exit %d, want 2\n%s", code, out)
	}
	noSecret(t, out)
}

func TestConfigIsAFIFO(t *testing.T) {
	repo, _ := hostileRepo(t)
	write(t, repo, "ORCHESTRATION.yaml", "workflow: {}\n")
	if err := syscall.Mkfifo(filepath.Join(repo, ".resumelint.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	code, out := runIn(t, repo, "lint")
	if code != 2 || !strings.Contains(out, "FIFO") {
		t.Errorf("exit %d, want 2 naming the FIFO\n%s", code, out)
	}
}

func TestBundleArtifactLinkedOutside(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, outside, "STATUS.json", `{"status": "success", "cmp01": "pass"}`)
	write(t, repo, "b/TASK_SPEC.json", `{"task_id": "t"}`)
	write(t, repo, "b/OUTPUT_HASHES.json", `{"validator_semver": "1.0.0", "validator_build_id": "git:abc", "hashes": {}}`)
	symlink(t, filepath.Join(outside, "STATUS.json"), filepath.Join(repo, "b", "STATUS.json"))
	code, out := runIn(t, repo, "bundle", "verify", "b")
	if code == 0 || strings.Contains(out, "ACCEPT") {
		t.Errorf("exit %d: a bundle whose STATUS.json lies outside was accepted\n%s", code, out)
	}
}

// TestMaliciousGitConfigRunsNothing: a repository whose .git/config names
// programs for every hook git has (fsmonitor, clean/smudge/process filters,
// textconv, external diff, hooks, pager) must not make resumelint run any,
// neither in discovery (lint) nor when comparing with a base (lint --base).
func TestMaliciousGitConfigRunsNothing(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	top := t.TempDir()
	repo, marks := filepath.Join(top, "repo"), filepath.Join(top, "marks")
	if err := os.MkdirAll(marks, 0o755); err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(top, "evil.sh")
	// Each program leaves a marker named after its role, then passes its
	// input through so git would go on.
	if err := os.WriteFile(evil, []byte("#!/bin/sh\ntouch "+marks+"/\"$1\"\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	git := gitIn(t, repo)
	write(t, repo, "w/ORCHESTRATION.yaml", orchestrationNaming(".jerry/checkpoints/cx-001.json", "README.md"))
	write(t, repo, "README.md", "# readme\n")
	write(t, repo, ".gitattributes", "* filter=evil diff=evil\n")
	write(t, repo, ".agent-memory/runs/2026-02-20-001/events/a/0001.jsonl", `{"event": "task_started", "task_id": "T1", "timestamp": "2026-02-20T10:00:00Z"}`+"\n")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	// The attack: configuration added after the commit, as an extracted
	// archive would carry it.
	hooks := filepath.Join(repo, ".git", "evil-hooks")
	for _, h := range []string{"pre-commit", "post-checkout", "post-index-change", "fsmonitor-watchman", "reference-transaction"} {
		write(t, hooks, h, "#!/bin/sh\ntouch "+marks+"/hook-"+h+"\n")
		os.Chmod(filepath.Join(hooks, h), 0o755)
	}
	cfg := "\n[core]\n\tfsmonitor = " + evil + " fsmonitor\n\thooksPath = " + hooks + "\n\tpager = " + evil + " pager\n\tuntrackedCache = true\n" +
		"[filter \"evil\"]\n\tclean = " + evil + " clean\n\tsmudge = " + evil + " smudge\n\tprocess = " + evil + " process\n" +
		"[diff \"evil\"]\n\ttextconv = " + evil + " textconv\n\tcommand = " + evil + " diff-command\n" +
		"[diff]\n\texternal = " + evil + " external\n[pager]\n\tdiff = " + evil + " pager-diff\n"
	f, err := os.OpenFile(filepath.Join(repo, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(cfg)
	f.Close()
	// Work-tree changes that make git look at file contents: an edit of
	// the same size (stat differs, size does not), an appended event, a
	// new file, and a touched file.
	write(t, repo, "README.md", "# README\n")
	write(t, repo, ".agent-memory/runs/2026-02-20-001/events/a/0001.jsonl", `{"event": "task_started", "task_id": "T1", "timestamp": "2026-02-20T10:00:00Z"}`+"\n"+
		`{"event": "task_completed", "task_id": "T1", "timestamp": "2026-02-20T11:00:00Z"}`+"\n")
	write(t, repo, "v/ORCHESTRATION.yaml", "workflow: {}\n")
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(repo, "w", "ORCHESTRATION.yaml"), later, later)

	for _, args := range [][]string{
		{"lint"},
		{"lint", "--base", "HEAD"},
		{"lint", "--base", "HEAD", "--changed-only"},
		{"lint", "--base", "HEAD", "--format", "sarif", "w"},
		{"fix", "--diff", "--base", "HEAD"},
	} {
		code, out := runIn(t, repo, args...)
		if code > 2 {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
		ents, _ := os.ReadDir(marks)
		for _, e := range ents {
			t.Errorf("%v ran the repository's %s program", args, e.Name())
			os.Remove(filepath.Join(marks, e.Name()))
		}
	}
}

// validBundle writes a bundle folder rel under dir whose outputs are
// files (name → content), all hashed correctly.
func validBundle(t *testing.T, dir, rel string, files map[string]string) {
	t.Helper()
	var hashes []string
	for name, content := range files {
		write(t, dir, rel+"/"+name, content)
		hashes = append(hashes, fmt.Sprintf("%q: \"sha256:%x\"", name, sha256.Sum256([]byte(content))))
	}
	sort.Strings(hashes)
	write(t, dir, rel+"/TASK_SPEC.json", `{"task_id": "t-1"}`)
	write(t, dir, rel+"/STATUS.json", `{"status": "success", "cmp01": "pass"}`)
	write(t, dir, rel+"/OUTPUT_HASHES.json", `{"validator_semver": "1.0.0", "validator_build_id": "git:abc1234", "hashes": {`+strings.Join(hashes, ", ")+`}}`)
}

func TestBundleVerifyJobsIsCapped(t *testing.T) {
	repo, _ := hostileRepo(t)
	files := map[string]string{}
	for i := 0; i < 400; i++ {
		files[fmt.Sprintf("out/%03d.txt", i)] = fmt.Sprintf("output %d\n", i)
	}
	validBundle(t, repo, "b", files)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code, out := runIn(t, repo, "bundle", "verify", "--jobs", "1000000000", "b")
	runtime.ReadMemStats(&after)
	if code != 0 || !strings.Contains(out, "ACCEPT") {
		t.Fatalf("exit %d, want 0 and ACCEPT\n%s", code, out)
	}
	// One megabyte buffer per worker: 400 workers would allocate 400 MiB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 128<<20 {
		t.Errorf("allocated %d MiB: --jobs is not capped", alloc>>20)
	}
}

func TestForbiddenScanDoesNotEnterALinkedFolder(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, outside, "private/debug-session.log", "x\n")
	write(t, outside, "private/transcript-of-someone-else.md", "x\n")
	validBundle(t, repo, "b", map[string]string{"out/a.txt": "a\n"})
	symlink(t, filepath.Join(outside, "private"), filepath.Join(repo, "b", "more"))
	symlink(t, "../../outside/private", filepath.Join(repo, "b", "out", "deeper"))
	code, out := runIn(t, repo, "bundle", "verify", "b")
	if code != 0 {
		t.Errorf("exit %d, want 0\n%s", code, out)
	}
	if strings.Contains(out, "debug-session") || strings.Contains(out, "someone-else") {
		t.Errorf("names from a folder outside the bundle were printed:\n%s", out)
	}
}

// legacyResume is a _resume.md whose only finding is RL313 (a warning
// with a safe rename fix).
const legacyResume = `---
resume_schema_version: "1.0"
last_updated: "2026-06-20T16:35:00Z"
project_id: "07-demo"
project_name: "Demo"
current_phase: execution
next_action: execute-project
files_to_load: []
current_section: 2
current_task: 4
progress: "3/9 tasks complete"
---

# Resume
`

// decisionsAlias is a workflow whose only finding is RL103 (a warning
// with a safe fix).
func decisionsAlias(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/clean/ORCHESTRATION.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(b, []byte("  decision_log:"), []byte("  decisions:"), 1)
	if bytes.Equal(edited, b) {
		t.Fatal("examples/clean/ORCHESTRATION.yaml has no decision_log to rename")
	}
	return string(edited)
}

func TestFixDoesNotWriteThroughASymlink(t *testing.T) {
	repo, outside := hostileRepo(t)
	content := decisionsAlias(t)
	target := write(t, outside, "ORCHESTRATION.yaml", content)
	symlink(t, target, filepath.Join(repo, "w", "ORCHESTRATION.yaml"))
	// The same link inside the repository is refused too: a fix would
	// replace the link, or write a file somewhere else than named.
	inside := write(t, repo, "real/ORCHESTRATION.yaml", content)
	symlink(t, "../real/ORCHESTRATION.yaml", filepath.Join(repo, "v", "ORCHESTRATION.yaml"))
	code, out := runIn(t, repo, "fix", "v/ORCHESTRATION.yaml", "w/ORCHESTRATION.yaml")
	if code == 0 {
		t.Errorf("exit 0 though a fix was not written\n%s", out)
	}
	if b, _ := os.ReadFile(target); string(b) != content {
		t.Errorf("fix rewrote a file outside the repository through a symbolic link")
	}
	if b, _ := os.ReadFile(inside); string(b) != content {
		t.Errorf("fix wrote through a symbolic link inside the repository")
	}
	if !strings.Contains(out, "symbolic link") {
		t.Errorf("the output does not say why the fix was not written:\n%s", out)
	}
	if fi, err := os.Lstat(filepath.Join(repo, "v", "ORCHESTRATION.yaml")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
}

// A link inside the repository to a workflow in it: fix never writes the
// link, so lint does not count its fix, fix --diff shows none, and fix
// fixes the file it points to and says the link is clean once that is.
func TestFixOfALinkIsNotOffered(t *testing.T) {
	repo, _ := hostileRepo(t)
	content := decisionsAlias(t)
	real := write(t, repo, "ORCHESTRATION.yaml", content)
	for _, rel := range []string{"ORCHESTRATION_PLAN.md", "WORKTRACKER.md", ".jerry/checkpoints/cx-001-checkpoint.json"} {
		b, err := os.ReadFile(filepath.Join("../../examples/clean", rel))
		if err != nil {
			t.Fatal(err)
		}
		write(t, repo, rel, string(b))
	}
	symlink(t, "../ORCHESTRATION.yaml", filepath.Join(repo, "v", "ORCHESTRATION.yaml"))
	if code, out := runIn(t, repo, "lint", "v/ORCHESTRATION.yaml"); code != 0 || strings.Contains(out, "fixable") {
		t.Errorf("lint of the link: exit %d, want 0 and no fixable count\n%s", code, out)
	}
	code, out := runIn(t, repo, "fix", "--diff", "v/ORCHESTRATION.yaml")
	if code != 0 || strings.Contains(out, "+++") || !strings.Contains(out, "symbolic link") {
		t.Errorf("fix --diff of the link: exit %d, want 0, no diff and why\n%s", code, out)
	}
	code, out = runIn(t, repo, "fix", ".")
	if code != 0 || !strings.Contains(out, "No problems found in 3 files") {
		t.Errorf("fix .: exit %d, want 0 and both files clean\n%s", code, out)
	}
	if b, _ := os.ReadFile(real); string(b) == content {
		t.Errorf("the file the link points to was not fixed")
	}
	if fi, err := os.Lstat(filepath.Join(repo, "v", "ORCHESTRATION.yaml")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
}

func TestFixRenameDoesNotMoveAnOutsideFileIn(t *testing.T) {
	repo, outside := hostileRepo(t)
	target := write(t, outside, "_resume.md", legacyResume)
	write(t, repo, "02-projects/07-demo/01-planning/overview.md", "# Demo\n")
	symlink(t, target, filepath.Join(repo, "02-projects/07-demo/01-planning/_resume.md"))
	code, out := runIn(t, repo, "fix")
	if code == 0 {
		t.Errorf("exit 0 though the rename was not done\n%s", out)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != legacyResume {
		t.Errorf("the file outside the repository was moved or changed: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(repo, "02-projects/07-demo/01-planning/resume-context.md")); err == nil {
		t.Errorf("a file from outside was moved into the repository")
	}
}

func TestFixWriteFailureExitsNonZero(t *testing.T) {
	repo, _ := hostileRepo(t)
	// A name of 240 bytes is valid, but the temporary file beside it
	// (".NAME.resumelint-XXXXXXXXXXXX") is longer than a file name may
	// be: the write fails, for root too.
	name := "ORCHESTRATION_" + strings.Repeat("x", 240-len("ORCHESTRATION_.yaml")) + ".yaml"
	write(t, repo, "w/"+name, decisionsAlias(t))
	// Only a warning remains, so only the failed write can fail the run.
	code, out := runIn(t, repo, "fix", "w")
	if code == 0 {
		t.Errorf("exit 0 though the fix could not be written\n%s", out)
	}
	if !strings.Contains(out, "not written") {
		t.Errorf("the finding does not say the fix was not applied:\n%s", out)
	}
}

func TestFolderNamedHTTPSGivesARelativeSARIFURI(t *testing.T) {
	repo, _ := hostileRepo(t)
	write(t, repo, "https:/evil.example/ORCHESTRATION.yaml", "workflow: {}\nresumption: {}\n")
	_, out := runIn(t, repo, "lint", "--format", "sarif")
	if !strings.Contains(out, `"uri": "./https:/evil.example/ORCHESTRATION.yaml"`) {
		t.Errorf("the SARIF location is not the relative ./https:/… reference:\n%s", out)
	}
	if strings.Contains(out, `"uri": "https:`) {
		t.Errorf("a repository path became an absolute https URI:\n%s", out)
	}
}

// TestStatusSwappedForALinkDuringVerify: another process swaps the
// bundle's STATUS.json (which says failure) for a link to an outside
// STATUS.json (which says success) while bundle verify runs. The verdict
// must never be ACCEPT: an artifact is opened once, relative to the
// bundle folder's descriptor, and a link leading out of it is not read.
func TestStatusSwappedForALinkDuringVerify(t *testing.T) {
	repo, outside := hostileRepo(t)
	validBundle(t, repo, "b", map[string]string{"out/a.txt": "a\n"})
	b := filepath.Join(repo, "b")
	write(t, outside, "STATUS.json", `{"status": "success", "cmp01": "pass"}`)
	write(t, b, ".real", `{"status": "failure", "cmp01": "pass"}`)
	if err := os.Rename(filepath.Join(b, ".real"), filepath.Join(b, "STATUS.json")); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			tmp := filepath.Join(b, ".swap")
			if i%2 == 0 {
				os.Symlink(filepath.Join(outside, "STATUS.json"), tmp)
			} else {
				os.WriteFile(tmp, []byte(`{"status": "failure", "cmp01": "pass"}`), 0o644)
			}
			os.Rename(tmp, filepath.Join(b, "STATUS.json"))
		}
	}()
	accepted := 0
	deadline := time.Now().Add(5 * time.Second)
	runs := 0
	for ; runs < 2000 && time.Now().Before(deadline); runs++ {
		_, out := runIn(t, repo, "bundle", "verify", "b")
		if strings.Contains(out, "ACCEPT") {
			accepted++
		}
	}
	close(stop)
	<-done
	if accepted > 0 {
		t.Errorf("%d of %d runs accepted the bundle through an outside STATUS.json", accepted, runs)
	}
}

// TestFolderSwappedForALinkDuringForbiddenScan: a subfolder of the bundle
// is swapped, while bundle verify runs, for a link to an outside folder
// holding names the forbidden-artifact scan would print. They never are.
func TestFolderSwappedForALinkDuringForbiddenScan(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, outside, "private/debug-secret-name.log", "x\n")
	validBundle(t, repo, "b", map[string]string{"out/a.txt": "a\n"})
	b := filepath.Join(repo, "b")
	write(t, b, "sub/plain.txt", "x\n")
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		real, parked := filepath.Join(b, "sub"), filepath.Join(b, ".parked")
		for {
			select {
			case <-stop:
				os.Remove(real)
				os.Rename(parked, real)
				return
			default:
			}
			os.Rename(real, parked)
			os.Symlink(filepath.Join(outside, "private"), real)
			os.Remove(real)
			os.Rename(parked, real)
		}
	}()
	leaked, runs := 0, 0
	for deadline := time.Now().Add(4 * time.Second); runs < 1500 && time.Now().Before(deadline); runs++ {
		if _, out := runIn(t, repo, "bundle", "verify", "b"); strings.Contains(out, "debug-secret-name") {
			leaked++
		}
	}
	close(stop)
	<-done
	if leaked > 0 {
		t.Errorf("%d of %d runs printed names from a folder outside the bundle", leaked, runs)
	}
}

// TestNamedFolderLinkedOutsideIsNotWalked: a folder the workflow names
// (resumelint .agent-memory) that the pull request turned into a link to
// a folder outside is answered like a missing one, and no name from
// outside is printed.
func TestNamedFolderLinkedOutsideIsNotWalked(t *testing.T) {
	repo, outside := hostileRepo(t)
	write(t, outside, "home/secret-project/ORCHESTRATION.yaml", "workflow: {}\n")
	write(t, repo, "ORCHESTRATION.yaml", "workflow: {}\n")
	symlink(t, filepath.Join(outside, "home"), filepath.Join(repo, "state"))
	for _, arg := range []string{"state", "state/**/ORCHESTRATION.yaml"} {
		code, out := runIn(t, repo, "lint", arg)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2 (nothing of the repository to check)\n%s", arg, code, out)
		}
		if strings.Contains(out, "secret-project") {
			t.Errorf("%s: a name from outside the repository was printed:\n%s", arg, out)
		}
	}
}

// TestLinkToAnotherCheckoutIsNoRoot: a committed link to a folder outside
// that is itself a git checkout (a sibling clone, the superproject of a
// submodule) does not make that checkout the run's repository: named on
// the command line, the link leads outside and nothing behind it is read,
// reported or fixed.
func TestLinkToAnotherCheckoutIsNoRoot(t *testing.T) {
	repo, outside := hostileRepo(t)
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "testdata", "golden", "fix_rl112_count.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(outside, "victim")
	for _, f := range ar.Files {
		if f.Name == "ORCHESTRATION.yaml" {
			write(t, victim, f.Name, string(f.Data))
		}
	}
	gitIn(t, victim)("init", "-q")
	gitIn(t, repo)("init", "-q")
	symlink(t, victim, filepath.Join(repo, "link"))
	gitIn(t, repo)("add", "-A")
	gitIn(t, repo)("commit", "-qm", "x")
	before, err := os.ReadFile(filepath.Join(victim, "ORCHESTRATION.yaml"))
	if err != nil || !bytes.Contains(before, []byte("count: 0")) {
		t.Fatalf("fixture: %v\n%s", err, before)
	}
	for _, args := range [][]string{{"lint", "link"}, {"lint", "link/ORCHESTRATION.yaml"}, {"fix", "link"}, {"fix", "link/ORCHESTRATION.yaml"}, {"status", "link"}} {
		code, out := runIn(t, repo, args...)
		if code == 0 || strings.Contains(out, "RL112") || strings.Contains(out, "applied RL") {
			t.Errorf("%v: exit %d; the checkout behind the link was read:\n%s", args, code, out)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(victim, "ORCHESTRATION.yaml")); !bytes.Equal(after, before) {
		t.Errorf("fix wrote through the link into the other checkout:\n%s", after)
	}
}

// TestBundleKeysNamingNoFile: a hashes key that names a folder (a trailing
// slash) or holds a lone surrogate names no regular file of the bundle, so
// the bundle is rejected, whatever digest it declares.
func TestBundleKeysNamingNoFile(t *testing.T) {
	for name, key := range map[string]string{"trailing slash": `out/`, "lone surrogate": `out/\ud800.txt`} {
		repo, _ := hostileRepo(t)
		write(t, repo, "b/out/a.txt", "hi\n")
		sum := sha256.Sum256([]byte("hi\n"))
		digest := fmt.Sprintf("sha256:%x", sum)
		write(t, repo, "b/TASK_SPEC.json", `{"task_id": "t", "inputs": [], "expected_outputs": ["out/a.txt"], "constraints": {}, "created_at": "2026-01-01T00:00:00Z"}`)
		write(t, repo, "b/STATUS.json", `{"status": "success", "cmp01": "pass", "completed_at": "2026-01-01T00:00:00Z", "error": null}`)
		write(t, repo, "b/OUTPUT_HASHES.json", `{"validator_semver": "1.0.0", "validator_build_id": "ci", "generated_at": "2026-01-01T00:00:00Z", "hashes": {"out/a.txt": "`+digest+`", "`+key+`": "`+digest+`"}}`)
		code, out := runIn(t, repo, "bundle", "verify", "b")
		if code != 1 || !strings.Contains(out, "REJECT") {
			t.Errorf("%s: exit %d, want 1 and REJECT\n%s", name, code, out)
		}
	}
}

// TestBundleKeyWithALoneSurrogateIsInvalid: a hashes key holding a lone
// surrogate escape has no UTF-8 form; read as U+FFFD it would name, and
// verify, another file (out/\ufffd.txt, present with the declared
// digest). It is PATH_INVALID for bundle verify and RL405 for lint.
func TestBundleKeyWithALoneSurrogateIsInvalid(t *testing.T) {
	repo, _ := hostileRepo(t)
	write(t, repo, "b/out/\ufffd.txt", "hi\n")
	sum := sha256.Sum256([]byte("hi\n"))
	digest := fmt.Sprintf("sha256:%x", sum)
	write(t, repo, "b/TASK_SPEC.json", `{"task_id": "t", "inputs": [], "expected_outputs": [], "constraints": {}, "created_at": "2026-01-01T00:00:00Z"}`)
	write(t, repo, "b/STATUS.json", `{"status": "success", "cmp01": "pass", "completed_at": "2026-01-01T00:00:00Z", "error": null}`)
	write(t, repo, "b/OUTPUT_HASHES.json", `{"validator_semver": "1.0.0", "validator_build_id": "ci", "generated_at": "2026-01-01T00:00:00Z", "hashes": {"out/\ud800.txt": "`+digest+`"}}`)
	code, out := runIn(t, repo, "bundle", "verify", "b")
	if code != 1 || !strings.Contains(out, "REJECT b: PATH_INVALID") {
		t.Errorf("bundle verify: exit %d, want 1 and REJECT with PATH_INVALID\n%s", code, out)
	}
	code, out = runIn(t, repo, "lint", "b")
	if code != 1 || !strings.Contains(out, "RL405") || !strings.Contains(out, "not valid UTF-8") {
		t.Errorf("lint: exit %d, want 1 and RL405 naming the key\n%s", code, out)
	}
}

// TestDeepBundleFolder: a bundle 1,200 folders deep with 400 outputs costs
// each key its own depth, not the folder's (resolving every key from the
// filesystem root took seconds per hundred keys).
func TestDeepBundleFolder(t *testing.T) {
	repo, _ := hostileRepo(t)
	deep := strings.TrimSuffix(strings.Repeat("a/", 1200), "/")
	b := filepath.Join(repo, filepath.FromSlash(deep), "b")
	if err := os.MkdirAll(filepath.Join(b, "out"), 0o755); err != nil {
		t.Skipf("cannot make a folder that deep here: %v", err)
	}
	sum := sha256.Sum256([]byte("x"))
	var keys []string
	for i := 0; i < 400; i++ {
		name := fmt.Sprintf("out/f%03d.txt", i)
		if err := os.WriteFile(filepath.Join(b, filepath.FromSlash(name)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, fmt.Sprintf("%q: \"sha256:%x\"", name, sum))
	}
	write(t, b, "TASK_SPEC.json", `{"task_id": "t", "inputs": [], "expected_outputs": ["out/f000.txt"], "constraints": {}, "created_at": "2026-01-01T00:00:00Z"}`)
	write(t, b, "STATUS.json", `{"status": "success", "cmp01": "pass", "completed_at": "2026-01-01T00:00:00Z", "error": null}`)
	write(t, b, "OUTPUT_HASHES.json", `{"validator_semver": "1.0.0", "validator_build_id": "ci", "generated_at": "2026-01-01T00:00:00Z", "hashes": {`+strings.Join(keys, ", ")+`}}`)
	r := runBounded(t, repo, "lint", ".")
	if r.code != 0 {
		t.Errorf("exit %d, want 0 for a valid bundle\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// status reads workflows and projects inside the repository only: an
// ORCHESTRATION.yaml or a project folder linked to one outside is not
// reported, whether found by the search or named.
func TestStatusWorkflowLinkedOutside(t *testing.T) {
	repo, outside := hostileRepo(t)
	wf := "workflow:\n  id: \"%s\"\n  status: \"ACTIVE\"\nresumption:\n  recovery_state:\n    workflow_status: \"ACTIVE\"\n    next_step: \"go on\"\n    updated_at: \"2026-02-20T21:00:00Z\"\n"
	write(t, outside, "ORCHESTRATION.yaml", fmt.Sprintf(wf, "leaked-20260101-001"))
	write(t, outside, "p/01-planning/resume-context.md", "---\nproject_id: \"leaked-project\"\ncurrent_phase: execution\n---\n")
	write(t, repo, "ORCHESTRATION.yaml", fmt.Sprintf(wf, "inside-20260220-001"))
	symlink(t, filepath.Join(outside, "ORCHESTRATION.yaml"), filepath.Join(repo, "w", "ORCHESTRATION.yaml"))
	symlink(t, filepath.Join(outside, "p"), filepath.Join(repo, "02-projects", "01-linked"))
	for i, args := range [][]string{{"status"}, {"status", "--format", "json"}, {"status", "--format", "mermaid"},
		{"status", "w/ORCHESTRATION.yaml"}, {"status", "02-projects/01-linked"}} {
		_, out := runIn(t, repo, args...)
		if strings.Contains(out, "leaked-") {
			t.Errorf("%v reported a file outside the repository:\n%s", args, out)
		}
		if i < 3 && !strings.Contains(out, "inside-20260220-001") {
			t.Errorf("%v did not report the workflow inside:\n%s", args, out)
		}
	}
}

// gitIn runs git in repo with a fixed identity and no user or system
// configuration, failing the test on an error.
func gitIn(t *testing.T, repo string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestBundleOutputLinkedThroughAnOutsideFolder: an output that is a link
// passing through a folder outside the repository and back into it
// (/elsewhere/.ssh/../../repo/b/out/real) is PATH_INVALID whether that
// folder exists or not: the answer must not tell what exists outside,
// and nothing outside is looked up. Both in bundle verify and lint.
func TestBundleOutputLinkedThroughAnOutsideFolder(t *testing.T) {
	outputs := func(t *testing.T, through string) map[string]string {
		top := t.TempDir()
		repo, outside := filepath.Join(top, "repo"), filepath.Join(top, "outside")
		if err := os.MkdirAll(filepath.Join(outside, "exists"), 0o755); err != nil {
			t.Fatal(err)
		}
		validBundle(t, repo, "b", map[string]string{"out/real.txt": "real\n"})
		sum := sha256.Sum256([]byte("real\n"))
		digest := fmt.Sprintf("sha256:%x", sum)
		write(t, repo, "b/OUTPUT_HASHES.json", `{"validator_semver": "1.0.0", "validator_build_id": "git:abc1234", "hashes": {"out/abs.txt": "`+digest+`", "out/rel.txt": "`+digest+`", "out/real.txt": "`+digest+`"}}`)
		// Joined by hand: filepath.Join would clean the ".." away.
		symlink(t, outside+"/"+through+"/../../repo/b/out/real.txt", filepath.Join(repo, "b", "out", "abs.txt"))
		symlink(t, "../../../outside/"+through+"/../../repo/b/out/real.txt", filepath.Join(repo, "b", "out", "rel.txt"))
		got := map[string]string{}
		for _, args := range [][]string{{"bundle", "verify", "b"}, {"bundle", "verify", "--format", "json", "b"}, {"lint", "b"}} {
			code, out := runIn(t, repo, args...)
			got[strings.Join(args, " ")] = fmt.Sprintf("exit %d\n%s", code, strings.ReplaceAll(out, top, "TOP"))
		}
		return got
	}
	exists, missing := outputs(t, "exists"), outputs(t, "missing")
	for args, out := range exists {
		if out != missing[args] {
			t.Errorf("%s answers differently when the folder outside exists:\n%s\nand when it does not:\n%s", args, out, missing[args])
		}
		if strings.Contains(args, "verify") && (!strings.Contains(out, "exit 1") || !strings.Contains(out, "PATH_INVALID")) {
			t.Errorf("%s: want exit 1 and PATH_INVALID\n%s", args, out)
		}
		if args == "lint b" && (!strings.Contains(out, "RL405") || strings.Count(out, "symbolic link to a place outside") != 2) {
			t.Errorf("%s: want RL405 for both links\n%s", args, out)
		}
	}
}

// TestRenameIntoAFolderLinkedOutside: RL313's rename of a _resume.md into
// 01-planning/, a link leading out of the repository, is not a fix: lint
// does not count it fixable, fix --diff does not show it and fix does not
// try it, with one message whether the folder outside exists, holds a
// resume-context.md or not (nothing outside is looked up).
func TestRenameIntoAFolderLinkedOutside(t *testing.T) {
	answers := func(t *testing.T, outsideHas string) map[string]string {
		top := t.TempDir()
		repo, outside := filepath.Join(top, "repo"), filepath.Join(top, "outside")
		write(t, repo, "02-projects/07-demo/_resume.md", legacyResume)
		switch outsideHas {
		case "folder":
			if err := os.MkdirAll(filepath.Join(outside, "planning"), 0o755); err != nil {
				t.Fatal(err)
			}
		case "file":
			write(t, outside, "planning/resume-context.md", "# someone else's\n")
		}
		symlink(t, filepath.Join(outside, "planning"), filepath.Join(repo, "02-projects/07-demo/01-planning"))
		got := map[string]string{}
		for _, args := range [][]string{{"lint"}, {"lint", "--format", "json"}, {"fix", "--diff"}, {"fix"}} {
			code, out := runIn(t, repo, args...)
			got[strings.Join(args, " ")] = fmt.Sprintf("exit %d\n%s", code, strings.ReplaceAll(out, top, "TOP"))
		}
		if _, err := os.Lstat(filepath.Join(repo, "02-projects/07-demo/_resume.md")); err != nil {
			t.Errorf("the file was renamed: %v", err)
		}
		return got
	}
	missing := answers(t, "")
	for _, has := range []string{"folder", "file"} {
		for args, out := range answers(t, has) {
			if out != missing[args] {
				t.Errorf("%s answers differently when the folder outside holds a %s:\n%s\nand when there is none:\n%s", args, has, out, missing[args])
			}
		}
	}
	for args, out := range missing {
		if strings.Contains(out, "fixable") && !strings.Contains(out, `"fixable": 0`) || strings.Contains(out, "rename to") && !strings.Contains(out, "skipped") {
			t.Errorf("%s offers the rename:\n%s", args, out)
		}
		if !strings.HasPrefix(out, "exit 0") {
			t.Errorf("%s: want exit 0 (a warning left, nothing failed)\n%s", args, out)
		}
	}
	if !strings.Contains(missing["fix"], "the folder 02-projects/07-demo/01-planning leads outside the repository") {
		t.Errorf("fix does not say why the rename is not done:\n%s", missing["fix"])
	}
}
