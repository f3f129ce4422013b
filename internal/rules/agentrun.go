package rules

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/agentrun"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/schema"
)

// Agent runs under .agent-memory/runs/ (SPEC §3.6, seed 003). Task state
// is derived by internal/agentrun, which `resumelint status` shares.

var runKinds = []load.Kind{load.KindAgentRun}

var (
	TaskGraphSchema = &Rule{Code: code.TaskGraphSchema, Name: "task-graph-schema", Severity: diag.SevError, Kinds: runKinds, Family: "agentrun",
		Summary: "task-graph.json violating #TaskGraph", Run: runTaskGraphSchema}
	TaskGraphDeps = &Rule{Code: code.TaskGraphDeps, Name: "task-graph-deps", Severity: diag.SevError, Kinds: runKinds, Family: "agentrun",
		Summary: "a duplicate task id, a dependency on an unknown task, or a dependency cycle", Run: runTaskGraphDeps}
	EventCorrupt = &Rule{Code: code.EventCorrupt, Name: "event-corrupt", Severity: diag.SevWarning, Kinds: runKinds, Family: "agentrun",
		Summary: "an events line that is not a valid #Event (the rest of the file still counts)", Run: runEventCorrupt}
	EventLocation = &Rule{Code: code.EventLocation, Name: "event-location", Severity: diag.SevError, Kinds: runKinds, Family: "agentrun",
		Summary: "an events file outside events/<actor-id>/, or an event whose actor differs from its folder", Run: runEventLocation}
	EventSequence = &Rule{Code: code.EventSequence, Lifecycle: AboutFinished, Name: "event-sequence", Severity: diag.SevWarning, Kinds: runKinds, Family: "agentrun",
		Summary: "events out of order: finished before started, after completion, time going back, unknown task, dependencies not done", Run: runEventSequence}
	RunArtifacts = &Rule{Code: code.RunArtifacts, Name: "run-artifacts", Severity: diag.SevError, Kinds: runKinds, Family: "agentrun",
		Summary: "task events without plan.md or task-graph.json", Run: runRunArtifacts}
	RunStale = &Rule{Code: code.RunStale, Name: "run-stale", Severity: diag.SevWarning, Kinds: runKinds, Family: "agentrun",
		Summary: "an incomplete run whose last event is older than staleness.run_max_age", Run: runRunStale}
	MultipleIncompleteRuns = &Rule{Code: code.MultipleIncompleteRuns, Name: "multiple-incomplete-runs", Severity: diag.SevWarning, Kinds: runKinds, Family: "agentrun",
		Summary: "more than one incomplete run under one .agent-memory/runs/", Finalize: reportIncompleteRuns}
)

func init() {
	Register(TaskGraphSchema, TaskGraphDeps, EventCorrupt, EventLocation, EventSequence, RunArtifacts, RunStale, MultipleIncompleteRuns)
}

// DefaultRunMaxAge is staleness.run_max_age when not configured.
const DefaultRunMaxAge = 14 * 24 * time.Hour

// perFileCap bounds the findings one rule reports per events file; the rest
// are counted in one summary finding (unless --every-line), so a garbage file of 300,000 lines
// costs a handful of findings, not 300,000.
const perFileCap = 5

// capped reports up to perFileCap findings per file and remembers the rest.
type capped struct {
	p     *Pass
	n     map[string]int
	more  map[string]*overflow
	order []string
}

type overflow struct {
	f     *load.File
	at    diag.Pos
	lines []int
	count int
}

func newCapped(p *Pass) *capped {
	return &capped{p: p, n: map[string]int{}, more: map[string]*overflow{}}
}

// room reports whether another finding fits for f; when not, the line is
// counted for the summary.
func (c *capped) room(f *load.File, line, col int) bool {
	if c.n[f.Path] < perFileCap || c.p.Opts.EveryLine {
		c.n[f.Path]++
		return true
	}
	o := c.more[f.Path]
	if o == nil {
		o = &overflow{f: f, at: diag.Pos{Line: line, Col: col}}
		c.more[f.Path] = o
		c.order = append(c.order, f.Path)
	}
	o.count++
	if len(o.lines) < 10 {
		o.lines = append(o.lines, line)
	}
	return false
}

// flush reports one summary per file that overflowed; what names the
// problem in the plural ("lines … are not valid events").
func (c *capped) flush(format string) {
	for _, p := range c.order {
		o := c.more[p]
		ls := make([]string, len(o.lines))
		for i, l := range o.lines {
			ls[i] = fmt.Sprint(l)
		}
		list := strings.Join(ls, ", ")
		if o.count > len(o.lines) {
			list += ", …"
		}
		c.p.ReportAt(o.f, o.at, diag.Pos{}, fmt.Sprintf(format, o.count, list))
	}
}

func runTaskGraphSchema(p *Pass) {
	d := p.Run.TaskGraph
	if d == nil || d.Root == nil {
		return
	}
	if !requireMapping(p, d, "task-graph.json") {
		return
	}
	validate(p, d.File, "#TaskGraph", d.Root, "")
	for _, t := range agentrun.TaskNodes(d.Root) {
		if gt := model.GraphTaskOf(nil, t); gt != nil && gt.DependsOn.Key != nil && gt.Dependencies.Key != nil {
			p.Report(d.File, gt.Dependencies.Key, "task has both `depends_on` and its alias `dependencies`; keep one list")
		}
	}
}

// derivedRun derives the run's state once per unit; the rules of a unit
// share it.
func derivedRun(p *Pass) *agentrun.Run { return derivedRunResult.Of(p) }

var derivedRunResult = NewResult("agentrun", func(p *Pass) *agentrun.Run { return agentrun.Derive(p.Run) })

// ---- RL502 ------------------------------------------------------------------

// graphTaskID is a task's id, zero for an item that is no mapping.
func graphTaskID(t *yaml.Node) model.Str {
	if gt := model.GraphTaskOf(nil, t); gt != nil {
		return gt.ID
	}
	return model.Str{}
}

type graphTask struct {
	id       string
	idNode   *yaml.Node
	deps     []int        // indexes into the unique tasks
	depNodes []*yaml.Node // the dependency entries, parallel to deps
}

func runTaskGraphDeps(p *Pass) {
	d := p.Run.TaskGraph
	if d == nil || d.Root == nil || !node.IsMap(d.Root) {
		return
	}
	nodes := agentrun.TaskNodes(d.Root)
	first := map[string]*yaml.Node{}
	var tasks []*graphTask
	index := map[string]int{}
	for _, t := range nodes {
		idf := graphTaskID(t)
		id, idNode := idf.Value, idf.Node
		if !idf.OK {
			continue // RL501
		}
		if f, dup := first[id]; dup {
			p.Report(d.File, idNode, fmt.Sprintf("task id %s is repeated (first at line %d), so a dependency on it is ambiguous; give each task its own id", diag.QuoteFull(id), f.Line), WithRelated(diag.Related{Path: d.File.Path, Line: f.Line, Column: f.Column, Message: "first task with id " + id}))
			continue
		}
		first[id] = idNode
		index[id] = len(tasks)
		tasks = append(tasks, &graphTask{id: id, idNode: idNode})
	}
	// Dependencies of the first task of each id.
	seen := map[string]bool{}
	for _, t := range nodes {
		idf := graphTaskID(t)
		id := idf.Value
		if !idf.OK || seen[id] {
			continue
		}
		seen[id] = true
		gt := tasks[index[id]]
		for _, dn := range agentrun.DepNodes(t) {
			dep, ok := node.Str(dn)
			if !ok {
				continue
			}
			j, known := index[dep]
			if !known {
				p.Report(d.File, dn, fmt.Sprintf("task %s depends on %s, which is not in the graph, so it can never run; correct the id or add the task", diag.QuoteFull(id), diag.QuoteFull(dep)))
				continue
			}
			gt.deps = append(gt.deps, j)
			gt.depNodes = append(gt.depNodes, dn)
		}
	}
	for _, cyc := range cycles(tasks) {
		start := tasks[cyc[0]]
		names := make([]string, 0, len(cyc)+1)
		for _, i := range cyc {
			names = append(names, tasks[i].id)
		}
		names = append(names, start.id)
		at := start.idNode
		next := start.id
		if len(cyc) > 1 {
			next = tasks[cyc[1]].id
		}
		for k, j := range start.deps {
			if tasks[j].id == next {
				at = start.depNodes[k]
				break
			}
		}
		var rel []diag.Related
		for _, i := range cyc[1:] {
			t := tasks[i]
			rel = append(rel, diag.Related{Path: d.File.Path, Line: t.idNode.Line, Column: t.idNode.Column, Message: "task " + t.id + " is in the cycle"})
		}
		if len(cyc) == 1 {
			p.Report(d.File, at, fmt.Sprintf("task %s depends on itself, so it can never run; remove the dependency", diag.QuoteFull(start.id)), WithRelated(rel...))
		} else {
			p.Report(d.File, at, fmt.Sprintf("dependency cycle %s: none of these tasks can ever run; remove one of the dependencies", cycleText(names)), WithRelated(rel...))
		}
	}
}

// cycleText names a cycle (→ reads "depends on"), eliding the middle of a
// long one so the message stays one line.
func cycleText(names []string) string {
	if len(names) > 7 {
		return fmt.Sprintf("%s → … → %s (%d tasks)", strings.Join(names[:3], " → "), strings.Join(names[len(names)-2:], " → "), len(names)-1)
	}
	return strings.Join(names, " → ")
}

// cycles finds the strongly connected components of the dependency graph
// (Tarjan's algorithm, iterative so a long chain cannot overflow the
// stack) and returns one cycle through each cyclic component, starting at
// its first task in graph order. Linear in tasks plus dependencies.
func cycles(tasks []*graphTask) [][]int {
	n := len(tasks)
	idx := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range idx {
		idx[i] = -1
	}
	var stack []int
	var comps [][]int
	counter := 0
	type frame struct{ v, e int }
	for s := 0; s < n; s++ {
		if idx[s] >= 0 {
			continue
		}
		calls := []frame{{s, 0}}
		idx[s], low[s] = counter, counter
		counter++
		stack = append(stack, s)
		on[s] = true
		for len(calls) > 0 {
			top := len(calls) - 1
			v := calls[top].v
			if e := calls[top].e; e < len(tasks[v].deps) {
				calls[top].e++
				w := tasks[v].deps[e]
				if idx[w] < 0 {
					idx[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					on[w] = true
					calls = append(calls, frame{w, 0})
				} else if on[w] && idx[w] < low[v] {
					low[v] = idx[w]
				}
				continue
			}
			calls = calls[:top]
			if top > 0 {
				u := calls[top-1].v
				if low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] == idx[v] {
				var comp []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					comp = append(comp, w)
					if w == v {
						break
					}
				}
				comps = append(comps, comp)
			}
		}
	}
	var out [][]int
	for _, comp := range comps {
		start := comp[0]
		in := map[int]bool{}
		for _, v := range comp {
			in[v] = true
			if v < start {
				start = v
			}
		}
		if c := cycleThrough(tasks, start, in); c != nil {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// cycleThrough finds a shortest path from start back to start inside one
// component (breadth-first), or nil when start is alone and acyclic.
func cycleThrough(tasks []*graphTask, start int, in map[int]bool) []int {
	parent := map[int]int{start: -1}
	queue := []int{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range tasks[v].deps {
			if w == start {
				var path []int
				for x := v; x >= 0; x = parent[x] {
					path = append(path, x)
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if _, ok := parent[w]; !ok && in[w] {
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	return nil
}

// ---- RL503 ------------------------------------------------------------------

func runEventCorrupt(p *Pass) {
	c := newCapped(p)
	for _, d := range p.Run.Events {
		first, last := conflictLines(d.Lines)
		for _, l := range d.Lines {
			if l.Conflict {
				// One finding for a merge's markers, which are not events.
				if l.Line == first && c.room(d.File, l.Line, 1) {
					p.ReportAt(d.File, diag.Pos{Line: l.Line, Col: 1}, diag.Pos{Line: l.Line, Col: 8},
						fmt.Sprintf("a merge left its conflict markers in this log (lines %d–%d); keep the events of both sides and delete the marker lines", first, last))
				}
				continue
			}
			if l.Err != nil {
				if c.room(d.File, l.Line, l.Err.Pos.Col) {
					p.ReportAt(d.File, diag.Pos{Line: l.Line, Col: l.Err.Pos.Col}, diag.Pos{},
						fmt.Sprintf("line %d is skipped on resume: not valid JSON (%s); append a corrected event", l.Line, l.Err.Msg))
				}
				continue
			}
			_, reason, at := agentrun.CheckEvent(l.Node)
			if reason == "" {
				continue
			}
			if !c.room(d.File, l.Line, node.Pos(at).Col) {
				continue
			}
			// Only the few reported lines pay for CUE's wording.
			msgs, goAt := []string{}, at
			if vs, err := schema.Validate("#Event", l.Node, schema.Options{}); err == nil {
				for _, v := range vs {
					if strings.HasPrefix(v.Message, ":") || strings.Contains(v.Message, "match the pattern") {
						// The whole line, or #Timestamp's regexp: Go says it plainer.
						msgs = msgs[:0]
						break
					}
					msgs = append(msgs, v.Message)
					if len(msgs) == 1 {
						at = v.Node
						if v.Key != nil {
							at = v.Key
						}
					}
				}
			}
			if len(msgs) == 0 {
				msgs, at = append(msgs, reason), goAt
			}
			p.Report(d.File, at, fmt.Sprintf("line %d is skipped on resume: %s; append a corrected event", l.Line, strings.Join(msgs, "; ")))
		}
	}
	c.flush("%d more lines of this file are not valid events (lines %s); they are skipped on resume")
}

// conflictLines returns the first and last conflict-marker lines of an
// events file (0, 0 without one).
func conflictLines(lines []load.JSONLine) (first, last int) {
	for _, l := range lines {
		if l.Conflict {
			if first == 0 {
				first = l.Line
			}
			last = l.Line
		}
	}
	return first, last
}

// ---- RL504 ------------------------------------------------------------------

// runEventLocation reports event logs the resume protocol does not read
// (an error: the state it derives misses them) and logs it reads but that
// break the one-folder-per-actor discipline (a warning: drift).
func runEventLocation(p *Pass) {
	src := p.Run
	if files := src.PerEventFiles; len(files) > 0 {
		// One finding per run: the layout is one cause, however many files.
		what := "this per-event file is"
		if len(files) > 1 {
			what = fmt.Sprintf("this and %d more per-event files are", len(files)-1)
		}
		var rel []diag.Related
		for i, f := range files[1:] {
			if i == 4 {
				break
			}
			rel = append(rel, diag.Related{Path: f.Path, Line: 1, Column: 1, Message: "per-event file, not read"})
		}
		p.ReportAt(files[0], diag.Pos{Line: 1, Col: 1}, diag.Pos{},
			fmt.Sprintf("%s not read on resume (it reads events/**/*.jsonl); append the events as lines to events/<actor>/*.jsonl", what), WithRelated(rel...))
	}
	var byDoc map[*load.Document][]*agentrun.Event
	for _, d := range src.Events {
		rel := agentrun.RelPath(src, d)
		actor := agentrun.ActorDir(src, d)
		if actor == "" {
			if !agentrun.InEventsDir(src, d) {
				p.ReportAt(d.File, diag.Pos{Line: 1, Col: 1}, diag.Pos{},
					fmt.Sprintf("events file %s is outside events/ and is not read on resume; move it to events/<actor>/", rel))
				continue
			}
			p.ReportAt(d.File, diag.Pos{Line: 1, Col: 1}, diag.Pos{},
				fmt.Sprintf("events file %s is not in an actor folder; move it to events/<actor>/ so each actor appends to its own log", rel), WithSeverity(diag.SevWarning))
			continue
		}
		if byDoc == nil {
			byDoc = map[*load.Document][]*agentrun.Event{}
			for _, e := range derivedRun(p).Events {
				byDoc[e.Doc] = append(byDoc[e.Doc], e)
			}
		}
		reportForeignActors(p, byDoc[d], d, actor)
	}
}

// reportForeignActors reports, once per actor name, the events of a log
// written by an actor other than the folder's owner.
func reportForeignActors(p *Pass, events []*agentrun.Event, d *load.Document, actor string) {
	type group struct {
		first *agentrun.Event
		count int
	}
	groups := map[string]*group{}
	var names []string
	for _, e := range events {
		if e.ActorNode == nil || agentrun.ActorMatches(e.Actor, actor) {
			continue
		}
		g := groups[e.Actor]
		if g == nil {
			g = &group{first: e}
			groups[e.Actor] = g
			names = append(names, e.Actor)
		} else if e.Seq < g.first.Seq {
			g.first = e
		}
		g.count++
	}
	for _, name := range names {
		g := groups[name]
		n := ""
		if g.count > 1 {
			n = fmt.Sprintf(" (%d events)", g.count)
		}
		p.Report(d.File, g.first.ActorNode, fmt.Sprintf("actor %s writes to the log of events/%s/%s; each actor appends to its own folder: use events/%s/", diag.QuoteFull(name), actor, n, name), WithSeverity(diag.SevWarning))
	}
}

// ---- RL505 ------------------------------------------------------------------

func runEventSequence(p *Pass) {
	r := derivedRun(p)
	c := newCapped(p)
	issuer := func(opts ...Option) eventIssue {
		return func(e *agentrun.Event, at *yaml.Node, format string, args ...any) {
			if c.room(e.Doc.File, e.Line, node.Pos(at).Col) {
				p.Report(e.Doc.File, at, fmt.Sprintf(format, args...), opts...)
			}
		}
	}
	// The order of a finished run's events is history; that it is
	// recorded finished with work open is not.
	live := issuer(AboutLive())
	checkEventTimes(r, live)
	checkTaskLifecycles(p, r, live)
	if !checkRunCompleted(r, issuer()) {
		checkStateCompleted(p, r)
	}
	c.flush("%d more event-sequence problems in this file (lines %s)")
}

// checkStateCompleted reports a run whose workflow-state.json records it
// completed while tasks of its graph are not done: the agent packs'
// orchestrator resumes only runs not recorded over, so that work is left.
// A run recorded cancelled or failed was stopped with its work open: no
// contradiction (RL106 asks open phases only of a COMPLETE workflow).
func checkStateCompleted(p *Pass, r *agentrun.Run) {
	ws := r.Src.WorkflowState
	if r.StateOver == "" || canonWorkflowStatus(r.StateOver) != "COMPLETE" || !r.GraphOK || ws == nil {
		return
	}
	var open []string
	for _, t := range r.Tasks {
		if r.States[t.ID] != agentrun.Done {
			open = append(open, t.ID)
		}
	}
	if len(open) == 0 {
		return
	}
	p.Report(ws.File, r.StateNode, fmt.Sprintf("workflow.status is %s, but %d of %d tasks are not done (%s); log their outcome, or the run is recorded finished with work open", diag.Quote(r.StateOver), len(open), len(r.Tasks), listIDs(open)))
}

// eventIssue reports a problem of an event at one of its nodes.
type eventIssue func(e *agentrun.Event, at *yaml.Node, format string, args ...any)

// checkEventTimes reports time going back inside one append-only file, in
// file order, among the events that set a task's state (only their order
// is read).
func checkEventTimes(r *agentrun.Run, issue eventIssue) {
	byFile := make([]*agentrun.Event, 0, len(r.Events))
	for _, e := range r.Events {
		if e.State != "" {
			byFile = append(byFile, e)
		}
	}
	sort.Slice(byFile, func(i, j int) bool { return byFile[i].Seq < byFile[j].Seq })
	prev := map[*load.Document]*agentrun.Event{}
	for _, e := range byFile {
		if pe := prev[e.Doc]; pe != nil && e.Time.Before(pe.Time) {
			issue(e, e.TimeNode, "timestamp %s is earlier than line %d's (%s), so this log's order and time disagree; write timestamps from one UTC clock", e.Timestamp, pe.Line, pe.Timestamp)
		}
		prev[e.Doc] = e
	}
}

// checkTaskLifecycles follows each task's events in state order: work
// after completion, outcomes never started, work before the dependencies
// were done, and events for tasks the graph does not have.
func checkTaskLifecycles(p *Pass, r *agentrun.Run, issue eventIssue) {
	state := map[string]agentrun.State{}
	started := map[string]bool{}
	worked := map[string]bool{}
	completed := map[string]*agentrun.Event{}
	unknown := map[string]int{}
	var unknownFirst []*agentrun.Event
	for _, e := range r.Events {
		if e.State == "" {
			continue
		}
		t := r.ByID[e.TaskID]
		if t == nil {
			if r.GraphOK { // a malformed graph is RL501's finding, not one per event
				if unknown[e.TaskID] == 0 {
					unknownFirst = append(unknownFirst, e)
				}
				unknown[e.TaskID]++
			}
			continue
		}
		if ce := completed[t.ID]; ce != nil {
			if e.State != agentrun.Done {
				where := fmt.Sprintf("line %d", ce.Line)
				if ce.Doc != e.Doc {
					where = fmt.Sprintf("%s:%d", agentrun.RelPath(p.Run, ce.Doc), ce.Line)
				}
				issue(e, e.TypeNode, "%s for task %s after it was done (%s) is ignored, and the task stays done; log new work under a new task", e.Name, diag.QuoteFull(t.ID), where)
			}
			continue
		}
		// The first sign of work on a task: was it started, were its
		// dependencies done? One finding per task, naming both.
		var open []string
		if (e.State == agentrun.InProgress || e.State == agentrun.Done) && !worked[t.ID] {
			worked[t.ID] = true
			for _, dep := range t.Deps {
				if r.ByID[dep] == nil || dep == t.ID {
					continue // RL502
				}
				if stateOr(state, dep) != agentrun.Done {
					open = append(open, dep)
				}
			}
		}
		unstarted := (e.State == agentrun.Done || e.State == agentrun.Failed) && !started[t.ID]
		switch {
		case unstarted && len(open) > 0:
			issue(e, e.TypeNode, "%s for task %s, never started and before %s done; check its work and log starts before outcomes", e.Name, diag.QuoteFull(t.ID), depList(open))
		case unstarted:
			issue(e, e.TypeNode, "%s for task %s, which was never started; log the start (e.g. task_started) before the outcome", e.Name, diag.QuoteFull(t.ID))
		case len(open) > 0:
			issue(e, e.TypeNode, "task %s was worked on (%s at %s) before %s done; check its work against theirs", diag.QuoteFull(t.ID), e.Name, e.Timestamp, depList(open))
		}
		if e.State != agentrun.Pending {
			started[t.ID] = true // a task reports "never started" once
		}
		state[t.ID] = e.State
		if e.State == agentrun.Done {
			completed[t.ID] = e
		}
	}
	for _, e := range unknownFirst {
		n := unknown[e.TaskID]
		more := ""
		if n > 1 {
			more = fmt.Sprintf(" (%d events)", n)
		}
		issue(e, e.TaskNode, "event for task %s, which is not in task-graph.json%s, so its state is lost; add the task to the graph or correct the id", diag.QuoteFull(e.TaskID), more)
	}
}

// checkRunCompleted reports a run recorded as completed while tasks are
// not done: it contradicts itself. It reports whether it did.
func checkRunCompleted(r *agentrun.Run, issue eventIssue) bool {
	if end := r.Ended; end != nil && r.GraphOK && (end.Type == "run_completed" || end.Type == "run_complete") {
		var open []string
		for _, t := range r.Tasks {
			if r.States[t.ID] != agentrun.Done {
				open = append(open, t.ID)
			}
		}
		if len(open) > 0 {
			issue(end, end.TypeNode, "%s, but %d of %d tasks are not done (%s); log their outcome, or the run is recorded finished with work open", end.Name, len(open), len(r.Tasks), listIDs(open))
			return true
		}
	}
	return false
}

// depList names unfinished dependencies with their verb ("its dependency
// T2 was", "its dependencies T2, T3 were").
func depList(ids []string) string {
	if len(ids) == 1 {
		return "its dependency " + ids[0] + " was"
	}
	return "its dependencies " + listIDs(ids) + " were"
}

func listIDs(ids []string) string {
	if len(ids) > 5 {
		return strings.Join(ids[:5], ", ") + ", …"
	}
	return strings.Join(ids, ", ")
}

func stateOr(m map[string]agentrun.State, id string) agentrun.State {
	if s, ok := m[id]; ok {
		return s
	}
	return agentrun.Pending
}

// ---- RL506 ------------------------------------------------------------------

// runRunArtifacts reports a run whose task events cannot be placed: no
// task graph to derive their state against, or no plan, which a resuming
// agent would re-create (seed 003 §Edge Cases: missing artifact). Run-level
// events (run-started, prd_created, …) do not count: a run in its PRD
// phase has no plan yet.
func runRunArtifacts(p *Pass) {
	r := derivedRun(p)
	var first *agentrun.Event
	for _, e := range r.Events {
		if e.State != "" && (first == nil || e.Seq < first.Seq) {
			first = e
		}
	}
	if first == nil {
		return
	}
	has := p.Run.Present
	switch {
	case !has["task-graph.json"] && (has["task-graph.yaml"] || has["task-graph.yml"]):
		p.Report(first.Doc.File, first.TypeNode, fmt.Sprintf("run %s has task events and a task-graph.yaml, but resume reads task-graph.json; write the graph as JSON", r.ID))
	case !has["task-graph.json"]:
		p.Report(first.Doc.File, first.TypeNode, fmt.Sprintf("run %s has task events but no task-graph.json, so no task state can be derived; restore it or re-run planning", r.ID))
	case !has["plan.md"] && !has["bootstrap-plan.md"]:
		p.Report(first.Doc.File, first.TypeNode, fmt.Sprintf("run %s has task events but no plan.md, which a resuming agent would re-create; restore it from version control", r.ID))
	}
}

// ---- RL507 ------------------------------------------------------------------

func runRunStale(p *Pass) {
	r := derivedRun(p)
	if r.Finished() || r.LastEvent == nil {
		return
	}
	maxAge := p.Opts.RunMaxAge
	if maxAge <= 0 {
		maxAge = DefaultRunMaxAge
	}
	age := p.Opts.Now.Sub(r.LastEvent.Time)
	if age <= maxAge {
		return
	}
	done, total := r.Count()
	e := r.LastEvent
	old := agentrun.AgeInDays(age)
	if old == agentrun.AgeInDays(maxAge) {
		old = "over " + old // 14 days and an hour, beside 14 days
	}
	p.Report(e.Doc.File, e.TimeNode, diag.FitClip(func(w int) string {
		return fmt.Sprintf("run %s is incomplete (%d/%d tasks done) and its last event is %s old (run_max_age %s); review it before resuming, or close it",
			diag.ClipTo(r.ID, w), done, total, old, agentrun.AgeInDays(maxAge))
	}))
}

// ---- RL508 ------------------------------------------------------------------

// RunFact is what each run publishes for RL508.
type RunFact struct {
	RunsDir    string // display path of the runs/ folder
	ID         string
	Path       string // a file of the run to report at
	Line1      Line   // its first line, where RL508 reports
	Incomplete bool
	Phase      int
	Done       int
	Total      int
	Last       string // timestamp of the last event, "" without events
}

// Runs holds every agent run of the run.
var Runs = NewFact[RunFact]("agent-runs")

func init() {
	RegisterIndexer(&Indexer{Name: "agent-runs", Kinds: []load.Kind{load.KindAgentRun}, Produces: []FactKey{Runs, Records}, Run: indexRun})
}

func indexRun(p *Pass) {
	r := derivedRun(p)
	f := RunFact{RunsDir: path.Dir(p.Run.Folder.Path), ID: r.ID, Incomplete: !r.Finished(), Phase: r.Phase()}
	f.Done, f.Total = r.Count()
	if r.LastEvent != nil {
		f.Last = r.LastEvent.Timestamp
	}
	switch {
	case p.Run.TaskGraph != nil:
		f.Path, f.Line1 = p.Run.TaskGraph.File.Path, textOf(p.Run.TaskGraph.File, 1)
	case len(p.Run.Events) > 0:
		f.Path, f.Line1 = p.Run.Events[0].File.Path, textOf(p.Run.Events[0].File, 1)
	case len(p.Run.Folder.Files) > 0:
		f.Path = p.Run.Folder.Files[0].Path
	default:
		f.Path = p.Run.Folder.Path
	}
	Runs.Publish(p.Index, f)
	if r.Closed() {
		// A run recorded over is history (SPEC §0), as status reports it:
		// only whether it really is finished is still in question (RL505).
		rf := &RecordFact{Path: p.Run.Folder.Path, Finished: true, Why: finishedBy(r)}
		for _, file := range p.Run.Folder.Files {
			rf.Files = append(rf.Files, file.Path)
		}
		Records.Publish(p.Index, rf)
	}
}

// finishedBy says what made a run history, for --verbose.
func finishedBy(r *agentrun.Run) string {
	if r.Ended != nil {
		return "closed by " + diag.ClipTo(r.Ended.Name, 30)
	}
	if r.StateOver != "" {
		return "workflow-state.json workflow.status " + diag.ClipTo(r.StateOver, 20)
	}
	return ""
}

func reportIncompleteRuns(p *RepoPass) {
	byDir := map[string][]RunFact{}
	for _, f := range Runs.All(p.Index) {
		if f.Incomplete {
			byDir[f.RunsDir] = append(byDir[f.RunsDir], f)
		}
	}
	for dir, runs := range byDir {
		if len(runs) < 2 {
			continue
		}
		sort.Slice(runs, func(i, j int) bool { return runs[i].ID < runs[j].ID })
		desc := make([]string, len(runs))
		for i, r := range runs {
			last := "no events"
			if r.Last != "" {
				last = "last event " + r.Last
			}
			desc[i] = fmt.Sprintf("%s (phase %d, %d/%d tasks done, %s)", r.ID, r.Phase, r.Done, r.Total, last)
		}
		ids := make([]string, len(runs))
		for i, r := range runs {
			ids[i] = r.ID
		}
		msg := diag.Fit(len(ids), func(n int) string {
			return fmt.Sprintf("%d incomplete runs under %s/ (%s): finish, cancel or remove all but the one to resume", len(runs), dir, diag.List(ids, n))
		})
		rel := make([]diag.Related, len(runs))
		for i, r := range runs {
			rel[i] = diag.Related{Path: r.Path, Line: 1, Column: 1, Message: "incomplete run " + desc[i]}
		}
		p.ReportAt(runs[0].Path, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, msg, WithRelated(rel...), WithSnippet(runs[0].Line1))
	}
}
