package rules

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// ORCHESTRATION.yaml: the resumption section against the rest of the file
// (SPEC §3.2 RL104–RL107; seed 000 §Update Semantics, §Staleness Detection).
// Each rule reads only what it compares and stays silent on shapes the
// schema rule (RL102) reports.

var (
	CheckpointLink = &Rule{Code: code.CheckpointLink, Name: "checkpoint-link", Severity: diag.SevError, Fix: diag.FixSafe, Kinds: orch, Family: "orchestration",
		Summary: "last_checkpoint differs from checkpoints.latest_id, or is set while there are no checkpoint entries", Run: runCheckpointLink}
	PhaseConsistency = &Rule{Code: code.PhaseConsistency, Name: "phase-consistency", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "current_phase/current_phase_name disagree with the pipelines", Run: runPhaseConsistency}
	WorkflowStatus = &Rule{Code: code.WorkflowStatus, Lifecycle: AboutFinished, Name: "workflow-status", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "workflow_status or current_activity contradicts the rest of the file", Run: runWorkflowStatus}
	StaleResumption = &Rule{Code: code.StaleResumption, Name: "stale-resumption", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "recovery_state.updated_at older than a later state transition recorded in the file (or than staleness.max_age)", Run: runStaleResumption}
)

func init() {
	Register(CheckpointLink, PhaseConsistency, WorkflowStatus, StaleResumption)
}

// ---- the file's own sections ------------------------------------------------

// recoveryOf returns recovery_state of a v2.0 (or mixed) section, or
// nil: the v2-only rules stay silent on v1.0 sections (RL101 reports them).
func recoveryOf(p *Pass) *model.RecoveryState {
	r := ResumptionOf(p)
	if r == nil || r.Version() == "v1" {
		return nil
	}
	return r.Recovery
}

// trajectoryOf returns quality_trajectory of a v2.0 (or mixed) section when
// it is a mapping, else nil.
func trajectoryOf(p *Pass) *model.QualityTrajectory {
	r := ResumptionOf(p)
	if r == nil || r.Version() == "v1" {
		return nil
	}
	return r.Trajectory
}

// agentSummaries is a v2.0 section's agent_summaries, key and value.
func agentSummaries(p *Pass) (key, val *yaml.Node) {
	r := ResumptionOf(p)
	if r == nil || r.Version() == "v1" {
		return nil, nil
	}
	return r.V2.AgentSummaries.Key, r.V2.AgentSummaries.Node
}

func isComplete(status string) bool {
	switch node.StatusWord(status) {
	case "COMPLETE", "COMPLETED", "DONE", "FINISHED", "CLOSED":
		return true
	}
	return false
}

func isInProgress(status string) bool {
	switch node.StatusWord(status) {
	case "IN_PROGRESS", "ACTIVE", "RUNNING", "STARTED":
		return true
	}
	return false
}

// isSettled is a phase that holds up nothing: complete, skipped or cancelled.
func isSettled(status string) bool {
	switch node.StatusWord(status) {
	case "SKIPPED", "CANCELLED", "CANCELED", "NOT_APPLICABLE", "N/A", "SUPERSEDED", "ABANDONED", "ARCHIVED":
		return true
	}
	return isComplete(status)
}

// isPassed is a quality gate that passed.
func isPassed(status string) bool {
	switch node.StatusWord(status) {
	case "PASS", "PASSED", "COMPLETE", "COMPLETED":
		return true
	}
	return false
}

// saysComplete says whether recovery_state.workflow_status ws records the
// workflow COMPLETE: the enum's value, or another spelling of it in a
// finished record, whose open work is a finding beside the spelling's
// (SPEC §0). In a live record another spelling is RL102's enum finding.
func saysComplete(p *Pass, ws string) bool {
	return ws == "COMPLETE" || canonWorkflowStatus(ws) == "COMPLETE" && WorkflowFinished(p) && !isPlaceholderIn(p.Doc.File, ws)
}

// canonWorkflowStatus compares lifecycle states written either way
// (COMPLETED in workflow.status, COMPLETE in recovery_state; a running
// workflow's IN_PROGRESS against the enum's ACTIVE).
func canonWorkflowStatus(s string) string {
	w := node.FinishedWord(s)
	if w == "" {
		w = node.StatusWord(s)
		if node.FinishedWords[w] {
			// A finished word about a part, or still at work ("Complete
			// (phase 2 of 3)", "FAILED - retrying"): the record is not.
			return strings.ToUpper(strings.Join(strings.Fields(s), "_"))
		}
	}
	switch w {
	case "COMPLETED", "DONE", "FINISHED", "CLOSED", "ARCHIVED":
		return "COMPLETE"
	case "CANCELED", "ABANDONED", "SUPERSEDED", "ABORTED":
		return "CANCELLED"
	case "IN_PROGRESS", "RUNNING", "EXECUTING", "STARTED":
		return "ACTIVE"
	default:
		return w
	}
}

// pipelines is model.PipelinesOf the unit's document, read once for the rules
// that share it. Callers must not modify what it returns.
func pipelines(p *Pass) []*model.Pipeline { return OrchestrationOf(p).Pipelines }

func lineOf(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

func relatedAt(f *load.File, n *yaml.Node, msg string) diag.Related {
	pos := node.Pos(n)
	return diag.Related{Path: f.Path, Line: pos.Line, Column: pos.Col, Message: msg}
}

// quoteShort quotes a value for a message, cutting prose down to size.
func quoteShort(s string) string { return diag.Quote(s) }

// listShort names up to four items and counts the rest.
func listShort(items []string) string { return diag.List(items, 4) }

// quoteName quotes a name (of a phase, a gate) for a message, clipped to 40
// characters.
func quoteName(s string) string { return diag.QuoteTo(s, 40) }

// joinShort joins at most n parts with sep, then counts the rest.
func joinShort(parts []string, sep string, n int) string {
	if len(parts) <= n {
		return strings.Join(parts, sep)
	}
	return fmt.Sprintf("%s%s%d more", strings.Join(parts[:n], sep), sep, len(parts)-n)
}

func isPlaceholderIn(f *load.File, s string) bool {
	return f.Template && hasTemplateVar(s)
}

// ---- RL104 checkpoint-link --------------------------------------------------

func runCheckpointLink(p *Pass) {
	r := ResumptionOf(p)
	if r == nil {
		return
	}
	f := p.Doc.File
	holder, field := r.RecoveryState, "recovery_state.last_checkpoint"
	if r.Version() == "v1" {
		holder, field = r.Node, "last_checkpoint"
	}
	var lc model.Str
	if r.Version() == "v1" {
		lc = r.V1.LastCheckpoint
	} else if r.Recovery != nil {
		lc = r.Recovery.LastCheckpoint
	}
	lk, lv := lc.Key, lc.Node
	if lk == nil {
		return
	}
	last, isStr := lc.Value, lc.OK
	if !isStr && !node.IsNull(lv) || isStr && unfilled(f, last) {
		return
	}
	at := lv
	if at == nil || at.Line == 0 {
		at = lk
	}
	cps := OrchestrationOf(p).Checkpoints
	ck, cv := cps.Key, cps.Node
	if isStr && barrierCheckpoint(OrchestrationOf(p), last) != "" && !cps.LatestID.OK {
		return // recorded per barrier, as jerry does: its artifacts.checkpoint holds it
	}
	if !node.IsMap(cv) {
		if isStr && ck == nil {
			p.Report(f, at, fmt.Sprintf("%s %s names a checkpoint, but the file has no checkpoints section: add the checkpoint there, or set it to null", field, quoteShort(last)))
		}
		return
	}
	ek, ev := cps.Entries.Key, cps.Entries
	if isStr && node.IsSeq(ev.Node) && len(ev.Items) == 0 {
		p.Report(f, at, fmt.Sprintf("%s %s is set, but checkpoints.entries is empty (line %d): record that checkpoint there, or set it to null until one exists", field, quoteShort(last), ek.Line), WithRelated(relatedAt(f, ek, "checkpoints.entries")))
		// No fix: clearing the pointer is no move forward (SPEC §5).
		return
	}
	idk, idv := cps.LatestID.Key, cps.LatestID.Node
	if idk == nil {
		return
	}
	latest, latestStr := cps.LatestID.Value, cps.LatestID.OK
	if !latestStr && !node.IsNull(idv) || latestStr && isPlaceholderIn(f, latest) {
		return
	}
	var msg string
	switch {
	case isStr && latestStr && !strings.EqualFold(last, latest) && !sameCheckpoint(OrchestrationOf(p), ev, last, latest):
		msg = fmt.Sprintf("%s %s differs from checkpoints.latest_id %s (line %d): set it to the latest checkpoint ID", field, quoteShort(last), quoteShort(latest), idk.Line)
	case !isStr && latestStr:
		msg = fmt.Sprintf("%s is null, but checkpoints.latest_id is %s (line %d): set it to the latest checkpoint ID", field, quoteShort(latest), idk.Line)
	case isStr && !latestStr:
		msg = fmt.Sprintf("%s %s, but checkpoints.latest_id is null (line %d): make the two name the same checkpoint", field, quoteShort(last), idk.Line)
	}
	if msg != "" {
		var fx *diag.Fix
		if latestStr && movesForward(ev, last, isStr, latest) {
			fx = fix.CopyLatestID(p.Doc, lv, idv, holder.Style&yaml.FlowStyle != 0)
		}
		p.Report(f, at, msg, WithRelated(relatedAt(f, idv, "checkpoints.latest_id")), WithFix(fx))
	}
}

// sameCheckpoint reports a last_checkpoint that names the latest
// checkpoint in another form jerry writes for it (SPEC §3.2 RL104): the
// timestamp of the entry whose id is latest, or the id of the barrier whose
// artifacts.checkpoint holds it.
func sameCheckpoint(o *model.Orchestration, entries model.List[*model.CheckpointEntry], last, latest string) bool {
	for _, e := range entries.Items {
		if e == nil || !e.ID.OK || !strings.EqualFold(e.ID.Value, latest) {
			continue
		}
		if ts := e.Timestamp.Node; node.IsScalar(ts) && sameInstant(ts.Value, last) {
			return true
		}
	}
	held := barrierCheckpoint(o, last)
	return held != "" && containsID(held, latest)
}

// sameInstant says whether two timestamps name one instant, however
// written (Z or +00:00, another offset, fractions of a second); text that
// is no timestamp only when it is the same.
func sameInstant(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if a == b {
		return true
	}
	ta, za, oka := ParseTimestamp(a)
	tb, zb, okb := ParseTimestamp(b)
	return oka && okb && za == zb && ta.Equal(tb)
}

// barrierCheckpoint returns the artifacts.checkpoint of the barrier whose
// id is id (barriers: a list of {id, artifacts}, or a mapping by id), or
// "" when there is none: jerry records a checkpoint per barrier.
func barrierCheckpoint(o *model.Orchestration, id string) string {
	bs := o.Doc.Barriers
	held := func(b *model.QualityGate) string {
		if b == nil || b.Artifacts == nil {
			return ""
		}
		return strings.TrimSpace(b.Artifacts.Checkpoint.Value)
	}
	found := -1
	for i, b := range bs.Items {
		switch {
		case bs.Keys != nil && bs.Keys[i].Value == id:
			found = i // the last one wins, as in a mapping's lookup
		case bs.Keys == nil && found < 0 && b != nil && b.ID.OK && strings.EqualFold(b.ID.Value, id):
			found = i
		}
	}
	if found < 0 {
		return ""
	}
	return held(bs.Items[found])
}

// containsID reports whether s names the checkpoint id: equal, or a path
// or text holding it as a whole word ("barriers/CP-002/checkpoint.yaml").
func containsID(s, id string) bool {
	ls, lid := strings.ToLower(s), strings.ToLower(id)
	for i := 0; ; {
		j := strings.Index(ls[i:], lid)
		if j < 0 || lid == "" {
			return false
		}
		a, b := i+j, i+j+len(lid)
		if (a == 0 || !isIDChar(ls[a-1])) && (b == len(ls) || !isIDChar(ls[b])) {
			return true
		}
		i = a + 1
	}
}

func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// sameSeries reports two checkpoint ids numbered in one series: the same
// text before their trailing number (CP-005, CP-006). An id outside the
// series (CP-TEST-001 after CP-005, an E2E test's entry) may not be the
// work's next checkpoint, so RL104 cannot prove moving to it is forward.
func sameSeries(a, b string) bool {
	pa, oka := seriesPrefix(a)
	pb, okb := seriesPrefix(b)
	return oka && okb && strings.EqualFold(pa, pb)
}

// seriesPrefix is an id without its trailing digits; ok is false when it
// does not end in one.
func seriesPrefix(id string) (string, bool) {
	t := strings.TrimRight(id, "0123456789")
	return t, len(t) < len(id)
}

// movesForward reports whether setting last_checkpoint (hasLast false:
// null) to latest moves it forward to a recorded, later checkpoint (SPEC
// §5): latest is an entry of checkpoints.entries, and the current one is
// none or an entry before it of the same series (sameSeries), earlier in
// time when both are dated. A pointer naming something unrecorded, or a
// latest_id that is itself stale, gets no fix.
func movesForward(entries model.List[*model.CheckpointEntry], last string, hasLast bool, latest string) bool {
	es := entries.Items
	if !node.IsSeq(entries.Node) {
		return false
	}
	li, ti := -1, -1
	for i, e := range es {
		if e == nil || !e.ID.OK {
			continue
		}
		id := e.ID.Value
		if hasLast && strings.EqualFold(id, last) {
			if li >= 0 {
				return false // recorded twice: no order to go by
			}
			li = i
		}
		if strings.EqualFold(id, latest) {
			if ti >= 0 {
				return false
			}
			ti = i
		}
	}
	if ti < 0 {
		return false
	}
	if ti != len(es)-1 {
		return false // a later entry exists: latest_id is stale itself
	}
	if !hasLast {
		return true
	}
	if li < 0 || li >= ti || !sameSeries(last, latest) {
		return false
	}
	lt, _, _, lok := timeOf(es[li].Timestamp.Node)
	tt, _, _, tok := timeOf(es[ti].Timestamp.Node)
	return !lok || !tok || tt.After(lt)
}

// ---- RL105 phase-consistency ------------------------------------------------

// phaseExpectation is the current phase one pipeline implies, and why.
type phaseExpectation struct {
	pipe   *model.Pipeline
	nums   []int
	phases []*model.Phase
	why    string
}

func runPhaseConsistency(p *Pass) {
	rs := recoveryOf(p)
	if rs == nil || !rs.CurrentPhase.OK {
		return
	}
	cur := rs.CurrentPhase.Value
	pipes := pipelines(p)
	exps, matched := expectedPhases(pipes, cur)
	if len(exps) == 0 {
		return
	}
	if len(matched) == 0 {
		reportPhaseMismatch(p, rs.CurrentPhase.Node, cur, exps)
		return
	}
	checkPhaseName(p, rs.CurrentPhaseName, cur, pipes, matched)
}

// expectedPhases is what each pipeline's phase statuses (or its own
// current_phase) imply the current phase is, and the pipelines that agree
// with cur.
func expectedPhases(pipes []*model.Pipeline, cur int) ([]phaseExpectation, map[*model.Pipeline]bool) {
	var exps []phaseExpectation
	matched := map[*model.Pipeline]bool{}
	for _, pi := range pipes {
		e := phaseExpectation{pipe: pi}
		var last *model.Phase
		anyStatus := false
		for _, ph := range pi.Phases {
			if ph.Status != "" {
				anyStatus = true
			}
			if isInProgress(ph.Status) {
				e.nums = append(e.nums, ph.Num)
				e.phases = append(e.phases, ph)
			}
			if isComplete(ph.Status) && (last == nil || ph.Num >= last.Num) {
				last = ph
			}
		}
		switch {
		case len(e.phases) > 0:
			e.why = "IN_PROGRESS"
		case last != nil:
			e.nums, e.phases, e.why = []int{last.Num}, []*model.Phase{last}, "the last COMPLETE phase"
		case anyStatus:
			e.nums, e.why = []int{0}, "no phase has started"
			if pi.HasCurrent {
				e.nums = append(e.nums, pi.CurrentPhase)
			}
		case pi.HasCurrent:
			e.nums, e.why = []int{pi.CurrentPhase}, "current_phase"
		default:
			continue
		}
		exps = append(exps, e)
		if slices.Contains(e.nums, cur) {
			matched[pi] = true
		}
	}
	return exps, matched
}

// reportPhaseMismatch reports a current_phase no pipeline agrees with.
func reportPhaseMismatch(p *Pass, cpv *yaml.Node, cur int, exps []phaseExpectation) {
	f := p.Doc.File
	var parts []string
	var rel []diag.Related
	for _, e := range exps {
		switch {
		case e.why == "IN_PROGRESS":
			for _, ph := range e.phases {
				parts = append(parts, fmt.Sprintf("pipeline %s has phase %d %s IN_PROGRESS (line %d)", e.pipe.Key, ph.Num, quoteName(ph.Name), lineOf(ph.At)))
				rel = append(rel, relatedAt(f, ph.At, fmt.Sprintf("%s: phase %d, %s", ph.Label, ph.Num, ph.Status)))
			}
		case len(e.phases) > 0:
			ph := e.phases[0]
			parts = append(parts, fmt.Sprintf("phase %d %s is %s of pipeline %s (line %d)", ph.Num, quoteName(ph.Name), e.why, e.pipe.Key, lineOf(ph.At)))
			rel = append(rel, relatedAt(f, ph.At, fmt.Sprintf("%s: phase %d, %s", ph.Label, ph.Num, ph.Status)))
		case e.why == "no phase has started":
			parts = append(parts, fmt.Sprintf("no phase of pipeline %s has started (expected 0)", e.pipe.Key))
		default:
			parts = append(parts, fmt.Sprintf("pipelines.%s.current_phase is %d", e.pipe.Key, e.pipe.CurrentPhase))
		}
	}
	msg := diag.Fit(len(parts), func(n int) string {
		return fmt.Sprintf("current_phase %d, but %s: correct it or the phase statuses", cur, joinShort(parts, "; ", n))
	})
	p.Report(f, cpv, msg, WithRelated(rel...))
}

// checkPhaseName checks current_phase_name against the name of phase cur
// in the pipelines that agree with it.
func checkPhaseName(p *Pass, nameField model.Str, cur int, pipes []*model.Pipeline, matched map[*model.Pipeline]bool) {
	f := p.Doc.File
	name := nameField.Value
	// A finished workflow's phase name is a label no session resumes from
	// ("Phase 5 - Final Review (COMPLETE)"); only the number is checked.
	if !nameField.OK || unfilled(f, name) || cur == 0 || WorkflowFinished(p) {
		return
	}
	var want []*model.Phase
	for _, pi := range pipes {
		if !matched[pi] {
			continue
		}
		for _, ph := range pi.Phases {
			if ph.Num != cur || strings.TrimSpace(ph.Name) == "" || unfilled(f, ph.Name) {
				continue
			}
			if strings.Contains(foldSpace(name), foldSpace(ph.Name)) {
				return
			}
			want = append(want, ph)
		}
	}
	if len(want) == 0 {
		return
	}
	var names []string
	var rel []diag.Related
	for _, ph := range want {
		names = append(names, fmt.Sprintf("%s (line %d)", quoteName(ph.Name), lineOf(ph.At)))
		rel = append(rel, relatedAt(f, ph.At, ph.Label))
	}
	p.Report(f, nameField.Node, diag.Fit(len(names), func(n int) string {
		return fmt.Sprintf("current_phase_name %s is not the name of phase %d: write %s", quoteName(name), cur, joinShort(names, " or ", n))
	}), WithRelated(rel...))
}

func foldSpace(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// ---- RL106 workflow-status --------------------------------------------------

var (
	activityPhase = lazyre.New(`(?i)^phase-(\d+)-agent-execution$`)
	activityGate  = lazyre.New(`(?i)^(.+)-iteration-(\d+)$`)
)

var workflowStatuses = map[string]bool{"ACTIVE": true, "PAUSED": true, "COMPLETE": true, "FAILED": true, "CANCELLED": true}

// checkTerminalSpelling reports, once per file, a lifecycle status that
// says the workflow is over in a spelling outside the enum (COMPLETED,
// Done, COMPELTE): a reader comparing exact values would resume the
// workflow. In a finished record this is the one finding its status gets
// (SPEC §0). A top-level status is free text: only a misspelled one is
// reported there.
func checkTerminalSpelling(p *Pass) {
	if p.Doc == nil || p.Doc.File.Template || !WorkflowFinished(p) {
		return // in a live record, an enum violation is RL102's
	}
	for i, n := range lifecycleNodes(p) {
		s, ok := node.Str(n)
		if !ok || workflowStatuses[s] || !IsFinishedStatus(s) || isPlaceholderIn(p.Doc.File, s) {
			continue
		}
		typo := node.Misspelled(s)
		if i == 3 && typo == "" {
			continue
		}
		want := canonWorkflowStatus(s)
		if !workflowStatuses[want] {
			want = "COMPLETE"
		}
		what := "is not in the enum"
		if typo != "" {
			what = "misspells " + typo
		}
		p.Report(p.Doc.File, n, fmt.Sprintf("%s %s %s, so a reader comparing exact values would resume this finished workflow: write %s",
			lifecycleFields[i], quoteShort(s), what, want))
		return
	}
}

func runWorkflowStatus(p *Pass) {
	checkTerminalSpelling(p)
	checkWorkflowRecord(p)
	rs := recoveryOf(p)
	if rs == nil {
		return
	}
	f := p.Doc.File
	qt := trajectoryOf(p)
	wsv := rs.WorkflowStatus.Node
	ws, ok := node.Str(wsv)
	if ok && saysComplete(p, ws) {
		completeContradictions(p, wsv)
	}
	if ok && workflowStatuses[ws] {
		if sv := OrchestrationOf(p).Workflow.Status.Node; sv != nil {
			if s, ok := node.Str(sv); ok && !unfilled(f, s) && canonWorkflowStatus(s) != ws {
				p.Report(f, wsv, fmt.Sprintf("workflow_status %s differs from workflow.status %s (line %d): both record the workflow's lifecycle state and change together", ws, s, sv.Line), WithRelated(relatedAt(f, sv, "workflow.status")))
			}
		}
	}
	if WorkflowFinished(p) {
		return // where current_activity points is a live workflow's concern
	}
	cav := rs.CurrentActivity.Node
	ca, ok := node.Str(cav)
	if !ok || unfilled(f, ca) {
		return
	}
	ca = strings.TrimSpace(ca)
	switch {
	case strings.EqualFold(ca, "idle"), strings.EqualFold(ca, "compaction-recovery"):
	case activityPhase.MatchString(ca):
		n := model.TrailingInt(activityPhase.FindStringSubmatch(ca)[1])
		cpv := rs.CurrentPhase.Node
		if cur, ok := node.Int(cpv); ok && int(cur) != n {
			p.Report(f, cav, fmt.Sprintf("current_activity %s names phase %d, but current_phase is %d (line %d)", diag.QuoteFull(ca), n, cur, cpv.Line), WithRelated(relatedAt(f, cpv, "recovery_state.current_phase")))
		}
	case activityGate.MatchString(ca):
		m := activityGate.FindStringSubmatch(ca)
		gate, iter := m[1], model.TrailingInt(m[2])
		if qt == nil {
			return
		}
		cgv, civ := qt.CurrentGate.Node, qt.CurrentGateIteration.Node
		switch cg, isStr := node.Str(cgv); {
		case cgv == nil:
		case node.IsNull(cgv):
			p.Report(f, cav, fmt.Sprintf("current_activity %s names gate %s, but quality_trajectory.current_gate is null (line %d)", diag.QuoteFull(ca), gate, cgv.Line), WithRelated(relatedAt(f, cgv, "quality_trajectory.current_gate")))
		case isStr && model.GateKey(cg) != model.GateKey(gate):
			p.Report(f, cav, fmt.Sprintf("current_activity %s names gate %s, but quality_trajectory.current_gate is %s (line %d)", diag.QuoteFull(ca), gate, cg, cgv.Line), WithRelated(relatedAt(f, cgv, "quality_trajectory.current_gate")))
		case isStr:
			if ci, ok := node.Int(civ); ok && int(ci) != iter {
				p.Report(f, cav, fmt.Sprintf("current_activity %s names iteration %d of %s, but quality_trajectory.current_gate_iteration is %d (line %d)", diag.QuoteFull(ca), iter, cg, ci, civ.Line), WithRelated(relatedAt(f, civ, "quality_trajectory.current_gate_iteration")))
			}
		}
	}
	// Other wording is RL116's (opt-in style).
}

// staleTrajectory is a quality_trajectory left in progress in a workflow
// whose resumption says COMPLETE.
type staleTrajectory struct {
	key, gate, remainingKey *yaml.Node
	remaining               []string
}

// trajectoryStale returns the quality_trajectory of a COMPLETE workflow that
// still shows a gate in progress or gates remaining, else nil. RL106 reports
// it once; RL108 does not check a trajectory that is stale as a whole.
func trajectoryStale(p *Pass) *staleTrajectory { return trajectoryStaleResult.Of(p) }

var trajectoryStaleResult = NewResult("trajectory-stale", func(p *Pass) *staleTrajectory {
	var st *staleTrajectory
	if rs := recoveryOf(p); rs != nil {
		ws := rs.WorkflowStatus.Value
		if qt := trajectoryOf(p); saysComplete(p, ws) && qt != nil {
			cand := &staleTrajectory{key: qt.Key}
			if cg := qt.CurrentGate; cg.OK && strings.TrimSpace(cg.Value) != "" {
				cand.gate = cg.Node
			}
			if gr := qt.GatesRemaining; gr.OK && len(gr.Values) > 0 {
				cand.remaining, cand.remainingKey = gr.Values, gr.Key
			}
			if cand.gate != nil || len(cand.remaining) > 0 {
				st = cand
			}
		}
	}
	return st
})

// completeContradictions reports what still runs in a workflow whose
// resumption says COMPLETE: a quality trajectory in progress, phases not
// complete, gates open. One missed update leaves several behind, so they
// are one finding; one of them alone keeps its own wording. With COMPLETE
// in another spelling, the record's open phases and gates are reported
// against its lifecycle status (checkWorkflowRecord): only the trajectory
// is left here.
func completeContradictions(p *Pass, wsv *yaml.Node) {
	enum := wsv.Value == "COMPLETE"
	f := p.Doc.File
	ws := "workflow_status " + diag.Quote(wsv.Value)
	if wsv.Value == "COMPLETE" {
		ws = "workflow_status COMPLETE"
	}
	var msgs []string         // each cause in its own words
	var rels [][]diag.Related // each cause's positions
	var counts, items []string
	traj := ""
	if st := trajectoryStale(p); st != nil {
		// One stale trajectory, one finding (RL108 stays silent on it).
		desc, rel := staleTrajectoryDesc(f, st)
		msgs = append(msgs, fmt.Sprintf("%s, but quality_trajectory (line %d) still has %s: close it out", ws, st.key.Line, desc))
		rels, traj = append(rels, rel), "quality_trajectory still has "+desc
	}
	var open []string
	var rel []diag.Related
	for _, pi := range pipelines(p) {
		for _, ph := range pi.Phases {
			if !enum || ph.Status == "" || isSettled(ph.Status) {
				continue
			}
			open = append(open, fmt.Sprintf("%s phase %d (%s, line %d)", pi.Key, ph.Num, ph.Status, lineOf(ph.At)))
			items = append(items, fmt.Sprintf("%s phase %d (%s)", pi.Key, ph.Num, ph.Status))
			rel = append(rel, relatedAt(f, ph.At, ph.Label+": "+ph.Status))
		}
	}
	if len(open) > 0 {
		are := "are"
		if len(open) == 1 {
			are = "is"
		}
		msgs = append(msgs, fmt.Sprintf("%s, but %s %s not complete: %s", ws, countOf(len(open), "phase"), are, listShort(open)))
		rels, counts = append(rels, rel), append(counts, countOf(len(open), "phase"))
	}
	if o := recordOpen(p); enum && len(o.items) > 0 {
		anchor, _ := completeAnchor(p)
		msgs, rels = append(msgs, completeRecordMsg(anchor, o)), append(rels, o.rel)
		for _, c := range []struct {
			n    int
			name string
		}{{o.gates, "gate"}, {o.tasks, "task"}} {
			if c.n > 0 {
				counts = append(counts, countOf(c.n, c.name))
			}
		}
		items = append(items, o.items...)
	}
	switch len(msgs) {
	case 0:
		return
	case 1:
		p.Report(f, wsv, msgs[0], WithRelated(rels[0]...))
		return
	}
	var all []diag.Related
	for _, r := range rels {
		all = append(all, r...)
	}
	msg := diag.FitList(items, func(list string) string {
		var what []string
		if len(counts) > 0 {
			what = append(what, fmt.Sprintf("%s still open: %s", strings.Join(counts, " and "), list))
		}
		if traj != "" {
			what = append(what, traj)
		}
		return fmt.Sprintf("%s, but %s: update them or the status", ws, strings.Join(what, "; "))
	})
	p.Report(f, wsv, msg, WithRelated(all...))
}

// staleTrajectoryDesc says what a stale quality trajectory still has:
// "gate qg-2 in progress and 1 more remaining".
func staleTrajectoryDesc(f *load.File, st *staleTrajectory) (string, []diag.Related) {
	var parts []string
	var rel []diag.Related
	if st.gate != nil {
		parts = append(parts, fmt.Sprintf("gate %s in progress", st.gate.Value))
		rel = append(rel, relatedAt(f, st.gate, "quality_trajectory.current_gate"))
	}
	if len(st.remaining) > 0 {
		// The gate in progress is often listed as remaining too: the
		// others are counted beside it.
		others := 0
		for _, g := range st.remaining {
			if st.gate == nil || model.GateKey(g) != model.GateKey(st.gate.Value) {
				others++
			}
		}
		switch {
		case others == 0:
		case st.gate != nil:
			parts = append(parts, fmt.Sprintf("%d more remaining", others))
		default:
			parts = append(parts, fmt.Sprintf("%d remaining", others))
		}
		rel = append(rel, relatedAt(f, st.remainingKey, "quality_trajectory.gates_remaining"))
	}
	return strings.Join(parts, " and "), rel
}

// ---- RL107 stale-resumption -------------------------------------------------

// transition is a state change the file records with its time.
type transition struct {
	where place
	text  string
	t     time.Time
	day   bool // date only: compared by day
	zone  bool // written with its zone (else its writer's local time)
	at    *yaml.Node
}

// place names where a transition is written and what it stands for,
// from its parts: a file records hundreds of times, and a finding names
// one or a few of them, so the names are made only then.
type place struct {
	kind placeKind
	i    int // an index, or a phase's number
	a, b string
	leaf string
}

type placeKind uint8

const (
	placeWorkflow       placeKind = iota // workflow.updated_at
	placeCheckpoint                      // checkpoints.entries[i], id a
	placePhaseStart                      // phase a (number i)
	placePhaseDone                       // phase a (number i)
	placeGateDone                        // gate a, id b
	placeGateIteration                   // gate a's b[i], at key leaf
	placeCompaction                      // compaction_events.events[i]
	placeDecision                        // decision list a, entry i
	placeLastCheckpoint                  // resumption v1 last_checkpoint
)

// label is where, e.g. decision_log[1].timestamp.
func (w place) label() string {
	switch w.kind {
	case placeWorkflow:
		return "workflow.updated_at"
	case placeCheckpoint:
		return fmt.Sprintf("checkpoints.entries[%d].timestamp (%s)", w.i, w.a)
	case placePhaseStart:
		return w.a + ".started_at"
	case placePhaseDone, placeGateDone:
		return w.a + ".completed_at"
	case placeGateIteration:
		return fmt.Sprintf("%s.%s[%d].%s", w.a, w.b, w.i, w.leaf)
	case placeCompaction:
		return fmt.Sprintf("compaction_events.events[%d].timestamp", w.i)
	case placeDecision:
		return fmt.Sprintf("%s[%d].timestamp", w.a, w.i)
	}
	return "last_checkpoint"
}

// what is what the transition stands for, e.g. "that decision".
func (w place) what() string {
	switch w.kind {
	case placeWorkflow:
		return "the workflow was updated"
	case placeCheckpoint:
		return "that checkpoint"
	case placePhaseStart:
		return fmt.Sprintf("phase %d started", w.i)
	case placePhaseDone:
		return fmt.Sprintf("phase %d completed", w.i)
	case placeGateDone:
		return "gate " + w.b + " completed"
	case placeGateIteration:
		return "that quality-gate iteration"
	case placeCompaction:
		return "that compaction event"
	case placeDecision:
		return "that decision"
	}
	return ""
}

// hasZone reports a timestamp written with its zone (Z or an offset).
func hasZone(s string) bool {
	_, zone, _ := ParseTimestamp(s)
	return zone
}

func timeOf(n *yaml.Node) (time.Time, string, bool, bool) {
	s, ok := node.Str(n)
	if !ok {
		return time.Time{}, "", false, false
	}
	t, _, ok := ParseTimestamp(s)
	return t, s, dateOnly.MatchString(strings.TrimSpace(s)), ok
}

// transitionsOf lists the state transitions SPEC §3.2 RL107 names: workflow
// updates, checkpoint entries, phase starts and completions, quality-gate
// iterations (and the gate's completion), compaction events and decisions.
func transitionsOf(p *Pass) []transition {
	o := OrchestrationOf(p)
	out := make([]transition, 0, transitionsIn(p, o)) // not grown time by time
	add := func(n *yaml.Node, where place) {
		if t, s, day, ok := timeOf(n); ok {
			out = append(out, transition{where: where, text: s, t: t, day: day, zone: hasZone(s), at: n})
		}
	}
	add(o.Workflow.UpdatedAt.Node, place{kind: placeWorkflow})
	for i, e := range o.Checkpoints.Entries.Items {
		if e != nil {
			add(e.Timestamp.Node, place{kind: placeCheckpoint, i: i, a: e.ID.Value})
		}
	}
	for _, pi := range pipelines(p) {
		for _, ph := range pi.Phases {
			add(ph.View.StartedAt.Node, place{kind: placePhaseStart, a: ph.Label, i: ph.Num})
			add(ph.View.CompletedAt.Node, place{kind: placePhaseDone, a: ph.Label, i: ph.Num})
		}
	}
	if gates, ok := o.Gates(); ok {
		keys := make([]string, 0, len(gates))
		for k := range gates {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			g := gates[k]
			add(g.View.CompletedAt.Node, place{kind: placeGateDone, a: g.Label, b: g.ID})
			if g.Iters == nil {
				continue
			}
			for i, e := range g.Iters.Node.Content {
				node.Pairs(e, func(ik, iv *yaml.Node) {
					if IsTimestampKey(ik.Value) {
						add(iv, place{kind: placeGateIteration, a: g.Label, b: g.IterKey, i: i, leaf: ik.Value})
					}
				})
			}
		}
	}
	r := ResumptionOf(p)
	if r == nil || r.Version() == "v1" {
		return out
	}
	if r.Compaction != nil {
		for i, e := range r.Compaction.Events.Items {
			if e != nil {
				add(e.Timestamp.Node, place{kind: placeCompaction, i: i})
			}
		}
	}
	if dl := r.Decisions; dl != nil {
		for i, e := range dl.Items {
			if e != nil {
				add(e.Timestamp.Node, place{kind: placeDecision, a: dl.Key.Value, i: i})
			}
		}
	}
	return out
}

// transitionsIn is about how many times transitionsOf finds in o: every
// place it looks, once (a gate's iterations can hold more than one).
func transitionsIn(p *Pass, o *model.Orchestration) int {
	n := 1 + len(o.Checkpoints.Entries.Items)
	for _, pi := range pipelines(p) {
		n += 2 * len(pi.Phases)
	}
	if gates, ok := o.Gates(); ok {
		for _, g := range gates {
			n++
			if g.Iters != nil {
				n += len(g.Iters.Node.Content)
			}
		}
	}
	if r := ResumptionOf(p); r != nil && r.Version() != "v1" {
		if r.Compaction != nil {
			n += len(r.Compaction.Events.Items)
		}
		if r.Decisions != nil {
			n += len(r.Decisions.Items)
		}
	}
	return n
}

func laterThan(a transition, t time.Time, day, zone bool) bool {
	if a.day || day {
		ay, am, ad := a.t.UTC().Date()
		by, bm, bd := t.UTC().Date()
		return time.Date(ay, am, ad, 0, 0, 0, 0, time.UTC).After(time.Date(by, bm, bd, 0, 0, 0, 0, time.UTC))
	}
	return surelyAfter(a.t, a.zone, t, zone)
}

func runStaleResumption(p *Pass) {
	rs := recoveryOf(p)
	if rs == nil {
		staleV1(p)
		return
	}
	f := p.Doc.File
	uv := rs.UpdatedAt.Node
	ut, us, uday, ok := timeOf(uv)
	if !ok {
		return
	}
	var later []transition
	uzone := hasZone(us)
	for _, tr := range transitionsOf(p) {
		if laterThan(tr, ut, uday, uzone) {
			later = append(later, tr)
		}
	}
	if len(later) > 0 {
		sort.SliceStable(later, func(i, j int) bool { return later[i].t.After(later[j].t) })
		l := later[0]
		more := ""
		if len(later) > 1 {
			more = fmt.Sprintf(" and %d more", len(later)-1)
		}
		var rel []diag.Related
		for i, tr := range later {
			if i == 10 {
				break
			}
			rel = append(rel, relatedAt(f, tr.at, tr.where.label()))
		}
		p.Report(f, uv, fmt.Sprintf("updated_at %s is older than %s %s (line %d)%s: update the section after %s", us, l.where.label(), l.text, l.at.Line, more, l.where.what()), WithRelated(rel...))
	}
	if p.Opts.MaxAge <= 0 || p.Opts.Now.IsZero() {
		return
	}
	if ws := rs.WorkflowStatus.Value; ws == "COMPLETE" || ws == "FAILED" || ws == "CANCELLED" || WorkflowFinished(p) {
		return // a finished workflow is not expected to move
	}
	if age := p.Opts.Now.Sub(ut); age > p.Opts.MaxAge {
		p.Report(f, uv, fmt.Sprintf("updated_at %s is %s old, more than staleness.max_age %s (now %s): update the resumption section",
			us, humanAge(age), humanAge(p.Opts.MaxAge), p.Opts.Now.UTC().Format(time.RFC3339)))
	}
}

// humanAge prints a duration in days and hours when it is long.
func humanAge(d time.Duration) string {
	if d >= 24*time.Hour {
		days := d / (24 * time.Hour)
		h := (d % (24 * time.Hour)) / time.Hour
		if h == 0 {
			return fmt.Sprintf("%dd", days)
		}
		return fmt.Sprintf("%dd%dh", days, h)
	}
	return d.Round(time.Second).String()
}
