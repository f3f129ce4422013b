package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// ORCHESTRATION.yaml against the folders around it: the checkpoint files
// the workflow keeps, the outputs its phases declare, and the jerry work
// item (EPIC-/FEAT-/EN- entity file) it belongs to. Only an active
// workflow is checked (SPEC §0: a finished record is history). Every look
// stays inside the repository (ReadRoot) and is bounded.

var (
	CheckpointLogBehind = &Rule{Code: code.CheckpointLogBehind, Name: "checkpoint-log-behind", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "checkpoint files in the workflow's folder later than checkpoints.latest_id", Run: runCheckpointLogBehind}
	OutputsAhead = &Rule{Code: code.OutputsAhead, Name: "outputs-ahead", Severity: diag.SevWarning, Kinds: orch, Family: "orchestration",
		Summary: "an active workflow whose phases are all pending while the outputs they declare already exist", Run: runOutputsAhead}
	WorkItemDone = &Rule{Code: code.WorkItemDone, Lifecycle: AboutFinished, Name: "work-item-done", Severity: diag.SevWarning, Kinds: orch, Family: "orchestration",
		Summary: "an active workflow whose own jerry work item (EPIC-, FEAT-, EN- entity file) says it is done", Run: runWorkItemDone}
)

func init() {
	Register(CheckpointLogBehind, OutputsAhead, WorkItemDone)
}

// maxClimb bounds how many folders above the workflow are looked at.
const maxClimb = 12

// activeLifecycle is the lifecycle of a workflow that is running (not
// finished, not a template), or nil.
func activeLifecycle(p *Pass) *lifecycle {
	d := p.Doc
	if d == nil || !node.IsMap(d.Root) || d.File.Template || WorkflowFinished(p) {
		return nil
	}
	return workflowLifecycle(p)
}

// workflowDirs are the workflow's own folder and the folders above it, up
// to the repository root (nearest first).
func workflowDirs(p *Pass) []string {
	dir := filepath.Dir(FileOSPath(p.Opts, p.Doc.File))
	root := ReadRoot(p.Opts, p.Doc.File)
	out := []string{dir}
	for i := 0; i < maxClimb && dir != root; i++ {
		parent := filepath.Dir(dir)
		if parent == dir || root != "" && !strings.HasPrefix(parent, root) {
			break
		}
		dir = parent
		out = append(out, dir)
	}
	return out
}

// resolveUp finds ref under the workflow's folder or a folder above it
// (jerry writes artifact paths relative to the repository, the project or
// the work item), returning the OS path.
func resolveUp(p *Pass, ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" || hasTemplateVar(ref) || IsHomeOrAbsolute(ref) || strings.Contains(ref, "..") {
		return "", false
	}
	for _, dir := range workflowDirs(p) {
		c := filepath.Join(dir, filepath.FromSlash(ref))
		if p.exists(c) {
			return c, true
		}
	}
	return "", false
}

// baseDirs are the folders the workflow keeps its artifacts in: paths.base
// (with {workflow.id} filled in) where it resolves, and the file's own folder.
func baseDirs(p *Pass) []string {
	dirs := []string{filepath.Dir(FileOSPath(p.Opts, p.Doc.File))}
	if paths := OrchestrationOf(p).Doc.Paths; paths != nil && paths.Base.OK {
		b := paths.Base.Value
		id := OrchestrationOf(p).Workflow.ID.Value
		b = strings.NewReplacer("{workflow.id}", id, "{workflow_id}", id).Replace(b)
		if dir, ok := resolveUp(p, b); ok && p.isDir(dir) && dir != dirs[0] {
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// ---- RL123 checkpoint-log-behind ------------------------------------------------

var cpFile = lazyre.New(`(?i)^cp-(\d+)\b`)

func runCheckpointLogBehind(p *Pass) {
	if activeLifecycle(p) == nil {
		return
	}
	cp := OrchestrationOf(p).Checkpoints
	if cp.Node == nil || !cp.LatestID.OK && !node.IsNull(cp.LatestID.Node) {
		return
	}
	latest := 0
	if cp.LatestID.OK && strings.TrimSpace(cp.LatestID.Value) != "" {
		m := cpFile.FindStringSubmatch(cp.LatestID.Value)
		if m == nil {
			return // ids of another form: nothing to compare files with
		}
		latest, _ = strconv.Atoi(m[1])
	}
	best, bestName, bestPath := latest, "", ""
	for _, dir := range baseDirs(p) {
		cdir := filepath.Join(dir, "checkpoints")
		entries, err := p.ReadDir(cdir)
		if err != nil {
			continue
		}
		for i, e := range entries {
			if i == 1000 {
				break
			}
			m := cpFile.FindStringSubmatch(e.Name())
			if m == nil || e.IsDir() {
				continue
			}
			if n, _ := strconv.Atoi(m[1]); n > best {
				best, bestName, bestPath = n, e.Name(), filepath.Join(cdir, e.Name())
			}
		}
	}
	if bestName == "" {
		return
	}
	at, what := cp.LatestID.Node, "checkpoints.latest_id is "+diag.Quote(cp.LatestID.Value)
	if !cp.LatestID.OK || strings.TrimSpace(cp.LatestID.Value) == "" {
		at, what = cp.LatestID.Node, "checkpoints.latest_id is null"
		if at == nil {
			at, what = cp.Key, "checkpoints has no latest_id"
		}
	}
	p.Report(p.Doc.File, at, fmt.Sprintf("%s, but the workflow's checkpoints folder holds %s: log the later checkpoints and move latest_id",
		what, diag.Quote(bestName)), WithRelated(diag.Related{Path: load.Display(p.Opts.Cwd, bestPath), Line: 1, Column: 1, Message: "the later checkpoint"}))
}

// ---- RL124 outputs-ahead -----------------------------------------------------------

// notStarted is a phase, agent or enabler whose work has not begun.
func notStarted(s string) bool { return isOpenStatus(s) && !isInProgress(s) }

// declaredOutputs are the outputs the phases declare: each agent's
// artifact and each phase's artifacts (strings or {path: …}).
func declaredOutputs(p *Pass) []string {
	var out []string
	add := func(v *yaml.Node) {
		if s, ok := node.Str(v); ok {
			out = append(out, s)
		} else if ref := model.ArtifactRefOf(nil, v); ref != nil && ref.Path.OK {
			out = append(out, ref.Path.Value)
		}
	}
	for _, ph := range recordPhases(p) {
		if l := ph.View.Artifacts.Node; node.IsSeq(l) {
			for _, x := range l.Content {
				add(node.Resolve(x))
			}
		}
		for _, a := range phaseAgentEntries(ph) {
			add(a.Artifact.Node)
		}
	}
	return out
}

// phaseAgentEntries are a phase's agents: its own and those of its task
// cycles (`task002_cycle: {agents: […]}`).
func phaseAgentEntries(ph *model.Phase) []*model.AgentEntry {
	colls := []model.Coll[*model.AgentEntry]{ph.View.Agents}
	for _, c := range ph.View.Cycles {
		colls = append(colls, c.Agents)
	}
	var out []*model.AgentEntry
	for _, c := range colls {
		for _, a := range c.Items {
			if a != nil {
				out = append(out, a)
			}
		}
	}
	return out
}

func runOutputsAhead(p *Pass) {
	lc := activeLifecycle(p)
	phs := recordPhases(p)
	if lc == nil || len(phs) == 0 || workItemOverOf(p) != nil {
		return // a finished work item is RL125's: close the workflow
	}
	for _, ph := range phs {
		if !notStarted(ph.Status) {
			return
		}
		for _, a := range ph.Agents {
			if a.Status != "" && !notStarted(a.Status) {
				return
			}
		}
		for _, a := range phaseAgentEntries(ph) {
			if a.Status.Value != "" && !notStarted(a.Status.Value) {
				return
			}
		}
	}
	var found []string
	var first string
	outs := declaredOutputs(p)
	for i, ref := range outs {
		if i == 500 {
			break
		}
		if path, ok := resolveUp(p, ref); ok {
			if first == "" {
				first = path
			}
			found = append(found, ref)
		}
	}
	if len(found) == 0 {
		return
	}
	f := p.Doc.File
	p.Report(f, lc.At, diag.FitClip(func(w int) string {
		return fmt.Sprintf("%s, but %s (%s): update the statuses before resuming", pendingPhases(len(phs)), existingOutputs(len(found), len(outs)), diag.QuotePath(found[0], w))
	}), WithRelated(diag.Related{Path: load.Display(p.Opts.Cwd, first), Line: 1, Column: 1, Message: "an existing output"}))
}

// pendingPhases says that n phases are all pending.
func pendingPhases(n int) string {
	if n == 1 {
		return "its one phase is pending"
	}
	return fmt.Sprintf("all %d phases are pending", n)
}

// existingOutputs says that found of the total outputs the pending phases
// declare exist.
func existingOutputs(found, total int) string {
	switch {
	case total == 1:
		return "the output it declares already exists"
	case found == total:
		return fmt.Sprintf("all %d outputs they declare already exist", total)
	case found == 1:
		return fmt.Sprintf("1 of the %d outputs they declare already exists", total)
	}
	return fmt.Sprintf("%d of the %d outputs they declare already exist", found, total)
}

// ---- RL125 work-item-done ------------------------------------------------------------

// workItemDir is a jerry worktracker entity folder: EPIC-001-…, FEAT-014-…, EN-929-….
var workItemDir = lazyre.New(`^(?:EPIC|FEAT|EN)-\d+-[A-Za-z0-9]`)

// entityStatus is the Status line of a jerry entity file ("> **Status:** done"),
// its value the rest of the line ("✅ Done", "complete (pending QA)"), read as
// every status is (node.FinishedWord).
var entityStatus = lazyre.New(`(?im)^[ \t]*(?:>[ \t]*)?(?:[-*][ \t]+)?\**status\**[ \t]*:[ \t]*\**[ \t]*:?[ \t]*(\S[^\r\n]*)`)

// workItemID is a work item's id as a workflow declares it: FEAT-009.
var workItemID = lazyre.New(`^(?:EPIC|FEAT|EN)-\d+$`)

// maxItemDirs bounds the folders listed looking for a declared work item.
const maxItemDirs = 200

// declaredItems are the work items the workflow says it serves, most
// specific first (workflow.enabler_id, feature_id, epic_id).
func declaredItems(p *Pass) []string {
	w := OrchestrationOf(p).Doc.Workflow
	if w == nil {
		return nil
	}
	var out []string
	for _, f := range []model.Str{w.EnablerID, w.FeatureID, w.EpicID} {
		if id := strings.TrimSpace(f.Value); workItemID.MatchString(id) {
			out = append(out, id)
		}
	}
	return out
}

// workItemFolder is the folder of the work item the workflow serves: the
// most specific one it declares, found above it or in the work item
// folders below the project's work/ (jerry keeps a feature's workflows
// under its epic, or under the project), else the nearest work item folder
// holding it.
func workItemFolder(p *Pass) string {
	dirs := workflowDirs(p)
	for _, id := range declaredItems(p) {
		for _, dir := range dirs {
			if strings.HasPrefix(filepath.Base(dir), id+"-") {
				return dir
			}
		}
		for _, dir := range dirs {
			if w := filepath.Join(dir, "work"); p.isDir(w) {
				if found := findWorkItem(p, w, id); found != "" {
					return found
				}
				break
			}
		}
	}
	for _, dir := range dirs {
		if workItemDir.MatchString(filepath.Base(dir)) {
			return dir
		}
	}
	return ""
}

// findWorkItem looks for the folder of work item id among the work item
// folders under root (EPIC/FEAT/EN, breadth first, at most maxItemDirs
// listed).
func findWorkItem(p *Pass, root, id string) string {
	queue := []string{root}
	for listed := 0; len(queue) > 0 && listed < maxItemDirs; listed++ {
		dir := queue[0]
		queue = queue[1:]
		entries, err := p.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			name := e.Name()
			if !e.IsDir() || !workItemDir.MatchString(name) {
				continue
			}
			if strings.HasPrefix(name, id+"-") {
				return filepath.Join(dir, name)
			}
			queue = append(queue, filepath.Join(dir, name))
		}
	}
	return ""
}

// workItemFile finds the entity file of the work item the workflow
// serves, and its Status value and line.
func workItemFile(p *Pass) (path, status string, line int) {
	dir := workItemFolder(p)
	if dir == "" {
		return "", "", 0
	}
	path = filepath.Join(dir, filepath.Base(dir)+".md")
	head, err := p.ReadFile(path)
	if err != nil {
		return "", "", 0
	}
	head = head[:min(len(head), 8<<10)]
	re := entityStatus.Regexp()
	loc, m := re.FindIndex(head), re.FindSubmatch(head)
	if loc == nil {
		return "", "", 0
	}
	return path, strings.TrimSpace(string(m[1])), 1 + bytes.Count(head[:loc[0]], []byte("\n"))
}

// doneItem is the finished work item of an active workflow.
type doneItem struct {
	path, status string
	line         int
}

// workItemOverOf is the workflow's finished work item, or nil when the
// workflow is not active (or RL106 already reports its status as behind
// its phases), has no work item, or the item is not finished.
func workItemOverOf(p *Pass) *doneItem { return workItemOverResult.Of(p) }

var workItemOverResult = NewResult("work-item-over", func(p *Pass) *doneItem {
	if activeLifecycle(p) == nil || notAdvanced(p) {
		return nil
	}
	path, status, line := workItemFile(p)
	if path == "" || !IsFinishedStatus(status) {
		return nil
	}
	return &doneItem{path, status, line}
})

func runWorkItemDone(p *Pass) {
	it := workItemOverOf(p)
	if it == nil {
		return
	}
	lc := activeLifecycle(p)
	path, status, line := it.path, it.status, it.line
	disp := load.Display(p.Opts.Cwd, path)
	p.Report(p.Doc.File, lc.At, diag.FitClip(func(w int) string {
		return fmt.Sprintf("%s is %s, but its work item %s says Status: %s: close the workflow or reopen the item",
			lc.Field, lc.Raw, diag.QuotePath(filepath.Base(disp), w), diag.ClipTo(status, 20))
	}), WithRelated(diag.Related{Path: disp, Line: line, Column: 1, Message: "the work item's status"}))
}
