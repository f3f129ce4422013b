package model

import (
	"go.yaml.in/yaml/v3"
)

// CheckpointDoc is a checkpoint file read as both forms it may take: the
// seed form (#Checkpoint: event_id, timestamp, metadata.acknowledged) and
// the runtime writer's (#RuntimeCheckpoint: checkpoint_id, created_at,
// resumption_state). What tells the forms apart is derived here.
type CheckpointDoc struct {
	Root    *yaml.Node
	Seed    *Checkpoint
	Runtime *RuntimeCheckpoint
	// ID is event_id, else checkpoint_id: the first of them written.
	ID Str
	// Time is timestamp, else created_at: the first of them written.
	Time Str
	// ContextState is context_state when it is a mapping, in the form its
	// keys select (fill_percentage: the runtime form's); both nil otherwise.
	SeedContext    *CheckpointContextState
	RuntimeContext *RuntimeContextState
	// WorkflowID is orchestration_state.workflow_id, or the runtime form's
	// resumption_state.workflow_id / workflow.id; "" when the file names none.
	WorkflowID string
	// WorkflowStatus is the workflow's status when the checkpoint was
	// written: orchestration_state.workflow_status, or the runtime form's
	// resumption_state.workflow_status / workflow.status.
	WorkflowStatus string
}

// CheckpointDocOf reads a checkpoint root; nil when it is not a mapping.
func CheckpointDocOf(root *yaml.Node) *CheckpointDoc {
	seed := CheckpointOf(nil, root)
	if seed == nil {
		return nil
	}
	rt := RuntimeCheckpointOf(nil, root)
	c := &CheckpointDoc{Root: root, Seed: seed, Runtime: rt, ID: firstOf(seed.EventID, rt.CheckpointID),
		Time: firstOf(seed.Timestamp, rt.CreatedAt)}
	if rt.ContextState != nil && rt.ContextState.FillPercentage.Key != nil {
		c.RuntimeContext = rt.ContextState
	} else {
		c.SeedContext = seed.ContextState
	}
	if st := seed.OrchestrationState; st != nil {
		c.WorkflowID, c.WorkflowStatus = st.WorkflowID.Value, st.WorkflowStatus.Value
	} else if rs := RuntimeResumptionStateOf(nil, rt.ResumptionState.Node); rs != nil {
		if rs.WorkflowID.OK {
			c.WorkflowID = rs.WorkflowID.Value
		} else if rs.Workflow != nil {
			c.WorkflowID = rs.Workflow.ID.Value
		}
		if rs.WorkflowStatus.OK {
			c.WorkflowStatus = rs.WorkflowStatus.Value
		} else if rs.Workflow != nil {
			c.WorkflowStatus = rs.Workflow.Status.Value
		}
	}
	return c
}

// firstOf returns the first of fields whose value is not nil.
func firstOf(fields ...Str) Str {
	for _, s := range fields {
		if s.Node != nil {
			return s
		}
	}
	return Str{}
}
