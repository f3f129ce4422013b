package rules

import (
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// Agent runs under .agent-memory/runs/ (SPEC §3.6, seed 003).

var TaskGraphSchema = &Rule{Code: "RL501", Name: "task-graph-schema", Severity: diag.SevError, Kinds: []load.Kind{load.KindAgentRun}, Family: "agentrun",
	Summary: "task-graph.json violating #TaskGraph", Run: runTaskGraphSchema}

func init() { Register(TaskGraphSchema) }

func runTaskGraphSchema(p *Pass) {
	d := p.Run.TaskGraph
	if d == nil || d.Root == nil {
		return
	}
	if !requireMapping(p, d, "task-graph.json") {
		return
	}
	validate(p, d.File, "#TaskGraph", d.Root, "")
	tasks := node.Val(d.Root, "tasks")
	if !node.IsSeq(tasks) {
		return
	}
	for _, t := range tasks.Content {
		dk, _ := node.Get(t, "depends_on")
		ak, _ := node.Get(t, "dependencies")
		if dk != nil && ak != nil {
			p.Report(d.File, ak, "task has both `depends_on` and its alias `dependencies`; keep one list")
		}
	}
}
