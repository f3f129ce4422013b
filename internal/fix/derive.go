package fix

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/lazyre"
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
	s, ok := node.Str(node.Val(node.Val(root, "workflow"), "status"))
	if !ok || !workflowStatuses[s] {
		return "", false
	}
	return s, true
}

// latestCheckpoint is checkpoints.latest_id when it is a string.
func latestCheckpoint(root *yaml.Node) (string, bool) {
	return node.Str(node.Val(node.Val(root, "checkpoints"), "latest_id"))
}

var trailingDigits = lazyre.New(`(\d+)$`)

// phaseNumber is a phase's number: an integer id or sequence, else the
// digits that end its id or its key (phase-3, eng-phase-3, phase_3).
func phaseNumber(ph *yaml.Node, mapKey string) (int, bool) {
	idv := node.Val(ph, "id")
	if n, ok := node.Int(idv); ok {
		return int(n), true
	}
	if n, ok := node.Int(node.Val(ph, "sequence")); ok {
		return int(n), true
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
func pipelineMaps(root *yaml.Node) []*yaml.Node {
	ps := node.Val(root, "pipelines")
	var out []*yaml.Node
	switch {
	case node.IsMap(ps):
		node.Pairs(ps, func(_, v *yaml.Node) {
			if node.IsMap(v) {
				out = append(out, v)
			}
		})
	case node.IsSeq(ps):
		for _, v := range ps.Content {
			if v = node.Resolve(v); node.IsMap(v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// phasesOf calls fn for each phase mapping of a pipeline (list or map).
func phasesOf(p *yaml.Node, fn func(ph *yaml.Node, key string)) {
	phases := node.Val(p, "phases")
	switch {
	case node.IsSeq(phases):
		for _, ph := range phases.Content {
			if ph = node.Resolve(ph); node.IsMap(ph) {
				fn(ph, "")
			}
		}
	case node.IsMap(phases):
		node.Pairs(phases, func(k, v *yaml.Node) {
			if node.IsMap(v) {
				fn(v, k.Value)
			}
		})
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
		phasesOf(p, func(ph *yaml.Node, key string) {
			r := phaseRef{name: strOf(node.Val(ph, "name"))}
			r.num, r.hasNum = phaseNumber(ph, key)
			st := node.Val(ph, "status")
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
func gatesOf(root *yaml.Node) []gate {
	qg := node.Val(root, "quality_gates")
	var out []gate
	add := func(id string, g *yaml.Node) {
		if !node.IsMap(g) || id == "" {
			return
		}
		gt := gate{id: id}
		st := node.Val(g, "status")
		gt.passed = statusIn(st, passedStates...)
		gt.active = statusIn(st, inProgressStates...)
		gt.failed = statusIn(st, "FAIL", "FAILED", "REJECTED")
		if n, ok := node.Int(node.Val(g, "current_iteration")); ok && n >= 1 {
			gt.current = int(n)
		}
		for _, k := range []string{"iteration_history", "iteration_scores", "iterations"} {
			it := node.Val(g, k)
			if !node.IsSeq(it) {
				continue
			}
			gt.iters = len(it.Content)
			gt.scoresOK = true
			for _, e := range it.Content {
				sv := node.Resolve(e)
				if node.IsMap(sv) {
					sv = node.Val(sv, "score")
				}
				if _, ok := node.Float(sv); !ok {
					gt.scoresOK = false
					break
				}
				gt.scores = append(gt.scores, sv.Value)
			}
			break
		}
		out = append(out, gt)
	}
	switch {
	case node.IsMap(qg):
		node.Pairs(qg, func(k, v *yaml.Node) {
			id := k.Value
			if s, ok := node.Str(node.Val(v, "id")); ok && s != "" {
				id = s
			}
			add(id, v)
		})
	case node.IsSeq(qg):
		for _, g := range qg.Content {
			g = node.Resolve(g)
			add(strOf(node.Val(g, "id")), g)
		}
	}
	return out
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
}

type historyEntry struct {
	gate   string
	scores []string
}

func deriveTrajectory(root *yaml.Node) trajectory {
	var t trajectory
	gs := gatesOf(root)
	qg := node.Val(root, "quality_gates")
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
		if (g.passed || t.current == g.id) && g.scoresOK && len(g.scores) > 0 {
			t.history = append(t.history, historyEntry{gate: g.id, scores: g.scores})
			t.used += len(g.scores)
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
	add := func(id string, a *yaml.Node) {
		if id == "" || !statusIn(node.Val(a, "status"), completeStates...) {
			return
		}
		sum, ok := node.Str(node.Val(a, "summary"))
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
	eachAgentIn(node.Val(root, "agents"), add)
	kept := out[:0]
	for _, a := range out {
		if !conflict[a.id] {
			kept = append(kept, a)
		}
	}
	return kept
}

// anyPhaseStarted reports a phase of some pipeline that is in progress or
// complete.
func anyPhaseStarted(root *yaml.Node) bool {
	started := false
	for _, p := range pipelineMaps(root) {
		phasesOf(p, func(ph *yaml.Node, _ string) {
			if st := node.Val(ph, "status"); statusIn(st, inProgressStates...) || statusIn(st, completeStates...) {
				started = true
			}
		})
	}
	return started
}

// agentsWithoutSummary lists the completed agents, in file order, that
// have no summary to carry into agent_summaries (RL111 asks for one).
func agentsWithoutSummary(root *yaml.Node) []string {
	has := map[string]bool{}
	for _, a := range agentSummaries(root) {
		has[a.id] = true
	}
	var out []string
	seen := map[string]bool{}
	add := func(id string, a *yaml.Node) {
		if id == "" || seen[id] || has[id] || !statusIn(node.Val(a, "status"), completeStates...) {
			return
		}
		seen[id] = true
		out = append(out, id)
	}
	eachPhaseAgent(root, add)
	return out
}

// eachAgentIn calls fn with the id and node of every agent of an agents
// list ([{id: …}, …]) or map ({id: {…}, …}).
func eachAgentIn(agents *yaml.Node, fn func(id string, a *yaml.Node)) {
	switch {
	case node.IsSeq(agents):
		for _, a := range agents.Content {
			a = node.Resolve(a)
			fn(strOf(node.Val(a, "id")), a)
		}
	case node.IsMap(agents):
		node.Pairs(agents, func(k, v *yaml.Node) {
			if node.IsMap(v) {
				fn(k.Value, v)
			}
		})
	}
}

// eachPhaseAgent calls fn for every agent of every phase of every pipeline.
func eachPhaseAgent(root *yaml.Node, fn func(id string, a *yaml.Node)) {
	for _, p := range pipelineMaps(root) {
		phasesOf(p, func(ph *yaml.Node, _ string) { eachAgentIn(node.Val(ph, "agents"), fn) })
	}
}
