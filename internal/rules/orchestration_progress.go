package rules

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// ORCHESTRATION.yaml: what a resuming session acts on first — the next
// actions, the execution queue, the checkpoint log and the gates between
// phases — against the statuses the same file records.
//
// One cause, one finding (SPEC §0). The rules on a workflow's state report
// in this order, each later one leaving out what an earlier one reports:
// RL106 (the lifecycle status against the phases and gates), RL122 (a gate
// or counter against the phases), RL118 (the resumption prose), RL120 (the
// next actions and the queue). So RL122 and RL120 say nothing about a
// finished workflow that RL106 already reports open, and RL120 leaves out
// an action about a phase that RL118 already reports from the prose.

var (
	NextActions = &Rule{Code: code.NextActions, Lifecycle: AboutFinished, Name: "next-actions", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "next_actions.immediate or execution_queue.current_group points at work the file records as done, or a finished workflow still has some pending", Run: runNextActions}
	CheckpointOrder = &Rule{Code: code.CheckpointOrder, Name: "checkpoint-order", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "checkpoints.entries whose times go back, or latest_id that is not the last entry", Run: runCheckpointOrder}
	GatePhase = &Rule{Code: code.GatePhase, Lifecycle: AboutFinished, Name: "gate-phase", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "a barrier or quality gate still open behind a completed phase; counters that disagree with the statuses they count", Run: runGatePhase}
)

func init() {
	Register(NextActions, CheckpointOrder, GatePhase)
}

// isWorkDone is the status of a phase, agent, task, group or gate whose
// work is over.
func isWorkDone(s string) bool {
	switch node.StatusWord(s) {
	case "ACCEPTED", "VALIDATED", "PASS", "PASSED":
		return true
	}
	return isComplete(s)
}

// ---- precedence ---------------------------------------------------------------

// runningPhasesReported reports an active workflow in which RL106 reports
// a phase status as stale: all phases done with the workflow still
// running, or a phase left open although its agents are complete.
func runningPhasesReported(p *Pass) bool {
	if notAdvanced(p) {
		return true
	}
	for _, ph := range recordPhases(p) {
		if isOpenStatus(ph.Status) && !isInProgress(ph.Status) && agentsAllComplete(ph) {
			return true
		}
	}
	return false
}

// proseReportedPhases are the phases RL118 reports the resumption prose
// about (the first contradiction of each text field, as RL118 reads it).
func proseReportedPhases(p *Pass) map[int]bool { return proseReportedResult.Of(p) }

var proseReportedResult = NewResult("prose-reported-phases", func(p *Pass) map[int]bool {
	out := map[int]bool{}
	if ResumptionOf(p) == nil || p.Doc.File.Template {
		return out
	}
	for _, tf := range textFields(p) {
		for _, c := range claimsIn(tf.val.Value) {
			if contradict(p, c) != nil {
				if c.phase > 0 {
					out[c.phase] = true
				}
				break
			}
		}
	}
	return out
})

// ---- the work a file records ----------------------------------------------------

// queueGroup is one execution_queue group.
type queueGroup struct {
	ID       string
	Num      int
	HasNum   bool
	Status   string
	StatusAt *yaml.Node
	Node     *yaml.Node
}

// queueGroups reads execution_queue.groups (a list, or a map keyed by id),
// once per file.
func queueGroups(p *Pass) []queueGroup { return queueGroupsResult.Of(p) }

var queueGroupsResult = NewResult("queue-groups", func(p *Pass) []queueGroup {
	var out []queueGroup
	eq := OrchestrationOf(p).Doc.ExecutionQueue
	if eq == nil {
		return out
	}
	gs := eq.Groups
	for i, g := range gs.Items {
		if g == nil {
			continue
		}
		q := queueGroup{Node: g.Node, StatusAt: g.Status.Node, Status: g.Status.Value}
		if gs.Keys != nil {
			q.ID = gs.Keys[i].Value
		}
		if v := g.ID.Node; node.IsScalar(v) && !node.IsNull(v) {
			q.ID = v.Value // an integer or a string id
		}
		if trailingDigits.MatchString(q.ID) {
			q.Num, q.HasNum = model.TrailingInt(q.ID), true
		}
		out = append(out, q)
	}
	return out
})

var trailingDigits = lazyre.New(`\d+\s*$`)

// groupsByNum maps a group number to its first group.
func groupsByNum(p *Pass) map[int]queueGroup { return groupsByNumResult.Of(p) }

var groupsByNumResult = NewResult("groups-by-num", func(p *Pass) map[int]queueGroup {
	out := map[int]queueGroup{}
	for _, g := range queueGroups(p) {
		if _, dup := out[g.Num]; g.HasNum && !dup {
			out[g.Num] = g
		}
	}
	return out
})

// agentStatuses maps every agent id the file records (in its phases and
// in a top-level agents section) to its status.
func agentStatuses(p *Pass) map[string]string { return agentStatusesResult.Of(p) }

var agentStatusesResult = NewResult("agent-statuses", func(p *Pass) map[string]string {
	phases, as := recordPhases(p), OrchestrationOf(p).Doc.Agents
	n := len(as.Items)
	for _, ph := range phases {
		n += len(ph.Agents)
	}
	out := make(map[string]string, n) // sized once, not grown agent by agent
	for _, ph := range phases {
		for _, a := range ph.Agents {
			if a.Status != "" {
				out[a.ID] = a.Status
			}
		}
	}
	for i, a := range as.Items {
		switch {
		case a == nil || !a.Status.OK:
		case as.Keys != nil:
			out[as.Keys[i].Value] = a.Status.Value
		case a.ID.OK:
			out[a.ID.Value] = a.Status.Value
		}
	}
	return out
})

// phaseDone returns a phase numbered n when every phase of that number is
// done (nil when none is, or one is not).
func phaseDone(p *Pass, n int) *model.Phase { return donePhasesResult.Of(p)[n] }

// donePhasesResult maps each phase number whose phases are all done to the
// first of them, read once per file.
var donePhasesResult = NewResult("done-phases", func(p *Pass) map[int]*model.Phase {
	out, open := map[int]*model.Phase{}, map[int]bool{}
	for _, ph := range recordPhases(p) {
		if !ph.HasNum || ph.Status == "" {
			continue
		}
		if !isWorkDone(ph.Status) {
			open[ph.Num] = true
		} else if out[ph.Num] == nil {
			out[ph.Num] = ph
		}
	}
	for n := range open {
		delete(out, n)
	}
	return out
})

// ---- RL120 next-actions -----------------------------------------------------------

// actionVerb finds the work an action's text dispatches: "Execute Phase 3",
// "Start Group 4", and an action written as "Phase 4: …".
var (
	actionVerb   = lazyre.New(`(?i)\b(?:execute|start|begin|run|dispatch|launch)\s+(phase|group)\s+(\d+)\b`)
	actionPrefix = lazyre.New(`(?i)^\s*(phase|group)\s+(\d+)\s*[:—–-]`)
)

// action is one entry of next_actions.immediate and the work it names.
type action struct {
	At     *yaml.Node // the entry's action text, else the entry
	Text   string
	Phase  int // 0 when it names none
	Group  int
	Agents []string
	Done   bool // the entry records itself as done
}

func immediateActions(o *model.Orchestration) (*yaml.Node, []action) {
	var imm model.List[*model.NextAction]
	if o.Doc.NextActions != nil {
		imm = o.Doc.NextActions.Immediate
	}
	if !node.IsSeq(imm.Node) {
		return imm.Node, nil
	}
	var out []action
	for i, e := range imm.Node.Content {
		e = node.Resolve(e)
		a := action{At: e}
		switch na := imm.Items[i]; {
		case node.IsString(e):
			a.Text = e.Value
		case na != nil:
			if v := na.Action.Node; node.IsString(v) {
				a.At, a.Text = v, v.Value
			}
			for _, s := range []model.Str{na.Status, na.ExecutionMode} {
				if s.OK && isWorkDone(s.Value) {
					a.Done = true
				}
			}
			if na.Phase.OK {
				a.Phase = na.Phase.Value
			}
			if na.Group.OK {
				a.Group = na.Group.Value
			}
			if na.Agent.OK {
				a.Agents = append(a.Agents, na.Agent.Value)
			}
			if l := na.Agents.Node; node.IsSeq(l) {
				for _, x := range l.Content {
					if s, ok := node.Str(x); ok {
						a.Agents = append(a.Agents, s)
					}
				}
			}
		default:
			continue
		}
		if a.Phase == 0 && a.Group == 0 {
			m := actionVerb.FindStringSubmatch(a.Text)
			if m == nil {
				m = actionPrefix.FindStringSubmatch(a.Text)
			}
			if m != nil {
				n, _ := strconv.Atoi(m[2])
				if strings.EqualFold(m[1], "phase") {
					a.Phase = n
				} else {
					a.Group = n
				}
			}
		}
		out = append(out, a)
	}
	return imm.Node, out
}

// agentsDone reports whether agents are named and each is recorded done
// (st: agentStatuses).
func agentsDone(st map[string]string, agents []string) bool {
	for _, id := range agents {
		if s, ok := st[id]; !ok || !isWorkDone(s) {
			return false
		}
	}
	return len(agents) > 0
}

// doneBecause says why the file records an action's work as done, or "".
func doneBecause(p *Pass, a action) (string, *yaml.Node) {
	if a.Phase > 0 {
		if ph := phaseDone(p, a.Phase); ph != nil {
			sv := statusAt(ph)
			return fmt.Sprintf("%s is %s (line %d)", phaseName(p, ph), ph.Status, lineOf(sv)), sv
		}
		return "", nil
	}
	if a.Group > 0 {
		if g, ok := groupsByNum(p)[a.Group]; ok && isWorkDone(g.Status) {
			return fmt.Sprintf("group %d is %s (line %d)", g.Num, g.Status, lineOf(g.StatusAt)), g.StatusAt
		}
		return "", nil
	}
	if len(a.Agents) == 0 {
		return "", nil
	}
	st := agentStatuses(p)
	if !agentsDone(st, a.Agents) {
		return "", nil
	}
	if len(a.Agents) == 1 {
		return fmt.Sprintf("agent %s is %s", a.Agents[0], st[a.Agents[0]]), nil
	}
	return fmt.Sprintf("its %d agents are done", len(a.Agents)), nil
}

func runNextActions(p *Pass) {
	d := p.Doc
	if d == nil || !node.IsMap(d.Root) || d.File.Template {
		return
	}
	if WorkflowFinished(p) {
		finishedPending(p)
		return
	}
	staleNext(p)
}

// staleAction is an immediate action whose work the file records as done.
type staleAction struct {
	action
	why string
	at  *yaml.Node // the status that says so, when there is one
}

// staleActions are the immediate actions of an active workflow whose work
// the file records as done, leaving out phases RL118 reports.
func staleActions(p *Pass) []staleAction { return staleActionsResult.Of(p) }

var staleActionsResult = NewResult("stale-actions", func(p *Pass) []staleAction {
	var out []staleAction
	_, acts := immediateActions(OrchestrationOf(p))
	prose := proseReportedPhases(p)
	for _, a := range acts {
		if a.Done || a.Phase > 0 && prose[a.Phase] {
			continue
		}
		if why, at := doneBecause(p, a); why != "" {
			out = append(out, staleAction{a, why, at})
		}
	}
	return out
})

// staleNext reports immediate actions whose work the file records as
// done, and a current_group naming a done group while a later one is open:
// a resuming session would redo the work. Both trail one missed update,
// so they are one finding, at the first immediate action when it is stale.
func staleNext(p *Pass) {
	f := p.Doc.File
	list := staleActions(p)
	cgv, cgMsg, next := staleCurrentGroup(p)
	switch {
	case len(list) > 0:
		a := list[0]
		var rel []diag.Related
		if a.at != nil {
			rel = append(rel, relatedAt(f, a.at, "the recorded status"))
		}
		for _, b := range list[1:] {
			rel = append(rel, relatedAt(f, b.At, "also done: "+b.why))
		}
		if cgv != nil {
			rel = append(rel, relatedAt(f, cgv, cgMsg))
		}
		p.Report(f, a.At, fmt.Sprintf("next_actions.immediate says %s, but %s: replace it with the next open work", quoteClaim(a.Text), a.why), WithRelated(rel...), AboutLive())
	case cgv != nil:
		p.Report(f, cgv, fmt.Sprintf("%s: point it at the open group", cgMsg), WithRelated(relatedAt(f, next, "the next open group")), AboutLive())
	}
}

// staleCurrentGroup finds execution_queue.current_group naming a group the
// file records as done while a later group is still open.
func staleCurrentGroup(p *Pass) (cgv *yaml.Node, msg string, next *yaml.Node) {
	if eq := OrchestrationOf(p).Doc.ExecutionQueue; eq != nil {
		cgv = eq.CurrentGroup.Node
	}
	cur, ok := node.Int(cgv)
	if !ok {
		s, isStr := node.Str(cgv)
		if !isStr || !trailingDigits.MatchString(s) {
			return nil, "", nil
		}
		cur = int64(model.TrailingInt(s))
	}
	gs := queueGroups(p)
	for i, g := range gs {
		if !g.HasNum || int64(g.Num) != cur || !isWorkDone(g.Status) {
			continue
		}
		for _, n := range gs[i+1:] {
			if isOpenStatus(n.Status) {
				return cgv, fmt.Sprintf("execution_queue.current_group is %d, but group %d is %s (line %d) and group %s is %s",
					cur, g.Num, g.Status, lineOf(g.StatusAt), n.ID, n.Status), n.StatusAt
			}
		}
		break
	}
	return nil, "", nil
}

// finishedPending reports, in a finished workflow, the immediate actions
// that still dispatch its own work not recorded done and the queue groups
// still open (a warning: the record may be over and these lists left
// behind). A workflow cancelled, failed or superseded stopped with work
// left: that is what its status says, no contradiction.
func finishedPending(p *Pass) {
	if FinishedContradicted(p) {
		return // RL106 reports the open work
	}
	if lc := workflowLifecycle(p); lc != nil && lc.Status != "COMPLETE" {
		return
	}
	f := p.Doc.File
	var items []string
	var ats []*yaml.Node
	var acts, groups int
	_, list := immediateActions(OrchestrationOf(p))
	st := agentStatuses(p)
	for _, a := range list {
		known := a.Phase > 0 || a.Group > 0
		for _, id := range a.Agents {
			_, ok := st[id]
			known = known || ok
		}
		if a.Done || !known {
			continue // housekeeping after the workflow (commit, close the item) is not its work
		}
		if why, _ := doneBecause(p, a); why != "" || agentsDone(st, a.Agents) {
			continue // left from when it ran: the work it names is recorded done, no doubt the record is over
		}
		acts++
		items = append(items, diag.QuoteTo(strings.Join(strings.Fields(a.Text), " "), 32))
		ats = append(ats, a.At)
	}
	for _, g := range queueGroups(p) {
		if g.StatusAt != nil && isOpenStatus(g.Status) {
			groups++
			items = append(items, fmt.Sprintf("group %s (%s)", g.ID, g.Status))
			ats = append(ats, g.StatusAt)
		}
	}
	if len(items) == 0 {
		return
	}
	what := "the workflow is finished"
	if lc := workflowLifecycle(p); lc != nil {
		what = lc.Field + " is " + lc.Raw
	}
	var counts []string
	if acts > 0 {
		counts = append(counts, countOf(acts, "action"))
	}
	if groups > 0 {
		counts = append(counts, countOf(groups, "queue group"))
	}
	msg := diag.FitList(items, func(list string) string {
		return fmt.Sprintf("%s, but %s pending: %s; clear %s or reopen the workflow", what, strings.Join(counts, " and "), list, them(acts+groups))
	})
	var rel []diag.Related
	for _, at := range ats[1:] {
		rel = append(rel, relatedAt(f, at, "also pending"))
		if len(rel) == 5 {
			break
		}
	}
	p.Report(f, ats[0], msg, WithSeverity(diag.SevWarning), WithRelated(rel...))
}
