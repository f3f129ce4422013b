package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// Lifecycle (SPEC §0): a record that is COMPLETE, CANCELLED or FAILED, in
// any spelling its system writes, is history. Nobody resumes it, so in a
// finished record only two things are reported: a terminal status spelled
// outside the enum, and contradictions about whether it really is
// finished. The decision is made once, for the whole run: each record's
// lifecycle is computed once per unit (RecordOf) and published as a fact
// (Records); what each rule says about a finished record is data on the
// rule (Rule.Lifecycle); the engine drops, in one place (WithoutHistory),
// the findings of rules that speak only of live records on the files of
// finished ones, and on the files those records own (the checkpoints a
// finished workflow wrote).

// Lifecycle is what a rule has to say about a finished record.
type Lifecycle uint8

const (
	// LiveOnly rules check what a resuming session reads: shape, ids,
	// counters, pointers, staleness, paths, placeholders, migration. They
	// are silent on a finished record. The zero value: a new rule speaks
	// of live records unless it says otherwise.
	LiveOnly Lifecycle = iota
	// AboutFinished rules report contradictions about being finished
	// (phases, gates, tasks, queue groups still open; next actions still
	// pending; open boxes in a steps file) and the terminal spelling: they
	// run on finished records too and decide there themselves.
	AboutFinished
	// AnyLifecycle rules are about the file, not the record: parse errors,
	// input limits, encoding (a file that cannot be read says nothing about
	// its lifecycle), leaked secrets (history leaks as much as live state),
	// and the update protocol against a base (a change that finishes a
	// workflow is still a change; one to a workflow finished at the base
	// too is not, finishedAtBase).
	AnyLifecycle
)

// String names the lifecycle in listings.
func (l Lifecycle) String() string {
	switch l {
	case AboutFinished:
		return "about-finished"
	case AnyLifecycle:
		return "any"
	}
	return "live"
}

// IsFinishedStatus reports a lifecycle state of a record that is over, as
// node.FinishedWord reads it (the one reading every rule and client shares).
func IsFinishedStatus(s string) bool { return node.FinishedWord(s) != "" }

// FinishedStatusWords lists the lifecycle states of a record that is over,
// in node.StatusWord spelling, sorted: the exported JSON Schema tells
// finished workflows by the same words.
func FinishedStatusWords() []string {
	out := make([]string, 0, len(node.FinishedWords))
	for w := range node.FinishedWords {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// Record is a unit's lifecycle, computed once (RecordOf).
type Record struct {
	Finished bool
	// Field and Raw say which value decided it ("workflow.status",
	// "COMPLETED"), At where it is; empty for a live record.
	Field, Raw string
	At         *yaml.Node
	// Contested are the lines of the repetitions of At's key (RL002) when
	// one of its values is live: a reader taking that one resumes the
	// record, so whether it is finished is in question (SPEC §0).
	Contested []int
}

// Why says what made the record finished, for --verbose.
func (r *Record) Why() string {
	return fmt.Sprintf("%s %s", r.Field, diag.ClipTo(r.Raw, 40))
}

// RecordOf returns the lifecycle of the pass's unit: an orchestration file
// by the first of workflow.status, resumption's workflow_status, a
// top-level status and a v1.0 section's current_state that it holds;
// a resume context by current_phase or status, else its project's
// overview (ResumeFinished). Templates,
// folders and the other kinds are never finished.
func RecordOf(p *Pass) *Record { return recordResult.Of(p) }

var recordResult = NewResult("record", func(p *Pass) *Record {
	rec := &Record{}
	d := p.Doc
	if d == nil || d.File.Template {
		return rec
	}
	if d.File.Kind == load.KindResumeContext && inNexusArchive(p.Opts, d.File) {
		rec.Finished, rec.Field, rec.Raw = true, "folder", nexusArchive+"/"
		return rec
	}
	if !node.IsMap(d.Root) {
		return rec
	}
	var cands []struct {
		field string
		at    *yaml.Node
	}
	switch d.File.Kind {
	case load.KindOrchestration:
		for i, n := range lifecycleNodes(p) {
			cands = append(cands, struct {
				field string
				at    *yaml.Node
			}{lifecycleFields[i], n})
		}
		// A v1.0 section states the lifecycle in current_state's prose,
		// which v2.0 replaced by workflow_status (seed 001): where no
		// status is stated, "WORKFLOW COMPLETE. All 4 phases done." is
		// the record's word.
		if r := OrchestrationOf(p).Resumption; r != nil && r.V1 != nil {
			cands = append(cands, struct {
				field string
				at    *yaml.Node
			}{"current_state", r.V1.CurrentState.Node})
		}
	case load.KindResumeContext:
		if Superseded(p) {
			// A _resume.md beside the resume-context.md SessionStart
			// reads says nothing of the project: that file, its folder
			// and its overview do (RL313 reports the copy).
			break
		}
		for i, n := range resumeLifecycleNodes(d.Root) {
			cands = append(cands, struct {
				field string
				at    *yaml.Node
			}{resumeLifecycleFields[i], n})
		}
	}
	for _, c := range cands {
		s, ok := node.Str(c.at)
		if !ok || strings.TrimSpace(s) == "" {
			continue
		}
		if d.File.Kind == load.KindResumeContext {
			if projectOver(s) {
				rec.Finished, rec.Field, rec.Raw, rec.At = true, c.field, s, c.at
				break
			}
			continue
		}
		// A workflow's first lifecycle value decides (workflow.status before
		// the resumption's copy): where they disagree, RL106 reports that.
		if IsFinishedStatus(s) {
			rec.Finished, rec.Field, rec.Raw, rec.At = true, c.field, s, c.at
		}
		break
	}
	if rec.Finished && rec.At != nil {
		rec.Contested = contestedKey(d.Root, rec.At)
	}
	if d.File.Kind == load.KindResumeContext && !rec.Finished {
		if date, ok := archivedBuild(p); ok {
			rec.Finished, rec.Field, rec.Raw = true, "overview archived", date
		} else if st, ok := finishedOverview(p); ok {
			rec.Finished, rec.Field, rec.Raw = true, "overview status", st
		}
	}
	return rec
})

// contestedKey returns, where a key on the way from root to the value at
// is repeated in its mapping (at most two levels down from root, where
// lifecycle fields live) and the repetitions disagree on whether the
// record is finished, the lines of the repetitions: where RL002 reports
// them. The repeated key may be the status itself or a section holding
// it (a second workflow: whose status is live).
func contestedKey(root, at *yaml.Node) []int {
	steps := pathTo(root, at, 3)
	var lines []int
	for i, st := range steps {
		var reps []int
		split := false
		for j := 0; j+1 < len(st.m.Content); j += 2 {
			k, v := st.m.Content[j], st.m.Content[j+1]
			if k.Value != st.key {
				continue
			}
			reps = append(reps, k.Line)
			for _, leaf := range valuesAt(v, steps[i+1:]) {
				if s, _ := node.Str(leaf); !IsFinishedStatus(s) {
					split = true
				}
			}
		}
		if split && len(reps) > 1 {
			lines = append(lines, reps[1:]...)
		}
	}
	return lines
}

// keyStep is a mapping on the way to a node and the key taken in it.
type keyStep struct {
	m   *yaml.Node
	key string
}

// pathTo returns the mappings and keys leading from n to the value at,
// looking depth levels of mappings down; nil when at is not there.
func pathTo(n, at *yaml.Node, depth int) []keyStep {
	if n == nil || n.Kind != yaml.MappingNode || depth == 0 {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i+1] == at {
			return []keyStep{{n, n.Content[i].Value}}
		}
	}
	for i := 1; i < len(n.Content); i += 2 {
		if rest := pathTo(n.Content[i], at, depth-1); rest != nil {
			return append([]keyStep{{n, n.Content[i-1].Value}}, rest...)
		}
	}
	return nil
}

// valuesAt returns the values the keys of steps lead to from v, through
// every repetition of each key; v itself for no steps.
func valuesAt(v *yaml.Node, steps []keyStep) []*yaml.Node {
	if len(steps) == 0 {
		return []*yaml.Node{v}
	}
	if v == nil || v.Kind != yaml.MappingNode {
		return nil
	}
	var out []*yaml.Node
	for j := 0; j+1 < len(v.Content); j += 2 {
		if v.Content[j].Value == steps[0].key {
			out = append(out, valuesAt(v.Content[j+1], steps[1:])...)
		}
	}
	return out
}

// nexusArchive is the folder nexus's archive-project and archive-build
// skills move a completed project or build into (05-archived/ at the top,
// or under 02-projects/ or 02-builds/); they move it back to restore it.
const nexusArchive = "05-archived"

// inNexusArchive reports a file of a project or build in nexus's archive
// folder: a 05-archived/ folder holding the project's own, named by its id
// (NN-slug), above the file. The whole path is read, so the answer is the
// same from wherever the lint runs, in a repository or not: the project
// there is over by the system's own protocol, whatever its resume file
// last said.
func inNexusArchive(opts *Options, f *load.File) bool {
	parts := strings.Split(filepath.ToSlash(FileOSPath(opts, f)), "/")
	for i := 0; i+2 < len(parts); i++ {
		// 05-archived/01-planning/: a build its archive step flattened.
		if parts[i] == nexusArchive && (nexusIDRe.MatchString(parts[i+1]) || parts[i+1] == "01-planning") {
			return true
		}
	}
	return false
}

// nexusIDRe matches a nexus project or build folder's name: its number,
// then a slug.
var nexusIDRe = lazyre.New(`^[0-9]{2,}-.`)

// WorkflowFinished reports whether an orchestration file records its
// workflow as over, in workflow.status or resumption's workflow_status.
func WorkflowFinished(p *Pass) bool {
	return p.Doc != nil && p.Doc.File.Kind == load.KindOrchestration && RecordOf(p).Finished
}

// lifecycleFields name the values lifecycleNodes returns, in its order.
var lifecycleFields = []string{"workflow.status", "workflow_status", "workflow_status", "status"}

// lifecycleNodes are the values that state a workflow's lifecycle, in the
// order of lifecycleFields (nil where absent).
func lifecycleNodes(p *Pass) []*yaml.Node { return lifecycleNodesOf(OrchestrationOf(p)) }

// finishedAtBase reports whether the change is to a workflow that was
// finished at the base revision and still is, its status in question
// (RL002) on neither side: an edit of history, which no session resumes
// (SPEC §0), not a change the update protocol governs. A change that
// finishes a workflow, reopens one, or settles a status the base repeated
// with values that disagree, is checked; so is one to a workflow whose
// lifecycle values disagree on either side (workflow.status COMPLETE,
// recovery_state.workflow_status ACTIVE: a session reading the resumption
// resumes it, RL106).
func finishedAtBase(p *Pass, baseRoot *yaml.Node) bool {
	if rec := RecordOf(p); !rec.Finished || len(rec.Contested) > 0 || rec.At == nil || !allFinished(p.Doc.Root, lifecycleNodes(p)) {
		return false
	}
	return allFinished(baseRoot, lifecycleNodesOf(model.OrchestrationOf(baseRoot)))
}

// allFinished reports whether every lifecycle value of a workflow that
// states one is finished, none of them repeated with another value.
func allFinished(root *yaml.Node, nodes []*yaml.Node) bool {
	stated := false
	for _, n := range nodes {
		if s, ok := node.Str(n); ok && strings.TrimSpace(s) != "" {
			if !IsFinishedStatus(s) || len(contestedKey(root, n)) > 0 {
				return false
			}
			stated = true
		}
	}
	return stated
}

func lifecycleNodesOf(o *model.Orchestration) []*yaml.Node {
	out := make([]*yaml.Node, 4)
	if o.Workflow.Node != nil {
		out[0] = o.Workflow.Status.Node
	}
	if r := o.Resumption; r != nil {
		if r.Recovery != nil {
			out[1] = r.Recovery.WorkflowStatus.Node
		}
		out[2] = r.Flat.WorkflowStatus.Node
	}
	out[3] = o.Doc.Status.Node
	return out
}

// ---- the run's records ----------------------------------------------------------

// Records holds the lifecycle of every orchestration and resume-context
// file of the run, with what each owns.
var Records = NewFact[*RecordFact]("records")

// RecordFact is what a record tells the run about its lifecycle.
type RecordFact struct {
	Path     string // display path
	Finished bool
	Why      string // "workflow.status COMPLETE"; "" when live
	// Questioned says why a live workflow is likely over: its own work
	// item says it is done (RL125). Until that is settled, its file is
	// history too: closing the workflow is the fix the other live
	// findings wait on.
	Questioned string
	// Contested are the lines of a repeated lifecycle key whose values
	// disagree on whether the record is finished (Record.Contested).
	Contested []int
	// WorkflowID is workflow.id; checkpoints naming it are the record's.
	WorkflowID string
	// Owns are the OS paths of the checkpoint files its compaction events
	// name.
	Owns []string
	// Files are the display paths of a finished agent run's files (Path is
	// its folder): history with the run.
	Files []string
}

func init() {
	RegisterIndexer(&Indexer{Name: "records", Kinds: []load.Kind{load.KindOrchestration, load.KindResumeContext},
		Produces: []FactKey{Records}, Run: indexRecord})
}

func indexRecord(p *Pass) {
	d := p.Doc
	if d == nil || d.File.Template {
		return
	}
	rec := RecordOf(p)
	if !rec.Finished && !node.IsMap(d.Root) {
		return
	}
	rf := &RecordFact{Path: d.File.Path, Finished: rec.Finished}
	if rec.Finished {
		rf.Why, rf.Contested = rec.Why(), rec.Contested
	} else if d.File.Kind == load.KindOrchestration {
		if it := workItemOverOf(p); it != nil {
			rf.Questioned = fmt.Sprintf("its work item %s says Status: %s", filepath.Base(it.path), diag.ClipTo(it.status, 20))
		}
	}
	if d.File.Kind == load.KindOrchestration {
		rf.WorkflowID = OrchestrationOf(p).Workflow.ID.Value
		if r := ResumptionOf(p); rf.Finished && r != nil && r.Compaction != nil {
			res := ResolverOf(p)
			for _, e := range r.Compaction.Events.Items {
				if e == nil {
					continue
				}
				if s := e.CheckpointFile; s.OK && !hasTemplateVar(s.Value) {
					if abs, ok := res.Resolve(s.Value); ok {
						rf.Owns = append(rf.Owns, abs)
					}
				}
			}
		}
	}
	Records.Publish(p.Index, rf)
}

// History is a finished record's file, or a file only finished records own.
type History struct {
	Path string
	Why  string // "workflow.status COMPLETE", "checkpoint of finished …"
	// Record is the finished record the file belongs to when that is not
	// the file itself (an agent run's folder): --verbose notes it there.
	Record string
	// Contested are lines whose RL002 stays: a repeated lifecycle key one
	// of whose values is live questions whether the record is finished.
	Contested []int
}

// HistoryFiles returns the files of the run that are history, by display
// path: finished records, and checkpoints whose every owner (the
// workflows naming its path in their compaction events, or its
// workflow_id) is finished. (A live workflow whose work item says it is
// done is history only while RL125 says so: WithoutQuestioned.)
func HistoryFiles(ix *Index) map[string]History {
	out := map[string]History{}
	records := Records.All(ix)
	cps := Checkpoints.All(ix)
	// A checkpoint that recorded its workflow as over is history itself,
	// whoever owns it (a resume from it would resume nothing).
	for _, cf := range cps {
		if IsFinishedStatus(cf.WorkflowStatus) {
			out[cf.Path] = History{Path: cf.Path, Why: "the checkpoint records its workflow as " + diag.ClipTo(cf.WorkflowStatus, 20)}
		}
	}
	if !slices.ContainsFunc(records, func(rf *RecordFact) bool { return rf.Finished }) {
		return out // no finished record: nothing else is history (most runs)
	}
	// What a checkpoint asks of its owners, gathered once per workflow
	// and per file: copied projects share a workflow_id among thousands
	// of records and checkpoints.
	byID := map[string]*owners{}
	byFile := map[string]*owners{}
	for _, rf := range records {
		if rf.Finished {
			out[rf.Path] = History{Path: rf.Path, Why: rf.Why, Contested: rf.Contested}
			for _, f := range rf.Files {
				out[f] = History{Path: f, Why: rf.Why, Record: rf.Path}
			}
		}
		if rf.WorkflowID != "" {
			ownersAt(byID, rf.WorkflowID).add(rf)
		}
		for _, o := range rf.Owns {
			ownersAt(byFile, o).add(rf)
		}
	}
	for _, cf := range cps {
		if _, done := out[cf.Path]; done {
			continue
		}
		all := owners{finished: true}
		all.join(byFile[cf.OSPath])
		if cf.WorkflowID != "" {
			all.join(byID[cf.WorkflowID])
		}
		if all.first != nil && all.finished {
			out[cf.Path] = History{Path: cf.Path, Why: "a checkpoint of the finished workflow " + all.first.Path}
		}
	}
	return out
}

// owners sums up the records that own a checkpoint: whether every one is
// finished, and the first by path, which the note names (the index hands
// facts out in no set order: the same owner on every run).
type owners struct {
	finished bool
	first    *RecordFact
}

func ownersAt(m map[string]*owners, key string) *owners {
	o := m[key]
	if o == nil {
		o = &owners{finished: true}
		m[key] = o
	}
	return o
}

func (o *owners) add(rf *RecordFact) {
	o.finished = o.finished && rf.Finished
	if o.first == nil || rf.Path < o.first.Path {
		o.first = rf
	}
}

func (o *owners) join(more *owners) {
	if more == nil {
		return
	}
	o.finished = o.finished && more.finished
	if o.first == nil || more.first.Path < o.first.Path {
		o.first = more.first
	}
}

// WithoutQuestioned drops, on each file where an RL125 finding stands
// once suppressions and ignores are applied (a live workflow whose own
// work item says it is done), the findings of LiveOnly rules and those
// marked about the running record (AboutLive): closing the
// workflow, RL125's likely fix, makes them moot (one cause, one finding).
// A disabled, suppressed or ignored RL125 leaves them all. It returns, for
// --verbose, a note per such file (why, from records, by path).
func WithoutQuestioned(fs []diag.Finding, records []*RecordFact) ([]diag.Finding, []string) {
	why := Questioned(fs, RecordsByPath(records))
	if len(why) == 0 {
		return fs, nil
	}
	return withoutLive(fs, why, nil, nil)
}

// Questioned returns the files lint takes for history because an RL125
// finding stands on them among fs (WithoutQuestioned), by display path,
// with why (the record's own words where recordOf has them). status and
// the SessionStart hook list those workflows as lint treats them.
func Questioned(fs []diag.Finding, recordOf func(path string) *RecordFact) map[string]string {
	why := map[string]string{}
	for _, fd := range fs {
		if fd.Code == code.WorkItemDone {
			why[fd.Path] = "its work item says it is done"
		}
	}
	for p := range why {
		if rf := recordOf(p); rf != nil && rf.Questioned != "" {
			why[p] = rf.Questioned
		}
	}
	return why
}

// RecordsByPath looks records up by display path (built on first use).
func RecordsByPath(records []*RecordFact) func(path string) *RecordFact {
	var by map[string]*RecordFact
	return func(p string) *RecordFact {
		if by == nil {
			by = make(map[string]*RecordFact, len(records))
			for _, rf := range records {
				by[rf.Path] = rf
			}
		}
		return by[p]
	}
}

// withoutLive drops, on the files of why (path → why it is history), the
// findings of LiveOnly rules and those marked about a running record
// (AboutLive), and returns for --verbose one note per file saying why and
// how many it left out. An RL002 on a line of contested (by path) stays:
// it questions whether the record is finished. A file of record (by path)
// is noted with its record, not on its own.
func withoutLive(fs []diag.Finding, why map[string]string, contested map[string][]int, record map[string]string) ([]diag.Finding, []string) {
	dropped := map[string]int{}
	kept := fs[:0]
	for _, fd := range fs {
		if _, ok := why[fd.Path]; ok && !(fd.Code == code.DuplicateKey && slices.Contains(contested[fd.Path], fd.Start.Line)) {
			if r := registry[fd.Code]; r != nil && (r.Lifecycle == LiveOnly || fd.Live) {
				at := fd.Path
				if rec, ok := record[at]; ok {
					at = rec
				}
				dropped[at]++
				continue
			}
		}
		kept = append(kept, fd)
	}
	var notes []string
	for path, w := range why {
		if _, ok := record[path]; ok {
			continue
		}
		notes = append(notes, fmt.Sprintf("history %s (%s): only contradictions about being finished are reported; %s left out", path, w, countOf(dropped[path], "other finding")))
	}
	sort.Strings(notes)
	return kept, notes
}

// WithoutHistory drops the findings that rules of LiveOnly lifecycle made
// (and those marked about a running record, AboutLive) on the files that
// are history (hist, from HistoryFiles: SPEC §0
// lifecycle), and returns for --verbose one note per history file saying
// why and how many it left out.
func WithoutHistory(fs []diag.Finding, hist map[string]History) ([]diag.Finding, []string) {
	if len(hist) == 0 {
		return fs, nil
	}
	why := make(map[string]string, len(hist))
	contested := map[string][]int{}
	record := map[string]string{}
	for path, h := range hist {
		why[path] = h.Why
		if len(h.Contested) > 0 {
			contested[path] = h.Contested
		}
		if h.Record != "" {
			record[path] = h.Record
		}
	}
	return withoutLive(fs, why, contested, record)
}
