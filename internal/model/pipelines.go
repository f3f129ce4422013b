package model

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/node"
)

// The pipelines, phases, agents and quality gates of an orchestration file
// (and of a checkpoint's copy of them), in the shapes real files use.

// GateKey compares gate ids written as qg-1, QG-1 or qg_1.
func GateKey(s string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "_", "-"))
}

var trailingNumber = lazyre.New(`(\d+)\s*$`)

// Phase is one phase of a pipeline.
type Phase struct {
	Pipeline string
	Label    string // path for messages, e.g. pipelines.lic.phases[2]
	Num      int
	HasNum   bool
	Name     string
	Status   string
	At       *yaml.Node // where to point: the id, else the mapping
	Node     *yaml.Node
	View     *PhaseEntry
	Agents   []Agent
}

// Agent is one agent of a phase.
type Agent struct {
	ID     string
	Status string
	At     *yaml.Node
}

// Pipeline is one entry of pipelines.
type Pipeline struct {
	Key          string
	Phases       []*Phase
	CurrentPhase int
	HasCurrent   bool
}

// PipelinesOf reads pipelines.<key>.phases in the shapes real files use:
// phases as a list or a map (phase_1: …), numbered by an integer id, a
// sequence, or the digits that end their id; agents as a list with ids, a
// map keyed by id, or one `agent:` per phase.
func PipelinesOf(root *yaml.Node) []*Pipeline {
	return pipelinesOf(pipelineEntryCollAt(root, "pipelines"))
}

func pipelinesOf(ps Coll[*PipelineEntry]) []*Pipeline {
	var out []*Pipeline
	for j, pv := range ps.Items {
		if pv == nil {
			continue
		}
		key := strconv.Itoa(j)
		if ps.Keys != nil {
			key = ps.Keys[j].Value
		} else if pv.ID.OK {
			key = pv.ID.Value
		}
		pi := &Pipeline{Key: key, CurrentPhase: pv.CurrentPhase.Value, HasCurrent: pv.CurrentPhase.OK}
		pi.Phases = PhasesOf(key, "pipelines."+key+".phases", pv.Phases)
		out = append(out, pi)
	}
	return out
}

// PhasesOf reads the phases of pipeline (a list or a mapping), labelled
// under prefix.
func PhasesOf(pipeline, prefix string, c Coll[*PhaseEntry]) []*Phase {
	var out []*Phase
	for i, ph := range c.Items {
		if ph == nil {
			continue
		}
		label, mapKey := fmt.Sprintf("%s[%d]", prefix, i), ""
		if c.Keys != nil {
			mapKey = c.Keys[i].Value
			label = prefix + "." + mapKey
		}
		out = append(out, phaseOf(pipeline, label, mapKey, i+1, ph))
	}
	return out
}

// phaseOf reads the i-th (1-based) phase of a pipeline.
func phaseOf(pipeline, label, mapKey string, i int, ph *PhaseEntry) *Phase {
	info := &Phase{Pipeline: pipeline, Label: label, Node: ph.Node, View: ph, At: ph.Node}
	idv := ph.ID.Node
	if idv != nil {
		info.At = idv
	}
	if n, ok := node.Int(idv); ok {
		info.Num, info.HasNum = int(n), true
	} else if ph.Sequence.OK {
		info.Num, info.HasNum = ph.Sequence.Value, true
	} else if s, ok := node.Str(idv); ok && trailingNumber.MatchString(s) {
		info.Num, info.HasNum = TrailingInt(s), true
	} else if trailingNumber.MatchString(mapKey) {
		info.Num, info.HasNum = TrailingInt(mapKey), true
	} else {
		info.Num, info.HasNum = i, true
	}
	info.Name, info.Status = ph.Name.Value, ph.Status.Value
	info.Agents = agentsOf(ph, info.Status)
	return info
}

// TrailingInt is the number that ends s (phase_3, qg-2); s must end in digits.
func TrailingInt(s string) int {
	n, _ := strconv.Atoi(trailingNumber.FindStringSubmatch(s)[1])
	return n
}

func agentsOf(ph *PhaseEntry, phaseStatus string) []Agent {
	var out []Agent
	as := ph.Agents
	for i, a := range as.Items {
		switch {
		case as.Keys != nil:
			st := ""
			if a != nil {
				st = a.Status.Value
			}
			out = append(out, Agent{ID: as.Keys[i].Value, Status: st, At: as.Keys[i]})
		case a != nil && a.ID.OK:
			out = append(out, Agent{ID: a.ID.Value, Status: a.Status.Value, At: a.ID.Node})
		}
	}
	if ph.Agent.OK {
		out = append(out, Agent{ID: ph.Agent.Value, Status: phaseStatus, At: ph.Agent.Node})
	}
	return out
}

// PhaseNumbers is every phase number the pipelines define.
func PhaseNumbers(pipes []*Pipeline) map[int][]*Phase {
	out := map[int][]*Phase{}
	for _, pi := range pipes {
		for _, ph := range pi.Phases {
			if ph.HasNum {
				out[ph.Num] = append(out[ph.Num], ph)
			}
		}
	}
	return out
}

// Gate is one entry of quality_gates.
type Gate struct {
	ID       string
	Label    string // quality_gates.qg-1 or quality_gates[0]
	At       *yaml.Node
	Status   string
	StatusAt *yaml.Node
	Iters    *List[*GateIteration] // the iteration list
	IterKey  string
	Scores   []float64
	ScoresOK bool
	Node     *yaml.Node
	View     *QualityGate
	// Order is the gate's place in quality_gates: gates written on one
	// line (a flow list) share a line, not an order.
	Order int
}

// GatesInOrder returns the gates in the order quality_gates lists them.
func GatesInOrder(gates map[string]*Gate) []*Gate {
	return slices.SortedFunc(maps.Values(gates), func(a, b *Gate) int { return cmp.Compare(a.Order, b.Order) })
}

// GatesOf reads quality_gates as a map of id to gate or a list of gates
// with ids; iterations under iteration_history (or iteration_scores).
func GatesOf(root *yaml.Node) (map[string]*Gate, bool) {
	return gatesFrom(qualityGateCollAt(root, "quality_gates"))
}

// Gates is GatesOf the orchestration's root, from the views its Doc
// already holds, read once: six rules ask for it.
func (o *Orchestration) Gates() (map[string]*Gate, bool) {
	if !o.gatesRead {
		o.gates, o.gatesOK = gatesFrom(o.Doc.QualityGates)
		o.gatesRead = true
	}
	return o.gates, o.gatesOK
}

func gatesFrom(qg Coll[*QualityGate]) (map[string]*Gate, bool) {
	if !node.IsMap(qg.Node) && !node.IsSeq(qg.Node) {
		return nil, false
	}
	out := map[string]*Gate{}
	for i, g := range qg.Items {
		if g == nil {
			continue
		}
		id, label, at := g.ID.Value, fmt.Sprintf("quality_gates[%d]", i), g.ID.Node
		if qg.Keys != nil {
			label, at = "quality_gates."+qg.Keys[i].Value, qg.Keys[i]
			if !g.ID.OK || g.ID.Value == "" {
				id = qg.Keys[i].Value
			}
		}
		if _, dup := out[GateKey(id)]; id == "" || dup {
			continue
		}
		out[GateKey(id)] = gateOf(id, label, at, g)
		out[GateKey(id)].Order = i
	}
	return out, true
}

func gateOf(id, label string, at *yaml.Node, g *QualityGate) *Gate {
	gi := &Gate{ID: id, Label: label, At: at, Node: g.Node, View: g, StatusAt: g.Status.Node, Status: g.Status.Value}
	gi.IterKey, gi.Iters = g.IterationList()
	if gi.Iters == nil {
		return gi
	}
	gi.ScoresOK = true
	for _, e := range gi.Iters.Items {
		if e == nil || !e.Score.OK {
			gi.ScoresOK = false
			break
		}
		gi.Scores = append(gi.Scores, e.Score.Value)
	}
	return gi
}

// IterationList returns the first of iteration_history, iteration_scores and
// iterations that is a list, and its key; nil when none is.
func (g *QualityGate) IterationList() (string, *List[*GateIteration]) {
	for _, l := range []struct {
		key string
		l   *List[*GateIteration]
	}{{"iteration_history", &g.IterationHistory}, {"iteration_scores", &g.IterationScores}, {"iterations", &g.Iterations}} {
		if node.IsSeq(l.l.Node) {
			return l.key, l.l
		}
	}
	return "", nil
}
