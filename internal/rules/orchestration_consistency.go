package rules

import (
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// ORCHESTRATION.yaml: the whole workflow record against itself, for v1.0,
// v2.0 and files without `resumption:` (SPEC §0: a record that contradicts
// itself is false, finished or not). RL106 compares the lifecycle status
// with the phases, pipelines and gates; RL118 the resumption prose with
// the phases; RL119 a COMPLETE workflow with its open defects.

var (
	ResumptionText = &Rule{Code: code.ResumptionText, Lifecycle: AboutFinished, Name: "resumption-text", Severity: diag.SevWarning, Kinds: orch, Family: "orchestration",
		Summary: "current_state, next_step or current_activity claims a phase or task state that the file's statuses contradict", Run: runResumptionText}
	CompleteWithDefects = &Rule{Code: code.CompleteWithDefects, Lifecycle: AboutFinished, Name: "complete-with-defects", Severity: diag.SevWarning, Kinds: orch, Family: "orchestration",
		Summary: "a COMPLETE workflow whose defect_summary still counts unresolved defects no passed gate carried forward", Run: runCompleteWithDefects}
)

func init() {
	Register(ResumptionText, CompleteWithDefects)
}

// ---- statuses ---------------------------------------------------------------

// openWords are the statuses of a phase, pipeline or gate that is not done:
// waiting, blocked, under review or running. Anything else (COMPLETE,
// PASS, SKIPPED, ACCEPTED, FAIL, prose) is not read as open: never a guess
// beyond these.
var openWords = map[string]bool{
	"PENDING": true, "PLANNED": true, "BLOCKED": true, "IN_PROGRESS": true, "READY": true,
	"NOT_STARTED": true, "ACTIVE": true, "RUNNING": true, "STARTED": true, "OPEN": true,
	"WAITING": true, "TODO": true, "WIP": true, "QUEUED": true, "IN_REVIEW": true,
}

// pipelineOpen is the PHASE_N_<state> form real pipelines use for their
// own status (PHASE_2_IN_PROGRESS); awaitingOpen a phase waiting on
// someone (AWAITING_HUMAN, AWAITING_APPROVAL).
var (
	pipelineOpen = lazyre.New(`^PHASE_\d+_(IN_PROGRESS|PENDING|READY|BLOCKED|ACTIVE)$`)
	awaitingOpen = lazyre.New(`^AWAITING(_[A-Z0-9_]+)?$`)
)

// isOpenStatus says whether s is the status of work not done, a done
// status held back by its remark among it (COMPLETE (pending QA)).
func isOpenStatus(s string) bool {
	w := node.StatusWord(s)
	return openWords[w] || pipelineOpen.MatchString(w) || awaitingOpen.MatchString(w) || node.HeldBack(s)
}

// lifecycle is the workflow's own lifecycle claim: workflow.status, else a
// v2.0 recovery_state.workflow_status.
type lifecycle struct {
	Status string // canonical (COMPLETE for COMPLETED/DONE)
	Raw    string
	Field  string
	At     *yaml.Node
}

func workflowLifecycle(p *Pass) *lifecycle { return workflowLifecycleResult.Of(p) }

var workflowLifecycleResult = NewResult("workflow-lifecycle", func(p *Pass) *lifecycle {
	var lc *lifecycle
	if sv := OrchestrationOf(p).Workflow.Status.Node; sv != nil {
		if s, ok := node.Str(sv); ok && strings.TrimSpace(s) != "" && !isPlaceholderIn(p.Doc.File, s) {
			lc = &lifecycle{Status: canonWorkflowStatus(s), Raw: s, Field: "workflow.status", At: sv}
		}
	}
	if lc == nil {
		if rs := recoveryOf(p); rs != nil {
			sv := rs.WorkflowStatus.Node
			if s, ok := node.Str(sv); ok && strings.TrimSpace(s) != "" && !isPlaceholderIn(p.Doc.File, s) {
				lc = &lifecycle{Status: canonWorkflowStatus(s), Raw: s, Field: "workflow_status", At: sv}
			}
		}
	}
	return lc
})

// recordPhases are the pipelines' phases and, in files that keep them at
// the top, `phases:` (quality gates and barriers listed among them are
// left out: they are not phases).
func recordPhases(p *Pass) []*model.Phase { return recordPhasesResult.Of(p) }

var recordPhasesResult = NewResult("record-phases", func(p *Pass) []*model.Phase {
	var out []*model.Phase
	for _, pi := range pipelines(p) {
		out = append(out, pi.Phases...)
	}
	for _, x := range model.PhasesOf("", "phases", OrchestrationOf(p).Doc.Phases) {
		if !gateLike.MatchString(phaseID(x)) {
			out = append(out, x)
		}
	}
	return out
})

var gateLike = lazyre.New(`(?i)^(qg|gate|barrier|pg)[-_ ]?\d`)

func phaseID(ph *model.Phase) string {
	if s, ok := node.Str(ph.View.ID.Node); ok {
		return s
	}
	if i := strings.LastIndexByte(ph.Label, '.'); i >= 0 {
		return ph.Label[i+1:]
	}
	return ""
}

// phaseName names a phase for a message: "phase 4", with its pipeline
// when the file has several. A gate listed among a pipeline's phases
// (id "gate-1") goes by its id: its number is the phase's before it.
func phaseName(p *Pass, ph *model.Phase) string {
	name := fmt.Sprintf("phase %d", ph.Num)
	if id := phaseID(ph); gateLike.MatchString(id) {
		name = id
	}
	if ph.Pipeline != "" && len(pipelines(p)) > 1 {
		return ph.Pipeline + " " + name
	}
	return name
}

// agentsAllComplete reports a phase whose agents are listed and all done.
func agentsAllComplete(ph *model.Phase) bool {
	n := 0
	for _, a := range ph.Agents {
		if a.At == ph.View.Agent.Node {
			continue // the phase's own status, not the agent's
		}
		if !isComplete(a.Status) {
			return false
		}
		n++
	}
	return n > 0
}

// openGates are the quality gates whose status is open, in file order.
func openGates(o *model.Orchestration) []*model.Gate {
	gates, ok := o.Gates()
	if !ok {
		return nil
	}
	var out []*model.Gate
	for _, g := range model.GatesInOrder(gates) {
		if g.StatusAt != nil && isOpenStatus(g.Status) {
			out = append(out, g)
		}
	}
	return out
}

// ---- RL106: the lifecycle status against phases, pipelines and gates -------

// checkWorkflowRecord reports a COMPLETE workflow whose phases, pipelines
// or gates are still open (error), and a running workflow whose phases are
// all done or whose phase has all its agents done (warning). It runs for
// every version; a v2.0 workflow_status COMPLETE has its open phases
// reported by completeContradictions, so they are not listed twice.
func checkWorkflowRecord(p *Pass) {
	d := p.Doc
	if d == nil || !node.IsMap(d.Root) || d.File.Template {
		return
	}
	anchor, _ := completeAnchor(p)
	if anchor == nil {
		return
	}
	switch anchor.Status {
	case "COMPLETE":
		checkCompleteRecord(p, anchor)
	case "ACTIVE", "IN_PROGRESS", "RUNNING":
		checkRunningRecord(p, anchor)
	}
}

// completeAnchor is the status RL106 compares the record with: a v2.0
// workflow_status COMPLETE (whose open phases completeContradictions
// reports, so v2Complete), else the workflow's lifecycle claim.
func completeAnchor(p *Pass) (anchor *lifecycle, v2Complete bool) {
	if p.Doc == nil || !node.IsMap(p.Doc.Root) || p.Doc.File.Template {
		return nil, false
	}
	anchor = workflowLifecycle(p)
	if rs := recoveryOf(p); rs != nil {
		sv := rs.WorkflowStatus.Node
		if s, _ := node.Str(sv); s == "COMPLETE" {
			return &lifecycle{Status: "COMPLETE", Raw: s, Field: "workflow_status", At: sv}, true
		}
	}
	if anchor == nil {
		anchor = recordAnchor(p)
	}
	return anchor, false
}

// recordAnchor is the value that made a workflow with neither
// workflow.status nor recovery_state.workflow_status finished (a v1.0
// section's workflow_status, a top-level status, current_state's prose):
// being history, it is held to its phases and gates all the same.
func recordAnchor(p *Pass) *lifecycle {
	rec := RecordOf(p)
	if !rec.Finished || rec.At == nil || isPlaceholderIn(p.Doc.File, rec.Raw) {
		return nil
	}
	raw := rec.Raw
	if rec.Field == "current_state" {
		raw = "says " + diag.QuoteHead(strings.Join(strings.Fields(raw), " "), 40)
	}
	return &lifecycle{Status: canonWorkflowStatus(rec.Raw), Raw: raw, Field: rec.Field, At: rec.At}
}

// openRecord is what is still open in a workflow recorded COMPLETE: the
// cause RL106 reports, which lower rules leave to it (FinishedContradicted).
type openRecord struct {
	items                       []string
	rel                         []diag.Related
	phases, gates, pipes, tasks int
	agentsDone                  bool
}

// recordOpen returns the phases, pipelines and gates still open in a
// workflow recorded COMPLETE (anchor), computed once per unit.
func recordOpen(p *Pass) *openRecord { return recordOpenResult.Of(p) }

var recordOpenResult = NewResult("record-open", func(p *Pass) *openRecord {
	o := &openRecord{agentsDone: true}
	anchor, v2Complete := completeAnchor(p)
	if anchor == nil || anchor.Status != "COMPLETE" {
		return o
	}
	f := p.Doc.File
	if !v2Complete {
		openPipe := map[string]bool{}
		for _, ph := range recordPhases(p) {
			if !isOpenStatus(ph.Status) {
				continue
			}
			if gateLike.MatchString(phaseID(ph)) {
				o.gates++
			} else {
				o.phases++
			}
			openPipe[ph.Pipeline] = true
			o.items = append(o.items, fmt.Sprintf("%s (%s)", phaseName(p, ph), ph.Status))
			o.rel = append(o.rel, relatedAt(f, statusAt(ph), ph.Label+": "+ph.Status))
			o.agentsDone = o.agentsDone && agentsAllComplete(ph)
		}
		views := OrchestrationOf(p).Doc.Pipelines.ByKey()
		for _, pi := range pipelines(p) {
			pv := views[pi.Key]
			if pv == nil {
				continue
			}
			sv, s, ok := pv.Status.Node, pv.Status.Value, pv.Status.OK
			if !ok || openPipe[pi.Key] || !isOpenStatus(s) {
				continue
			}
			o.pipes++
			o.items = append(o.items, fmt.Sprintf("pipeline %s (%s)", pi.Key, s))
			o.rel = append(o.rel, relatedAt(f, sv, "pipelines."+pi.Key+".status: "+s))
		}
	}
	for _, g := range openGates(OrchestrationOf(p)) {
		o.gates++
		o.items = append(o.items, fmt.Sprintf("gate %s (%s)", g.ID, g.Status))
		o.rel = append(o.rel, relatedAt(f, g.StatusAt, g.Label+".status: "+g.Status))
	}
	// Tasks still open: the workflow's own, and those of phases recorded
	// settled (an open phase's tasks are its finding).
	colls := []model.Coll[*model.Task]{OrchestrationOf(p).Doc.Tasks}
	for _, ph := range recordPhases(p) {
		if ph.Status != "" && isSettled(ph.Status) {
			colls = append(colls, ph.View.Tasks)
		}
	}
	for _, c := range colls {
		for i, t := range c.Items {
			if t == nil || !t.Status.OK || !isOpenStatus(t.Status.Value) {
				continue
			}
			id := t.ID.Value
			if id == "" {
				id = c.KeyAt(i)
			}
			o.tasks++
			o.items = append(o.items, fmt.Sprintf("task %s (%s)", id, t.Status.Value))
			o.rel = append(o.rel, relatedAt(f, t.Status.Node, "task "+id+": "+t.Status.Value))
		}
	}
	return o
})

// FinishedContradicted reports a finished workflow whose record says it is
// not: phases, pipelines or gates still open, or a quality trajectory left
// in progress. RL106 reports that cause, once; the rules after it in the
// precedence of docs/architecture.md (RL122, RL118, RL120) stay silent
// on a finished record for which this holds.
func FinishedContradicted(p *Pass) bool { return finishedContradictedResult.Of(p) }

var finishedContradictedResult = NewResult("finished-contradicted", func(p *Pass) bool {
	if !WorkflowFinished(p) {
		return false
	}
	if len(recordOpen(p).items) > 0 || trajectoryStale(p) != nil {
		return true
	}
	if _, v2Complete := completeAnchor(p); v2Complete {
		// completeContradictions' phases: any not settled.
		for _, pi := range pipelines(p) {
			for _, ph := range pi.Phases {
				if ph.Status != "" && !isSettled(ph.Status) {
					return true
				}
			}
		}
	}
	return false
})

// checkCompleteRecord reports the phases, pipelines and gates still open
// in a workflow recorded COMPLETE.
func checkCompleteRecord(p *Pass, anchor *lifecycle) {
	o := recordOpen(p)
	if len(o.items) == 0 {
		return
	}
	if _, v2Complete := completeAnchor(p); v2Complete {
		return // with the phases and the trajectory, in one finding (completeContradictions)
	}
	p.Report(p.Doc.File, anchor.At, completeRecordMsg(anchor, o), WithRelated(o.rel...))
}

// completeRecordMsg says what of a record anchored COMPLETE is still open.
func completeRecordMsg(anchor *lifecycle, o *openRecord) string {
	var what []string
	total := 0
	for _, c := range []struct {
		n    int
		name string
	}{{o.phases, "phase"}, {o.pipes, "pipeline"}, {o.gates, "gate"}, {o.tasks, "task"}} {
		if c.n > 0 {
			what, total = append(what, countOf(c.n, c.name)), total+c.n
		}
	}
	hint := "update " + them(total) + " or the status"
	if o.phases > 0 && o.gates == 0 && o.pipes == 0 && o.agentsDone {
		hint = "their agents are COMPLETE: update the phases"
	}
	return diag.FitList(o.items, func(list string) string {
		return fmt.Sprintf("%s %s, but %s still open: %s; %s", anchor.Field, anchor.Raw, strings.Join(what, " and "), list, hint)
	})
}

// checkRunningRecord reports a running workflow whose phases are all done,
// and phases left open although all their agents are complete.
func checkRunningRecord(p *Pass, anchor *lifecycle) {
	f := p.Doc.File
	if rs := recoveryOf(p); rs != nil && anchor.Field == "workflow.status" {
		if s, ok := rs.WorkflowStatus.Value, rs.WorkflowStatus.OK; ok && canonWorkflowStatus(s) != anchor.Status {
			return // the two statuses disagree: RL106 reports that first
		}
	}
	if notAdvanced(p) {
		phs := recordPhases(p)
		done := fmt.Sprintf("all %d phases are done", len(phs))
		if len(phs) == 1 {
			done = "its one phase is done"
		}
		p.Report(f, anchor.At, fmt.Sprintf("%s %s, but %s and no gate is open; set it to COMPLETE if the workflow is over", anchor.Field, anchor.Raw, done), WithSeverity(diag.SevWarning), WithRelated(relatedAt(f, statusAt(phs[len(phs)-1]), phs[len(phs)-1].Label)), AboutLive())
		return
	}
	// Phases left behind their agents by one missed update: one finding,
	// at the first, naming the others.
	var behind []*model.Phase
	for _, ph := range recordPhases(p) {
		if isOpenStatus(ph.Status) && !isInProgress(ph.Status) && agentsAllComplete(ph) {
			behind = append(behind, ph)
		}
	}
	if len(behind) == 0 {
		return
	}
	ph := behind[0]
	var rel []diag.Related
	for _, a := range ph.Agents {
		rel = append(rel, relatedAt(f, a.At, "agent "+a.ID+": "+a.Status))
		if len(rel) == 5 {
			break
		}
	}
	msg := fmt.Sprintf("%s is %s, but all its agents are COMPLETE; advance the phase's status", phaseName(p, ph), ph.Status)
	if len(behind) > 1 {
		var names []string
		for _, o := range behind[1:] {
			names = append(names, phaseName(p, o))
			rel = append(rel, relatedAt(f, statusAt(o), phaseName(p, o)+": "+o.Status))
		}
		msg = diag.FitList(names, func(list string) string {
			return fmt.Sprintf("%s is %s, but all its agents are COMPLETE, as are those of %s; advance the phases' statuses", phaseName(p, ph), ph.Status, list)
		})
	}
	p.Report(f, statusAt(ph), msg, WithSeverity(diag.SevWarning), WithRelated(rel...), AboutLive())
}

// notAdvanced reports a running workflow whose phases (at least one) are
// all settled and whose gates are none open.
func notAdvanced(p *Pass) bool { return notAdvancedResult.Of(p) }

var notAdvancedResult = NewResult("not-advanced", func(p *Pass) bool {
	res := false
	if lc := workflowLifecycle(p); lc != nil && (lc.Status == "ACTIVE" || lc.Status == "IN_PROGRESS" || lc.Status == "RUNNING") {
		phs := recordPhases(p)
		res = len(phs) > 0 && len(openGates(OrchestrationOf(p))) == 0
		for _, ph := range phs {
			if !isSettled(ph.Status) {
				res = false
			}
		}
	}
	return res
})

// statusAt is a phase's status value, else where the phase is.
func statusAt(ph *model.Phase) *yaml.Node {
	if sv := ph.View.Status.Node; sv != nil {
		return sv
	}
	return ph.At
}

// ---- RL118 resumption-text --------------------------------------------------

type claimKind int

const (
	claimNotStarted   claimKind = iota // no phase has started
	claimReady                         // phase N is ready to run (not done)
	claimNext                          // phase N is the next to run (not done)
	claimRunning                       // phase N is in progress (not done)
	claimPhaseDone                     // phase N is done
	claimWorkflowDone                  // the workflow is done
	claimTasksRunning                  // tasks are executing or to be awaited (taskClaimsIn)
)

// claimPatterns is the whole vocabulary RL118 reads (docs/rules/RL118.md).
// Text is matched case-insensitively with '_' and '-' read as spaces, so
// PHASE_2_READY reads "phase 2 ready" and workflow-complete "workflow
// complete". Nothing outside these phrases is interpreted.
var claimPatterns = []struct {
	kind claimKind
	need string // a word every match holds: text without it runs no regexp
	re   *lazyre.RE
}{
	{claimNotStarted, "phase", lazyre.New(`\bno\s+phases?\s+(?:(?:have|has)\s+)?(?:been\s+)?started\b`)},
	{claimNotStarted, "workflow", lazyre.New(`\bworkflow\s+(?:not\s+started|initiali[sz]ed)\b`)},
	{claimNotStarted, "phase", lazyre.New(`\ball\s+phases\s+(?:are\s+)?pending\b`)},
	{claimReady, "phase", lazyre.New(`\bready\s+for\s+phase\s+(\d+)\b`)},
	{claimReady, "phase", lazyre.New(`\bphase\s+(\d+)\s+(?:is\s+)?ready\b`)},
	{claimNext, "phase", lazyre.New(`\b(?:execute|start|begin|next:?)\s+phase\s+(\d+)\b`)},
	{claimRunning, "phase", lazyre.New(`\bphase\s+(\d+)\s+(?:is\s+)?(?:in\s+progress|executing|running|underway)\b`)},
	{claimPhaseDone, "phase", lazyre.New(`\bphase\s+(\d+)\s+(?:is\s+)?(?:complete|completed|done|finished)\b`)},
	{claimWorkflowDone, "workflow", lazyre.New(`\bworkflow\s+(?:is\s+)?(?:complete|completed|finished|done)\b`)},
	{claimWorkflowDone, "phase", lazyre.New(`\ball\s+phases\s+(?:are\s+)?(?:complete|completed|done)\b`)},
}

// textClaim is one phrase of the vocabulary found in a text field.
type textClaim struct {
	kind  claimKind
	phase int
	text  string // the phrase as written
	start int    // its byte offset in the text
	tasks []int  // claimTasksRunning: the task numbers named, none for "the tasks"
}

// claimsIn finds the vocabulary's phrases in s, in text order.
func claimsIn(s string) []textClaim {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c == '_' || c == '-':
			b[i] = ' '
		case c >= 'A' && c <= 'Z':
			b[i] = c + 'a' - 'A'
		}
	}
	norm := string(b)
	var out []textClaim
	// Each text field of every file is read for these phrases: a
	// regexp scan of each was 7% of a lint, most of it over text
	// naming neither phases nor the workflow.
	phase, workflow := strings.Contains(norm, "phase"), strings.Contains(norm, "workflow")
	for _, cp := range claimPatterns {
		if cp.need == "phase" && !phase || cp.need == "workflow" && !workflow {
			continue
		}
		for _, m := range cp.re.FindAllStringSubmatchIndex(norm, -1) {
			c := textClaim{kind: cp.kind, text: s[m[0]:m[1]], start: m[0]}
			if len(m) >= 4 && m[2] >= 0 {
				fmt.Sscan(norm[m[2]:m[3]], &c.phase)
			}
			out = append(out, c)
		}
	}
	out = append(out, taskClaimsIn(s, norm)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// contradiction is what the file says against a claim.
type contradiction struct {
	why string // "phase 3 is COMPLETE (line 212)"
	at  *yaml.Node
	msg string
}

// contradict checks one claim against the phases and the lifecycle.
func contradict(p *Pass, c textClaim) *contradiction {
	phs := recordPhases(p)
	byNum := map[int][]*model.Phase{}
	for _, ph := range phs {
		if ph.HasNum && ph.Status != "" {
			byNum[ph.Num] = append(byNum[ph.Num], ph)
		}
	}
	lc := workflowLifecycle(p)
	complete := lc != nil && lc.Status == "COMPLETE"
	phaseSays := func(ph *model.Phase) *contradiction {
		sv := statusAt(ph)
		return &contradiction{why: fmt.Sprintf("%s is %s (line %d)", phaseName(p, ph), ph.Status, lineOf(sv)), at: sv, msg: ph.Label + ".status"}
	}
	lifecycleSays := func() *contradiction {
		return &contradiction{why: fmt.Sprintf("%s is %s (line %d)", lc.Field, lc.Raw, lineOf(lc.At)), at: lc.At, msg: lc.Field}
	}
	allDone := func(n int) *model.Phase {
		list := byNum[n]
		if len(list) == 0 {
			return nil
		}
		for _, ph := range list {
			if !isComplete(ph.Status) {
				return nil
			}
		}
		return list[0]
	}
	switch c.kind {
	case claimNotStarted:
		for _, ph := range phs {
			if isComplete(ph.Status) || isInProgress(ph.Status) {
				return phaseSays(ph)
			}
		}
		if complete {
			return lifecycleSays()
		}
	case claimReady, claimNext, claimRunning:
		if ph := allDone(c.phase); ph != nil {
			return phaseSays(ph)
		}
		if complete {
			return lifecycleSays()
		}
	case claimPhaseDone:
		list := byNum[c.phase]
		if len(list) == 0 {
			return nil
		}
		for _, ph := range list {
			if isSettled(ph.Status) || !isOpenStatus(ph.Status) {
				return nil
			}
		}
		return phaseSays(list[0])
	case claimTasksRunning:
		return contradictTasks(p, c)
	case claimWorkflowDone:
		if lc != nil && IsFinishedStatus(lc.Raw) || WorkflowFinished(p) {
			return nil // the status agrees; open phases are RL106's
		}
		for _, ph := range phs {
			if isOpenStatus(ph.Status) {
				return phaseSays(ph)
			}
		}
	}
	return nil
}

// textField is one prose field of the resumption section.
type textField struct{ key, val *yaml.Node }

// textFields are the resumption's prose fields, in reading order.
func textFields(p *Pass) []textField {
	r := ResumptionOf(p)
	if r == nil {
		return nil
	}
	var out []textField
	add := func(fields ...model.Str) {
		for _, s := range fields {
			if s.Key != nil && node.IsString(s.Node) {
				out = append(out, textField{s.Key, node.Resolve(s.Node)})
			}
		}
	}
	if r.Version() != "v2" {
		add(r.V1.CurrentState, r.V1.NextStep)
	}
	if rs := r.Recovery; r.Version() != "v1" && rs != nil {
		add(rs.CurrentActivity, rs.NextStep)
	}
	return out
}

func runResumptionText(p *Pass) {
	r := ResumptionOf(p)
	if r == nil || p.Doc.File.Template {
		return
	}
	f := p.Doc.File
	finished := WorkflowFinished(p)
	if FinishedContradicted(p) {
		return // RL106 reports the finished record that says it is not
	}
	var first *struct {
		at  *yaml.Node
		msg string
	}
	var rel []diag.Related
	for _, tf := range textFields(p) {
		if finished && tf.key.Value == "next_step" {
			continue // a finished workflow's next step is the work after it
		}
		for _, c := range claimsIn(tf.val.Value) {
			x := contradict(p, c)
			if x == nil {
				continue
			}
			if first == nil {
				first = &struct {
					at  *yaml.Node
					msg string
				}{tf.val, fmt.Sprintf("%s says %s, but %s; rewrite it to the file's state", tf.key.Value, quoteClaim(c.text), x.why)}
				rel = append(rel, relatedAt(f, x.at, x.msg))
			} else {
				rel = append(rel, relatedAt(f, tf.val, fmt.Sprintf("%s says %s, but %s", tf.key.Value, quoteClaim(c.text), x.why)))
			}
			break // one contradiction per field
		}
	}
	if first != nil {
		opts := []Option{WithRelated(rel...)}
		if !finished {
			// A running workflow's text behind its record: where its
			// work item says it is done, closing it is the fix (RL125).
			opts = append(opts, AboutLive())
		}
		p.Report(f, first.at, first.msg, opts...)
	}
}

func quoteClaim(s string) string {
	return diag.QuoteHead(strings.Join(strings.Fields(s), " "), 40)
}

// ---- RL119 complete-with-defects --------------------------------------------

// defectKeys are the defect_summary keys RL119 reads: seed 000's canonical
// names first, then the near misses real files write.
var (
	defectFoundKeys    = []string{"total_defects_found", "total_defects", "defects_found"}
	defectResolvedKeys = []string{"total_defects_resolved", "resolved_defects", "defects_resolved"}
	defectOpenKeys     = []string{"open_defects", "in_progress_defects", "unresolved_count", "open_count"}
)

func firstInt(m *yaml.Node, keys []string) (int64, *yaml.Node, bool) {
	for _, k := range keys {
		// The canonical name or a near miss: no definition holds those.
		if v := node.Val(m, k); v != nil {
			if n, ok := node.Int(v); ok {
				return n, v, true
			}
		}
	}
	return 0, nil, false
}

// openDefects counts the unresolved defects a defect_summary records and
// returns where it says so; ids names them when it lists them.
func openDefects(ds *yaml.Node) (count int64, at *yaml.Node, ids []string) {
	var uv *yaml.Node
	if v := model.DefectSummaryOf(nil, ds); v != nil {
		uv = v.UnresolvedDefects.Node
	}
	if uv != nil {
		switch {
		case node.IsSeq(uv):
			for _, e := range uv.Content {
				if s, ok := node.Str(e); ok {
					ids = append(ids, s)
				} else if d := model.UnresolvedDefectOf(nil, e); d != nil && d.ID.OK {
					ids = append(ids, d.ID.Value)
				}
			}
			return int64(len(uv.Content)), uv, ids
		default:
			if n, ok := node.Int(uv); ok {
				return n, uv, nil
			}
		}
	}
	var sum int64
	for _, k := range defectOpenKeys {
		// Near misses of unresolved_defects: no definition holds them.
		if v := node.Val(ds, k); v != nil {
			if n, ok := node.Int(v); ok && n > 0 {
				sum += n
				if at == nil {
					at = v
				}
			}
		}
	}
	if at != nil {
		return sum, at, nil
	}
	found, fv, ok1 := firstInt(ds, defectFoundKeys)
	resolved, _, ok2 := firstInt(ds, defectResolvedKeys)
	if ok1 && ok2 && found > resolved && resolved >= 0 {
		return found - resolved, fv, nil
	}
	return 0, nil, nil
}

// carriedDefects are the defects passed gates carried forward
// (defects_carried of the gate, or of an iteration that passed it), each
// under its key and under its key suffixed with the gate's, as
// defect_summary lists them ("D-007" carried by qg-3 is "D-007-qg3"),
// and how many distinct defects that is.
func carriedDefects(o *model.Orchestration) (map[string]bool, int) {
	gates, _ := o.Gates()
	var out map[string]bool
	distinct := map[string]bool{} // a defect two gates carried is one
	add := func(g *model.Gate, ids []string) {
		for _, id := range ids {
			if out == nil {
				out = map[string]bool{}
			}
			distinct[defectKey(id)] = true
			out[defectKey(id)] = true
			out[defectKey(id+g.ID)] = true
		}
	}
	for _, g := range gates {
		if !isPassed(g.Status) && !iterationPassed(g) {
			continue
		}
		add(g, g.View.DefectsCarried.Values)
		if g.Iters == nil {
			continue
		}
		for _, it := range g.Iters.Items {
			if it != nil && (!it.Result.OK || isPassed(it.Result.Value)) {
				add(g, it.DefectsCarried.Values)
			}
		}
	}
	return out, len(distinct)
}

// iterationPassed is a gate whose last iteration passed it.
func iterationPassed(g *model.Gate) bool {
	if g.Iters == nil || len(g.Iters.Items) == 0 {
		return false
	}
	last := g.Iters.Items[len(g.Iters.Items)-1]
	return last != nil && isPassed(last.Result.Value)
}

// defectKey compares defect ids by letters and digits alone, in one case.
func defectKey(id string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(id) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func runCompleteWithDefects(p *Pass) {
	d := p.Doc
	if d == nil || !node.IsMap(d.Root) || d.File.Template {
		return
	}
	lc := workflowLifecycle(p)
	if lc == nil || lc.Status != "COMPLETE" {
		return
	}
	var ds *yaml.Node
	if r := ResumptionOf(p); r != nil && r.Defects != nil {
		ds = r.Defects.Node
	}
	if !node.IsMap(ds) {
		ds = OrchestrationOf(p).Doc.DefectSummary.Node
	}
	if !node.IsMap(ds) {
		return
	}
	n, at, ids := openDefects(ds)
	if n <= 0 || at == nil {
		return
	}
	// Defects a passed gate carried forward were accepted with the gate:
	// the record says so, and a finished workflow may keep them open.
	carriedSome := false
	if carried, count := carriedDefects(OrchestrationOf(p)); count > 0 {
		carriedSome = true
		if len(ids) == 0 {
			n -= int64(count)
		} else {
			open := ids[:0:0]
			for _, id := range ids {
				if !carried[defectKey(id)] {
					open = append(open, id)
				}
			}
			n -= int64(len(ids) - len(open))
			ids = open
		}
		if n <= 0 {
			return
		}
	}
	f := d.File
	what := "defect_summary counts " + countOf(int(n), "unresolved defect")
	if carriedSome {
		what = countOf(int(n), "unresolved defect") + " no passed gate carried"
	}
	msg := fmt.Sprintf("%s %s (line %d), but %s; resolve %s or reopen the workflow", lc.Field, lc.Raw, lineOf(lc.At), what, them(int(n)))
	if len(ids) > 0 {
		msg = diag.FitList(ids, func(list string) string {
			return fmt.Sprintf("%s %s (line %d), but %s (%s); resolve %s or reopen the workflow", lc.Field, lc.Raw, lineOf(lc.At), what, list, them(int(n)))
		})
	}
	p.Report(f, at, msg, WithRelated(relatedAt(f, lc.At, lc.Field)))
}

// ---- RL107: staleness of a v1.0 section -------------------------------------

// staleV1 applies staleness.max_age to a v1.0 section, which records no
// updated_at of its own: the newest time the file records for its own
// state (workflow.updated_at, checkpoints, phase and gate times, a
// timestamp in last_checkpoint) stands for it. A finished workflow is
// never stale; a running one whose phases are all done is RL106's.
func staleV1(p *Pass) {
	r := ResumptionOf(p)
	if r == nil || r.Version() != "v1" || p.Opts.MaxAge <= 0 || p.Opts.Now.IsZero() || p.Doc.File.Template || WorkflowFinished(p) || notAdvanced(p) {
		return
	}
	trs := transitionsOf(p)
	if lv := r.V1.LastCheckpoint.Node; lv != nil {
		if t, s, day, ok := timeOf(lv); ok {
			trs = append(trs, transition{where: place{kind: placeLastCheckpoint}, text: s, t: t, day: day, at: lv})
		}
	}
	if len(trs) == 0 {
		return // nothing to tell the age by
	}
	newest := trs[0]
	for _, tr := range trs[1:] {
		if tr.t.After(newest.t) {
			newest = tr
		}
	}
	end := newest.t
	if newest.day {
		end = end.Add(24*time.Hour - time.Second) // a date stands for its whole day
	}
	age := p.Opts.Now.Sub(end)
	if age <= p.Opts.MaxAge {
		return
	}
	f := p.Doc.File
	at, what := r.V1Keys[0], "resumption"
	if lc := workflowLifecycle(p); lc != nil && lc.Field == "workflow.status" {
		at, what = lc.At, "workflow.status "+lc.Raw
	} else if cs := r.V1.CurrentState; cs.Key != nil && cs.Node != nil {
		at, what = cs.Node, "current_state"
	}
	p.Report(f, at, fmt.Sprintf("%s, but nothing in the file is newer than %s (%s ago, over staleness.max_age %s); update the resumption section",
		what, newest.text, humanAge(age), humanAge(p.Opts.MaxAge)), WithRelated(relatedAt(f, newest.at, newest.where.label())))
}
