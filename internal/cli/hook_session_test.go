package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// jerryShapedRepo writes a repository shaped like a busy orchestration
// repository: finished workflows under projects/PROJ-NNN-…/orchestration/
// (half of them with next actions still listed, which lint reports as a
// contradiction), active workflows with a v2.0 resumption section whose
// long next step and files to read fill a report, and files to read that
// resolve nowhere (one finding each).
func jerryShapedRepo(t *testing.T, finished, active, missingPerActive int) (dir string, finishedIDs, activeIDs []string) {
	dir = t.TempDir()
	files := map[string]string{".git/HEAD": "ref: refs/heads/main\n"}
	for i := range finished {
		id := fmt.Sprintf("feat%03d-impl-202602%02d-001", 100+i, 10+i%18)
		finishedIDs = append(finishedIDs, id)
		path := fmt.Sprintf("projects/PROJ-%03d-quality-enforcement-research/orchestration/%s/ORCHESTRATION.yaml", 1+i%9, id)
		files[path] = finishedWorkflowYAML(id, path, i%2 == 0)
	}
	for i := range active {
		id := fmt.Sprintf("epic%03d-crosspoll-20260223-%03d", 200+i, i+1)
		activeIDs = append(activeIDs, id)
		path := fmt.Sprintf("projects/PROJ-%03d-context-resilience/work/EPIC-%03d-quality-implementation/orchestration/%s/ORCHESTRATION.yaml", 10+i, 3+i, id)
		files[path] = activeWorkflow(id, i, missingPerActive)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, finishedIDs, activeIDs
}

func finishedWorkflowYAML(id, path string, pending bool) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, `workflow:
  id: "%s"
  name: "Quality enforcement research: adversarial strategies and enforcement vectors"
  project_id: "PROJ-004"
  status: "COMPLETE"
  created_at: "2026-02-12T09:00:00Z"
  updated_at: "2026-02-20T18:00:00Z"
pipelines:
  ps:
    short_alias: "ps"
    phases:
      - {id: 1, name: "Research", status: "COMPLETE"}
      - {id: 2, name: "Synthesis", status: "COMPLETE"}
resumption:
  recovery_state:
    last_checkpoint: "WORKFLOW_COMPLETE"
    current_phase: 2
    current_phase_name: "Phase 2 - Synthesis (COMPLETE)"
    workflow_status: "COMPLETE"
    current_activity: "COMPLETE"
    next_step: "Workflow complete. All deliverables accepted at the final gate."
  files_to_read:
    - path: "%s"
      priority: 1
      purpose: "Pipeline state -- COMPLETE"
`, id, path)
	if pending {
		sb.WriteString(`next_actions:
  immediate:
    - action: "Execute Phase 3: ps-researcher-001 — gap analysis of docs/INSTALLATION.md"
      execution_mode: "SEQUENTIAL"
    - action: "Execute Phase 3: nse-requirements-001 — requirements definition"
      agents: ["nse-requirements-001"]
      execution_mode: "SEQUENTIAL"
`)
	}
	return sb.String()
}

func activeWorkflow(id string, i, missing int) string {
	var ftr strings.Builder
	for j := range missing {
		fmt.Fprintf(&ftr, "    - path: \"projects/PROJ-%03d-context-resilience/work/EN-%03d-enforcement-vector-research/deliverable-%02d.md\"\n      priority: %d\n      purpose: \"Enabler deliverable for the current phase\"\n", 10+i, 700+j, j, j+1)
	}
	return fmt.Sprintf(`workflow:
  id: "%s"
  name: "EPIC-003 quality implementation: cross-pollinated pipelines"
  project_id: "PROJ-%03d"
  status: "ACTIVE"
  created_at: "2026-02-22T00:00:00Z"
  updated_at: "2026-02-23T0%d:00:00Z"
pipelines:
  ps:
    phases:
      - {id: 1, name: "Research", status: "COMPLETE"}
      - {id: 2, name: "Implementation", status: "IN_PROGRESS"}
checkpoints:
  latest_id: "CP-003"
  entries:
    - {id: "CP-002", timestamp: "2026-02-22T12:00:00Z"}
    - {id: "CP-003", timestamp: "2026-02-22T20:00:00Z"}
resumption:
  recovery_state:
    last_checkpoint: "CP-003"
    current_phase: 2
    current_phase_name: "Implementation"
    workflow_status: "ACTIVE"
    current_activity: "phase-2-agent-execution"
    next_step: "Complete the v5 draft. Run all 10 adversarial strategies on it, then the composite scorer. If the score is at least 0.95, pass the gate and proceed to the next phase; below it, stop at the circuit breaker and ask for a decision: accept the current score and proceed, or escalate. Record the decision in the decision log before any agent runs."
    context_fill_at_update: 0.61
    updated_at: "2026-02-23T0%d:30:00Z"
    cross_session_portable: true
    ephemeral_references: false
  files_to_read:
%s  quality_trajectory:
    gates_completed: []
    gates_remaining: []
    current_gate: null
    current_gate_iteration: null
    score_history: {}
    lowest_dimension: null
    total_iterations_used: 0
  defect_summary:
    total_defects_found: 0
    total_defects_resolved: 0
    unresolved_defects: []
    recurring_patterns: []
    last_gate_primary_defect: null
  decision_log: []
  agent_summaries: {}
  compaction_events:
    count: 0
    events: []
`, id, 10+i, i+1, i+1, ftr.String())
}

// TestSessionStartFitsBudget: on a repository of a busy orchestration
// repository's shape (25 finished workflows, 3 active ones with v2.0
// resumption, more than 40 findings), the SessionStart report stays
// within what Claude Code shows in full, lists the findings first, names
// every active workflow, and names the finished ones in one line.
// It fails on a report that lists a block per workflow: that report is cut
// before its findings.
func TestSessionStartFitsBudget(t *testing.T) {
	dir, finishedIDs, activeIDs := jerryShapedRepo(t, 25, 3, 14)
	code, stdout, stderr := run(t, dir, hookEvent(dir, "SessionStart", "", ""), "hook")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var out struct {
		HookSpecificOutput struct{ AdditionalContext string }
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("stdout %q: %v", stdout, err)
	}
	text := out.HookSpecificOutput.AdditionalContext
	t.Logf("report: %d bytes", len(text))
	if len(text) > hookContextMax || len(text) > 10000 {
		t.Errorf("report of %d bytes: over the budget of %d (Claude Code shows 10,000 characters in full)", len(text), hookContextMax)
	}
	// 42 files to read resolving nowhere (errors), 13 finished workflows
	// with next actions naming a phase they do not record (warnings): errors
	// first.
	if !strings.HasPrefix(text, "resumelint: 55 findings in the state files (42 errors, 13 warnings); ") {
		t.Errorf("the report does not start with the findings' counts:\n%s", text)
	}
	if w, e := strings.Index(text, ": warning RL"), strings.LastIndex(text, ": error RL"); e < 0 || w >= 0 && w < e {
		t.Errorf("errors are not listed before warnings:\n%s", text)
	}
	if !strings.Contains(text, "… and ") || !strings.Contains(text, "more (resumelint lint lists them all)") {
		t.Errorf("the findings not listed are not counted:\n%s", text)
	}
	for _, id := range activeIDs {
		if !strings.Contains(text, "(workflow "+id+", ACTIVE)") {
			t.Errorf("active workflow %s not in the report:\n%s", id, text)
		}
	}
	if strings.Contains(text, "COMPLETE)\n") || strings.Count(text, "history, nothing to resume") != 1 {
		t.Errorf("finished workflows are not collapsed into one line:\n%s", text)
	}
	lines := strings.Split(text, "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "resumelint: 25 finished workflows (history, nothing to resume): ") {
		t.Errorf("last line %q: want the finished workflows", last)
	}
	for _, id := range finishedIDs {
		if !strings.Contains(last, id) {
			t.Errorf("finished workflow %s not named in %q", id, last)
		}
	}
	// The 13 with next actions still listed are the ones lint questions.
	if n := strings.Count(last, " (questioned by lint)"); n != 13 {
		t.Errorf("%d finished workflows marked as questioned by lint, want 13: %q", n, last)
	}
}

// TestSessionReportBudget: whatever the number of workflows and findings,
// the report fits the budget without the final cut, keeps the findings'
// counts, and names the active workflows whose heads fit, counting the
// rest.
func TestSessionReportBudget(t *testing.T) {
	long := strings.Repeat("a long next step that keeps going ", 15)
	block := func(i int) resumeBlock {
		return resumeBlock{head: []string{fmt.Sprintf("resumelint: resume state of projects/PROJ-%03d/ORCHESTRATION.yaml (workflow wf-%03d, ACTIVE)", i, i)},
			details: []string{"- Phase: 2 (Implementation)", "- Next step: " + long, "- Files to read: " + long}}
	}
	finding := diag.Finding{Code: "RL113", Name: "files-to-read", Severity: diag.SevError, Path: "projects/PROJ-001/ORCHESTRATION.yaml",
		Start: diag.Pos{Line: 3, Col: 7}, Message: "files_to_read[0] \"deliverable.md\" resolves nowhere: correct or remove it"}
	for _, tc := range []struct {
		name            string
		blocks, finds   int
		finished        int
		budget          int
		wantShown       int // active heads named; -1: all
		wantFindingLine bool
	}{
		{"small", 2, 3, 4, hookContextMax, -1, true},
		{"many findings", 3, 400, 30, hookContextMax, -1, true},
		{"many workflows", 200, 50, 500, hookContextMax, 0, true},
		{"tight", 5, 50, 50, 1500, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var blocks []resumeBlock
			for i := range tc.blocks {
				blocks = append(blocks, block(i))
			}
			fs := make([]diag.Finding, tc.finds)
			for i := range fs {
				fs[i] = finding
			}
			var fin []string
			for i := range tc.finished {
				fin = append(fin, fmt.Sprintf("feat%03d-impl-20260217-001", i))
			}
			text := sessionReport(fs, blocks, fin, tc.budget)
			if len(text) > tc.budget {
				t.Fatalf("%d bytes over a budget of %d", len(text), tc.budget)
			}
			if strings.HasSuffix(text, "…") && !strings.Contains(text[strings.LastIndex(text, "\n")+1:], "more") {
				t.Errorf("the report was cut by the guard, not fitted:\n%s", text)
			}
			if !strings.HasPrefix(text, fmt.Sprintf("resumelint: %s in the state files", plural(tc.finds, "finding", "findings"))) {
				t.Errorf("no findings' counts first:\n%s", text)
			}
			if got := strings.Contains(text, "error RL113"); got != tc.wantFindingLine {
				t.Errorf("a finding listed: %v, want %v", got, tc.wantFindingLine)
			}
			shown := strings.Count(text, ", ACTIVE)")
			if tc.wantShown < 0 && shown != tc.blocks {
				t.Errorf("%d of %d active workflows named", shown, tc.blocks)
			}
			if shown < tc.blocks && !strings.Contains(text, fmt.Sprintf("%d more active workflow", tc.blocks-shown)) {
				t.Errorf("%d active workflows neither named nor counted:\n%s", tc.blocks-shown, text)
			}
			if !strings.Contains(text, fmt.Sprintf("resumelint: %d finished workflows (history, nothing to resume): ", tc.finished)) {
				t.Errorf("no line for the finished workflows:\n%s", text)
			}
		})
	}
}

// The SessionStart report labels a workflow with the status lint's
// lifecycle and `status` read first, workflow.status: a resumption's
// workflow_status that says otherwise is RL106's finding, not the label.
func TestSessionStartLabelsWorkflowStatusFirst(t *testing.T) {
	dir := t.TempDir()
	const id = "epic200-crosspoll-20260223-001"
	text := strings.Replace(activeWorkflow(id, 0, 0), `workflow_status: "ACTIVE"`, `workflow_status: "COMPLETE"`, 1)
	p := filepath.Join(dir, "projects", "PROJ-010", "orchestration", id, "ORCHESTRATION.yaml")
	for name, data := range map[string]string{filepath.Join(dir, ".git", "HEAD"): "ref: refs/heads/main\n", p: text} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, stdout, _ := run(t, dir, hookEvent(dir, "SessionStart", "", ""), "hook")
	if !strings.Contains(stdout, "(workflow "+id+", ACTIVE)") {
		t.Errorf("the report does not label the workflow ACTIVE:\n%s", stdout)
	}
}

// A credential written inside a value the resume reports quote (a
// workflow's next step, an agent run task's title), which RL005 finds and
// no pattern does, is masked in the SessionStart report and in status
// (text and JSON) as in the findings.
func TestResumeReportsMaskWrittenCredentials(t *testing.T) {
	const secret = "Tq9vR2mXw8LpZ4sK7yH1nB6cF3dJ0gA5"
	dir := t.TempDir()
	files := map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"ORCHESTRATION.yaml": "workflow:\n  id: \"demo-20260220-001\"\n  status: \"ACTIVE\"\nresumption:\n  recovery_state:\n" +
			"    workflow_status: \"ACTIVE\"\n    next_step: \"Deploy with export DOCS_API_TOKEN=" + secret + " then publish\"\n",
		".agent-memory/runs/2026-06-18-auth/task-graph.json":                 `{"tasks": [{"id": "T1", "title": "Map the store"}, {"id": "T2", "title": "Rotate: export AUTH_API_TOKEN=` + secret + `", "depends_on": ["T1"]}]}` + "\n",
		".agent-memory/runs/2026-06-18-auth/plan.md":                         "# Plan\n",
		".agent-memory/runs/2026-06-18-auth/events/builder/2026-06-18.jsonl": `{"event": "task_completed", "task_id": "T1", "timestamp": "2026-06-18T10:00:00Z", "actor": "builder"}` + "\n",
	}
	for name, text := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), text)
	}
	outs := map[string]string{}
	_, outs["hook SessionStart"], _ = run(t, dir, hookEvent(dir, "SessionStart", "", ""), "hook")
	_, outs["status"], _ = run(t, dir, "", "status", "--now", "2026-06-18T12:00:00Z")
	_, outs["status --format json"], _ = run(t, dir, "", "status", "--now", "2026-06-18T12:00:00Z", "--format", "json")
	_, outs["status RUN"], _ = run(t, dir, "", "status", "--now", "2026-06-18T12:00:00Z", ".agent-memory/runs/2026-06-18-auth")
	for what, out := range outs {
		if !strings.Contains(out, "TOKEN=****") {
			t.Errorf("%s shows no masked credential:\n%s", what, out)
		}
		if strings.Contains(out, secret[:8]) || strings.Contains(out, secret[20:]) {
			t.Errorf("%s shows the credential:\n%s", what, out)
		}
	}
}
