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
	Root *yaml.Node
	// gates is Gates' answer, once read (a unit's rules run one at a
	// time, so no lock).
	gates              map[string]*Gate
	gatesOK, gatesRead bool
	// Doc is the root read as #OrchestrationDoc (cue/views); never nil.
	Doc *OrchestrationDoc
	// Workflow and Checkpoints are Doc's, zero when absent or not a
	// mapping; Checkpoints' Key and Node are set whatever its value.
	Workflow    Workflow
	Checkpoints CheckpointIndex
	// Resumption is nil when the file has no resumption mapping;
	// ResumptionKey is its key, whatever its value (nil when absent).
	Resumption    *Resumption
	ResumptionKey *yaml.Node
	Pipelines     []*Pipeline
}

// Resumption is the file's resumption section.
type Resumption struct {
	Key, Node *yaml.Node // the `resumption` key and its mapping
	// V2 and V1 are the section read as #ResumptionV2 and as
	// #ResumptionV1, whatever its version.
	V1 *ResumptionV1
	V2 *ResumptionV2
	// Flat is the section's top level read as #RecoveryState: seed 001's
	// draft and v1.0 sections keep recovery_state's fields there.
	Flat   *RecoveryState
	V1Keys []*yaml.Node
	// RecoveryState is recovery_state's value (its key when the value is
	// empty); Recovery its typed view when it is a mapping.
	RecoveryState *yaml.Node
	Recovery      *RecoveryState
	// Compaction is compaction_events when it is a mapping, whatever the
	// section's version; nil otherwise. CompactionKey is its key, whatever
	// its value (nil when absent).
	Compaction    *CompactionEvents
	CompactionKey *yaml.Node
	// Trajectory is quality_trajectory when it is a mapping, whatever the
	// section's version; nil otherwise.
	Trajectory *QualityTrajectory
	// Defects is defect_summary when it is a mapping, whatever the
	// section's version; nil otherwise.
	Defects *DefectSummary
	// Decisions is decision_log (or its alias decisions) when it is a
	// list, whatever the section's version; nil otherwise. Its Items are
	// nil where an entry is not a mapping.
	Decisions *List[*Decision]
	// FilesToRead is files_to_read's entries when it is a list, whatever
	// the section's version; nil otherwise.
	FilesToRead []FileToRead
	// Aliases is the section read for the keys real files write beside
	// the definitions' (decisions, decision_log's alias); never nil.
	Aliases *ResumptionAliases
}

// FileToRead is one files_to_read entry (#FileToRead, a path or a
// #FileToReadEntry): Path is the entry itself when it is no mapping.
type FileToRead struct {
	Index    int // in the list
	Node     *yaml.Node
	Path     Str
	Priority Int
}

func filesToReadOf(list *yaml.Node) []FileToRead {
	out := make([]FileToRead, 0, len(list.Content))
	for i, e := range list.Content {
		ft := FileToRead{Index: i, Node: e}
		if en := FileToReadEntryOf(nil, e); en != nil {
			ft.Path, ft.Priority = en.Path, en.Priority
		} else {
			s, ok := node.Str(e)
			ft.Path = Str{Value: s, Node: e, OK: ok}
		}
		out = append(out, ft)
	}
	return out
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
	return strListKV(k, v)
}

// strListKV reads the value v of key k as a list of strings.
func strListKV(k, v *yaml.Node) StrListField {
	f := StrListField{Key: k, Node: v}
	f.Values, f.Nodes, f.OK = StrList(v)
	return f
}

// OrchestrationOf reads an orchestration document's root.
func OrchestrationOf(root *yaml.Node) *Orchestration {
	doc := OrchestrationDocOf(nil, root)
	if doc == nil {
		doc = &OrchestrationDoc{}
	}
	o := &Orchestration{Root: root, Doc: doc, Resumption: ResumptionOf(root), Pipelines: pipelinesOf(doc.Pipelines)}
	if len(doc.Pipelines.Items) == 0 && doc.Pipeline != nil {
		// One pipeline, written as such: read as a list of one.
		o.Pipelines = pipelinesOf(Coll[*PipelineEntry]{Items: []*PipelineEntry{doc.Pipeline}})
		for _, pi := range o.Pipelines {
			pi.Phases = PhasesOf(pi.Key, "pipeline.phases", doc.Pipeline.Phases)
		}
	}
	o.ResumptionKey, _ = node.Get(root, "resumption")
	if doc.Workflow != nil {
		o.Workflow = *doc.Workflow
	}
	if doc.Checkpoints != nil {
		o.Checkpoints = *doc.Checkpoints
	} else {
		o.Checkpoints.Key, o.Checkpoints.Node = node.Get(root, "checkpoints")
	}
	return o
}

// WorkflowIn reads the workflow mapping of an orchestration root alone, for
// a caller that needs nothing else of the file; nil when it is no mapping.
func WorkflowIn(root *yaml.Node) *Workflow { return workflowAt(root, "workflow") }

// KeyAt is the i-th item's key in a mapping, "" in a list.
func (c Coll[T]) KeyAt(i int) string {
	if c.Keys == nil {
		return ""
	}
	return c.Keys[i].Value
}

// ByKey indexes the views of the items by mapping key, the last one
// where a key repeats (as a look-up by key finds it), nil where an item
// is not a mapping: built once for the look-ups of a whole file, as a
// scan per key grows with the square of the items. It is nil when c is
// a list.
func (c Coll[T]) ByKey() map[string]T {
	if c.Keys == nil {
		return nil
	}
	m := make(map[string]T, len(c.Keys))
	for i, k := range c.Keys {
		m[k.Value] = c.Items[i]
	}
	return m
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
		dl := listKV(lk, lv, DecisionOf)
		res.Decisions = &dl
	}
	res.V2, res.V1, res.Flat = ResumptionV2Of(k, v), ResumptionV1Of(k, v), RecoveryStateOf(k, v)
	res.Aliases = ResumptionAliasesOf(k, v)
	res.Defects, res.Trajectory, res.Recovery = res.V2.DefectSummary, res.V2.QualityTrajectory, res.V2.RecoveryState
	res.CompactionKey, _ = node.Get(v, "compaction_events")
	res.Compaction = res.V2.CompactionEvents
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

// v2SubSections are the sub-sections only a v2.0 section holds.
var v2SubSections = []string{"recovery_state", "quality_trajectory", "defect_summary", "decision_log", "decisions", "agent_summaries", "compaction_events"}

// Bare reports a section holding only what both forms share: files_to_read,
// and no v1.0 field at its top or v2.0 sub-section (`resumption:
// {files_to_read: [...]}`, perhaps with a last_checkpoint_id of its own).
// It is read as v2.0, but whether its missing sub-sections are a finding
// depends on the form the repository writes (RL102). An empty section, or
// one of keys no reader knows, is not bare: it says nothing to resume from.
func (r *Resumption) Bare() bool {
	return r != nil && len(r.V1Keys) == 0 && node.Has(r.Node, "files_to_read") && !hasAnyKey(r.Node, v2SubSections)
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
