package model

import (
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

func TestOrchestrationOf(t *testing.T) {
	o := OrchestrationOf(parse(t, `
workflow: {id: wf-1, status: ACTIVE}
resumption:
  recovery_state:
    workflow_status: ACTIVE
    current_phase: 2
    current_phase_name: Build
    updated_at: "2026-02-20T10:00:00Z"
  decisions: []
pipelines:
  main:
    current_phase: 2
    phases:
      - {id: 1, name: Plan, status: COMPLETE}
      - {id: 2, name: Build, status: IN_PROGRESS, agents: [{id: a1, status: COMPLETE}]}
`))
	if o.Workflow.ID.Value != "wf-1" || o.Workflow.Status.Node.Line != 2 {
		t.Errorf("workflow = %+v", o.Workflow)
	}
	r := o.Resumption
	if r == nil || r.Version() != "v2" || r.Recovery == nil {
		t.Fatalf("resumption = %+v", r)
	}
	rs := r.Recovery
	if !rs.CurrentPhase.OK || rs.CurrentPhase.Value != 2 || rs.CurrentPhase.Node.Line != 6 {
		t.Errorf("current_phase = %+v", rs.CurrentPhase)
	}
	if rs.CurrentActivity.Key != nil || rs.CurrentActivity.OK {
		t.Errorf("an absent field reads as %+v", rs.CurrentActivity)
	}
	if k, _ := r.Section("decision_log"); k == nil || k.Value != "decisions" {
		t.Errorf("decision_log is not found under its alias")
	}
	if len(o.Pipelines) != 1 || len(o.Pipelines[0].Phases) != 2 || o.Pipelines[0].Phases[1].Agents[0].ID != "a1" {
		t.Errorf("pipelines = %+v", o.Pipelines)
	}
	if v1 := ResumptionOf(parse(t, "resumption: {last_checkpoint: cx-001}")); v1.Version() != "v1" {
		t.Errorf("a v1.0 section reads as %s", v1.Version())
	}
	if _, v := v1Section(t); v != nil {
		t.Error("a v1.0 section has v2.0 sub-sections")
	}
}

func v1Section(t *testing.T) (*yaml.Node, *yaml.Node) {
	return ResumptionOf(parse(t, "resumption: {next_step: x, files_to_read: []}")).Section("files_to_read")
}

func TestCheckpointDocOf(t *testing.T) {
	c := CheckpointDocOf(parse(t, `{"checkpoint_id": "cx-002", "created_at": "2026-02-20T10:00:00Z",
  "resumption_state": {"workflow": {"id": "wf-9"}}}`))
	if c.ID.Value != "cx-002" || c.ID.Key.Value != "checkpoint_id" || c.Time.Value != "2026-02-20T10:00:00Z" {
		t.Errorf("id, time = %+v, %+v", c.ID, c.Time)
	}
	if c.WorkflowID != "wf-9" || c.Seed.Metadata != nil || c.Seed.Timestamp.Node != nil {
		t.Errorf("checkpoint = %+v", c)
	}
	if CheckpointDocOf(parse(t, "[1]")) != nil {
		t.Error("a list read as a checkpoint")
	}
}
