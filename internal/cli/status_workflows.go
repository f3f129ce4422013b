package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/agentrun"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/report"
	"github.com/resumelint/resumelint/internal/rules"
)

// `resumelint status` for ORCHESTRATION workflows and nexus projects and
// builds: each active record's recovery state, read from the typed views
// the rules use, with the findings a lint of the same files makes (not a
// second set of checks). Finished records (rules.RecordOf) get one line.

// statusTopFindings is how many findings a record's block lists.
const statusTopFindings = 3

// recoveryOf discovers the state files under paths (the repository when
// none), lints them as lint does, and builds the report, with the mask
// its text is shown through (the run's located secrets, then patterns).
func (c *Command) recoveryOf(paths []string, now time.Time, configPath string) (*report.Recovery, func(string) string, error) {
	s := &engine.Settings{
		Opts:      rules.Options{Now: now, Limits: load.DefaultLimits, RepoRoot: repoRoot(c.Cwd), Cwd: c.Cwd},
		Selection: rules.Selection{Severity: map[string]diag.Severity{}},
	}
	lc, err := c.setupConfig(&configFlags{config: configPath}, s, c.Cwd)
	if err != nil {
		return nil, nil, statusConfigError{err}
	}
	disc, err := load.Discover(paths, lc.discoverOptions(c.Cwd))
	if err != nil {
		return nil, nil, err
	}
	if err := lc.discovered(disc); err != nil {
		return nil, nil, err
	}
	var files, records []*load.File
	at := map[string]int{} // records by display path
	for _, f := range disc.Files {
		if !isStateUnit(f.Kind) {
			continue
		}
		files = append(files, f)
		if (f.Kind == load.KindOrchestration || f.Kind == load.KindResumeContext) && !f.Template {
			at[f.Path] = len(records)
			records = append(records, f)
		}
	}
	rec := &report.Recovery{Workflows: []report.WorkflowState{}, Projects: []report.ProjectState{}, Finished: []report.FinishedRecord{}}
	if len(records) == 0 {
		return rec, rules.MaskText, nil
	}
	disc.Files, disc.Folders, disc.Unknown, disc.Empty, disc.Missing = files, nil, nil, nil, nil
	// Each record's state is taken from the lint's own reading of it, on
	// the lint's workers, while its tree is in hand: one read, and the
	// state of the bytes the findings are about.
	parts := make([]recordPart, len(records))
	// The record is judged with the run's options and file access, so a
	// file beside it (a project's overview) is read once, and found from
	// wherever status runs.
	s.Files = load.NewFiles(nil)
	opts := s.Opts
	s.OnDocument = func(doc *load.Document) {
		if i, ok := at[doc.File.Path]; ok && doc.File == records[i] {
			parts[i] = recordOf(&rules.Pass{Doc: doc, Opts: &opts, Files: s.Files}, now)
		}
	}
	res := lc.run(disc, nil, *s)
	ix := indexFindings(res.Findings)
	ix.questioned = rules.Questioned(res.Findings, rules.RecordsByPath(res.Records))
	for i, f := range records {
		parts[i].add(rec, f, ix)
	}
	return rec, res.Mask, nil
}

// statusConfigError is a configuration that does not load, which status
// reports rather than falling back to the run report.
type statusConfigError struct{ error }

// recordPart is what a record's document said, before the run's findings
// are known: its state, that it is finished, or that it could not be read
// into one (read is false: no document, or no mapping at its top).
type recordPart struct {
	read     bool
	skip     bool // an ORCHESTRATION.yaml that is no workflow
	finished *report.FinishedRecord
	workflow *report.WorkflowState
	project  *report.ProjectState
}

// recordOf reads the state of one orchestration or resume-context
// document. The state holds strings and numbers, no node and no slice of
// the bytes: the next record's tree reuses both.
func recordOf(p *rules.Pass, now time.Time) recordPart {
	doc := p.Doc
	f := doc.File
	if !node.IsMap(doc.Root) {
		return recordPart{}
	}
	if f.Kind == load.KindOrchestration && load.NotWorkflow(doc.Root) != "" {
		return recordPart{read: true, skip: true}
	}
	if r := rules.RecordOf(p); r.Finished {
		return recordPart{read: true, finished: &report.FinishedRecord{Path: f.Path, ID: recordID(doc.Root, f.Kind), Why: r.Why()}}
	}
	if f.Kind == load.KindOrchestration {
		ws := workflowState(doc.Root, now)
		ws.Path = f.Path
		return recordPart{read: true, workflow: &ws}
	}
	ps := projectState(doc.Root, now)
	ps.Path = f.Path
	return recordPart{read: true, project: &ps}
}

// add adds the record of f to rec with the run's findings on it.
func (rp *recordPart) add(rec *report.Recovery, f *load.File, ix *findingIndex) {
	switch {
	case !rp.read:
		addUnreadable(rec, f, ix)
	case rp.skip:
	case rp.finished != nil:
		fr := *rp.finished
		fr.Findings = summarize(ix.byFile[f.Path])
		rec.Finished = append(rec.Finished, fr)
	case rp.workflow != nil && ix.questioned[f.Path] != "":
		// Lint takes it for history while RL125 stands: offering it as
		// a workflow to resume would redo finished work. RL125 is among
		// its findings, so it is named as questioned.
		why := ix.questioned[f.Path]
		if st := rp.workflow.Status; st != "" {
			why = fmt.Sprintf("status %s, but %s", diag.ClipTo(st, 20), why)
		}
		rec.Finished = append(rec.Finished, report.FinishedRecord{Path: f.Path, ID: rp.workflow.ID, Why: why,
			Findings: summarize(ix.byFile[f.Path])})
	case rp.workflow != nil:
		rp.workflow.Findings = summarize(ix.byFile[f.Path])
		rec.Workflows = append(rec.Workflows, *rp.workflow)
	case rp.project != nil:
		mine := ix.byFile[f.Path]
		if dir := projectDir(f.Path); dir != "" {
			mine = ix.byDir[dir]
		}
		rp.project.Findings = summarize(mine)
		rec.Projects = append(rec.Projects, *rp.project)
	}
}

// findingIndex holds a run's findings by file and by every folder above
// the file, so each record finds its own in one look-up. The working
// folder is "." (status run inside a project folder): it holds every
// finding whose display path does not climb out of it.
type findingIndex struct {
	byFile, byDir map[string][]diag.Finding
	// questioned are the running workflows lint takes for history, why.
	questioned map[string]string
}

func indexFindings(fds []diag.Finding) *findingIndex {
	ix := &findingIndex{byFile: map[string][]diag.Finding{}, byDir: map[string][]diag.Finding{}}
	for _, fd := range fds {
		ix.byFile[fd.Path] = append(ix.byFile[fd.Path], fd)
		climbs := fd.Path == ".." || strings.HasPrefix(fd.Path, "../")
		for d := path.Dir(fd.Path); d != "/" && d != ""; d = path.Dir(d) {
			if d == "." {
				if !climbs {
					ix.byDir[d] = append(ix.byDir[d], fd)
				}
				break
			}
			if d != ".." {
				ix.byDir[d] = append(ix.byDir[d], fd)
			}
		}
	}
	return ix
}

// addUnreadable lists a record whose file cannot be read into a state,
// with lint's findings on it, which say why: whether it is finished is
// unknown, and "nothing to resume" would hide work. A file lint has no
// finding on (an empty template) is left out, as lint passes it.
func addUnreadable(rec *report.Recovery, f *load.File, ix *findingIndex) {
	if len(ix.byFile[f.Path]) == 0 {
		return
	}
	mine := ix.byFile[f.Path]
	if f.Kind == load.KindOrchestration {
		rec.Workflows = append(rec.Workflows, report.WorkflowState{Path: f.Path, FilesToRead: []string{},
			Pipelines: []report.PipelineState{}, Gates: []report.GateState{}, Barriers: []report.GateState{}, Findings: summarize(mine)})
		return
	}
	if dir := projectDir(f.Path); dir != "" {
		mine = ix.byDir[dir]
	}
	rec.Projects = append(rec.Projects, report.ProjectState{Path: f.Path, Kind: "project", Findings: summarize(mine)})
}

// projectDir is the folder of a nexus project or build
// (<NN-slug>/01-planning/resume-context.md), or "" for a resume context
// kept elsewhere.
func projectDir(p string) string {
	d := path.Dir(p)
	if path.Base(d) == "01-planning" {
		return path.Dir(d)
	}
	return ""
}

func recordID(root *yaml.Node, k load.Kind) string {
	if k == load.KindOrchestration {
		return model.OrchestrationOf(root).Workflow.ID.Value
	}
	r := model.ResumeOf(root, false)
	if r == nil {
		return ""
	}
	return r.ProjectID.Value
}

// summarize counts a record's errors and warnings and keeps the first
// few, errors before warnings (already masked by the engine; masked again
// as they are copied).
func summarize(fds []diag.Finding) report.FindingSummary {
	out := report.FindingSummary{Top: []report.FindingLine{}}
	var warnings []report.FindingLine
	for i := range fds {
		fd := &fds[i]
		if fd.Code == code.Internal || fd.Severity < diag.SevWarning {
			continue
		}
		out.Total++
		line := report.FindingLine{Path: fd.Path, Line: fd.Start.Line, Severity: fd.Severity.String(), Code: fd.Code}
		if fd.Severity >= diag.SevError {
			out.Errors++
			if len(out.Top) < statusTopFindings {
				line.Message = diag.Mask(fd.Message)
				out.Top = append(out.Top, line)
			}
		} else {
			out.Warnings++
			if len(warnings) < statusTopFindings {
				line.Message = diag.Mask(fd.Message)
				warnings = append(warnings, line)
			}
		}
	}
	out.Top = append(out.Top, warnings[:min(len(warnings), statusTopFindings-len(out.Top))]...)
	return out
}

// scalar is a field's text ("" when absent, null or not a scalar); the
// status fields it is asked for are spelled by every kind and version.
func scalar(m *yaml.Node, key string) string {
	return text(node.Val(m, key))
}

// text is a value's text ("" when absent, null or not a scalar).
func text(v *yaml.Node) string {
	v = node.Resolve(v)
	if v == nil || node.IsNull(v) || !node.IsScalar(v) {
		return ""
	}
	return v.Value
}

// firstScalar is the first of keys that m holds as text.
func firstScalar(ms []*yaml.Node, key string) string {
	for _, m := range ms {
		if s := scalar(m, key); s != "" {
			return s
		}
	}
	return ""
}

// workflowState reads an orchestration file's recovery state: the v2.0
// recovery_state, else the v1.0 fields, else the workflow and pipelines.
func workflowState(root *yaml.Node, now time.Time) report.WorkflowState {
	o := model.OrchestrationOf(root)
	ws := report.WorkflowState{ID: o.Workflow.ID.Value, ResumptionVersion: "none", FilesToRead: []string{}}
	var rs, res *yaml.Node
	if r := o.Resumption; r != nil {
		ws.ResumptionVersion, res = r.Version(), r.Node
		if r.Recovery != nil {
			rs = r.Recovery.Node
		}
		for _, ft := range r.FilesToRead {
			if ft.Path.OK {
				ws.FilesToRead = append(ws.FilesToRead, ft.Path.Value)
			}
		}
		if t := r.Trajectory; t != nil && t.CurrentGate.OK {
			ws.CurrentGate = t.CurrentGate.Value
			if t.CurrentGateIteration.OK {
				ws.GateIteration = &t.CurrentGateIteration.Value
			}
		}
	}
	from := []*yaml.Node{rs, res}
	ws.Status = firstScalar([]*yaml.Node{o.Workflow.Node, rs, res, root}, "status")
	if s := firstScalar(from, "workflow_status"); ws.Status == "" || (s != "" && o.Workflow.Node == nil) {
		ws.Status = s
	}
	ws.CurrentPhaseName = firstScalar(from, "current_phase_name")
	ws.CurrentActivity = firstScalar(from, "current_activity")
	if ws.CurrentActivity == "" {
		ws.CurrentActivity = scalar(res, "current_state") // v1.0's prose state
	}
	ws.LastCheckpoint = firstScalar(append(from, o.Checkpoints.Node), "last_checkpoint")
	if ws.LastCheckpoint == "" {
		ws.LastCheckpoint = o.Checkpoints.LatestID.Value
	}
	ws.NextStep = firstScalar(from, "next_step")
	if ws.NextStep == "" {
		ws.NextStep = firstScalar(from, "next_action")
	}
	ws.UpdatedAt = firstScalar([]*yaml.Node{rs, o.Workflow.Node}, "updated_at")
	ws.Age = ageOf(ws.UpdatedAt, now)
	ws.Pipelines = pipelineStates(o)
	ws.Gates = gateStates(o.Doc.QualityGates)
	ws.Barriers = gateStates(o.Doc.Barriers)
	var cur model.Int
	if r := o.Resumption; r != nil && r.Recovery != nil {
		cur = r.Recovery.CurrentPhase
	}
	ws.CurrentPhase = currentPhase(cur, o.Pipelines, ws.Pipelines)
	if ws.CurrentPhaseName == "" && ws.CurrentPhase != nil {
		ws.CurrentPhaseName = phaseName(ws.Pipelines, *ws.CurrentPhase)
	}
	return ws
}

// currentPhase is the phase the file records as current:
// recovery_state.current_phase (the field RL105 checks against the
// pipelines), else the pipelines' own current_phase when every pipeline
// that has one names the same phase. Failing those, it is the first phase
// in progress, else the first phase not done, in file order: a phase
// blocked on an earlier pending one is not current.
func currentPhase(cur model.Int, recorded []*model.Pipeline, pipes []report.PipelineState) *int {
	if cur.OK {
		v := cur.Value
		return &v
	}
	// No rule checks a pipeline's own current_phase: it is taken only
	// when it names one of the phases that is not done.
	if v, ok := pipelinesCurrent(recorded); ok && openPhase(pipes, v) {
		return &v
	}
	for _, current := range []func(state string) bool{
		func(state string) bool { return state == stateInProgress },
		func(state string) bool { return state != stateDone },
	} {
		for _, p := range pipes {
			for _, ph := range p.Phases {
				if current(ph.State) {
					v := ph.Num
					return &v
				}
			}
		}
	}
	return nil
}

// openPhase reports whether a phase numbered num is in pipes, not done.
func openPhase(pipes []report.PipelineState, num int) bool {
	for _, p := range pipes {
		for _, ph := range p.Phases {
			if ph.Num == num && ph.State != stateDone {
				return true
			}
		}
	}
	return false
}

// pipelinesCurrent is the current_phase the pipelines record, when at
// least one records it and all that do agree.
func pipelinesCurrent(pipes []*model.Pipeline) (int, bool) {
	num, found := 0, false
	for _, p := range pipes {
		if !p.HasCurrent {
			continue
		}
		if found && p.CurrentPhase != num {
			return 0, false
		}
		num, found = p.CurrentPhase, true
	}
	return num, found
}

func phaseName(pipes []report.PipelineState, num int) string {
	for _, p := range pipes {
		for _, ph := range p.Phases {
			if ph.Num == num && ph.Name != "" {
				return ph.Name
			}
		}
	}
	return ""
}

// pipelineStates reads pipelines.<id>.phases (model.PipelinesOf), and a
// workflow's top-level phases list as one pipeline named "phases".
func pipelineStates(o *model.Orchestration) []report.PipelineState {
	pipes := o.Pipelines
	if o.Doc.Phases.Node != nil {
		top := &model.Pipeline{Key: "phases", Phases: model.PhasesOf("phases", "phases", o.Doc.Phases)}
		pipes = append(pipes[:len(pipes):len(pipes)], top)
	}
	out := []report.PipelineState{}
	views := o.Doc.Pipelines.ByKey()
	for _, pi := range pipes {
		id := pi.Key
		if pv := views[pi.Key]; pv != nil {
			if s := text(pv.ID.Node); s != "" {
				id = s
			}
		}
		ps := report.PipelineState{Key: pi.Key, ID: id, Phases: []report.PhaseState{}}
		for _, ph := range pi.Phases {
			ps.Phases = append(ps.Phases, report.PhaseState{ID: text(ph.View.ID.Node), Num: ph.Num, Name: ph.Name,
				Status: ph.Status, State: stateOf(ph.Status)})
		}
		out = append(out, ps)
	}
	return out
}

// gateStates reads quality_gates or barriers, a list or a map by id, in
// file order.
func gateStates(c model.Coll[*model.QualityGate]) []report.GateState {
	out := []report.GateState{}
	for i, g := range c.Items {
		if g == nil {
			continue
		}
		id := c.KeyAt(i)
		if s := text(g.ID.Node); s != "" {
			id = s
		}
		st := text(g.Status.Node)
		gs := report.GateState{ID: id, Name: text(g.Name.Node), Status: st, State: stateOf(st), After: []string{}, Before: []string{}}
		if l, _, ok := model.StrList(g.DependsOn.Node); ok {
			gs.After = append(gs.After, l...)
		}
		for _, a := range []model.Int{g.AfterPhase, g.Phase} {
			if s := text(a.Node); s != "" {
				gs.After = append(gs.After, s)
			}
		}
		if s := text(g.BeforePhase.Node); s != "" {
			gs.Before = append(gs.Before, s)
		}
		out = append(out, gs)
	}
	return out
}

const (
	stateDone       = "done"
	stateInProgress = "in_progress"
	statePending    = "pending"
	stateBlocked    = "blocked"
	stateFailed     = "failed"
)

// stateWords fold the status vocabularies real files use onto five states.
var stateWords = map[string]string{
	"COMPLETE": stateDone, "COMPLETED": stateDone, "DONE": stateDone, "PASS": stateDone, "PASSED": stateDone,
	"FINISHED": stateDone, "APPROVED": stateDone, "ACCEPTED": stateDone, "SKIPPED": stateDone,
	"CLOSED": stateDone, "ARCHIVED": stateDone,
	"IN_PROGRESS": stateInProgress, "ACTIVE": stateInProgress, "RUNNING": stateInProgress, "STARTED": stateInProgress,
	"ITERATING": stateInProgress, "REVIEW": stateInProgress, "IN_REVIEW": stateInProgress, "EXECUTION": stateInProgress,
	"BLOCKED": stateBlocked, "PAUSED": stateBlocked, "WAITING": stateBlocked, "ON_HOLD": stateBlocked,
	"FAILED": stateFailed, "FAIL": stateFailed, "REJECTED": stateFailed, "CANCELLED": stateFailed, "CANCELED": stateFailed,
	"ABANDONED": stateFailed, "SUPERSEDED": stateFailed, "ABORTED": stateFailed,
}

// stateOf folds a status onto done, in_progress, pending, blocked or
// failed ("PHASE_2_IN_PROGRESS" is in progress; anything unknown is
// pending). A finished status is read as lint reads it (node.FinishedWord):
// a done word its remark holds back ("COMPLETE (pending QA)",
// COMPLETE_PENDING_GATE) is work in progress, as lint takes such a phase
// for open; a finished word misspelled (COMPELTE) is over.
func stateOf(status string) string {
	if node.HeldBack(status) {
		return stateInProgress
	}
	w := node.StatusWord(status)
	if s, ok := stateWords[w]; ok {
		return s
	}
	if f := node.FinishedWord(status); f != "" {
		return stateWords[f]
	}
	first, _, _ := strings.Cut(w, "_")
	if node.FinishedWords[first] {
		// A finished word its remark holds back (CANCELLED_PENDING_REVIEW):
		// lint reads the record as live.
		return stateInProgress
	}
	if s, ok := stateWords[first]; ok {
		return s
	}
	// A pipeline's "PHASE_2_BLOCKED": the state of its current phase.
	if rest, ok := strings.CutPrefix(w, "PHASE_"); ok {
		if _, after, ok := strings.Cut(rest, "_"); ok {
			if s, ok := stateWords[after]; ok {
				return s
			}
		}
	}
	return statePending
}

// ageOf says how long before now a timestamp is ("" when it is not RFC
// 3339).
func ageOf(ts string, now time.Time) string {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return ""
	}
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	var s string
	switch {
	case d >= 48*time.Hour:
		s = fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	case d >= 2*time.Hour:
		s = fmt.Sprintf("%d hours", int(d/time.Hour))
	default:
		s = fmt.Sprintf("%d minutes", int(d/time.Minute))
	}
	if future {
		return s + " after --now"
	}
	return s + " ago"
}

// projectState reads a nexus project's or build's resume context.
func projectState(root *yaml.Node, now time.Time) report.ProjectState {
	r := model.ResumeOf(root, false)
	ps := report.ProjectState{Kind: "project", Phase: scalar(root, "current_phase"), NextAction: scalar(root, "next_action"),
		ContinueAt: scalar(root, "continue_at"), LastUpdated: scalar(root, "last_updated")}
	ps.State = stateOf(ps.Phase)
	if ps.State == statePending && ps.Phase != "" && !strings.Contains(strings.ToLower(ps.Phase), "planning") {
		ps.State = stateInProgress
	}
	if r != nil {
		ps.ID = r.ProjectID.Value
		if r.Build {
			ps.Kind = "build"
			ps.Name = scalar(root, "build_name")
		} else {
			ps.Name = scalar(root, "project_name")
		}
		if r.CurrentTask.OK {
			ps.CurrentTask = &r.CurrentTask.Value
		}
	}
	if done, total, _, ok := model.ProgressOf(root); ok {
		ps.Progress = fmt.Sprintf("%d/%d tasks complete", done, total)
	} else if done, total, _, _, ok := model.CountersOf(root); ok {
		ps.Progress = fmt.Sprintf("%d/%d tasks complete", done, total)
	}
	// Only a build's context types blockers (#BuildResumeContext); a
	// project's leaves the key open, so it is read by name for both.
	if b := node.Val(root, "blockers"); node.IsSeq(b) {
		ps.Blockers = len(node.Resolve(b).Content)
		if ps.Blockers > 0 && ps.State != stateDone {
			ps.State = stateBlocked
		}
	}
	ps.Age = ageOf(ps.LastUpdated, now)
	return ps
}

// sortRecovery orders the report by path, so output does not depend on
// discovery order.
func sortRecovery(r *report.Recovery) {
	sort.SliceStable(r.Workflows, func(i, j int) bool { return r.Workflows[i].Path < r.Workflows[j].Path })
	sort.SliceStable(r.Projects, func(i, j int) bool { return r.Projects[i].Path < r.Projects[j].Path })
	sort.SliceStable(r.Finished, func(i, j int) bool { return r.Finished[i].Path < r.Finished[j].Path })
}

// statusRecords answers `status` for workflows, projects and builds. It
// reports done false when the run report applies instead: a path naming a
// run or a runs folder, or nothing but agent runs (or nothing at all) to
// report, so the agent-run behaviour and its exit codes are unchanged.
func (c *Command) statusRecords(pos []string, format string, now time.Time, configPath string) (int, bool, error) {
	for _, p := range pos {
		if c.isRunPath(load.Abs(c.Cwd, p)) {
			return 0, false, nil
		}
	}
	// The runs beside the records: the repository's, or those of the one
	// folder named (`status .` says what `status` says).
	runsDir := ""
	switch len(pos) {
	case 0:
		runsDir = c.findRunsDir()
	case 1:
		runsDir = c.runsDirIn(load.Abs(c.Cwd, pos[0]))
	}
	rec, mask, err := c.recoveryOf(pos, now, configPath)
	if err != nil {
		// A configuration that does not load is the answer whatever
		// else is there: the run report would read it too.
		var ce statusConfigError
		if errors.As(err, &ce) {
			return ExitUsage, true, ce.error
		}
		if runsDir != "" || len(pos) == 1 {
			return 0, false, nil
		}
		return ExitUsage, true, err
	}
	if len(rec.Workflows)+len(rec.Projects)+len(rec.Finished) == 0 {
		if len(pos) > 0 && runsDir == "" {
			return ExitUsage, true, usagef("no run, workflow, project or build to report in %s", diag.SafeLine(strings.Join(pos, " ")))
		}
		return 0, false, nil
	}
	sortRecovery(rec)
	code, runOut, runErr := c.runPart(runsDir, format, now, configPath)
	if code == ExitInternal {
		return code, true, runErr
	}
	if format == "json" && len(runOut) > 0 {
		rec.Run = json.RawMessage(runOut)
	}
	var out bytes.Buffer
	switch format {
	case "json":
		err = report.RecoveryJSON(&out, rec, mask)
	case "mermaid":
		err = report.RecoveryMermaid(&out, rec, mask)
	default:
		if len(runOut) > 0 {
			out.Write(runOut)
			out.WriteString("\n")
		}
		err = report.RecoveryText(&out, rec, mask)
	}
	if err != nil {
		return ExitInternal, true, err
	}
	if _, err := c.Stdout.Write(out.Bytes()); err != nil {
		return ExitInternal, true, err
	}
	return code, true, runErr
}

// runPart renders the agent run beside the workflows, as `status` alone
// would: the only incomplete run's report, or the list of several (exit
// code 2, as before); nothing when no run is incomplete.
func (c *Command) runPart(runsDir, format string, now time.Time, configPath string) (int, []byte, error) {
	if runsDir == "" {
		return ExitOK, nil, nil
	}
	var buf bytes.Buffer
	cc := *c
	cc.Stdout = &buf
	run, probs, code, err := cc.pickRun(runsDir, format)
	if run == nil {
		if buf.Len() == 0 {
			return ExitOK, nil, nil // no incomplete run: nothing to resume there
		}
		return code, buf.Bytes(), err
	}
	maxAge, err := c.runMaxAge(configPath, runFolder(run))
	if err != nil {
		maxAge = rules.DefaultRunMaxAge
	}
	st := agentrun.NewStatus(run, probs, now, maxAge)
	mask, lint := c.runLint(run, configPath, now)
	switch format {
	case "json":
		err = report.StatusJSON(&buf, st, lint, mask)
	case "mermaid":
		return ExitOK, nil, nil // one flowchart per output: the run's is `status RUN_DIR --format mermaid`
	default:
		err = report.StatusText(&buf, st, lint, mask)
	}
	if err != nil {
		return ExitInternal, nil, err
	}
	return ExitOK, buf.Bytes(), nil
}

// isRunPath reports a path the agent-run report answers: under
// .agent-memory/runs/, the runs folder itself, or a folder holding a run's
// own files, task-graph.json or events/ (status has always reported such a
// folder as a run).
func (c *Command) isRunPath(abs string) bool {
	slash := filepath.ToSlash(abs)
	if _, ok := load.RunDir(slash + "/"); ok || strings.HasSuffix(slash, "/.agent-memory/runs") || strings.HasSuffix(slash, "/.agent-memory") {
		return true
	}
	if !load.IsDirIn(c.statusRoot(abs), abs) {
		return false
	}
	// A run's own files: a plan.md or prd.md alone is what many folders
	// hold (a repository's top), not the mark of a run outside runs/.
	for _, marker := range []string{"task-graph.json", "events"} {
		if load.ExistsIn(c.statusRoot(abs), filepath.Join(abs, marker)) {
			return true
		}
	}
	return false
}
