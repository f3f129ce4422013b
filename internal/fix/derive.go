package fix

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// What the v2.0 resumption fields can be derived from in the file's own
// structured data (SPEC §5, seed 000 §Update Semantics). Each derivation
// returns nothing when the data is missing or ambiguous: the migration then
// writes null and RL102 reports it. Nothing is read from prose.

func statusIn(n *yaml.Node, set ...string) bool {
	s, ok := node.Str(n)
	if !ok {
		return false
	}
	w := node.StatusWord(s)
	for _, x := range set {
		if w == x {
			return true
		}
	}
	return false
}

var (
	completeStates   = []string{"COMPLETE", "COMPLETED", "DONE"}
	inProgressStates = []string{"IN_PROGRESS", "ACTIVE", "RUNNING", "STARTED"}
	passedStates     = []string{"PASS", "PASSED", "COMPLETE", "COMPLETED"}
)

// workflowStatuses are the values of recovery_state.workflow_status.
var workflowStatuses = map[string]bool{"ACTIVE": true, "PAUSED": true, "COMPLETE": true, "FAILED": true, "CANCELLED": true}

// workflowStatus is workflow.status when it is one of the v2.0 values.
func workflowStatus(root *yaml.Node) (string, bool) {
	w := model.WorkflowIn(root)
	if w == nil || !w.Status.OK || !workflowStatuses[w.Status.Value] {
		return "", false
	}
	return w.Status.Value, true
}

// latestCheckpoint is checkpoints.latest_id when it is a string.
func latestCheckpoint(root *yaml.Node) (string, bool) {
	c := docOf(root).Checkpoints
	if c == nil {
		return "", false
	}
	return c.LatestID.Value, c.LatestID.OK
}

// docOf reads root as #OrchestrationDoc, empty when it is not a mapping.
func docOf(root *yaml.Node) *model.OrchestrationDoc {
	if d := model.OrchestrationDocOf(nil, root); d != nil {
		return d
	}
	return &model.OrchestrationDoc{}
}

var trailingDigits = lazyre.New(`(\d+)$`)

// phaseNumber is a phase's number: an integer id or sequence, else the
// digits that end its id or its key (phase-3, eng-phase-3, phase_3).
func phaseNumber(ph *model.PhaseEntry, mapKey string) (int, bool) {
	idv := ph.ID.Node
	if n, ok := node.Int(idv); ok {
		return int(n), true
	}
	if ph.Sequence.OK {
		return ph.Sequence.Value, true
	}
	for _, s := range []string{strOf(idv), mapKey} {
		if m := trailingDigits.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

func strOf(n *yaml.Node) string {
	s, _ := node.Str(n)
	return s
}

type phaseRef struct {
	num    int
	hasNum bool
	name   string
	active bool // IN_PROGRESS (else: the last COMPLETE one)
}

// pipelineMaps returns every pipeline mapping under pipelines (a map of
// pipelines or a list of them).
func pipelineMaps(root *yaml.Node) []*model.PipelineEntry {
	var out []*model.PipelineEntry
	for _, p := range docOf(root).Pipelines.Items {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}

// phasesOf calls fn for each phase mapping of a pipeline (list or map),
// with its key in a map ("" in a list).
func phasesOf(p *model.PipelineEntry, fn func(ph *model.PhaseEntry, key string)) {
	for i, ph := range p.Phases.Items {
		switch {
		case ph == nil:
		case p.Phases.Keys != nil:
			fn(ph, p.Phases.Keys[i].Value)
		default:
			fn(ph, "")
		}
	}
}

// currentPhase is the pipelines' current phase: the one IN_PROGRESS, else
// the last COMPLETE one (seed 000: "Set to current phase number ← Pipeline
// state"). With several pipelines, those with a phase in progress decide;
// the number (and the name) is derived only when they all agree.
func currentPhase(root *yaml.Node) (num int, hasNum bool, name string, hasName bool) {
	var cands []phaseRef
	ambiguous := false
	for _, p := range pipelineMaps(root) {
		var active []phaseRef
		var last *phaseRef
		phasesOf(p, func(ph *model.PhaseEntry, key string) {
			r := phaseRef{name: ph.Name.Value}
			r.num, r.hasNum = phaseNumber(ph, key)
			st := ph.Status.Node
			switch {
			case statusIn(st, inProgressStates...):
				r.active = true
				active = append(active, r)
			case statusIn(st, completeStates...):
				rr := r
				last = &rr
			}
		})
		switch {
		case len(active) == 1:
			cands = append(cands, active[0])
		case len(active) > 1:
			ambiguous = true
			cands = append(cands, phaseRef{active: true})
		case last != nil:
			cands = append(cands, *last)
		}
	}
	if ambiguous {
		return 0, false, "", false
	}
	var chosen []phaseRef
	for _, c := range cands {
		if c.active {
			chosen = append(chosen, c)
		}
	}
	if len(chosen) == 0 {
		chosen = cands
	}
	if len(chosen) == 0 {
		return 0, false, "", false
	}
	num, hasNum = chosen[0].num, chosen[0].hasNum
	name, hasName = chosen[0].name, strings.TrimSpace(chosen[0].name) != ""
	for _, c := range chosen[1:] {
		if !c.hasNum || c.num != num {
			hasNum = false
		}
		if c.name != name {
			hasName = false
		}
	}
	return num, hasNum, name, hasName
}

// gate is one entry of quality_gates.
type gate struct {
	id       string
	passed   bool
	active   bool
	failed   bool
	scores   []string // source text of each iteration's score
	scoresOK bool     // every iteration has a numeric score
	iters    int
	current  int // current_iteration when given
}

// gatesOf reads quality_gates as a map of id to gate or a list of gates
// with ids; iterations under iteration_history, iteration_scores or
// iterations.
func gatesOf(qg model.Coll[*model.QualityGate]) []gate {
	var out []gate
	for i, g := range qg.Items {
		if g == nil {
			continue
		}
		id := g.ID.Value
		if qg.Keys != nil && (!g.ID.OK || id == "") {
			id = qg.Keys[i].Value
		}
		if id != "" {
			out = append(out, gateOf(id, g))
		}
	}
	return out
}

func gateOf(id string, g *model.QualityGate) gate {
	gt := gate{id: id}
	st := g.Status.Node
	gt.passed = statusIn(st, passedStates...)
	gt.active = statusIn(st, inProgressStates...)
	gt.failed = statusIn(st, "FAIL", "FAILED", "REJECTED")
	if g.CurrentIteration.OK && g.CurrentIteration.Value >= 1 {
		gt.current = g.CurrentIteration.Value
	}
	_, it := g.IterationList()
	if it == nil {
		return gt
	}
	gt.iters = len(it.Items)
	gt.scoresOK = true
	for i, e := range it.Items {
		sv := node.Resolve(it.Node.Content[i]) // a bare score, or an iteration
		if e != nil {
			sv = e.Score.Node
		}
		if _, ok := node.Float(sv); !ok {
			gt.scoresOK = false
			break
		}
		gt.scores = append(gt.scores, sv.Value)
	}
	return gt
}

// trajectory is quality_trajectory derived from quality_gates.
type trajectory struct {
	completed, remaining []string
	current              string // "" between gates
	currentIter          int    // 0: unknown
	history              []historyEntry
	used                 int
	// known: the gates are recorded where the migration reads them
	// (quality_gates), or there is no sign of any gate.
	known bool
	// anyRun: some gate has run (an iteration, or passed or failed).
	anyRun bool
	// historyUnknown: a gate passed or in progress records no scores the
	// migration reads (a plain score:, iterations: 2), so score_history
	// and total_iterations_used would be guessed.
	historyUnknown bool
}

type historyEntry struct {
	gate   string
	scores []string
}

func deriveTrajectory(root *yaml.Node) trajectory {
	var t trajectory
	doc := docOf(root)
	gs := gatesOf(doc.QualityGates)
	qg := doc.QualityGates.Node
	switch {
	case qg != nil && !node.IsNull(qg):
		// Every entry must read as a gate, or the lists would be partial.
		n := -1
		switch {
		case node.IsMap(qg):
			n = len(node.Resolve(qg).Content) / 2
		case node.IsSeq(qg):
			n = len(node.Resolve(qg).Content)
		}
		t.known = n == len(gs)
	default:
		// No quality_gates: the trajectory is known to be empty only while
		// no phase has started; after that, gates may be recorded in forms
		// the migration does not read (barriers, per-enabler scores).
		t.known = !anyPhaseStarted(root)
	}
	nActive := 0
	for _, g := range gs {
		if g.active && !g.passed {
			nActive++
		}
	}
	for _, g := range gs {
		if g.iters > 0 || g.passed || g.failed || g.active && g.current > 0 {
			t.anyRun = true
		}
		switch {
		case g.passed:
			t.completed = append(t.completed, g.id)
		case g.active && nActive == 1:
			t.current = g.id
			switch {
			case g.iters > 0:
				t.currentIter = g.iters
			case g.current > 0:
				t.currentIter = g.current
			}
		default:
			t.remaining = append(t.remaining, g.id)
		}
		if g.passed || t.current == g.id {
			if g.scoresOK && len(g.scores) > 0 {
				t.history = append(t.history, historyEntry{gate: g.id, scores: g.scores})
				t.used += len(g.scores)
			} else if g.passed || g.iters > 0 || g.current > 0 {
				t.historyUnknown = true
			}
		}
	}
	return t
}

// agentSummary is a completed agent's one-line summary.
type agentSummary struct{ id, summary string }

// agentSummaries collects the summary of every completed agent in the
// pipelines' phases and the top-level agents registry, in file order. An
// agent given two different summaries is left out.
func agentSummaries(root *yaml.Node) []agentSummary {
	var out []agentSummary
	seen := map[string]int{}
	conflict := map[string]bool{}
	add := func(id string, a *model.AgentEntry) {
		if id == "" || !statusIn(a.Status.Node, completeStates...) {
			return
		}
		sum, ok := a.Summary.Value, a.Summary.OK
		if !ok || strings.TrimSpace(sum) == "" {
			return
		}
		if i, dup := seen[id]; dup {
			if out[i].summary != sum {
				conflict[id] = true
			}
			return
		}
		seen[id] = len(out)
		out = append(out, agentSummary{id: id, summary: sum})
	}
	eachPhaseAgent(root, add)
	eachAgentIn(docOf(root).Agents, add)
	kept := out[:0]
	for _, a := range out {
		if !conflict[a.id] {
			kept = append(kept, a)
		}
	}
	return kept
}

// unstartedStates are the phase statuses that say no work began.
var unstartedStates = []string{"PENDING", "PLANNED", "NOT_STARTED", "READY", "TODO", "QUEUED"}

// anyPhaseStarted reports a phase that may have started, wherever the file
// keeps its phases (a pipeline's, pipeline:'s, or top-level phases:): one
// whose status does not say it is still to come, or that has none. The
// migration may write an empty trajectory only when none has: it cannot
// tell what a started workflow's gates recorded.
func anyPhaseStarted(root *yaml.Node) bool {
	started := false
	check := func(ph *model.PhaseEntry, _ string) {
		if !statusIn(ph.Status.Node, unstartedStates...) {
			started = true
		}
	}
	for _, p := range pipelineMaps(root) {
		phasesOf(p, check)
	}
	d := docOf(root)
	if d.Pipeline != nil {
		phasesOf(d.Pipeline, check)
	}
	for _, ph := range d.Phases.Items {
		if ph == nil {
			started = true // an entry that is no phase mapping: unknown
			continue
		}
		check(ph, "")
	}
	return started
}

// agentsWithoutSummary lists the completed agents, in file order, that
// have no summary to carry into agent_summaries. It reads the agents as
// RL111 does (lists, maps, a phase's single `agent:` with the phase's
// status; ids without regard to case), so the fill list names every entry
// RL111 would ask for.
func agentsWithoutSummary(root *yaml.Node) []string {
	has := map[string]bool{}
	for _, a := range agentSummaries(root) {
		has[strings.ToLower(a.id)] = true
	}
	var out []string
	for _, pi := range model.PipelinesOf(root) {
		for _, ph := range pi.Phases {
			for _, a := range ph.Agents {
				id := strings.ToLower(a.ID)
				if a.ID == "" || has[id] || !slices.Contains(completeStates, node.StatusWord(a.Status)) {
					continue
				}
				has[id] = true
				out = append(out, a.ID)
			}
		}
	}
	return out
}

// eachAgentIn calls fn with the id and node of every agent of an agents
// list ([{id: …}, …]) or map ({id: {…}, …}).
func eachAgentIn(agents model.Coll[*model.AgentEntry], fn func(id string, a *model.AgentEntry)) {
	for i, a := range agents.Items {
		switch {
		case a == nil: // no mapping: no id, no status
		case agents.Keys != nil:
			fn(agents.Keys[i].Value, a)
		default:
			fn(a.ID.Value, a)
		}
	}
}

// eachPhaseAgent calls fn for every agent of every phase of every pipeline.
func eachPhaseAgent(root *yaml.Node, fn func(id string, a *model.AgentEntry)) {
	for _, p := range pipelineMaps(root) {
		phasesOf(p, func(ph *model.PhaseEntry, _ string) { eachAgentIn(ph.Agents, fn) })
	}
}
