package model

import (
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/node"
)

// V1Fields are the fields whose presence at the top of a resumption section
// marks a v1.0 section (seed 001 §Current State Analysis).
var V1Fields = []string{"last_checkpoint", "current_state", "next_step"}

// Orchestration is an ORCHESTRATION.yaml seen once for every rule.
type Orchestration struct {
	Root     *yaml.Node
	Workflow Workflow
	// Resumption is nil when the file has no resumption mapping.
	Resumption  *Resumption
	Pipelines   []*Pipeline
	Checkpoints Checkpoints
}

// Checkpoints is the top-level checkpoints section.
type Checkpoints struct {
	Key, Node *yaml.Node // nil when absent
	// EntriesKey and Entries are entries' key and value, whatever its type.
	EntriesKey, Entries *yaml.Node
	LatestID            Str
}

// Workflow is the top-level `workflow:` mapping.
type Workflow struct {
	Node      *yaml.Node // nil when absent or not a mapping
	ID        Str
	Status    Str
	UpdatedAt Str
}

// Resumption is the file's resumption section.
type Resumption struct {
	Key, Node *yaml.Node // the `resumption` key and its mapping
	V1Keys    []*yaml.Node
	// RecoveryState is recovery_state's value (its key when the value is
	// empty); Recovery its typed view when it is a mapping.
	RecoveryState *yaml.Node
	Recovery      *RecoveryState
	// Compaction is compaction_events, whatever the section's version;
	// nil when absent.
	Compaction *CompactionEvents
	// Trajectory is quality_trajectory when it is a mapping, whatever the
	// section's version; nil otherwise.
	Trajectory *QualityTrajectory
	// Defects is defect_summary when it is a mapping, whatever the
	// section's version; nil otherwise.
	Defects *DefectSummary
	// Decisions is decision_log (or its alias decisions) when it is a
	// list, whatever the section's version; nil otherwise.
	Decisions *DecisionLog
	// FilesToRead is files_to_read's entries when it is a list, whatever
	// the section's version; nil otherwise.
	FilesToRead []FileToRead
}

// FileToRead is one files_to_read entry: a path, or a mapping with path
// and priority.
type FileToRead struct {
	Index    int // in the list
	Node     *yaml.Node
	Path     Str // the entry itself when it is no mapping
	Priority Int
}

func filesToReadOf(list *yaml.Node) []FileToRead {
	out := make([]FileToRead, 0, len(list.Content))
	for i, e := range list.Content {
		ft := FileToRead{Index: i, Node: e}
		if node.IsMap(e) {
			ft.Path, ft.Priority = StrOf(e, "path"), IntOf(e, "priority")
		} else {
			s, ok := node.Str(e)
			ft.Path = Str{Value: s, Node: e, OK: ok}
		}
		out = append(out, ft)
	}
	return out
}

// DecisionLog is resumption.decision_log.
type DecisionLog struct {
	Key, Node *yaml.Node
	// Entries are the list's mapping entries.
	Entries []Decision
}

// Decision is one decision_log entry.
type Decision struct {
	Index         int // in the list
	Node          *yaml.Node
	ID            Str
	Gate          Str
	Iteration     Int
	Timestamp     Str
	AffectsPhases *yaml.Node
	Applied       Bool
}

func decisionLogOf(k, v *yaml.Node) *DecisionLog {
	dl := &DecisionLog{Key: k, Node: v}
	for i, e := range v.Content {
		if !node.IsMap(e) {
			continue
		}
		dl.Entries = append(dl.Entries, Decision{Index: i, Node: e, ID: StrOf(e, "id"), Gate: StrOf(e, "gate"),
			Iteration: IntOf(e, "iteration"), Timestamp: StrOf(e, "timestamp"),
			AffectsPhases: node.Val(e, "affects_phases"), Applied: BoolOf(e, "applied")})
	}
	return dl
}

// DefectSummary is resumption.defect_summary.
type DefectSummary struct {
	Key, Node *yaml.Node
	Found     Int // total_defects_found
	Resolved  Int // total_defects_resolved
	// UnresolvedKey and Unresolved are unresolved_defects' key and value.
	UnresolvedKey, Unresolved *yaml.Node
}

// QualityTrajectory is resumption.quality_trajectory.
type QualityTrajectory struct {
	Key, Node                      *yaml.Node
	GatesCompleted, GatesRemaining StrListField
	CurrentGate                    Str
	CurrentGateIteration           Int
	// ScoreHistoryKey and ScoreHistory are score_history's key and value.
	ScoreHistoryKey, ScoreHistory *yaml.Node
	TotalIterationsUsed           Int
	TotalIterationsBudget         Int
}

// StrListField is a field holding a list of strings.
type StrListField struct {
	Key, Node *yaml.Node
	Values    []string
	Nodes     []*yaml.Node
	// OK reports a list whose every item is a string.
	OK bool
}

// StrListOf reads m[key].
func StrListOf(m *yaml.Node, key string) StrListField {
	k, v := node.Get(m, key)
	f := StrListField{Key: k, Node: v}
	f.Values, f.Nodes, f.OK = StrList(v)
	return f
}

func trajectoryOf(k, v *yaml.Node) *QualityTrajectory {
	t := &QualityTrajectory{Key: k, Node: v,
		GatesCompleted:        StrListOf(v, "gates_completed"),
		GatesRemaining:        StrListOf(v, "gates_remaining"),
		CurrentGate:           StrOf(v, "current_gate"),
		CurrentGateIteration:  IntOf(v, "current_gate_iteration"),
		TotalIterationsUsed:   IntOf(v, "total_iterations_used"),
		TotalIterationsBudget: IntOf(v, "total_iterations_budget"),
	}
	t.ScoreHistoryKey, t.ScoreHistory = node.Get(v, "score_history")
	return t
}

// CompactionEvents is resumption.compaction_events.
type CompactionEvents struct {
	Key, Node *yaml.Node
	Count     Int
	// List is the events list (nil when absent or not a list); Events
	// are its mapping entries.
	List   *yaml.Node
	Events []CompactionEvent
}

// CompactionEvent is one entry of compaction_events.events.
type CompactionEvent struct {
	Index          int // in the events list
	Node           *yaml.Node
	ID             Str
	Timestamp      Str
	ActivePhase    Int
	CheckpointFile Str
	Acknowledged   Bool
}

func compactionEventsOf(k, v *yaml.Node) *CompactionEvents {
	ce := &CompactionEvents{Key: k, Node: v, Count: IntOf(v, "count")}
	if evs := node.Val(v, "events"); node.IsSeq(evs) {
		ce.List = evs
		for i, e := range evs.Content {
			if !node.IsMap(e) {
				continue
			}
			ce.Events = append(ce.Events, CompactionEvent{Index: i, Node: e, ID: StrOf(e, "id"),
				Timestamp: StrOf(e, "timestamp"), ActivePhase: IntOf(e, "active_phase"),
				CheckpointFile: StrOf(e, "checkpoint_file"), Acknowledged: BoolOf(e, "acknowledged")})
		}
	}
	return ce
}

// RecoveryState is resumption.recovery_state.
type RecoveryState struct {
	Node             *yaml.Node
	WorkflowStatus   Str
	UpdatedAt        Str
	CurrentPhase     Int
	CurrentPhaseName Str
	CurrentActivity  Str
}

// OrchestrationOf reads an orchestration document's root.
func OrchestrationOf(root *yaml.Node) *Orchestration {
	o := &Orchestration{Root: root, Resumption: ResumptionOf(root), Pipelines: PipelinesOf(root)}
	ck, cv := node.Get(root, "checkpoints")
	o.Checkpoints = Checkpoints{Key: ck, Node: cv, LatestID: StrOf(cv, "latest_id")}
	o.Checkpoints.EntriesKey, o.Checkpoints.Entries = node.Get(cv, "entries")
	if w := node.Val(root, "workflow"); node.IsMap(w) {
		o.Workflow = Workflow{Node: w, ID: StrOf(w, "id"), Status: StrOf(w, "status"), UpdatedAt: StrOf(w, "updated_at")}
	}
	return o
}

// ResumptionOf reads the resumption section of an orchestration root, or
// returns nil when there is none.
func ResumptionOf(root *yaml.Node) *Resumption {
	if !node.IsMap(root) {
		return nil
	}
	k, v := node.Get(root, "resumption")
	if k == nil || !node.IsMap(v) {
		return nil
	}
	res := &Resumption{Key: k, Node: v}
	for _, f := range V1Fields {
		if kk, _ := node.Get(v, f); kk != nil {
			res.V1Keys = append(res.V1Keys, kk)
		}
	}
	if rk, rv := node.Get(v, "recovery_state"); rk != nil {
		res.RecoveryState = rv
		if res.RecoveryState == nil {
			res.RecoveryState = rk
		}
	}
	if fv := node.Val(v, "files_to_read"); node.IsSeq(fv) {
		res.FilesToRead = filesToReadOf(fv)
	}
	lk, lv := node.Get(v, "decision_log")
	if lk == nil {
		lk, lv = node.Get(v, "decisions")
	}
	if node.IsSeq(lv) {
		res.Decisions = decisionLogOf(lk, lv)
	}
	if dk, dv := node.Get(v, "defect_summary"); node.IsMap(dv) {
		res.Defects = &DefectSummary{Key: dk, Node: dv, Found: IntOf(dv, "total_defects_found"), Resolved: IntOf(dv, "total_defects_resolved")}
		res.Defects.UnresolvedKey, res.Defects.Unresolved = node.Get(dv, "unresolved_defects")
	}
	if qk, qv := node.Get(v, "quality_trajectory"); node.IsMap(qv) {
		res.Trajectory = trajectoryOf(qk, qv)
	}
	if ck, cv := node.Get(v, "compaction_events"); ck != nil {
		res.Compaction = compactionEventsOf(ck, cv)
	}
	if rs := res.RecoveryState; node.IsMap(rs) {
		res.Recovery = &RecoveryState{Node: rs,
			WorkflowStatus:   StrOf(rs, "workflow_status"),
			UpdatedAt:        StrOf(rs, "updated_at"),
			CurrentPhase:     IntOf(rs, "current_phase"),
			CurrentPhaseName: StrOf(rs, "current_phase_name"),
			CurrentActivity:  StrOf(rs, "current_activity"),
		}
	}
	return res
}

// Version returns "v1", "v2" or "mixed".
func (r *Resumption) Version() string {
	switch {
	case len(r.V1Keys) > 0 && r.RecoveryState != nil:
		return "mixed"
	case len(r.V1Keys) > 0:
		return "v1"
	}
	return "v2"
}

// Section returns a v2.0 sub-section (nil for a v1.0 section); decision_log
// is also found under its alias `decisions`.
func (r *Resumption) Section(name string) (key, val *yaml.Node) {
	if r == nil || r.Version() == "v1" {
		return nil, nil
	}
	k, v := node.Get(r.Node, name)
	if k == nil && name == "decision_log" {
		k, v = node.Get(r.Node, "decisions")
	}
	return k, v
}
