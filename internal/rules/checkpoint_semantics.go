package rules

import (
	"fmt"
	"math"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// Checkpoint files: their content against itself, their name, and their
// merge into the ORCHESTRATION.yaml of their workflow (SPEC §3.3 RL202–RL207;
// seed 001 §Checkpoint Data Design).

var ckpt = []load.Kind{load.KindCheckpoint}

var (
	CheckpointName = &Rule{Code: code.CheckpointName, Name: "checkpoint-name", Severity: diag.SevError, Kinds: ckpt, Family: "checkpoint",
		Summary: "file name is not <id>-checkpoint.json or <id>.json for its event_id/checkpoint_id", Run: runCheckpointName}
	CheckpointAck = &Rule{Code: code.CheckpointAck, Name: "checkpoint-ack", Severity: diag.SevError, Kinds: ckpt, Family: "checkpoint",
		Summary: "acknowledged and acknowledged_at disagree, or acknowledged before written", Run: runCheckpointAck}
	CheckpointContext = &Rule{Code: code.CheckpointContext, Name: "checkpoint-context", Severity: diag.SevError, Kinds: ckpt, Family: "checkpoint",
		Summary: "context fill that is not tokens/window, outside [0,1], or of another tier", Run: runCheckpointContext}
	CheckpointPhases = &Rule{Code: code.CheckpointPhases, Lifecycle: AboutFinished, Name: "checkpoint-phases", Severity: diag.SevError, Kinds: ckpt, Family: "checkpoint",
		Summary: "orchestration_state phase lists that overlap, or a current phase, gate or score that does not fit", Run: runCheckpointPhases}
	// CheckpointMerge reports from the index facts of checkpoints and
	// orchestration files, in Finalize.
	CheckpointMerge = &Rule{Code: code.CheckpointMerge, Name: "checkpoint-merge", Severity: diag.SevWarning,
		Kinds: []load.Kind{load.KindCheckpoint, load.KindOrchestration}, Family: "checkpoint",
		Summary:  "a checkpoint no compaction event of its workflow references, or still unacknowledged after a later update",
		Finalize: finalizeCheckpointMerge}
	CheckpointFiles = &Rule{Code: code.CheckpointFiles, Name: "checkpoint-files", Severity: diag.SevError, Kinds: ckpt, Family: "checkpoint",
		Summary: "recovery_instructions.files_to_read paths that resolve nowhere", Run: runCheckpointFiles}
)

func init() {
	Register(CheckpointName, CheckpointAck, CheckpointContext, CheckpointPhases, CheckpointMerge, CheckpointFiles)
}

// checkpointIDRe is #CheckpointID; other ids are the schema rule's (RL201).
var checkpointIDRe = lazyre.New(`^cx-\d{3}$`)

// checkpointOf is the typed view of the pass's checkpoint file; nil when
// its top level is not a mapping.
func checkpointOf(p *Pass) *model.CheckpointDoc { return checkpointResult.Of(p) }

var checkpointResult = NewResult("checkpoint", func(p *Pass) *model.CheckpointDoc {
	if p.Doc == nil {
		return nil
	}
	return model.CheckpointDocOf(p.Doc.Root)
})

// ---- RL202 checkpoint-name --------------------------------------------------

func runCheckpointName(p *Pass) {
	c := checkpointOf(p)
	if c == nil || !c.ID.OK || !checkpointIDRe.MatchString(c.ID.Value) {
		return
	}
	id := c.ID.Value
	base := path.Base(p.Doc.File.Path)
	if base != id+"-checkpoint.json" && base != id+".json" {
		p.Report(p.Doc.File, c.ID.Node, fmt.Sprintf("file name %s does not match %s %s: rename it to %s-checkpoint.json or %s.json", base, c.ID.Key.Value, id, id, id))
	}
}

// ---- RL203 checkpoint-ack ---------------------------------------------------

func runCheckpointAck(p *Pass) {
	c := checkpointOf(p)
	if c == nil || c.Seed.Metadata == nil || !c.Seed.Metadata.Acknowledged.OK {
		return
	}
	f, md := p.Doc.File, c.Seed.Metadata
	av, ack := md.Acknowledged.Node, md.Acknowledged.Value
	atk, atv := md.AcknowledgedAt.Key, md.AcknowledgedAt.Node
	atNull := atk == nil || node.IsNull(atv)
	if ack && atNull {
		p.Report(f, av, fmt.Sprintf("acknowledged is true but acknowledged_at is %s: record when the re-orientation merged this checkpoint", map[bool]string{true: "missing", false: "null"}[atk == nil]))
		return
	}
	if !ack && !atNull {
		if s := md.AcknowledgedAt; s.OK {
			p.Report(f, atv, fmt.Sprintf("acknowledged_at %s is set but acknowledged is false (line %d): set acknowledged: true, or clear acknowledged_at", s.Value, av.Line), WithRelated(relatedAt(f, av, "metadata.acknowledged")))
		}
		return
	}
	at, as, _, ok1 := timeOf(atv)
	tv := c.Seed.Timestamp.Node
	t, ts, _, ok2 := timeOf(tv)
	if ack && ok1 && ok2 && surelyAfter(t, hasZone(ts), at, hasZone(as)) {
		p.Report(f, atv, fmt.Sprintf("acknowledged_at %s is before the checkpoint's timestamp %s (line %d): correct one of them", as, ts, tv.Line), WithRelated(relatedAt(f, tv, "timestamp")))
	}
}

// ---- RL204 checkpoint-context -----------------------------------------------

// tierRange is a tier's fill interval [lo, hi).
type tierRange struct{ lo, hi float64 }

// Seed 001 §Integration with Detection System names four levels; the
// runtime writer (checkpoint_id files) uses five with other bounds. A tier
// matches when its fill lies in its interval on either scale.
var (
	seedTiers = map[string]tierRange{"LOW": {0, 0.60}, "WARNING": {0.60, 0.80}, "CRITICAL": {0.80, 0.90}, "COMPACTION": {0.90, math.Inf(1)}}
	runTiers  = map[string]tierRange{"NOMINAL": {0, 0.55}, "LOW": {0.55, 0.70}, "WARNING": {0.70, 0.80}, "CRITICAL": {0.80, 0.88}, "EMERGENCY": {0.88, math.Inf(1)}}
)

func seedTierOf(fill float64) string {
	for _, t := range []string{"LOW", "WARNING", "CRITICAL", "COMPACTION"} {
		if r := seedTiers[t]; fill >= r.lo && fill < r.hi {
			return t
		}
	}
	return "COMPACTION"
}

func runCheckpointContext(p *Pass) {
	c := checkpointOf(p)
	var fillF model.Float
	var tok, win model.Int
	var tierS model.Str
	fillKey, tokKey, winKey := "estimated_fill_before_compaction", "estimated_tokens_used", "context_window_size"
	switch {
	case c == nil:
		return
	case c.RuntimeContext != nil:
		cs := c.RuntimeContext
		fillKey, tokKey, winKey = "fill_percentage", "token_count", "context_window"
		fillF, tok, win, tierS = cs.FillPercentage, cs.TokenCount, cs.ContextWindow, cs.Tier
		if win.Key == nil {
			// The writer's first form has no context_window; its reader
			// takes 200000, as the fill was computed then.
			win.Value, win.OK, winKey = 200000, true, "context_window (absent: 200000)"
		}
	case c.SeedContext != nil:
		// The seed form has no tier; one written anyway is still judged.
		cs := c.SeedContext
		fillF, tok, win, tierS = cs.EstimatedFillBeforeCompaction, cs.EstimatedTokensUsed, cs.ContextWindowSize, model.RuntimeContextStateOf(cs.Key, cs.Node).Tier
	default:
		return
	}
	f := p.Doc.File
	fv, fill := fillF.Node, fillF.Value
	if !fillF.OK {
		return
	}
	if fill < 0 || fill > 1 {
		// A percentage is the usual slip: its own fraction is the example.
		example := "0.886 for 88.6%"
		if fill > 1 && fill <= 100 {
			example = fmt.Sprintf("%.4g for %g%%", fill/100, fill)
		}
		p.Report(f, fv, fmt.Sprintf("%s %s is outside [0, 1]: write the fraction of the context window in use (%s)", fillKey, fv.Value, example))
		return
	}
	tv, wv := tok.Node, win.Node
	tokens, window := tok.Value, win.Value
	if tok.OK && win.OK && window > 0 {
		ratio := float64(tokens) / float64(window)
		if math.Abs(fill-ratio) > 0.005+1e-12 {
			related := []diag.Related{relatedAt(f, tv, tokKey)}
			if wv != nil {
				related = append(related, relatedAt(f, wv, winKey))
			}
			p.Report(f, fv, fmt.Sprintf("%s %s does not match %s / %s = %d / %d = %.4g (tolerance ±0.005): correct it", fillKey, fv.Value, tokKey, winKey, tokens, window, ratio), WithRelated(related...))
		}
	}
	trv, tier := tierS.Node, tierS.Value
	if !tierS.OK {
		return
	}
	w := node.StatusWord(tier)
	sr, inSeed := seedTiers[w]
	rr, inRun := runTiers[w]
	switch {
	case !inSeed && !inRun:
		p.Report(f, trv, fmt.Sprintf("tier %s is not a context tier: write LOW, WARNING, CRITICAL or COMPACTION (or the runtime writer's NOMINAL or EMERGENCY)", diag.Quote(tier)))
	case inSeed && fill >= sr.lo && fill < sr.hi, inRun && fill >= rr.lo && fill < rr.hi:
	default:
		p.Report(f, trv, fmt.Sprintf("tier %s does not match %s %s, which is %s: correct the tier or the fill", diag.Quote(tier), fillKey, fv.Value, seedTierOf(fill)), WithRelated(relatedAt(f, fv, fillKey)))
	}
}

// ---- RL205 checkpoint-phases ------------------------------------------------

func intList(n *yaml.Node) ([]int64, []*yaml.Node, bool) {
	if !node.IsSeq(n) {
		return nil, nil, false
	}
	var out []int64
	for _, c := range n.Content {
		x, ok := node.Int(c)
		if !ok {
			return nil, nil, false
		}
		out = append(out, x)
	}
	return out, n.Content, true
}

func runCheckpointPhases(p *Pass) {
	c := checkpointOf(p)
	if c == nil || c.Seed.OrchestrationState == nil {
		return
	}
	st := c.Seed.OrchestrationState
	f := p.Doc.File
	if IsFinishedStatus(st.WorkflowStatus.Value) {
		finishedCheckpointOpen(p, st)
		return
	}
	names := []string{"phases_complete", "phases_in_progress", "phases_remaining"}
	fields := []model.Field{st.PhasesComplete, st.PhasesInProgress, st.PhasesRemaining}
	type list struct {
		vals  []int64
		nodes []*yaml.Node
		ok    bool
	}
	lists := make([]list, len(names))
	for i := range names {
		v, ns, ok := intList(fields[i].Node)
		lists[i] = list{v, ns, ok}
	}
	for i := range names {
		if !lists[i].ok {
			continue
		}
		// first is where each phase of list i first appears: the lists
		// are compared through it, not each entry against each.
		first := make(map[int64]int, len(lists[i].vals))
		for a, x := range lists[i].vals {
			if _, seen := first[x]; !seen {
				first[x] = a
			}
		}
		for j := i + 1; j < len(names); j++ {
			if !lists[j].ok {
				continue
			}
			for b, y := range lists[j].vals {
				if a, ok := first[y]; ok {
					p.Report(f, lists[j].nodes[b], fmt.Sprintf("phase %d is in both %s (line %d) and %s: keep it in one list", y, names[i], lists[i].nodes[a].Line, names[j]), WithRelated(relatedAt(f, lists[i].nodes[a], names[i])), AboutLive())
				}
			}
		}
	}
	cpv := st.CurrentPhase.Node
	if cur, ok := int64(st.CurrentPhase.Value), st.CurrentPhase.OK; ok && lists[1].ok {
		in := false
		for _, x := range lists[1].vals {
			in = in || x == cur
		}
		switch canonWorkflowStatus(st.WorkflowStatus.Value) {
		case "COMPLETE", "FAILED", "CANCELLED":
			in = true
		}
		if !in {
			pv := st.PhasesInProgress.Node
			p.Report(f, cpv, fmt.Sprintf("current_phase %d is not in phases_in_progress %s (line %d): correct one of them", cur, flowList(lists[1].vals), pv.Line), WithRelated(relatedAt(f, pv, "orchestration_state.phases_in_progress")), AboutLive())
		}
	}
	gk, gv := st.CurrentGate.Key, st.CurrentGate.Node
	ik, iv := st.CurrentGateIteration.Key, st.CurrentGateIteration.Node
	if gk != nil && ik != nil {
		gate, gateSet := st.CurrentGate.Value, st.CurrentGate.OK
		iter, iterSet := st.CurrentGateIteration.Value, st.CurrentGateIteration.OK
		switch {
		case gateSet && node.IsNull(iv):
			p.Report(f, iv, fmt.Sprintf("current_gate_iteration is null while current_gate is %s (line %d): set both during a gate, or both to null between gates", gate, gv.Line), AboutLive())
		case iterSet && node.IsNull(gv):
			p.Report(f, iv, fmt.Sprintf("current_gate_iteration is %d while current_gate is null (line %d): set both during a gate, or both to null between gates", iter, gv.Line), AboutLive())
		}
	}
	if sv := st.CurrentGateScore.Node; sv != nil {
		if s, ok := st.CurrentGateScore.Value, st.CurrentGateScore.OK; ok && (s < 0 || s > 1) {
			p.Report(f, sv, fmt.Sprintf("current_gate_score %s is outside [0, 1]", sv.Value), AboutLive())
		}
	}
}

// finishedCheckpointOpen reports a checkpoint that records its workflow
// as complete while its own orchestration_state still has a phase in
// progress or to come, or a gate under way: "is it really finished?"
// (SPEC §0), the one thing said of a finished checkpoint. A workflow
// cancelled or failed stopped with its work open, which is what those
// words mean (as RL106 holds only a COMPLETE workflow to its phases).
func finishedCheckpointOpen(p *Pass, st *model.CheckpointOrchestrationState) {
	if canonWorkflowStatus(st.WorkflowStatus.Value) != "COMPLETE" {
		return
	}
	f := p.Doc.File
	var open []string
	var rel []diag.Related
	for _, l := range []struct {
		name string
		fd   model.Field
	}{{"phases_in_progress", st.PhasesInProgress}, {"phases_remaining", st.PhasesRemaining}} {
		if v, ns, ok := intList(l.fd.Node); ok && len(v) > 0 {
			open = append(open, l.name+" "+flowList(v))
			rel = append(rel, relatedAt(f, ns[0], "orchestration_state."+l.name))
		}
	}
	if g := st.CurrentGate; g.OK && strings.TrimSpace(g.Value) != "" {
		open = append(open, "current_gate "+diag.Quote(g.Value))
		rel = append(rel, relatedAt(f, g.Node, "orchestration_state.current_gate"))
	}
	if len(open) == 0 {
		return
	}
	p.Report(f, st.WorkflowStatus.Node, fmt.Sprintf("workflow_status %s, but %s still open: update them or the status", diag.Quote(st.WorkflowStatus.Value), joinAnd(open)), WithRelated(rel...))
}

func flowList(vs []int64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ---- RL206 checkpoint-merge -------------------------------------------------

// workflowOwners are the orchestration files of one workflow that record
// compaction events, by path, with what RL206 asks of them answered once
// for the workflow: a repository of copied projects can share one
// workflow id among thousands of files, and each checkpoint of it asks.
type workflowOwners struct {
	facts []*OrchestrationFact
	// named holds, lower-cased, the checkpoint ids the unresolved
	// events' checkpoint_file names (cx-001 for cx-001-checkpoint.json):
	// the data was merged, and the name mismatch is RL202's.
	named map[string]bool
	// zoned[i] is the latest updated_at among facts[:i+1] (zero while
	// none has one) as compared with a time written with its zone, local[i]
	// as compared with one without (surelyAfter), so the first file updated
	// after a time is found by a binary search.
	zoned, local []time.Time
}

func (w *workflowOwners) add(of *OrchestrationFact) {
	for _, ev := range of.Events {
		if ev.Resolved != "" {
			continue
		}
		base := strings.ToLower(path.Base(strings.ReplaceAll(ev.CheckpointFile, "\\", "/")))
		w.named[strings.TrimSuffix(strings.TrimSuffix(base, ".json"), "-checkpoint")] = true
	}
	z, l := of.UpdatedAt, of.UpdatedAt
	if !z.IsZero() {
		z, l = earliestUTC(z, of.UpdatedAtZone), localTo(z, of.UpdatedAtZone)
	}
	w.facts = append(w.facts, of)
	w.zoned = appendMax(w.zoned, z)
	w.local = appendMax(w.local, l)
}

// appendMax appends to a running maximum (zero times do not count).
func appendMax(run []time.Time, t time.Time) []time.Time {
	if n := len(run); n > 0 && (t.IsZero() || run[n-1].After(t)) {
		t = run[n-1]
	}
	return append(run, t)
}

// namedByID reports an unresolved compaction event of the workflow that
// names the checkpoint id.
func (w *workflowOwners) namedByID(id string) bool {
	return id != "" && w.named[strings.ToLower(id)]
}

// firstUpdatedAfter returns the first file, by path, whose updated_at is
// surely after t (written with its zone or not: zone), or nil.
func (w *workflowOwners) firstUpdatedAfter(t time.Time, zone bool) *OrchestrationFact {
	run := w.local
	if zone {
		run = w.zoned
	}
	i := sort.Search(len(run), func(i int) bool { return !run[i].IsZero() && run[i].After(t) })
	if i == len(w.facts) {
		return nil
	}
	return w.facts[i]
}

// ownersShown is how many of a workflow's orchestration files a finding
// names (of more, it counts them), and ownersLinked how many it links as
// related locations: a finding stays one line whatever the copies.
const (
	ownersShown  = 2
	ownersLinked = 5
)

func finalizeCheckpointMerge(p *RepoPass) {
	cps := Checkpoints.All(p.Index)
	orchs := Orchestrations.All(p.Index)
	// By path: a workflow's files are named and linked in that order. The
	// checkpoints need none: the run's findings are sorted at its end.
	slices.SortFunc(orchs, func(a, b *OrchestrationFact) int { return strings.Compare(a.Path, b.Path) })
	refs := map[string][]*OrchestrationFact{}
	for _, of := range orchs {
		for _, ev := range of.Events {
			if ev.Resolved != "" {
				refs[ev.Resolved] = append(refs[ev.Resolved], of)
			}
		}
	}
	// The workflows are gathered when a checkpoint first asks for its
	// own: most are referenced by a resolved event and acknowledged.
	var byWorkflow map[string]*workflowOwners
	ownersOf := func(cp *CheckpointFact) *workflowOwners {
		if cp.WorkflowID == "" {
			return nil
		}
		if byWorkflow == nil {
			byWorkflow = workflowsOf(orchs)
		}
		return byWorkflow[strings.ToLower(cp.WorkflowID)]
	}
	for _, cp := range cps {
		referencing := refs[cp.OSPath]
		if len(referencing) == 0 {
			if owners := ownersOf(cp); owners != nil && !owners.namedByID(cp.ID) {
				reportUnmerged(p, cp, owners.facts)
			}
		}
		if !cp.HasAck || cp.Acknowledged || cp.Time.IsZero() {
			continue
		}
		// The first file by path, of those whose events resolve to this
		// checkpoint and those of its workflow, updated after it.
		var of *OrchestrationFact
		for _, r := range referencing {
			if !r.UpdatedAt.IsZero() && surelyAfter(r.UpdatedAt, r.UpdatedAtZone, cp.Time, cp.TimeZone) {
				of = r
				break
			}
		}
		if owners := ownersOf(cp); owners != nil {
			if o := owners.firstUpdatedAfter(cp.Time, cp.TimeZone); o != nil && (of == nil || o.Path < of.Path) {
				of = o
			}
		}
		if of == nil {
			continue
		}
		msg := diag.FitClip(func(w int) string {
			return fmt.Sprintf("acknowledged is false, but %s changed after this checkpoint (%s): merge it, set acknowledged: true", diag.ClipPath(of.Path, w), of.UpdatedAtText)
		})
		p.ReportAt(cp.Path, cp.AckAt.Start, cp.AckAt.End, msg, WithSnippet(cp.AckAt.Text), WithRelated(diag.Related{Path: of.Path, Line: of.UpdatedAtAt.Line, Column: of.UpdatedAtAt.Col, Message: "recovery_state.updated_at"}))
	}
}

// workflowsOf gathers the orchestration files (by path) that record
// compaction events, by lower-cased workflow id.
func workflowsOf(orchs []*OrchestrationFact) map[string]*workflowOwners {
	byWorkflow := map[string]*workflowOwners{}
	for _, of := range orchs {
		if of.WorkflowID == "" || !of.HasEvents {
			continue
		}
		wf := strings.ToLower(of.WorkflowID)
		w := byWorkflow[wf]
		if w == nil {
			w = &workflowOwners{named: map[string]bool{}}
			byWorkflow[wf] = w
		}
		w.add(of)
	}
	return byWorkflow
}

// reportUnmerged reports a checkpoint that no compaction event of its
// workflow's orchestration files (owners, by path) names.
func reportUnmerged(p *RepoPass, cp *CheckpointFact, owners []*OrchestrationFact) {
	var rel []diag.Related
	for _, of := range owners[:min(len(owners), ownersLinked)] {
		rel = append(rel, diag.Related{Path: of.Path, Line: of.EventsAt.Line, Column: of.EventsAt.Col, Message: "compaction_events of workflow " + cp.WorkflowID})
	}
	at := cp.IDAt
	if at.Start.Line == 0 {
		at = Span{Start: diag.Pos{Line: 1, Col: 1}, Text: cp.Line1}
	}
	var msg string
	if len(owners) > ownersShown {
		// The files are the related locations: the message counts them.
		msg = diag.FitClip(func(w int) string {
			return fmt.Sprintf("no compaction event in the %d orchestration files of workflow %s names this checkpoint: merge it into the resumption section",
				len(owners), diag.ClipTo(cp.WorkflowID, w))
		})
	} else {
		msg = diag.FitClip(func(w int) string {
			clipped := make([]string, len(owners))
			for i, of := range owners {
				clipped[i] = diag.ClipPath(of.Path, w)
			}
			return fmt.Sprintf("no compaction event in %s (workflow %s) names this checkpoint: merge it into the resumption section",
				strings.Join(clipped, ", "), diag.ClipTo(cp.WorkflowID, w))
		})
	}
	p.ReportAt(cp.Path, at.Start, at.End, msg, WithRelated(rel...), WithSnippet(at.Text))
}

// ---- RL207 checkpoint-files -------------------------------------------------

func runCheckpointFiles(p *Pass) {
	c := checkpointOf(p)
	if c == nil || c.Seed.RecoveryInstructions == nil {
		return
	}
	ft := c.Seed.RecoveryInstructions.FilesToRead.Node
	if !node.IsSeq(ft) {
		return
	}
	f := p.Doc.File
	res := ResolverOf(p)
	for i, e := range ft.Content {
		pv := e
		if node.IsMap(e) {
			pv = model.FileToReadEntryOf(nil, e).Path.Node
		}
		s, ok := node.Str(pv)
		if !ok || strings.TrimSpace(s) == "" || strings.HasPrefix(strings.TrimSpace(s), "~") {
			continue
		}
		if _, ok := res.Resolve(s); !ok {
			p.Report(f, pv, res.NotFound(fmt.Sprintf("recovery_instructions.files_to_read[%d]", i), s))
		}
	}
}
