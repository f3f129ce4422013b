package rules

import (
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/node"
)

// Lifecycle (SPEC §0): a workflow that is COMPLETE, CANCELLED or FAILED is
// history. It will not be resumed, so no rule asks to migrate it or to add
// what a resuming session would need; what it says about itself must still
// agree, and contradictions are reported as for any other file.

// finishedWords are the lifecycle states of a workflow that is over, in
// node.StatusWord spelling, with the spellings real files use.
var finishedWords = map[string]bool{
	"COMPLETE": true, "COMPLETED": true, "DONE": true, "FINISHED": true,
	"CANCELLED": true, "CANCELED": true, "FAILED": true,
}

// IsFinishedStatus reports a lifecycle state of a workflow that is over.
func IsFinishedStatus(s string) bool { return finishedWords[node.StatusWord(s)] }

// WorkflowFinished reports whether an orchestration file records its
// workflow as over, in workflow.status or resumption's workflow_status.
func WorkflowFinished(p *Pass) bool { return workflowFinished.Of(p) }

var workflowFinished = NewResult("workflow-finished", func(p *Pass) bool {
	done := false
	if p.Doc != nil && node.IsMap(p.Doc.Root) {
		for _, n := range lifecycleNodes(p) {
			if s, ok := node.Str(n); ok && IsFinishedStatus(s) {
				done = true
			}
		}
	}
	return done
})

// lifecycleNodes are the values that state a workflow's lifecycle.
func lifecycleNodes(p *Pass) []*yaml.Node {
	var out []*yaml.Node
	o := OrchestrationOf(p)
	if o.Workflow.Node != nil {
		out = append(out, o.Workflow.Status.Node)
	}
	if r := o.Resumption; r != nil {
		if r.Recovery != nil {
			out = append(out, r.Recovery.WorkflowStatus.Node)
		}
		out = append(out, node.Val(r.Node, "workflow_status"))
	}
	out = append(out, node.Val(o.Root, "status"))
	return out
}
