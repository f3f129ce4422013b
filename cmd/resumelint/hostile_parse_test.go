package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/schema"
	"github.com/resumelint/resumelint/test/golden"
)

// Hostile inputs against the parsing and output side: YAML semantics
// (aliases, merge keys) resolved before the schema, validation bounded in
// the number of violations, secrets masked in every output, and output
// that file content cannot forge. Each test runs the whole CLI in process
// with a deadline and a bound on what it allocates.

// validOrchestration is a clean ORCHESTRATION.yaml (with ORCHESTRATION_PLAN.md
// beside it); tests replace a part of it.
const validOrchestration = `schema_version: "2.0.0"

workflow:
  id: "docs-migration-20260218-001"
  name: "Docs site migration"
  status: "ACTIVE"
  created_at: "2026-02-18T09:00:00Z"
  updated_at: "2026-02-20T21:00:00Z"

pipelines:
  pipeline_ps:
    short_alias: "ps"
    current_phase: 2
    phases:
      - id: 1
        name: "Inventory"
        status: "COMPLETE"
        started_at: "2026-02-18T09:30:00Z"
        completed_at: "2026-02-19T17:00:00Z"
        agents:
          - id: "ps-researcher-001"
            status: "COMPLETE"
      - id: 2
        name: "Content Migration"
        status: "IN_PROGRESS"
        started_at: "2026-02-19T18:30:00Z"
        agents:
          - id: "ps-writer-001"
            status: "IN_PROGRESS"

checkpoints:
  latest_id: "CP-001"
  entries:
    - id: "CP-001"
      timestamp: "2026-02-19T18:00:00Z"
      trigger: "Phase 1 complete"

resumption:
  recovery_state:
    last_checkpoint: "CP-001"
    current_phase: 2
    current_phase_name: "Content Migration"
    workflow_status: "ACTIVE"
    current_activity: "phase-2-agent-execution"
    next_step: "Run ps-writer-001 on the remaining 14 pages"
    context_fill_at_update: 0.42
    updated_at: "2026-02-20T21:00:00Z"
    cross_session_portable: true
    ephemeral_references: false

  files_to_read:
    - path: "ORCHESTRATION_PLAN.md"
      priority: 1
      purpose: "Strategic context: agents, phases, gate criteria."
      sections: ["phase-2"]
    - path: "ORCHESTRATION.yaml"
      priority: 2
      purpose: "This file. Read the resumption section first."

  quality_trajectory:
    gates_completed: ["qg-1"]
    gates_remaining: ["qg-2", "qg-final"]
    current_gate: null
    current_gate_iteration: null
    score_history:
      qg-1: [0.82, 0.93]
    lowest_dimension: "evidence_quality"
    total_iterations_used: 2
    total_iterations_budget: 9

  defect_summary:
    total_defects_found: 3
    total_defects_resolved: 3
    unresolved_defects: []
    recurring_patterns:
      - pattern: "Broken relative links after the move"
        gates_affected: ["qg-1"]
        resolution: "Link checker added to the migration script"
    last_gate_primary_defect: null

  decision_log:
    - id: "RD-001"
      timestamp: "2026-02-19T17:30:00Z"
      gate: "qg-1"
      iteration: 2
      decision: "Keep the old URL scheme behind redirects"
      rationale: "External sites link to the old pages."
      affects_phases: [2]
      applied: true

  agent_summaries:
    ps-researcher-001: "PASS. 42 pages inventoried, 6 orphans flagged."

  compaction_events:
    count: 0
    events: []
`

type bounded struct {
	code           int
	stdout, stderr string
}

// runBounded runs resumelint with args in dir, within 10 s and 512 MiB of
// allocation.
func runBounded(t *testing.T, dir string, args ...string) bounded {
	t.Helper()
	start := time.Now()
	code, stdout, stderr, alloc := runMeasured(t, dir, args)
	if alloc > 512<<20 {
		t.Errorf("resumelint %v allocated %d MiB, over 512 MiB", args, alloc>>20)
	}
	t.Logf("resumelint %v: exit %d in %v", args, code, time.Since(start).Round(time.Millisecond))
	return bounded{code, stdout, stderr}
}

// lintJSON lints dir's files given as args and returns the findings.
func lintJSON(t *testing.T, dir string, args ...string) (int, []map[string]any) {
	t.Helper()
	r := runBounded(t, dir, append([]string{"lint", "--format", "json"}, args...)...)
	var out struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("exit %d, output is not JSON: %v\n%s\nstderr: %s", r.code, err, r.stdout, r.stderr)
	}
	return r.code, out.Findings
}

func findingsWith(fs []map[string]any, code, substr string) []map[string]any {
	var out []map[string]any
	for _, f := range fs {
		if f["code"] == code && strings.Contains(fmt.Sprint(f["message"]), substr) {
			out = append(out, f)
		}
	}
	return out
}

func withOrchestration(t *testing.T, dir, content string) string {
	t.Helper()
	write(t, dir, "ORCHESTRATION_PLAN.md", "# Plan\n")
	return write(t, dir, "ORCHESTRATION.yaml", content)
}

// replaceSection swaps the text from `from` up to (not including) `to`.
func replaceSection(t *testing.T, doc, from, to, with string) string {
	t.Helper()
	i := strings.Index(doc, from)
	j := strings.Index(doc, to)
	if i < 0 || j < i {
		t.Fatalf("no %q…%q in the document", from, to)
	}
	return doc[:i] + with + doc[j:]
}

func TestValidOrchestrationIsClean(t *testing.T) {
	dir := t.TempDir()
	p := withOrchestration(t, dir, validOrchestration)
	if code, fs := lintJSON(t, dir, p); code != 0 || len(fs) != 0 {
		t.Fatalf("exit %d, findings %v", code, fs)
	}
}

// --- YAML semantics resolved before the schema ---

func TestHostileAliasCycle(t *testing.T) {
	for name, tc := range map[string]struct{ file, content string }{
		"state file":   {"ORCHESTRATION.yaml", "resumption: &r\n  x: *r\n"},
		"in a list":    {"ORCHESTRATION.yaml", "resumption:\n  files_to_read: &l\n    - *l\n"},
		"front matter": {"resume-context.md", "---\nresume_schema_version: \"1.0\"\nproject_id: &r\n  x: [*r]\n---\n# body\n"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := write(t, dir, tc.file, tc.content)
			code, fs := lintJSON(t, dir, p)
			got := findingsWith(fs, "RL003", "alias")
			if code != 1 || len(got) != 1 || got[0]["line"] == nil || got[0]["line"].(float64) < 2 {
				t.Fatalf("exit %d, want 1 and one RL003 alias finding with a position; got %v", code, fs)
			}
		})
	}
	t.Run("configuration", func(t *testing.T) {
		dir := t.TempDir()
		withOrchestration(t, dir, validOrchestration)
		write(t, dir, ".resumelint.yaml", "rules: &r\n  x: *r\n")
		r := runBounded(t, dir, "lint")
		if r.code != 2 || !strings.Contains(r.stderr, ".resumelint.yaml:2:") || !strings.Contains(r.stderr, "alias") {
			t.Fatalf("exit %d, want 2 and the alias named at its line; stderr: %s", r.code, r.stderr)
		}
	})
}

func TestHostileMergeKeyHidesErrors(t *testing.T) {
	cases := map[string]struct {
		with    string // replaces the recovery_state section, or the whole resumption
		code    string
		message string
	}{
		"resumption holding only a merge":     {"resumption:\n  <<: {a: 1}\n", "RL102", "missing required keys agent_summaries"},
		"recovery_state holding only a merge": {"  recovery_state:\n    <<: {a: 1}\n\n", "RL102", "missing required keys current_activity"},
		"a list of merges":                    {"  recovery_state:\n    <<: [{a: 1}]\n\n", "RL102", "missing required keys current_activity"},
		"a merge of a scalar":                 {"  recovery_state:\n    <<: 1\n\n", "RL001", "merge key"},
		"a merged wrong value":                {"  recovery_state:\n    <<: {workflow_status: 3}\n    last_checkpoint: \"CP-001\"\n    current_phase: 2\n    current_phase_name: \"Content Migration\"\n    current_activity: \"x\"\n    next_step: \"x\"\n    updated_at: \"2026-02-20T21:00:00Z\"\n\n", "RL102", "workflow_status"},
		"an anchored merge":                   {"  recovery_state:\n    <<: *rs\n\n", "RL102", "missing required keys current_activity"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			doc := validOrchestration
			if strings.HasPrefix(tc.with, "resumption:") {
				doc = doc[:strings.Index(doc, "resumption:")] + tc.with
			} else {
				doc = replaceSection(t, doc, "  recovery_state:", "  files_to_read:", tc.with)
			}
			if strings.Contains(tc.with, "*rs") {
				doc = strings.Replace(doc, "workflow:\n", "anchors:\n  rs: &rs {a: 1}\nworkflow:\n", 1)
			}
			dir := t.TempDir()
			p := withOrchestration(t, dir, doc)
			code, fs := lintJSON(t, dir, p)
			if code != 1 || len(findingsWith(fs, tc.code, tc.message)) == 0 {
				t.Fatalf("exit %d, want 1 and a %s finding naming %q; got %v", code, tc.code, tc.message, fs)
			}
		})
	}
}

// --- Bounded validation ---

// entries returns n lines made by line(i).
func entries(n int, line func(i int) string) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.WriteString(line(i))
	}
	return sb.String()
}

func TestHostileManyViolations(t *testing.T) {
	cases := map[string]struct {
		edit    func(doc string) string
		code    string
		message string
	}{
		"100,000 unknown keys in one mapping": {func(doc string) string {
			return strings.Replace(doc, "  quality_trajectory:\n", "  quality_trajectory:\n"+entries(100000, func(i int) string { return fmt.Sprintf("    k%d: 1\n", i) }), 1)
		}, "RL010", "and 99996 more"},
		"100,000 unknown keys beside missing required ones": {func(doc string) string {
			return doc[:strings.Index(doc, "resumption:")] + "resumption:\n" + entries(100000, func(i int) string { return fmt.Sprintf("  k%d: 1\n", i) })
		}, "RL102", "missing required keys"},
		"100,000 wrong values in one mapping": {func(doc string) string {
			return strings.Replace(doc, "    score_history:\n", "    score_history:\n"+entries(100000, func(i int) string { return fmt.Sprintf("      q%d: \"x\"\n", i) }), 1)
		}, "RL102", "more places break the schema"},
		"30,000 wrong list items": {func(doc string) string {
			return strings.Replace(doc, "  decision_log:\n", "  decision_log:\n"+entries(30000, func(i int) string { return fmt.Sprintf("    - {id: \"X%d\", decision: 1, rationale: 2}\n", i) }), 1)
		}, "RL102", "more places break the schema"},
		"20,000 list items with an unknown key each": {func(doc string) string {
			return strings.Replace(doc, "  decision_log:\n", "  decision_log:\n"+entries(20000, func(i int) string {
				return fmt.Sprintf("    - {id: \"RD-%03d\", decision: a, rationale: b, z%d: 1}\n", i+1, i)
			}), 1)
		}, "RL010", "unknown key"},
		"200 levels of nesting, each wrong": {func(doc string) string {
			return strings.Replace(doc, "    score_history:\n", "    score_history:\n      deep: "+strings.Repeat("{a: [", 100)+strings.Repeat("]}", 100)+"\n", 1)
		}, "RL102", "score_history.deep"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := withOrchestration(t, dir, tc.edit(validOrchestration))
			code, fs := lintJSON(t, dir, "--fail-on", "warning", p)
			if code != 1 || len(findingsWith(fs, tc.code, tc.message)) == 0 {
				if len(fs) > 5 {
					fs = fs[:5]
				}
				t.Fatalf("exit %d, want 1 and a %s finding naming %q; got %v", code, tc.code, tc.message, fs)
			}
			n := 0
			for _, f := range fs {
				if f["code"] == "RL102" {
					n++
				}
			}
			if n > schemaMaxProblems+1 {
				t.Errorf("%d schema findings, want at most %d and one saying how many more", n, schemaMaxProblems)
			}
		})
	}
}

const schemaMaxProblems = schema.MaxProblems

// --- Secrets masked everywhere ---

// secretFragments are pieces of the credentials below that no output may hold.
var secretFragments = []string{"R8x2LmQ4", "MIIEpAIBAAKCAQEA", "bodylineTWO", "TAILSECRET", "zz9Yq"}

func secretRepo(t *testing.T) string {
	dir := t.TempDir()
	doc := strings.Replace(validOrchestration,
		`ps-researcher-001: "PASS. 42 pages inventoried, 6 orphans flagged."`,
		"ps-researcher-001: |\n      -----BEGIN RSA PRIVATE KEY-----\n      MIIEpAIBAAKCAQEAxyzABCDEFGH\n      bodylineTWOqwertyuiopasdfgh\n      -----END RSA PRIVATE KEY-----\n"+
			`    ps-writer-001: "-----BEGIN PRIVATE KEY-----\nMIIEpAIBAAKCAQEAzz9Yq\n-----END PRIVATE KEY-----"`, 1)
	// A token where an enum belongs: the schema finding quotes the value.
	doc = strings.Replace(doc, `workflow_status: "ACTIVE"`, `workflow_status: "ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i"`, 1)
	withOrchestration(t, dir, doc)
	// JSON escapes: \/ inside a bearer token, \u005f inside a GitHub token.
	write(t, dir, ".jerry/checkpoints/cx-001.json", `{"checkpoint_id": "cx-001", "context_state": {"fill_percentage": "Bearer abcdefghij\/klmnopqrstuvTAILSECRET", "tier": "ghp\u005fR8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i"}, "created_at": "2026-01-01T00:00:00Z"}`+"\n")
	return dir
}

func noSecretIn(t *testing.T, what, out string) {
	t.Helper()
	for _, s := range secretFragments {
		if strings.Contains(out, s) {
			t.Errorf("%s prints %q:\n%s", what, s, out)
		}
	}
}

func TestHostileSecretPrintedDespiteRL005(t *testing.T) {
	dir := secretRepo(t)
	for _, format := range []string{"text", "json", "github", "sarif"} {
		r := runBounded(t, dir, "lint", "--format", format, ".")
		if r.code != 1 || strings.Count(r.stdout, "RL005") < 4 {
			t.Errorf("%s: exit %d, want 1 and RL005 findings for every secret:\n%s", format, r.code, r.stdout)
		}
		noSecretIn(t, format+" output", r.stdout+r.stderr)
	}
	r := runBounded(t, dir, "lint", "--write-baseline", "baseline.json", ".")
	b, err := os.ReadFile(filepath.Join(dir, "baseline.json"))
	if err != nil {
		t.Fatalf("exit %d, no baseline: %v\n%s", r.code, err, r.stderr)
	}
	noSecretIn(t, "the baseline", string(b))
}

func TestHostileSecretInFixDiff(t *testing.T) {
	dir := t.TempDir()
	doc := strings.Replace(validOrchestration, "  decision_log:", "  decisions:", 1)
	doc = strings.Replace(doc, `decision: "Keep the old URL scheme behind redirects"`, `decision: "Keep the scheme; pushed with ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i"`, 1)
	withOrchestration(t, dir, doc)
	// The rename moves the RL005 finding to another node path, which the
	// never-worse check counts as new: only --unsafe-fixes shows it.
	r := runBounded(t, dir, "fix", "--diff", "--unsafe-fixes", ".")
	if !strings.Contains(r.stdout, "+  decision_log:") {
		t.Fatalf("exit %d, no rename in the diff:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	noSecretIn(t, "fix --diff", r.stdout+r.stderr)
}

// A token split over two lines of a double-quoted scalar matches no
// pattern on either line; fix --diff masks it from the parsed value, as
// lint does.
func TestHostileSplitSecretInFixDiff(t *testing.T) {
	dir := t.TempDir()
	doc := strings.Replace(validOrchestration, "  decision_log:", "  decisions:", 1)
	doc = strings.Replace(doc, "    last_gate_primary_defect: null", "    last_gate_primary_defect: \"ghp_Zr8Qk2Lw9Vx4Nb\\\n      7Tp1Hs6Dy3Fg0Jm5CaQ1W2\"", 1)
	withOrchestration(t, dir, doc)
	r := runBounded(t, dir, "fix", "--diff", "--unsafe-fixes", ".")
	if !strings.Contains(r.stdout, "+  decision_log:") || !strings.Contains(r.stdout, "last_gate_primary_defect") {
		t.Fatalf("exit %d, no rename next to the token in the diff:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, piece := range []string{"Zr8Qk2Lw", "9Vx4Nb", "Hs6Dy3Fg", "CaQ1W2"} {
		if strings.Contains(r.stdout+r.stderr, piece) {
			t.Errorf("fix --diff prints %q:\n%s", piece, r.stdout)
		}
	}
}

func TestHostileLineSeparatorsShiftMasks(t *testing.T) {
	dir := t.TempDir()
	doc := strings.Replace(validOrchestration, `next_step: "Run ps-writer-001 on the remaining 14 pages"`, "next_step: \"Run\u2028ps\u0085writer\r001\"", 1)
	doc = strings.Replace(doc, `ps-researcher-001: "PASS. 42 pages inventoried, 6 orphans flagged."`, `ps-researcher-001: "PASS. pushed with ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i"`, 1)
	p := withOrchestration(t, dir, doc)
	want := strings.Count(doc[:strings.Index(doc, "ghp_")], "\n") + 1
	code, fs := lintJSON(t, dir, p)
	got := findingsWith(fs, "RL005", "")
	if code != 1 || len(got) != 1 || int(got[0]["line"].(float64)) != want {
		t.Fatalf("exit %d, want one RL005 at line %d; got %v", code, want, fs)
	}
	r := runBounded(t, dir, "lint", p)
	noSecretIn(t, "text output", r.stdout)
}

// --- Output that cannot be forged ---

func TestHostileTerminalAndWorkflowCommandInjection(t *testing.T) {
	dir := t.TempDir()
	evil := "\x1b[2J\x1b[31m\r\n::error file=x::forged\u2028\u202e"
	doc := strings.Replace(validOrchestration, `workflow_status: "ACTIVE"`, `workflow_status: "`+strings.NewReplacer("\x1b", `\e`, "\r", `\r`, "\n", `\n`).Replace(evil)+`"`, 1)
	withOrchestration(t, dir, doc)
	sub := "w\x1b[31m\rx"
	write(t, dir, sub+"/ORCHESTRATION.yaml", strings.Replace(validOrchestration, `workflow_status: "ACTIVE"`, "workflow_status: \"ACT\x1b]0;title\x07\"", 1))
	write(t, dir, sub+"/ORCHESTRATION_PLAN.md", "# Plan\n")
	r := runBounded(t, dir, "lint", ".")
	if r.code != 1 || !strings.Contains(r.stdout, `\x1b[2J`) {
		t.Fatalf("exit %d, want 1 and the value shown escaped:\n%q", r.code, r.stdout)
	}
	for _, bad := range []string{"\x1b", "\r", "\u2028", "\u202e", "\x07"} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("text output holds %q raw:\n%q", bad, r.stdout)
		}
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "::") {
			t.Errorf("text output starts a line with a workflow command: %q", line)
		}
	}
	g := runBounded(t, dir, "lint", "--format", "github", ".")
	for _, line := range strings.Split(strings.TrimSuffix(g.stdout, "\n"), "\n") {
		if !strings.HasPrefix(line, "::error ") && !strings.HasPrefix(line, "::warning ") && !strings.HasPrefix(line, "::notice ") {
			t.Errorf("github output line that is not one command: %q", line)
		}
		if strings.ContainsAny(line, "\r\x1b") {
			t.Errorf("github output holds a raw control character: %q", line)
		}
	}
}

// TestHostileSecretInStatus: a credential pasted into a task title of an
// agent run is masked in every format of `status`, as lint masks it.
func TestHostileSecretInStatus(t *testing.T) {
	ar, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", "status_json.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	n := 0
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, ".agent-memory/") {
			continue
		}
		data := string(f.Data)
		if strings.Contains(data, `"Map the session store"`) {
			data = strings.Replace(data, `"Map the session store"`, `"Map the store with ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i"`, 1)
			n++
		}
		write(t, dir, f.Name, data)
	}
	if n == 0 {
		t.Fatal("the task title to plant the token in is gone from status_json.txtar")
	}
	for _, format := range []string{"text", "json", "mermaid"} {
		r := runBounded(t, dir, "status", "--format", format)
		if !strings.Contains(r.stdout, "Map the store") {
			t.Errorf("%s: the task title is not in the output:\n%s", format, r.stdout)
		}
		noSecretIn(t, "status --format "+format, r.stdout+r.stderr)
	}
}
