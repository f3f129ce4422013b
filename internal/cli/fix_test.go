package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const v1Section = `workflow:
  id: "demo-20260301-001"
  status: "ACTIVE"
resumption:
  last_checkpoint: null
  current_state: "Waiting for the data dump."
  next_step: "Load the dump"
`

// v2Template is the repository's own template writing v2.0: the evidence
// that makes a v1.0 section legacy (RL101, SPEC §0).
const v2Template = `workflow:
  id: "{WORKFLOW_ID}"
  status: "ACTIVE"
resumption:
  recovery_state:
    last_checkpoint: null
    workflow_status: "ACTIVE"
    updated_at: "{UPDATED_TIMESTAMP}"
`

// writeV2Template puts v2Template where jerry keeps its template.
func writeV2Template(t *testing.T, dir string) {
	t.Helper()
	p := filepath.Join(dir, "skills", "orchestration", "templates", "ORCHESTRATION.template.yaml")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(v2Template), 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	c := &Command{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Cwd: dir,
		Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}}
	code = c.Main(args)
	return code, out.String(), errb.String()
}

// Fixes of stdin input can be shown (--diff) but not written.
func TestFixStdin(t *testing.T) {
	dir := t.TempDir()
	writeV2Template(t, dir)
	code, _, stderr := run(t, dir, v1Section, "fix", "--stdin-filename", "ORCHESTRATION.yaml", "-")
	if code != ExitUsage || !strings.Contains(stderr, "cannot write a file read from stdin") {
		t.Errorf("--fix of stdin: exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := run(t, dir, v1Section, "lint", "--diff", "--unsafe-fixes", "--stdin-filename", "ORCHESTRATION.yaml", "-")
	if code != ExitFindings || !strings.Contains(stdout, "+  recovery_state:\n") || !strings.HasPrefix(stdout, "--- a/ORCHESTRATION.yaml\n+++ b/ORCHESTRATION.yaml\n") {
		t.Errorf("--diff of stdin: exit %d, stdout:\n%s", code, stdout)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 { // skills/
		t.Errorf("--diff of stdin wrote %v", entries)
	}
}

// --fix writes through a temporary file and keeps the mode; --diff on a
// clean file prints nothing and exits 0.
func TestFixWrites(t *testing.T) {
	dir := t.TempDir()
	writeV2Template(t, dir)
	p := filepath.Join(dir, "ORCHESTRATION.yaml")
	if err := os.WriteFile(p, []byte(v1Section), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run(t, dir, "", "fix", "--unsafe-fixes", "--format", "json", "ORCHESTRATION.yaml")
	if code != ExitFindings || !strings.HasPrefix(stdout, "{") || !strings.Contains(stderr, "1 fix applied in 1 file.") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after the fix: %v %v", fi, err)
	}
	got, _ := os.ReadFile(p)
	if !bytes.Contains(got, []byte("  # current_state (v1.0): Waiting for the data dump.\n  recovery_state:\n")) {
		t.Errorf("not migrated:\n%s", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 { // the file and skills/
		t.Errorf("files left behind: %v", entries)
	}
	code, stdout, stderr = run(t, dir, "", "fix", "--diff", "ORCHESTRATION.yaml")
	if code != ExitOK || stdout != "" || !strings.Contains(stderr, "0 fixes") {
		t.Errorf("--diff after the fix: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// fix --diff of a file with CRLF line endings keeps each line's CR raw, so
// the diff applies to the file (git apply) and gives what fix writes.
func TestFixDiffCRLFApplies(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	writeV2Template(t, dir)
	crlf := strings.ReplaceAll(v1Section, "\n", "\r\n")
	p := filepath.Join(dir, "ORCHESTRATION.yaml")
	if err := os.WriteFile(p, []byte(crlf), 0o644); err != nil {
		t.Fatal(err)
	}
	code, diff, stderr := run(t, dir, "", "fix", "--diff", "--unsafe-fixes", "ORCHESTRATION.yaml")
	if code != ExitFindings || !strings.Contains(diff, "+  recovery_state:\r\n") || strings.Contains(diff, `\r`+"\n") {
		t.Fatalf("--diff: exit %d, stderr %q, diff:\n%q", code, stderr, diff)
	}
	if err := os.WriteFile(filepath.Join(dir, "fix.diff"), []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	apply := exec.Command("git", "apply", "--unsafe-paths", "--directory=.", "fix.diff")
	apply.Dir = dir
	if out, err := apply.CombinedOutput(); err != nil {
		t.Fatalf("git apply: %v\n%s", err, out)
	}
	applied, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(crlf), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run(t, dir, "", "fix", "--unsafe-fixes", "ORCHESTRATION.yaml"); code != ExitFindings && code != ExitOK {
		t.Fatalf("fix: exit %d, %s", code, stderr)
	}
	fixed, _ := os.ReadFile(p)
	if !bytes.Equal(applied, fixed) {
		t.Errorf("the diff applied gives\n%q\nfix writes\n%q", applied, fixed)
	}
}

// writeFile writes text at p, making its folders.
func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
