package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/test/golden"
)

// Text from a file, a configuration or a path reaches fix, fix --diff,
// --verbose and configuration errors only masked and escaped: no control
// character, no line GitHub Actions would run as a workflow command, no
// credential.

// forgedOrchestration has an RL104 fix whose diff context holds a block
// scalar line that starts with a workflow command, and a token-shaped
// key.
const forgedOrchestration = `workflow:
  id: "demo-20260220-001"
  status: "ACTIVE"
pipelines:
  main:
    phases:
      - {id: 1, name: "Research", status: "IN_PROGRESS"}
checkpoints:
  latest_id: "CP-003"
  entries:
    - {id: "CP-002", timestamp: "2026-02-20T12:00:00Z"}
    - {id: "CP-003", timestamp: "2026-02-20T20:00:00Z"}
resumption:
  recovery_state:
    current_activity: |
      ::error file=ORCHESTRATION.yaml,line=1::forged
    last_checkpoint: "CP-002"
    ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i: "kept from the last session"
    current_phase: 1
    current_phase_name: "Research"
    workflow_status: "ACTIVE"
    next_step: "Run the researcher agent"
    context_fill_at_update: null
    updated_at: "2026-02-20T21:00:00Z"
  files_to_read: []
`

// forgedLines fails on raw control characters, a line that is a workflow
// command, and any part of the token.
func forgedLines(t *testing.T, what, out string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\x07", "\r", "R8x2LmQ4"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s holds %q:\n%q", what, bad, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			t.Errorf("%s has a line GitHub Actions runs as a command: %q", what, line)
		}
	}
}

func TestHostileFixOutputForged(t *testing.T) {
	dir := t.TempDir()
	withOrchestration(t, dir, forgedOrchestration)
	// A path with control characters, excluded by the default archive glob.
	write(t, dir, "notes\x1b[31m\x07/archive/ORCHESTRATION.yaml", forgedOrchestration)
	r := runBounded(t, dir, "fix", "--diff", "--verbose", ".")
	if !strings.Contains(r.stdout, `+    last_checkpoint: "CP-003"`) {
		t.Fatalf("exit %d, no RL104 fix in the diff:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	forgedLines(t, "fix --diff", r.stdout)
	forgedLines(t, "fix --diff --verbose (stderr)", r.stderr)
	r = runBounded(t, dir, "fix", "--verbose", "--unsafe-fixes", ".")
	forgedLines(t, "fix", r.stdout+r.stderr)
	r = runBounded(t, dir, "lint", "--verbose", ".")
	forgedLines(t, "lint --verbose", r.stdout+r.stderr)
	if !strings.Contains(r.stderr, `notes\x1b[31m\x07/archive`) {
		t.Errorf("--verbose does not name the excluded path, escaped:\n%s", r.stderr)
	}
}

func TestHostileConfigErrorForged(t *testing.T) {
	dir := t.TempDir()
	withOrchestration(t, dir, validOrchestration)
	write(t, dir, ".resumelint.yaml", "secrets:\n  allow: [\"\\e]0;pwned\\a(x\", \"::error file=x::forged(\", \"ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i(\", \"[\\n::error::RE\"]\n")
	r := runBounded(t, dir, "lint", ".")
	if r.code != 2 || !strings.Contains(r.stderr, "secrets.allow") {
		t.Fatalf("exit %d, want 2 and the invalid pattern named:\n%s", r.code, r.stderr)
	}
	forgedLines(t, "the configuration error", r.stdout+r.stderr)
	// One line per problem: the line break regexp echoes is escaped.
	if n := strings.Count(strings.TrimSuffix(r.stderr, "\n"), "\n") + 1; n != 4 || !strings.Contains(r.stderr, "missing closing ]: `[\\n::error::RE`\n") {
		t.Errorf("%d lines for 4 invalid patterns, want one each:\n%s", n, r.stderr)
	}
}

// TestHostileStatusMermaidControl: ESC and BEL in a task title reach no
// format of status raw, Mermaid's included.
func TestHostileStatusMermaidControl(t *testing.T) {
	ar, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", "status_json.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, ".agent-memory/") {
			write(t, dir, f.Name, strings.Replace(string(f.Data), `"Map the session store"`, `"Map the store\u001b]0;pwned\u0007\u001b[2J"`, 1))
		}
	}
	for _, format := range []string{"text", "json", "mermaid"} {
		r := runBounded(t, dir, "status", "--format", format)
		if !strings.Contains(r.stdout, "Map the store") {
			t.Errorf("%s: the task title is not in the output:\n%s", format, r.stdout)
		}
		forgedLines(t, "status --format "+format, r.stdout+r.stderr)
	}
}

// TestHostileBundleVerifyOutput: `bundle verify`, which prints without
// the lint engine, masks a token in an output name and escapes its
// control characters, in text and JSON.
func TestHostileBundleVerifyOutput(t *testing.T) {
	ar, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", "bundle_verify_output_missing.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "run/") {
			write(t, dir, f.Name, strings.Replace(string(f.Data), `"out/data.csv"`, `"out/\u001b]0;pwned\u0007 ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i.csv"`, 1))
		}
	}
	for _, format := range []string{"text", "json"} {
		r := runBounded(t, dir, "bundle", "verify", "--format", format, "run")
		if r.code != 1 || !strings.Contains(r.stdout, "OUTPUT_MISSING") {
			t.Fatalf("%s: exit %d, want 1 and OUTPUT_MISSING:\n%s%s", format, r.code, r.stdout, r.stderr)
		}
		forgedLines(t, "bundle verify --format "+format, r.stdout+r.stderr)
		if strings.Contains(r.stdout, `\u001b`) || strings.Contains(r.stdout, `\u0007`) {
			t.Errorf("bundle verify --format %s holds a control character for its reader to print:\n%s", format, r.stdout)
		}
	}
}
