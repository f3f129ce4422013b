package model

import (
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/node"
)

// Checkpoint is a checkpoint file: the seed form (event_id, timestamp,
// metadata.acknowledged) or the runtime writer's (checkpoint_id,
// created_at, resumption_state).
type Checkpoint struct {
	Root *yaml.Node
	// ID is event_id, else checkpoint_id: the first of them written.
	ID Str
	// Time is timestamp, else created_at: the first of them written.
	Time Str
	// Timestamp is the seed form's timestamp alone.
	Timestamp Str
	// Metadata is the metadata mapping (nil when absent or not a mapping).
	Metadata       *yaml.Node
	Acknowledged   Bool
	AcknowledgedAt Str
	// ContextState and State are context_state and orchestration_state
	// (nil when absent or not mappings).
	ContextState, State *yaml.Node
	// WorkflowID is orchestration_state.workflow_id, or the runtime form's
	// resumption_state.workflow_id / workflow.id; "" when the file names none.
	WorkflowID string
}

// CheckpointOf reads a checkpoint root; nil when it is not a mapping.
func CheckpointOf(root *yaml.Node) *Checkpoint {
	if !node.IsMap(root) {
		return nil
	}
	c := &Checkpoint{Root: root, ID: firstOf(root, "event_id", "checkpoint_id"),
		Time: firstOf(root, "timestamp", "created_at"), Timestamp: StrOf(root, "timestamp")}
	if md := node.Val(root, "metadata"); node.IsMap(md) {
		c.Metadata = md
		c.Acknowledged = BoolOf(md, "acknowledged")
		c.AcknowledgedAt = StrOf(md, "acknowledged_at")
	}
	if cs := node.Val(root, "context_state"); node.IsMap(cs) {
		c.ContextState = cs
	}
	if st := node.Val(root, "orchestration_state"); node.IsMap(st) {
		c.State = st
		c.WorkflowID, _ = node.Str(node.Val(st, "workflow_id"))
	} else if rs := node.Val(root, "resumption_state"); node.IsMap(rs) {
		if id, ok := node.Str(node.Val(rs, "workflow_id")); ok {
			c.WorkflowID = id
		} else if w := node.Val(rs, "workflow"); node.IsMap(w) {
			c.WorkflowID, _ = node.Str(node.Val(w, "id"))
		}
	}
	return c
}

// firstOf reads the first of keys whose value is not nil.
func firstOf(m *yaml.Node, keys ...string) Str {
	for _, k := range keys {
		if s := StrOf(m, k); s.Node != nil {
			return s
		}
	}
	return Str{}
}
