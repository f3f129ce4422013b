package cli

import (
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cuejson "cuelang.org/go/encoding/json"
	"cuelang.org/go/encoding/jsonschema"
	cueyaml "cuelang.org/go/encoding/yaml"
)

// TestExportedSchemasValidate reads every exported JSON Schema back with a
// JSON Schema decoder and checks it accepts a valid document and rejects
// an invalid one, so editors validating with them agree with resumelint.
func TestExportedSchemasValidate(t *testing.T) {
	cases := map[string]struct{ good, bad string }{
		"orchestration": {
			good: `
workflow: {id: demo, anything: [1, 2]}
resumption:
  recovery_state:
    last_checkpoint: null
    current_phase: 1
    current_phase_name: Research
    workflow_status: ACTIVE
    current_activity: phase-1-agent-execution
    next_step: Run the researcher agent
    context_fill_at_update: null
    updated_at: "2026-02-20T21:00:00Z"
  files_to_read: []
  quality_trajectory: {gates_completed: [], gates_remaining: [qg-1], current_gate: null, current_gate_iteration: null, score_history: {}, lowest_dimension: null, total_iterations_used: 0}
  defect_summary: {total_defects_found: 0, total_defects_resolved: 0, unresolved_defects: [], recurring_patterns: [], last_gate_primary_defect: null}
  decision_log: []
  agent_summaries: {}
  compaction_events: {count: 0, events: []}
`,
			bad: "workflow: {id: demo}\n",
		},
		"config": {
			good: "rules: {RL107: warning, no-duplication: \"off\"}\nstaleness: {max_age: 3d}\nignore: [{path: \"fixtures/**\"}]\n",
			bad:  "rules: {RL107: loud}\n",
		},
		"checkpoint": {
			good: `{"checkpoint_id": "cx-001", "context_state": {"fill_percentage": 0.5, "tier": "LOW", "token_count": 100, "monitoring_ok": true, "context_window": 200, "context_window_source": "default"}, "resumption_state": null, "created_at": "2026-02-20T21:00:00+00:00"}`,
			bad:  `{"checkpoint_id": "cx-001"}`,
		},
		"event": {
			good: `{"event": "task_started", "task_id": "t1", "timestamp": "2026-02-20T21:00:00Z"}`,
			bad:  `{"event_type": "task-started", "task_id": 1, "timestamp": "2026-02-20T21:00:00Z"}`,
		},
		"precompact-state": {
			good: `{"active_project_id": "07-demo", "confidence": "high", "detection_method": "cache", "timestamp": "2026-02-20T21:00:00Z"}`,
			bad:  `{"active_project_id": "07-demo", "confidence": "certain", "detection_method": "cache", "timestamp": "2026-02-20T21:00:00Z"}`,
		},
	}
	ctx := cuecontext.New()
	for _, e := range schemaExports {
		data, err := exportSchema(e)
		if err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		expr, err := cuejson.Extract(e.name+".schema.json", data)
		if err != nil {
			t.Fatalf("%s: exported schema is not JSON: %v", e.name, err)
		}
		f, err := jsonschema.Extract(ctx.BuildExpr(expr), &jsonschema.Config{})
		if err != nil {
			t.Fatalf("%s: exported schema does not decode as JSON Schema: %v", e.name, err)
		}
		s := ctx.BuildFile(f)
		if s.Err() != nil {
			t.Fatalf("%s: %v", e.name, s.Err())
		}
		c, ok := cases[e.name]
		if !ok {
			continue
		}
		check := func(doc string) error {
			df, err := cueyaml.Extract(e.name, doc)
			if err != nil {
				t.Fatalf("%s: test document: %v", e.name, err)
			}
			return s.Unify(ctx.BuildFile(df)).Validate(cue.Concrete(true))
		}
		if err := check(c.good); err != nil {
			t.Errorf("%s: a valid document is rejected: %v", e.name, err)
		}
		if err := check(c.bad); err == nil {
			t.Errorf("%s: an invalid document is accepted", e.name)
		}
	}
}
