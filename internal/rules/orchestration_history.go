package rules

import (
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strconv"
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

// ORCHESTRATION.yaml: the accumulated sub-sections of resumption and the
// files it points at (SPEC §3.2 RL108–RL113; seed 000 §Update Semantics).

var (
	QualityTrajectory = &Rule{Code: code.QualityTrajectory, Name: "quality-trajectory", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "quality_trajectory inconsistent in itself or with quality_gates", Run: runQualityTrajectory}
	DefectSummary = &Rule{Code: code.DefectSummary, Name: "defect-summary", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "defect counts that do not add up", Run: runDefectSummary}
	DecisionLog = &Rule{Code: code.DecisionLog, Name: "decision-log", Severity: diag.SevError, Fix: diag.FixSafe, Kinds: orch, Family: "orchestration",
		Summary: "decision_log ids, gates, iterations or phases that do not fit the file", Run: runDecisionLog}
	AgentSummaries = &Rule{Code: code.AgentSummaries, Name: "agent-summaries", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "a completed agent without a summary, or a summary for no agent", Run: runAgentSummaries}
	CompactionEvents = &Rule{Code: code.CompactionEvents, Name: "compaction-events", Severity: diag.SevError, Fix: diag.FixSafe, Kinds: orch, Family: "orchestration",
		Summary: "compaction events miscounted, out of order, unmerged, or pointing at a missing or different checkpoint file", Run: runCompactionEvents,
		Requires: []FactKey{Checkpoints}}
	FilesToRead = &Rule{Code: code.FilesToRead, Name: "files-to-read", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "files_to_read paths that resolve nowhere, repeat, or are not portable; priorities repeated or out of order", Run: runFilesToRead}
)

func init() {
	Register(QualityTrajectory, DefectSummary, DecisionLog, AgentSummaries, CompactionEvents, FilesToRead)
}

func fmtScores(s []float64) string {
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ---- RL108 quality-trajectory -----------------------------------------------

// trajectory is quality_trajectory read for RL108.
type trajectory struct {
	f                    *load.File
	qt                   *model.QualityTrajectory
	ck                   *yaml.Node // gates_completed
	completed, remaining []string
	cNodes, rNodes       []*yaml.Node
	cOK, rOK             bool
	completedAt          map[string]*yaml.Node
	cgv, civ             *yaml.Node // current_gate, current_gate_iteration
	cg                   string
	ci                   int64
	cgSet, ciSet         bool
	shk                  *yaml.Node // score_history
	hist                 []gateScores
	histOK               bool
	unread               map[string]bool // gates whose scores are not a list of numbers (RL102's)
}

// gateScores is one score_history entry: a gate's iteration scores.
type gateScores struct {
	gate   string
	key    *yaml.Node
	scores []float64
}

func runQualityTrajectory(p *Pass) {
	qt := trajectoryOf(p)
	if qt == nil || trajectoryStale(p) != nil {
		return // a trajectory left behind by a finished workflow is RL106's one finding
	}
	t := &trajectory{f: p.Doc.File, qt: qt, completedAt: map[string]*yaml.Node{}}
	t.ck = qt.GatesCompleted.Key
	t.completed, t.cNodes, t.cOK = qt.GatesCompleted.Values, qt.GatesCompleted.Nodes, qt.GatesCompleted.OK
	t.remaining, t.rNodes, t.rOK = qt.GatesRemaining.Values, qt.GatesRemaining.Nodes, qt.GatesRemaining.OK
	for i, g := range t.completed {
		t.completedAt[model.GateKey(g)] = t.cNodes[i]
	}
	t.cgv, t.cg, t.cgSet = qt.CurrentGate.Node, qt.CurrentGate.Value, qt.CurrentGate.OK
	t.civ, t.ci, t.ciSet = qt.CurrentGateIteration.Node, int64(qt.CurrentGateIteration.Value), qt.CurrentGateIteration.OK
	checkGateLists(p, t)
	readScoreHistory(p, t)
	checkScoreHistory(p, t)
	checkIterationsUsed(p, t)
	if gates, ok := OrchestrationOf(p).Gates(); ok {
		checkTrajectoryGates(p, t, gates)
	}
}

// checkGateLists checks gates_completed, gates_remaining and the current
// gate against one another.
func checkGateLists(p *Pass, t *trajectory) {
	f := t.f
	if t.cOK && t.rOK {
		for i, g := range t.remaining {
			if c := t.completedAt[model.GateKey(g)]; c != nil {
				p.Report(f, t.rNodes[i], fmt.Sprintf("gate %s is in both gates_completed (line %d) and gates_remaining: remove it from gates_remaining", g, c.Line), WithRelated(relatedAt(f, c, "quality_trajectory.gates_completed")))
			}
		}
	}
	cg, cgv, civ := t.cg, t.cgv, t.civ
	if t.cgSet {
		if c := t.completedAt[model.GateKey(cg)]; t.cOK && c != nil {
			p.Report(f, cgv, fmt.Sprintf("current_gate %s is already in gates_completed (line %d): set current_gate to the gate in progress, or null", cg, c.Line), WithRelated(relatedAt(f, c, "quality_trajectory.gates_completed")))
		}
		for i, g := range t.remaining {
			if t.rOK && model.GateKey(g) == model.GateKey(cg) {
				p.Report(f, cgv, fmt.Sprintf("current_gate %s is also listed in gates_remaining (line %d): remove it from gates_remaining", cg, t.rNodes[i].Line), WithRelated(relatedAt(f, t.rNodes[i], "quality_trajectory.gates_remaining")))
			}
		}
	}
	if cgv != nil && civ != nil {
		switch {
		case t.cgSet && node.IsNull(civ):
			p.Report(f, civ, fmt.Sprintf("current_gate_iteration is null while current_gate is %s (line %d): set both during a gate, or both to null between gates", cg, cgv.Line), WithRelated(relatedAt(f, cgv, "quality_trajectory.current_gate")))
		case t.ciSet && node.IsNull(cgv):
			p.Report(f, civ, fmt.Sprintf("current_gate_iteration is %d while current_gate is null (line %d): set both during a gate, or both to null between gates", t.ci, cgv.Line), WithRelated(relatedAt(f, cgv, "quality_trajectory.current_gate")))
		}
	}
}

// readScoreHistory reads score_history (gate id -> scores of each
// iteration), reporting scores outside [0, 1].
func readScoreHistory(p *Pass, t *trajectory) {
	shv := t.qt.ScoreHistory.Node
	t.shk = t.qt.ScoreHistory.Key
	t.histOK = node.IsMap(shv)
	unread := func(k *yaml.Node) {
		t.histOK = false
		if t.unread == nil {
			t.unread = map[string]bool{}
		}
		t.unread[model.GateKey(k.Value)] = true
	}
	node.Pairs(shv, func(k, v *yaml.Node) {
		if !node.IsSeq(v) {
			unread(k)
			return
		}
		h := gateScores{gate: k.Value, key: k}
		for _, s := range v.Content {
			x, ok := node.Float(s)
			if !ok {
				unread(k)
				return
			}
			if x < 0 || x > 1 {
				p.Report(t.f, s, fmt.Sprintf("score %s of %s is outside [0, 1]", s.Value, k.Value))
			}
			h.scores = append(h.scores, x)
		}
		t.hist = append(t.hist, h)
	})
}

// checkScoreHistory checks that score_history and gates_completed name
// the same gates.
func checkScoreHistory(p *Pass, t *trajectory) {
	if !node.IsMap(t.qt.ScoreHistory.Node) || !t.cOK {
		return
	}
	f := t.f
	var stray []string
	var first *yaml.Node
	for _, h := range t.hist {
		if t.completedAt[model.GateKey(h.gate)] == nil && !(t.cgSet && model.GateKey(h.gate) == model.GateKey(t.cg)) {
			stray = append(stray, h.gate)
			if first == nil {
				first = h.key
			}
		}
	}
	if len(stray) > 0 {
		p.Report(f, first, fmt.Sprintf("score_history holds scores for %s, which %s neither in gates_completed nor the current gate: correct the gate ids",
			listShort(stray), map[bool]string{true: "is", false: "are"}[len(stray) == 1]))
	}
	has := map[string]bool{}
	for _, h := range t.hist {
		if len(h.scores) > 0 {
			has[model.GateKey(h.gate)] = true
		}
	}
	for i, g := range t.completed {
		if !has[model.GateKey(g)] && !t.unread[model.GateKey(g)] {
			p.Report(f, t.cNodes[i], fmt.Sprintf("gate %s is in gates_completed, but score_history has no scores for it (line %d): record the score of each of its iterations", g, t.shk.Line), WithRelated(relatedAt(f, t.shk, "quality_trajectory.score_history")))
		}
	}
}

// checkIterationsUsed checks total_iterations_used against score_history
// and total_iterations_budget.
func checkIterationsUsed(p *Pass, t *trajectory) {
	f := t.f
	tuv := t.qt.TotalIterationsUsed.Node
	used, usedOK := int64(t.qt.TotalIterationsUsed.Value), t.qt.TotalIterationsUsed.OK
	if usedOK && t.histOK {
		sum := 0
		var parts []string
		for _, h := range t.hist {
			sum += len(h.scores)
			parts = append(parts, fmt.Sprintf("%s: %d", h.gate, len(h.scores)))
		}
		if int(used) != sum {
			p.Report(f, tuv, fmt.Sprintf("total_iterations_used %d, but score_history holds %s (%s): set it to the number of gate iterations", used, countOf(sum, "score"), listShort(parts)), WithRelated(relatedAt(f, t.shk, "quality_trajectory.score_history")))
		}
	}
	if bv := t.qt.TotalIterationsBudget.Node; usedOK && bv != nil {
		if budget, ok := int64(t.qt.TotalIterationsBudget.Value), t.qt.TotalIterationsBudget.OK; ok && used > budget {
			p.Report(f, tuv, fmt.Sprintf("total_iterations_used %d exceeds total_iterations_budget %d (line %d)", used, budget, bv.Line), WithRelated(relatedAt(f, bv, "quality_trajectory.total_iterations_budget")))
		}
	}
}

// checkTrajectoryGates checks the trajectory against quality_gates.
func checkTrajectoryGates(p *Pass, t *trajectory, gates map[string]*model.Gate) {
	f := t.f
	keys := make([]string, 0, len(gates))
	for _, g := range model.GatesInOrder(gates) {
		keys = append(keys, model.GateKey(g.ID))
	}
	if t.cOK {
		for _, k := range keys {
			g := gates[k]
			if isPassed(g.Status) && t.completedAt[k] == nil && g.StatusAt != nil {
				p.Report(f, t.ck, fmt.Sprintf("%s is %s (line %d), but gates_completed does not list %s: append it", g.Label, g.Status, g.StatusAt.Line, g.ID), WithRelated(relatedAt(f, g.StatusAt, g.Label+".status")))
			}
		}
		defined := "" // the gates' ids for a message, listed once
		for i, c := range t.completed {
			g := gates[model.GateKey(c)]
			switch {
			case g == nil:
				if defined == "" {
					defined = listShort(gateIDs(gates, keys))
				}
				p.Report(f, t.cNodes[i], fmt.Sprintf("gate %s is in gates_completed, but quality_gates defines no such gate (it has %s)", c, defined))
			case g.Status != "" && !isPassed(g.Status) && g.StatusAt != nil:
				p.Report(f, t.cNodes[i], fmt.Sprintf("gate %s is in gates_completed, but %s.status is %s (line %d): correct one of them", c, g.Label, g.Status, g.StatusAt.Line), WithRelated(relatedAt(f, g.StatusAt, g.Label+".status")))
			}
		}
	}
	if t.histOK {
		for _, h := range t.hist {
			g := gates[model.GateKey(h.gate)]
			if g == nil || !g.ScoresOK || sameScores(h.scores, g.Scores) {
				continue
			}
			p.Report(f, h.key, fmt.Sprintf("score_history.%s is %s, but %s.%s has scores %s (line %d): copy the iteration scores", h.gate, fmtScores(h.scores), g.Label, g.IterKey, fmtScores(g.Scores), g.Iters.Node.Line), WithRelated(relatedAt(f, g.Iters.Node, g.Label+"."+g.IterKey)))
		}
	}
	if t.cgSet && t.ciSet {
		if g := gates[model.GateKey(t.cg)]; g != nil && g.Iters != nil && len(g.Iters.Node.Content) != int(t.ci) {
			p.Report(f, t.civ, fmt.Sprintf("current_gate_iteration %d, but %s.%s records %s (line %d)", t.ci, g.Label, g.IterKey, countOf(len(g.Iters.Node.Content), "iteration"), g.Iters.Node.Line), WithRelated(relatedAt(f, g.Iters.Node, g.Label+"."+g.IterKey)))
		}
	}
}

func gateIDs(gates map[string]*model.Gate, keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = gates[k].ID
	}
	return out
}

func sameScores(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9 {
			return false
		}
	}
	return true
}

// ---- RL109 defect-summary ---------------------------------------------------

func runDefectSummary(p *Pass) {
	r := ResumptionOf(p)
	if r == nil || r.Version() == "v1" || r.Defects == nil || !r.Defects.TotalDefectsFound.OK || !r.Defects.TotalDefectsResolved.OK {
		return
	}
	ds, f := r.Defects, p.Doc.File
	fv, rv := ds.TotalDefectsFound.Node, ds.TotalDefectsResolved.Node
	found, resolved := int64(ds.TotalDefectsFound.Value), int64(ds.TotalDefectsResolved.Value)
	if resolved > found {
		p.Report(f, rv, fmt.Sprintf("total_defects_resolved %d exceeds total_defects_found %d (line %d): correct the counts", resolved, found, fv.Line), WithRelated(relatedAt(f, fv, "defect_summary.total_defects_found")))
		return
	}
	uk, uv := ds.UnresolvedDefects.Key, ds.UnresolvedDefects.Node
	if !node.IsSeq(uv) {
		return
	}
	if n := int64(len(uv.Content)); n != found-resolved {
		p.Report(f, uk, fmt.Sprintf("unresolved_defects lists %s, but total_defects_found − total_defects_resolved = %d − %d = %d (lines %d, %d): correct the counts or the list", countOf(int(n), "defect"), found, resolved, found-resolved, fv.Line, rv.Line), WithRelated(relatedAt(f, fv, "defect_summary.total_defects_found"), relatedAt(f, rv, "defect_summary.total_defects_resolved")))
	}
}

// ---- RL110 decision-log -----------------------------------------------------

var decisionID = lazyre.New(`^RD-\d{3}$`)

// knownGates is every gate id the file names outside decision_log.
func knownGates(p *Pass) map[string]bool {
	known := map[string]bool{}
	if gates, ok := OrchestrationOf(p).Gates(); ok {
		for k := range gates {
			known[k] = true
		}
	}
	if qt := trajectoryOf(p); qt != nil {
		for _, l := range []model.StrListField{qt.GatesCompleted, qt.GatesRemaining} {
			if l.OK {
				for _, g := range l.Values {
					known[model.GateKey(g)] = true
				}
			}
		}
		if qt.CurrentGate.OK {
			known[model.GateKey(qt.CurrentGate.Value)] = true
		}
		node.Pairs(qt.ScoreHistory.Node, func(k, _ *yaml.Node) { known[model.GateKey(k.Value)] = true })
	}
	return known
}

func runDecisionLog(p *Pass) {
	r := ResumptionOf(p)
	if r == nil || r.Version() == "v1" || r.Decisions == nil {
		return
	}
	dl, f := r.Decisions, p.Doc.File
	name := dl.Key.Value
	known := knownGates(p)
	phases := phasesComplete(model.PhaseNumbers(pipelines(p)))
	phaseList := slices.Sorted(maps.Keys(phases))
	var lists decisionLists
	var numbering *diag.Fix // one fix numbers every entry without an id
	numbered := false       // computed once, even when there is none (O(n), not O(n²))
	for i, e := range dl.Items {
		if e == nil || len(e.Node.Content) == 0 {
			continue
		}
		want := fmt.Sprintf("RD-%03d", i+1)
		label := fmt.Sprintf("%s[%d]", name, i)
		if idv := e.ID.Node; idv == nil {
			if !numbered {
				numbering, numbered = fix.NumberDecisionIDs(p.Doc, dl.Node), true
			}
			p.Report(f, e.Node.Content[0], fmt.Sprintf("%s has no id: give it id %s", label, want), WithFix(numbering))
		} else if id := e.ID.Value; e.ID.OK && decisionID.MatchString(id) {
			label = id
			if id != want {
				p.Report(f, idv, fmt.Sprintf("%s[%d] has id %s, but decisions are numbered RD-001, RD-002, … in order: expected %s", name, i, id, want))
			}
		}
		checkDecisionGate(p, label, e, known, &lists)
		checkDecisionPhases(p, label, e, phases, phaseList, &lists)
	}
}

// decisionLists are the file's gates and phases as messages show them,
// made on first use and kept for every decision of the file: a log of
// many decisions naming unknown gates or phases sorts and formats them
// once.
type decisionLists struct {
	gates  string   // the known gates, sorted and listed (listShort)
	phases []string // the phase numbers, in order
}

// checkDecisionGate checks a decision's gate against the file's gates and
// its iteration.
func checkDecisionGate(p *Pass, label string, e *model.Decision, known map[string]bool, lists *decisionLists) {
	f := p.Doc.File
	gv, iv := e.Gate.Node, e.Iteration.Node
	gate, gateSet := e.Gate.Value, e.Gate.OK
	iter, iterSet := e.Iteration.Value, e.Iteration.OK
	gateNull := gv == nil || node.IsNull(gv)
	iterNull := iv == nil || node.IsNull(iv)
	if gateSet && len(known) > 0 && !known[model.GateKey(gate)] && !isPlaceholderIn(f, gate) {
		if lists.gates == "" {
			lists.gates = listShort(slices.Sorted(maps.Keys(known)))
		}
		p.Report(f, gv, fmt.Sprintf("%s names gate %s, which this file does not define (its gates: %s)", label, gate, lists.gates))
	}
	switch {
	case gateSet && iterNull:
		at := iv
		if at == nil {
			at = gv
		}
		p.Report(f, at, fmt.Sprintf("%s was made at gate %s but records no iteration: set the iteration, or null both outside a gate", label, gate))
	case iterSet && gateNull:
		p.Report(f, iv, fmt.Sprintf("%s records iteration %d but no gate: set the gate, or null both outside a gate", label, iter))
	}
}

// phasesComplete tells, for each phase number the pipelines define,
// whether every phase of that number is complete: asked once per number,
// not once per decision naming it (many pipelines and many decisions
// naming one phase cost their sum, not their product).
func phasesComplete(phases map[int][]*model.Phase) map[int]bool {
	out := make(map[int]bool, len(phases))
	for n, phs := range phases {
		done := true
		for _, ph := range phs {
			done = done && isComplete(ph.Status)
		}
		out[n] = done
	}
	return out
}

// checkDecisionPhases checks the phases a decision affects, and a deferred
// decision whose phases are all complete; phases is phasesComplete's.
func checkDecisionPhases(p *Pass, label string, e *model.Decision, phases map[int]bool, phaseList []int, lists *decisionLists) {
	f := p.Doc.File
	ap := e.AffectsPhases.Node
	if !node.IsSeq(ap) || len(phases) == 0 {
		return
	}
	allDone, allInts := true, true
	for _, x := range ap.Content {
		n, ok := node.Int(x)
		if !ok {
			allInts = false
			continue
		}
		done, defined := phases[int(n)]
		if !defined {
			if lists.phases == nil {
				lists.phases = intStrings(phaseList)
			}
			p.Report(f, x, diag.FitList(lists.phases, func(list string) string {
				return fmt.Sprintf("%s affects phase %d, but the pipelines define phases %s", label, n, list)
			}))
			allDone = false
			continue
		}
		allDone = allDone && done
	}
	if av := e.Applied; av.OK && !av.Value && allDone && allInts && len(ap.Content) > 0 {
		p.Report(f, av.Node, fmt.Sprintf("%s is deferred (applied: false), but every phase it affects (%s) is COMPLETE: apply it, or record why it no longer applies", label, nodeList(ap)), WithSeverity(diag.SevWarning))
	}
}

func intStrings(ns []int) []string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return parts
}

func nodeList(seq *yaml.Node) string {
	parts := make([]string, len(seq.Content))
	for i, c := range seq.Content {
		parts[i] = c.Value
	}
	return strings.Join(parts, ", ")
}

// ---- RL111 agent-summaries --------------------------------------------------

func runAgentSummaries(p *Pass) {
	ak, av := agentSummaries(p)
	if !node.IsMap(av) {
		return
	}
	f := p.Doc.File
	summaries := map[string]bool{}
	node.Pairs(av, func(k, v *yaml.Node) { summaries[strings.ToLower(k.Value)] = true })

	known := map[string]bool{}
	var missing []string
	var rel []diag.Related
	seen := map[string]bool{}
	for _, pi := range pipelines(p) {
		for _, ph := range pi.Phases {
			for _, a := range ph.Agents {
				id := strings.ToLower(a.ID)
				known[id] = true
				switch node.StatusWord(a.Status) {
				case "COMPLETE", "COMPLETED", "DONE":
				default:
					continue
				}
				if !summaries[id] && !seen[id] {
					seen[id] = true
					missing = append(missing, a.ID)
					if len(rel) < maxRelated {
						rel = append(rel, relatedAt(f, a.At, fmt.Sprintf("%s is %s", a.ID, a.Status)))
					}
				}
			}
		}
	}
	if reg := OrchestrationOf(p).Doc.Agents; node.IsSeq(reg.Node) {
		for _, a := range reg.Items {
			if a != nil && a.ID.OK {
				known[strings.ToLower(a.ID.Value)] = true
			}
		}
	}
	// A finished workflow is not resumed: summaries it never wrote are
	// history, not a gap a session falls into (SPEC §0 lifecycle).
	if len(missing) > 0 && !WorkflowFinished(p) {
		msg := diag.Fit(4, func(n int) string {
			if len(missing) == 1 {
				return fmt.Sprintf("agent_summaries has no entry for completed agent %s; add a one-line summary for it", missing[0])
			}
			return fmt.Sprintf("agent_summaries has no entry for %d completed agents: %s; add a one-line summary for each", len(missing), diag.List(missing, n))
		})
		p.Report(f, ak, msg, WithRelated(rel...))
	}
	reportStraySummaries(p, av, known)
}

// reportStraySummaries reports the agent_summaries keys no pipeline or
// agent registry defines: one finding at the first, the others named and
// related, since a renamed set of agents strands them all at once.
func reportStraySummaries(p *Pass, av *yaml.Node, known map[string]bool) {
	if len(known) == 0 {
		return
	}
	f := p.Doc.File
	var first *yaml.Node
	var stray []string
	var rel []diag.Related
	node.Pairs(av, func(k, v *yaml.Node) {
		if known[strings.ToLower(k.Value)] {
			return
		}
		if first == nil {
			first = k
		} else if len(rel) < maxRelated {
			rel = append(rel, relatedAt(f, k, "no pipeline defines "+k.Value))
		}
		stray = append(stray, k.Value)
	})
	switch {
	case first == nil:
	case len(stray) == 1:
		p.Report(f, first, fmt.Sprintf("agent_summaries has a summary for %s, but no pipeline defines that agent; fix the id or remove the entry", first.Value), WithSeverity(diag.SevWarning))
	default:
		msg := diag.Fit(4, func(n int) string {
			return fmt.Sprintf("agent_summaries has summaries for %d agents no pipeline defines: %s; fix the ids or remove the entries", len(stray), diag.List(stray, n))
		})
		p.Report(f, first, msg, WithSeverity(diag.SevWarning), WithRelated(rel...))
	}
}

// ---- RL112 compaction-events ------------------------------------------------

var compactionID = lazyre.New(`^CX-\d{3}$`)

func runCompactionEvents(p *Pass) {
	r := ResumptionOf(p)
	if r == nil || r.Version() == "v1" || r.Compaction == nil || !node.IsSeq(r.Compaction.Events.Node) {
		return
	}
	f := p.Doc.File
	ce, evs := r.Compaction.Node, r.Compaction.Events.Node
	if cv := r.Compaction.Count.Node; cv != nil {
		if n, ok := r.Compaction.Count.Value, r.Compaction.Count.OK; ok && n != len(evs.Content) {
			// A count above the list may be the truth (the events list is
			// not always the full record): only a count below gets a fix.
			if int(n) < len(evs.Content) {
				p.Report(f, cv, fmt.Sprintf("count %d, but events lists %s: set count to the number of events", n, countOf(len(evs.Content), "event")), WithFix(fix.RecomputeCount(p.Doc, cv, len(evs.Content), ce.Style&yaml.FlowStyle != 0)))
			} else {
				p.Report(f, cv, fmt.Sprintf("count %d, but events lists %s: add the missing events or correct count", n, countOf(len(evs.Content), "event")))
			}
		}
	}
	var rs model.RecoveryState // no fields without a v2.0 recovery_state
	if r := recoveryOf(p); r != nil {
		rs = *r
	}
	cpv := rs.CurrentPhase.Node
	cur, curOK := node.Int(cpv)
	uv := rs.UpdatedAt.Node
	ut, us, _, utOK := timeOf(uv)
	uz := hasZone(us)
	res := ResolverOf(p)
	var prev time.Time
	var prevZone bool
	var prevAt *yaml.Node
	for i, e := range r.Compaction.Events.Items {
		if e == nil {
			continue
		}
		idv, id := e.ID.Node, e.ID.Value
		label := fmt.Sprintf("events[%d]", i)
		if compactionID.MatchString(id) {
			label = id
			if want := fmt.Sprintf("CX-%03d", i+1); id != want {
				p.Report(f, idv, fmt.Sprintf("events[%d] has id %s, but compaction events are numbered CX-001, CX-002, … in order: expected %s", i, id, want))
			}
		}
		tv := e.Timestamp.Node
		t, ts, _, tOK := timeOf(tv)
		tz := hasZone(ts)
		if tOK {
			if prevAt != nil && surelyAfter(prev, prevZone, t, tz) {
				p.Report(f, tv, fmt.Sprintf("%s timestamp %s is earlier than the event before it (%s, line %d): correct the timestamp or the order", label, ts, prevAt.Value, prevAt.Line), WithRelated(relatedAt(f, prevAt, "the previous event's timestamp")))
			}
			prev, prevZone, prevAt = t, tz, tv
		}
		if apv := e.ActivePhase.Node; curOK {
			if ap, ok := int64(e.ActivePhase.Value), e.ActivePhase.OK; ok && ap > cur {
				p.Report(f, apv, fmt.Sprintf("%s active_phase %d is later than recovery_state.current_phase %d (line %d): correct one of them", label, ap, cur, cpv.Line), WithRelated(relatedAt(f, cpv, "recovery_state.current_phase")))
			}
		}
		if cfv := e.CheckpointFile.Node; cfv != nil {
			checkCheckpointFile(p, res, label, id, cfv)
		}
		if ackv := e.Acknowledged.Node; tOK && utOK {
			if ack, ok := e.Acknowledged.Value, e.Acknowledged.OK; ok && !ack && surelyAfter(ut, uz, t, tz) {
				p.Report(f, ackv, fmt.Sprintf("%s is still acknowledged: false, but recovery_state.updated_at %s (line %d) is later: merge the compaction and set acknowledged: true", label, us, uv.Line), WithRelated(relatedAt(f, uv, "recovery_state.updated_at")))
			}
		}
	}
}

// checkCheckpointFile reports a checkpoint_file that is not there or that
// holds another event.
func checkCheckpointFile(p *Pass, res *Resolver, label, eventID string, cfv *yaml.Node) {
	f := p.Doc.File
	s, ok := node.Str(cfv)
	if !ok || strings.TrimSpace(s) == "" || strings.HasPrefix(strings.TrimSpace(s), "~") || f.Template {
		return // templates name files of the instantiated workflow
	}
	if placeholderInText.MatchString(s) {
		return // RL114
	}
	osPath, ok := res.Resolve(s)
	if !ok {
		p.Report(f, cfv, res.NotFound(label+" checkpoint_file", s))
		return
	}
	if p.isDir(osPath) {
		p.Report(f, cfv, fmt.Sprintf("%s checkpoint_file %s is a folder: name the checkpoint file", label, diag.Quote(s)))
		return
	}
	cf := checkpointAt(p, osPath, res.Root())
	if cf == nil || cf.ID == "" || eventID == "" || strings.EqualFold(cf.ID, eventID) {
		return
	}
	p.Report(f, cfv, fmt.Sprintf("%s checkpoint_file %s holds event %s, not %s (its line %d): point it at this event's checkpoint", label, diag.Quote(s), cf.ID, eventID, cf.IDAt.Start.Line), WithRelated(diag.Related{Path: cf.Path, Line: cf.IDAt.Start.Line, Column: cf.IDAt.Start.Col, Message: "the checkpoint's id"}))
}

// checkpointAt returns what the checkpoint file at osPath holds: from the
// index when the file is part of the run, else read from disk (a run over
// one ORCHESTRATION.yaml).
func checkpointAt(p *Pass, osPath, root string) *CheckpointFact {
	if cf, ok := Checkpoints.At(p.Index, osPath); ok {
		return cf
	}
	cf := &load.File{Path: load.Display(p.Opts.Cwd, osPath), OSPath: osPath, Kind: load.KindCheckpoint, Root: root}
	if !readInto(p.Files, cf, p.Opts.Limits) {
		return nil
	}
	doc, _ := load.Parse(cf, load.FormatOf(load.KindCheckpoint, cf.Path), p.Opts.Limits)
	if doc == nil || doc.Root == nil {
		return nil
	}
	return CheckpointFactOf(p.Opts, cf, doc.Root)
}

// ---- RL113 files-to-read ----------------------------------------------------

func runFilesToRead(p *Pass) {
	r := ResumptionOf(p)
	if r == nil {
		return
	}
	f := p.Doc.File
	misnamedReadingList(p, r)
	if r.FilesToRead == nil {
		return
	}
	var portableAt *yaml.Node
	var inRecovery model.Bool
	if r.Recovery != nil {
		inRecovery = r.Recovery.CrossSessionPortable
	}
	for _, f := range []model.Bool{inRecovery, r.Flat.CrossSessionPortable} {
		if f.Node != nil {
			if f.OK && f.Value {
				portableAt = f.Node
			}
			break
		}
	}
	res := ResolverOf(p)
	paths := map[string]seenAt{}
	prios := map[int64]seenAt{}
	var maxPrio int64
	var maxAt seenAt
	for _, e := range r.FilesToRead {
		i, prv := e.Index, e.Priority.Node
		if s := e.Path.Value; e.Path.OK && strings.TrimSpace(s) != "" {
			checkFileToRead(p, res, i, s, e.Path.Node, portableAt, paths)
		}
		prio, ok := int64(e.Priority.Value), e.Priority.OK
		if !ok || prio < 1 {
			continue // not a priority: RL102
		}
		if prev, dup := prios[prio]; dup {
			p.Report(f, prv, fmt.Sprintf("files_to_read[%d] priority %d is also the priority of files_to_read[%d] (line %d): give each entry its own priority", i, prio, prev.i, prev.at.Line), WithRelated(relatedAt(f, prev.at, fmt.Sprintf("files_to_read[%d].priority", prev.i))))
		} else {
			prios[prio] = seenAt{i, prv}
		}
		if prio < maxPrio {
			p.Report(f, prv, fmt.Sprintf("files_to_read[%d] priority %d comes after priority %d (files_to_read[%d], line %d): list the entries in load order", i, prio, maxPrio, maxAt.i, maxAt.at.Line), WithSeverity(diag.SevWarning), WithRelated(relatedAt(f, maxAt.at, fmt.Sprintf("files_to_read[%d].priority", maxAt.i))))
		} else {
			maxPrio, maxAt = prio, seenAt{i, prv}
		}
	}
}

// seenAt is where an entry of files_to_read was first seen.
type seenAt struct {
	i  int
	at *yaml.Node
}

func checkFileToRead(p *Pass, res *Resolver, i int, s string, at, portableAt *yaml.Node, paths map[string]seenAt) {
	f := p.Doc.File
	clean := path.Clean(strings.ReplaceAll(strings.TrimSpace(s), `\`, "/"))
	if prev, dup := paths[clean]; dup {
		p.Report(f, at, fmt.Sprintf("files_to_read[%d] %s repeats files_to_read[%d] (line %d): remove one", i, diag.Quote(s), prev.i, prev.at.Line), WithRelated(relatedAt(f, prev.at, fmt.Sprintf("files_to_read[%d]", prev.i))))
		return
	}
	paths[clean] = seenAt{i, at}
	if IsHomeOrAbsolute(s) {
		if portableAt != nil {
			where := "an absolute path"
			switch t := strings.TrimSpace(s); {
			case strings.HasPrefix(t, "~"):
				where = "in a home folder"
			case t == "/tmp" || strings.HasPrefix(t, "/tmp/"):
				where = "under /tmp"
			}
			p.Report(f, at, fmt.Sprintf("files_to_read[%d] %s is %s, but cross_session_portable is true (line %d): use a path relative to the repository root", i, diag.Quote(s), where, portableAt.Line), WithRelated(relatedAt(f, portableAt, "cross_session_portable")))
			return
		}
		if strings.HasPrefix(strings.TrimSpace(s), "~") {
			return // depends on whose home folder
		}
	}
	if f.Template || placeholderInText.MatchString(s) {
		return // templates name files of the instantiated workflow; RL114 reports placeholders
	}
	// A folder resolves: jerry's sessions list it (its writers put
	// folders in the list, its reader is the session), nothing is lost.
	if _, ok := res.Resolve(s); !ok {
		if describesFile(s) {
			p.Report(f, at, fmt.Sprintf("files_to_read[%d] %s describes a file instead of naming its path: write the path a session should read", i, diag.Quote(s)))
			return
		}
		p.Report(f, at, res.NotFound(fmt.Sprintf("files_to_read[%d]", i), s))
	}
}

// describesFile reports an entry written as prose ("EN-902 enabler
// specification"): words with no folder and no file extension. Such an
// entry resolves nowhere because it is no path at all, which says more
// than the list of folders tried.
func describesFile(s string) bool {
	t := strings.TrimSpace(s)
	if !strings.ContainsAny(t, " \t") || strings.ContainsAny(t, "/\\") {
		return false
	}
	return path.Ext(t) == "" || strings.Contains(path.Ext(t), " ")
}

// readingListKey matches keys under which real v1.0 sections keep the
// reading list files_to_read should hold (key_artifacts_to_read,
// files_to_load, reading_list, key_files).
var readingListKey = lazyre.New(`(?i)^(key_)?(files|artifacts|documents|docs)_to_(read|load)$|^reading_list$|^key_(files|artifacts)$`)

// misnamedReadingList reports a v1.0 section without files_to_read that
// keeps its reading list under another key: no reader looks there.
func misnamedReadingList(p *Pass, r *model.Resumption) {
	if r.Version() != "v1" || r.V1.FilesToRead.Key != nil {
		return
	}
	node.Pairs(r.Node, func(k, v *yaml.Node) {
		if !readingListKey.MatchString(k.Value) || !node.IsSeq(v) || len(v.Content) == 0 {
			return
		}
		p.Report(p.Doc.File, k, fmt.Sprintf("resumption has no files_to_read, but lists %s under %s, which no reader reads; rename it to files_to_read", countOf(len(v.Content), "path"), k.Value), WithSeverity(diag.SevWarning))
	})
}
