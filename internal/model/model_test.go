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

// TestKeysBesideTheSchemas reads the keys real files write beside the
// schemas' own through their views (cue/views/aliases.cue) and the
// definitions read under a name of their own (agentrun's #Task).
func TestKeysBesideTheSchemas(t *testing.T) {
	o := OrchestrationOf(parse(t, `
resumption:
  recovery_state: {workflow_status: ACTIVE}
  decisions:
    - {id: DEC-001, decision: keep the fast parser}
  defect_summary:
    unresolved_defects: [{id: DEF-7}]
`))
	if o.Doc.Resumption.Key == nil || o.Doc.Resumption.Key.Line != 2 {
		t.Errorf("resumption = %+v", o.Doc.Resumption)
	}
	r := o.Resumption
	if d := r.Aliases.Decisions; d.Key == nil || d.Key.Line != 4 || len(d.Items) != 1 || d.Items[0].ID.Value != "DEC-001" {
		t.Errorf("decisions = %+v", d)
	}
	if r.V2.DecisionLog.Key != nil {
		t.Errorf("decision_log read from decisions: %+v", r.V2.DecisionLog)
	}
	ud := r.Defects.UnresolvedDefects.Node
	if d := UnresolvedDefectOf(nil, ud.Content[0]); d == nil || d.ID.Value != "DEF-7" {
		t.Errorf("unresolved defect = %+v", d)
	}
	ex := ResumeExtrasOf(nil, parse(t, "resume_version: 2.0\nstatus: complete\n"))
	if ex.ResumeVersion.Node == nil || ex.ResumeVersion.Node.Value != "2.0" || ex.Status.Value != "complete" {
		t.Errorf("resume extras = %+v", ex)
	}
	rs := RuntimeResumptionStateOf(nil, parse(t, "workflow: {id: wf-2}\n"))
	if rs.WorkflowID.Key != nil || rs.Workflow == nil || rs.Workflow.ID.Value != "wf-2" {
		t.Errorf("resumption_state = %+v", rs)
	}
	gt := GraphTaskOf(nil, parse(t, `{id: t2, depends_on: [t1], dependencies: [t0]}`))
	if gt.ID.Value != "t2" || gt.DependsOn.Values[0] != "t1" || gt.Dependencies.Values[0] != "t0" {
		t.Errorf("task = %+v", gt)
	}
	st := StatusOf(nil, parse(t, `{"status": "success", "cmp01": "pass", "error": {"code": "E1", "message": "m"}}`))
	if se := StatusErrorOf(st.Error.Key, st.Error.Node); st.Status.Value != "success" || se == nil || se.Code.Value != "E1" {
		t.Errorf("status = %+v", st)
	}
	if oh := OutputHashesOf(nil, parse(t, `{"validator_semver": "1.2.0", "hashes": {}}`)); oh.ValidatorSemver.Value != "1.2.0" || oh.Hashes.Key == nil || oh.ValidatorBuildID.Key != nil {
		t.Errorf("output hashes = %+v", oh)
	}
}

// ByKey finds what a look-up by key finds: the last item of a repeated
// key, nil for an item that is no mapping, nothing in a list.
func TestCollByKey(t *testing.T) {
	o := OrchestrationOf(parse(t, `
pipelines:
  a: {id: first, progress_percent: 10}
  b: 3
  a: {id: second}
`))
	m := o.Doc.Pipelines.ByKey()
	if len(m) != 2 || m["a"] == nil || m["a"].ID.Value != "second" || m["b"] != nil {
		t.Errorf("ByKey = %v", m)
	}
	if l := OrchestrationOf(parse(t, "pipelines: [{id: a}]\n")).Doc.Pipelines.ByKey(); l != nil {
		t.Errorf("ByKey of a list = %v", l)
	}
}
