package schema

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func parse(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	return n.Content[0]
}

const validV2 = `recovery_state:
  last_checkpoint: "CP-002"
  current_phase: 3
  current_phase_name: "Source File Headers"
  workflow_status: "ACTIVE"
  current_activity: "phase-3-agent-execution"
  next_step: "Execute header-applicator"
  context_fill_at_update: 0.642
  updated_at: 2026-02-17T12:34:56Z
files_to_read:
  - "ORCHESTRATION_PLAN.md"
  - path: "ORCHESTRATION.yaml"
    priority: 1
quality_trajectory:
  gates_completed: ["qg-1"]
  gates_remaining: ["qg-2"]
  current_gate: null
  current_gate_iteration: null
  score_history:
    qg-1: [0.825, 0.941]
  lowest_dimension: null
  total_iterations_used: 2
defect_summary:
  total_defects_found: 1
  total_defects_resolved: 1
  unresolved_defects: []
  recurring_patterns: []
  last_gate_primary_defect: null
decision_log: []
agent_summaries: {}
compaction_events:
  count: 1
  events:
    - id: "CX-001"
      timestamp: "2026-02-17T11:45:00Z"
      trigger: "auto"
      estimated_fill_before: 0.886
      active_phase: 2
      active_gate: "qg-2"
      active_gate_iteration: 1
      checkpoint_file: ".jerry/checkpoints/cx-001-checkpoint.json"
      acknowledged: true
`

func TestValidateMessages(t *testing.T) {
	tests := []struct {
		name, edit, want string
		line, col        int
	}{
		{"valid", "", "", 0, 0},
		{"enum", `workflow_status: "ACTIVE"=>workflow_status: "COMPLETED"`, `resumption.recovery_state.workflow_status: "COMPLETED" is not one of ACTIVE, PAUSED, COMPLETE, FAILED, CANCELLED`, 5, 20},
		{"deep enum", `trigger: "auto"=>trigger: scheduled`, `resumption.compaction_events.events[0].trigger: "scheduled" is not one of auto, manual`, 36, 16},
		{"missing", "  updated_at: 2026-02-17T12:34:56Z\n=>", `resumption.recovery_state: missing required key updated_at`, 1, 1},
		{"unknown", "decision_log: []=>decision_log: []\nnotes: x", `unknown key "notes" in resumption`, 30, 1},
		{"range", "0.642=>1.642", `resumption.recovery_state.context_fill_at_update: 1.642 is out of range (must be <=1)`, 8, 27},
		{"type", "current_phase: 3=>current_phase: \"three\"", `resumption.recovery_state.current_phase: expected an integer, found a string "three"`, 3, 18},
		// A value or key from the file is clipped in a message, however
		// long it was written.
		{"long value", `workflow_status: "ACTIVE"=>workflow_status: "` + strings.Repeat("ACTIVE-", 400) + `"`,
			`resumption.recovery_state.workflow_status: "ACTIVE-ACTIVE-ACTIVE-ACTIVE-A…E-ACTIVE-ACTIVE-ACTIVE-ACTIVE-" is not one of ACTIVE, PAUSED, COMPLETE, FAILED, CANCELLED`, 5, 20},
		{"long number", "total_iterations_used: 2=>total_iterations_used: 1." + strings.Repeat("5", 3000),
			`resumption.quality_trajectory.total_iterations_used: expected an integer, found a number 1.555555555555555555555555555…555555555555555555555555555555`, 22, 26},
		{"long key", "agent_summaries: {}=>agent_summaries:\n  " + strings.Repeat("k", 1000) + ": 5",
			`resumption.agent_summaries.kkkkkkkkkkkkkkkkkkkkkkkkkkkkk…kkkkkkkkkkkkkkkkkkkkkkkkkkkkkk: expected a string, found an integer 5 (write it in quotes: "5")`, 31, 1005},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := validV2
			if tc.edit != "" {
				a, b, _ := strings.Cut(tc.edit, "=>")
				if !strings.Contains(src, a) {
					t.Fatalf("edit %q does not apply", a)
				}
				src = strings.Replace(src, a, b, 1)
			}
			vs, err := Validate("#ResumptionV2", parse(t, src), Options{Prefix: "resumption"})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				for _, v := range vs {
					t.Errorf("unexpected: %s", v.Message)
				}
				return
			}
			if len(vs) != 1 {
				for _, v := range vs {
					t.Logf("got: %d:%d %s", v.Node.Line, v.Node.Column, v.Message)
				}
				t.Fatalf("want 1 violation, got %d", len(vs))
			}
			v := vs[0]
			n := v.Node
			if v.Key != nil {
				n = v.Key
			}
			if v.Message != tc.want || n.Line != tc.line || n.Column != tc.col {
				t.Errorf("got %d:%d %q\nwant %d:%d %q", n.Line, n.Column, v.Message, tc.line, tc.col, tc.want)
			}
		})
	}
}

// CUE reports a struct's missing keys only when nothing else failed; the
// validator must still find them next to other errors.
func TestValidateFindsMaskedErrors(t *testing.T) {
	src := strings.Replace(validV2, `gates_completed: ["qg-1"]`, `gates_completed: [{id: qg-1}]`, 1)
	src = strings.Replace(src, "  updated_at: 2026-02-17T12:34:56Z\n", "", 1)
	src = strings.Replace(src, "  unresolved_defects: []\n", "  unresolved_defects: []\n  open_defects: 0\n", 1)
	vs, err := Validate("#ResumptionV2", parse(t, src), Options{Prefix: "resumption"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Message)
	}
	want := []string{
		"resumption.recovery_state: missing required key updated_at",
		"resumption.quality_trajectory.gates_completed[0]: expected a string, found a mapping",
		`unknown key "open_defects" in resumption.defect_summary`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func parseB(b *testing.B, src string) *yaml.Node {
	b.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		b.Fatal(err)
	}
	return n.Content[0]
}
