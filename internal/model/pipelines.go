package model

import (
	"fmt"
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
	var out []*Pipeline
	ps := node.Val(root, "pipelines")
	add := func(key string, pv *yaml.Node) {
		if !node.IsMap(pv) {
			return
		}
		pi := &Pipeline{Key: key}
		if n, ok := node.Int(node.Val(pv, "current_phase")); ok {
			pi.CurrentPhase, pi.HasCurrent = int(n), true
		}
		phases := node.Val(pv, "phases")
		i := 0
		each := func(label, mapKey string, ph *yaml.Node) {
			i++
			if !node.IsMap(ph) {
				return
			}
			info := &Phase{Pipeline: key, Label: label, Node: ph, At: ph}
			idv := node.Val(ph, "id")
			if idv != nil {
				info.At = idv
			}
			if n, ok := node.Int(idv); ok {
				info.Num, info.HasNum = int(n), true
			} else if n, ok := node.Int(node.Val(ph, "sequence")); ok {
				info.Num, info.HasNum = int(n), true
			} else if s, ok := node.Str(idv); ok && trailingNumber.MatchString(s) {
				info.Num, info.HasNum = TrailingInt(s), true
			} else if trailingNumber.MatchString(mapKey) {
				info.Num, info.HasNum = TrailingInt(mapKey), true
			} else {
				info.Num, info.HasNum = i, true
			}
			info.Name, _ = node.Str(node.Val(ph, "name"))
			info.Status, _ = node.Str(node.Val(ph, "status"))
			info.Agents = agentsOf(ph, info.Status)
			pi.Phases = append(pi.Phases, info)
		}
		switch {
		case node.IsSeq(phases):
			for j, ph := range phases.Content {
				each(fmt.Sprintf("pipelines.%s.phases[%d]", key, j), "", node.Resolve(ph))
			}
		case node.IsMap(phases):
			node.Pairs(phases, func(k, v *yaml.Node) {
				each(fmt.Sprintf("pipelines.%s.phases.%s", key, k.Value), k.Value, v)
			})
		}
		out = append(out, pi)
	}
	switch {
	case node.IsMap(ps):
		node.Pairs(ps, func(k, v *yaml.Node) { add(k.Value, v) })
	case node.IsSeq(ps):
		for j, pv := range ps.Content {
			key := strconv.Itoa(j)
			if s, ok := node.Str(node.Val(pv, "id")); ok {
				key = s
			}
			add(key, node.Resolve(pv))
		}
	}
	return out
}

// TrailingInt is the number that ends s (phase_3, qg-2); s must end in digits.
func TrailingInt(s string) int {
	n, _ := strconv.Atoi(trailingNumber.FindStringSubmatch(s)[1])
	return n
}

func agentsOf(ph *yaml.Node, phaseStatus string) []Agent {
	var out []Agent
	agents := node.Val(ph, "agents")
	switch {
	case node.IsSeq(agents):
		for _, a := range agents.Content {
			a = node.Resolve(a)
			idv := node.Val(a, "id")
			id, ok := node.Str(idv)
			if !ok {
				continue
			}
			st, _ := node.Str(node.Val(a, "status"))
			out = append(out, Agent{ID: id, Status: st, At: idv})
		}
	case node.IsMap(agents):
		node.Pairs(agents, func(k, v *yaml.Node) {
			st, _ := node.Str(node.Val(v, "status"))
			out = append(out, Agent{ID: k.Value, Status: st, At: k})
		})
	}
	if v := node.Val(ph, "agent"); v != nil {
		if id, ok := node.Str(v); ok {
			out = append(out, Agent{ID: id, Status: phaseStatus, At: v})
		}
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
	Iters    *yaml.Node // the iteration list
	IterKey  string
	Scores   []float64
	ScoresOK bool
	Node     *yaml.Node
}

// GatesOf reads quality_gates as a map of id to gate or a list of gates
// with ids; iterations under iteration_history (or iteration_scores).
func GatesOf(root *yaml.Node) (map[string]*Gate, bool) {
	qg := node.Val(root, "quality_gates")
	if !node.IsMap(qg) && !node.IsSeq(qg) {
		return nil, false
	}
	out := map[string]*Gate{}
	add := func(id, label string, at, g *yaml.Node) {
		if !node.IsMap(g) || id == "" {
			return
		}
		gi := &Gate{ID: id, Label: label, At: at, Node: g}
		gi.StatusAt = node.Val(g, "status")
		gi.Status, _ = node.Str(gi.StatusAt)
		for _, k := range []string{"iteration_history", "iteration_scores", "iterations"} {
			if it := node.Val(g, k); node.IsSeq(it) {
				gi.Iters, gi.IterKey = it, k
				break
			}
		}
		if gi.Iters != nil {
			gi.ScoresOK = true
			for _, e := range gi.Iters.Content {
				s, ok := node.Float(node.Val(e, "score"))
				if !ok {
					gi.ScoresOK = false
					break
				}
				gi.Scores = append(gi.Scores, s)
			}
		}
		if _, dup := out[GateKey(id)]; !dup {
			out[GateKey(id)] = gi
		}
	}
	if node.IsMap(qg) {
		node.Pairs(qg, func(k, v *yaml.Node) {
			id := k.Value
			if s, ok := node.Str(node.Val(v, "id")); ok && s != "" {
				id = s
			}
			add(id, "quality_gates."+k.Value, k, v)
		})
	} else {
		for i, g := range qg.Content {
			g = node.Resolve(g)
			idv := node.Val(g, "id")
			id, _ := node.Str(idv)
			add(id, fmt.Sprintf("quality_gates[%d]", i), idv, g)
		}
	}
	return out, true
}
