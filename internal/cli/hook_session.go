package cli

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/hook"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/rules"
)

// The SessionStart report (docs/agent-hooks.md, "Size"). Claude Code shows
// additionalContext in full only up to its cap, and past it the model sees
// a short preview: so the report is built to fit hookContextMax, with what
// a resuming session must act on first. Its order: the findings (errors,
// then warnings, at most hookReportMax, then a count), the active
// workflows' resume states (the agent run's first; workflows most
// recently updated first), then one line naming the finished workflows.
// Every active workflow and the findings' counts are always named; what is
// cut to fit is details, and the report says where to find them.

const (
	// findingLineMax bounds one finding in the report (its message is at
	// most diag.MaxMessage characters; the path and the fix add to it).
	findingLineMax = 700
	// finishedLineMax bounds the line naming the finished workflows.
	finishedLineMax = 1200
	// valueMax bounds a value quoted from a workflow (a next step).
	valueMax = 500
	// blockCutLine ends a resume state whose details were cut to fit.
	blockCutLine = "- (cut to fit: the file's resumption section has the rest)"
	// findingsMoreMax is room for the line counting unlisted findings.
	findingsMoreMax = 80
)

// resumeBlock is an active workflow's resume state: head is always shown,
// details while they fit.
type resumeBlock struct {
	head    []string
	details []string
	updated time.Time // recovery_state.updated_at or workflow.updated_at
	path    string
}

// sessionStart gives a resumed or compacted session its resume report.
// The event names no files the session touched (SessionStart carries
// session_id, transcript_path, cwd, source and model), and the transcript
// lies outside the repository, where resumelint never reads: the report
// covers the state files under the session's working directory.
func (h *hookRun) sessionStart() int {
	if h.ev.Source != "resume" && h.ev.Source != "compact" {
		return hookOK
	}
	found, orch, ok := h.lintState()
	if !ok {
		return hookProblem
	}
	var blocks, wfs []resumeBlock
	if run := h.runReport(); run != "" {
		blocks = append(blocks, runBlock(run))
	}
	questioned := map[string]bool{} // finished workflows lint's findings question
	for i := range found {
		questioned[found[i].Path] = true
	}
	// Running workflows lint takes for history while RL125 stands.
	workItemDone := rules.Questioned(found, func(p string) *rules.RecordFact { return h.records[p] })
	var finished []string
	for _, f := range orch {
		// The lifecycle is the one lint decided (SPEC §0): a file without
		// a record is a template or did not parse, and its findings say so.
		rf := h.records[f.Path]
		switch {
		case rf == nil:
		case rf.Finished:
			name := finishedName(rf)
			if questioned[f.Path] {
				name += " (questioned by lint)"
			}
			finished = append(finished, name)
		case workItemDone[f.Path] != "":
			// Running, but its own work item says it is done: lint takes
			// it for history while RL125 stands (rules.WithoutQuestioned),
			// and so does the report: resuming it would redo finished
			// work. RL125, listed first, says which to settle.
			finished = append(finished, finishedName(rf)+" (questioned by lint)")
		default:
			if b, ok := h.blocks[f.Path]; ok {
				wfs = append(wfs, b)
			}
		}
	}
	sort.SliceStable(wfs, func(i, j int) bool {
		if !wfs[i].updated.Equal(wfs[j].updated) {
			return wfs[i].updated.After(wfs[j].updated)
		}
		return wfs[i].path < wfs[j].path
	})
	text := h.masked(sessionReport(found, append(blocks, wfs...), finished, hookContextMax))
	if text == "" {
		return hookOK
	}
	out := &hook.Output{HookSpecificOutput: &hook.SpecificOutput{HookEventName: hook.SessionStart, AdditionalContext: text}}
	if err := out.Write(h.c.Stdout); err != nil {
		return hookProblem
	}
	return hookOK
}

// sessionReport renders the report within budget bytes.
func sessionReport(found []diag.Finding, blocks []resumeBlock, finished []string, budget int) string {
	fs := append([]diag.Finding(nil), found...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity > fs[j].Severity })
	var fhead []string
	if len(fs) > 0 {
		fhead = []string{findingsHead(fs)}
	}
	fin := finishedLine(finished)
	var flines []string
	for i := range fs[:min(len(fs), hookReportMax)] {
		flines = append(flines, truncate(hook.FindingLine(&fs[i]), findingLineMax))
	}
	// What is always shown: the findings' counts, the finished line, and
	// each active workflow's head (with room for its cut line) while the
	// heads leave a third of the budget to the findings' lines.
	used := linesSize(fhead) + linesSize(fin) + 2*3
	if len(fs) > 0 {
		used += findingsMoreMax
	}
	reserve := min(linesSize(flines), budget/3)
	shown := len(blocks)
	for i, b := range blocks {
		need := linesSize(b.head) + len(blockCutLine) + 1 + 2
		if used+need > budget-findingsMoreMax-reserve {
			shown = i
			break
		}
		used += need
	}
	rest := max(budget-used, 0)
	// The room left goes to the findings' lines and the workflows'
	// details; when both do not fit, each gets at least half.
	fneed, aneed := linesSize(flines), 0
	for _, b := range blocks[:shown] {
		aneed += linesSize(b.details)
	}
	fallow := fneed
	if fneed+aneed > rest {
		fallow = min(fneed, max(rest/2, rest-aneed))
	}
	flines = fitLines(flines, fallow)
	aallow := rest - linesSize(flines)

	var parts []string
	if len(fs) > 0 {
		sec := append(fhead, flines...)
		if n := len(fs) - len(flines); n > 0 {
			sec = append(sec, fmt.Sprintf("… and %d more (resumelint lint lists them all)", n))
		}
		parts = append(parts, strings.Join(sec, "\n"))
	}
	for _, b := range blocks[:shown] {
		d := fitLines(b.details, aallow)
		aallow -= linesSize(d)
		sec := append(append([]string(nil), b.head...), d...)
		if len(d) < len(b.details) {
			sec = append(sec, blockCutLine)
		}
		parts = append(parts, strings.Join(sec, "\n"))
	}
	if n := len(blocks) - shown; n > 0 {
		parts = append(parts, fmt.Sprintf("resumelint: %s not shown (resumelint lint lists their files)", plural(n, "more active workflow", "more active workflows")))
	}
	if len(fin) > 0 {
		parts = append(parts, fin[0])
	}
	// The accounting above keeps within budget; the cut is a guard.
	return truncate(strings.Join(parts, "\n\n"), budget)
}

// findingsHead counts the findings by severity.
func findingsHead(fs []diag.Finding) string {
	errs := 0
	for i := range fs {
		if fs[i].Severity >= diag.SevError {
			errs++
		}
	}
	var n []string
	if errs > 0 {
		n = append(n, plural(errs, "error", "errors"))
	}
	if w := len(fs) - errs; w > 0 {
		n = append(n, plural(w, "warning", "warnings"))
	}
	return fmt.Sprintf("resumelint: %s in the state files (%s); do not rely on what they say until they are corrected:",
		plural(len(fs), "finding", "findings"), strings.Join(n, ", "))
}

// finishedLine names the finished workflows in one bounded line.
func finishedLine(names []string) []string {
	if len(names) == 0 {
		return nil
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "resumelint: %s (history, nothing to resume): ", plural(len(names), "finished workflow", "finished workflows"))
	for i, n := range names {
		more := fmt.Sprintf("… and %d more", len(names)-i)
		if sb.Len()+len(n)+2+len(more) > finishedLineMax && i < len(names)-1 || sb.Len()+len(n) > finishedLineMax {
			sb.WriteString(more)
			break
		}
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(n)
	}
	return []string{sb.String()}
}

// finishedName is a finished workflow as the report names it: its id, or
// its path when it has none.
func finishedName(rf *rules.RecordFact) string {
	if rf.WorkflowID != "" {
		return truncate(hookSafe(rf.WorkflowID), 80)
	}
	return truncate(hookSafe(rf.Path), 200)
}

// fitLines keeps the leading lines that fit in room bytes.
func fitLines(lines []string, room int) []string {
	n := 0
	for n < len(lines) && len(lines[n])+1 <= room {
		room -= len(lines[n]) + 1
		n++
	}
	return lines[:n]
}

// linesSize is the size of lines joined by newlines, with one more.
func linesSize(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	return n
}

// runBlock is the agent run's report as a resume block: its title stays.
func runBlock(run string) resumeBlock {
	lines := strings.Split(run, "\n")
	k := min(2, len(lines))
	return resumeBlock{head: lines[:k], details: lines[k:]}
}

// recoveryBlock is the resume state an active ORCHESTRATION.yaml records:
// the workflow, the recovery state, the next step and the files to read.
// It holds strings, no node or slice of the file's bytes, which go back
// once the lint's unit is done.
func recoveryBlock(doc *load.Document) (resumeBlock, bool) {
	f := doc.File
	if !node.IsMap(doc.Root) || load.NotWorkflow(doc.Root) != "" {
		return resumeBlock{}, false
	}
	o := model.OrchestrationOf(doc.Root)
	wf, res := o.Workflow, o.Resumption
	var rs model.RecoveryState
	if res != nil && res.Recovery != nil {
		rs = *res.Recovery
	} else if res != nil {
		rs = *res.Flat // v1.0: the fields sit at the top of resumption
	}
	b := resumeBlock{path: f.Path}
	for _, n := range []*yaml.Node{rs.UpdatedAt.Node, wf.UpdatedAt.Node} {
		if t, err := time.Parse(time.RFC3339, rawStr(n)); err == nil {
			b.updated = t
			break
		}
	}
	// The label lint's lifecycle and status give: workflow.status, else
	// the resumption's workflow_status.
	status := wfStr(wf.Status.Node)
	if status == "" {
		status = wfStr(rs.WorkflowStatus.Node)
	}
	head := "resumelint: resume state of " + hookSafe(f.Path)
	if id := wfStr(wf.ID.Node); id != "" {
		head += " (workflow " + id
		if status != "" {
			head += ", " + status
		}
		head += ")"
	}
	b.head = []string{head}
	line := func(label, v string) {
		if v != "" {
			b.details = append(b.details, "- "+label+": "+v)
		}
	}
	phase := wfStr(rs.CurrentPhase.Node)
	if name := wfStr(rs.CurrentPhaseName.Node); name != "" {
		phase = strings.TrimSpace(phase + " (" + name + ")")
	}
	line("Phase", phase)
	line("Last checkpoint", wfStr(rs.LastCheckpoint.Node))
	activity := wfStr(rs.CurrentActivity.Node)
	line("Current activity", activity)
	if activity == "" && res != nil && res.Recovery == nil && res.V1 != nil {
		// A v1.0 section says where the work stands in current_state,
		// which `resumelint status` shows as the activity.
		line("Current state", wfStr(res.V1.CurrentState.Node))
	}
	line("Next step", wfStr(rs.NextStep.Node))
	line("Files to read", truncate(filesToRead(res), valueMax))
	if o.ResumptionKey == nil {
		b.details = append(b.details, "- No resumption section: nothing records where to resume.")
	}
	return b, true
}

// filesToRead lists resumption.files_to_read, strings or {path: …} items.
func filesToRead(res *model.Resumption) string {
	if res == nil {
		return ""
	}
	var paths []string
	for _, it := range res.FilesToRead {
		p := ""
		if node.IsScalar(it.Node) {
			p = hookSafe(node.Resolve(it.Node).Value)
		} else if node.IsMap(it.Node) {
			p = wfStr(it.Path.Node)
		}
		if p != "" {
			paths = append(paths, p)
		}
	}
	return strings.Join(paths, ", ")
}

// rawStr is a field's scalar value as the file holds it ("" when absent).
func rawStr(v *yaml.Node) string {
	if v == nil || node.IsNull(v) || !node.IsScalar(v) {
		return ""
	}
	return node.Resolve(v).Value
}

// wfStr is rawStr as the report shows it: masked, escaped, bounded.
func wfStr(v *yaml.Node) string {
	if s := rawStr(v); s != "" {
		return truncate(hookSafe(s), valueMax)
	}
	return ""
}
