// Package agentrun derives the state of an agent run under
// .agent-memory/runs/<run-id>/ (seed 003) from its task graph and event
// logs: each task's state, the runnable tasks and the phase. The RL5xx
// rules and `resumelint status` share it, so a report and a lint of the
// same run never disagree.
//
// Decisions where seed 003 is silent:
//
//   - Events are applied in timestamp order, ties by file order (files by
//     path, then line). Only files under events/ are read (seed 003 step 3,
//     `events/**/*.jsonl`); a .jsonl elsewhere in the run, or an event
//     stored as its own YAML file, is not read and does not change state
//     (RL504 reports it).
//   - An event's name is under `event`, `type` or `event_type`, in
//     snake_case or kebab-case (`task_completed`, `task-completed`). The
//     names of Lifecycle set a task's state; every other name (`run-started`,
//     `phase-completed`, `plan_created`, …) is a valid event that sets
//     none, and it still counts as activity.
//   - A task's state is set by its latest task-state event, except that
//     done is final: a later event that would move a done task elsewhere is
//     an anomaly (RL505) and is ignored, so a finished task is never run
//     twice. A second "done" event (`task-verified`, then
//     `task-completed`) is the agent packs' normal lifecycle, not one.
//   - Runnable (step 5): every dependency done, the task not done and not
//     blocked. That includes in_progress tasks (an interrupted task is
//     resumed) and failed ones (retried), as the seed's three conditions
//     say; reports tell the three apart. A dependency on a task that is not
//     in the graph is never satisfied.
//   - Phase (step 6): 0 when the run has neither prd.md, a plan nor a task
//     graph with tasks; 1 when it has prd.md or a plan (plan.md, or the
//     packs' bootstrap-plan.md) but no task yet;
//     2 while any task is not done; 3 when every task is done. Phase 4
//     (memory consolidation) leaves no artifact that seed 003 names, so it
//     is never derived; a run in phase 3 is complete.
//   - A run is finished when its task graph has tasks and all are done, or
//     when its latest run-lifecycle event ends it (`run-completed`,
//     `run-cancelled`, `run-failed`; a later `run-started` or
//     `session-resumed` reopens it). Every other run is incomplete.
package agentrun

import (
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// State is a task's derived state (seed 003 §Resume Checklist step 4).
type State string

const (
	Pending    State = "pending"
	InProgress State = "in_progress"
	Done       State = "done"
	Failed     State = "failed"
	Blocked    State = "blocked"
)

// Event names of seed 003 step 4, in their canonical (snake_case) form.
const (
	TaskStarted   = "task_started"
	TaskCompleted = "task_completed"
	TaskFailed    = "task_failed"
	TaskBlocked   = "task_blocked"
)

// SeedEventTypes lists seed 003's own event names in the order it gives them.
var SeedEventTypes = []string{TaskStarted, TaskCompleted, TaskFailed, TaskBlocked}

// Lifecycle maps each task-state event name to the seed 003 state it sets:
// the seed's four, and the agent packs' longer lifecycle
// (agentic-event-schema.yaml), whose states are folded onto the seed's
// five because the resume protocol reasons only in those. Names are
// canonical; kebab-case is read as the same name.
var Lifecycle = []struct {
	Name  string
	State State
}{
	{"task_created", Pending},        // the task-breaker wrote the task
	{"task_ready", Pending},          // its dependencies are done; nobody works on it yet
	{"task_claimed", InProgress},     // an executor took it: the packs' "started"
	{TaskStarted, InProgress},        //
	{"task_implemented", InProgress}, // code written, not yet verified
	{"task_verified", Done},          // passed verification
	{TaskCompleted, Done},            // verified and accepted
	{"task_verification_failed", Failed},
	{TaskFailed, Failed},
	{"task_failure", Failed}, // the packs' retry-protocol failure record
	{TaskBlocked, Blocked},
}

var lifecycle = func() map[string]State {
	m := make(map[string]State, len(Lifecycle))
	for _, l := range Lifecycle {
		m[l.Name] = l.State
	}
	return m
}()

// runEnds are the run-lifecycle events that close a run; runOpens reopen
// one (§0 lifecycle: a finished run is history, not resumable work).
var (
	runEnds  = map[string]bool{"run_completed": true, "run_complete": true, "run_cancelled": true, "run_canceled": true, "run_failed": true}
	runOpens = map[string]bool{"run_started": true, "run_resumed": true, "session_resumed": true}
)

// NameKeys are the keys an event's name may be under, in precedence order.
var NameKeys = []string{"event", "type", "event_type"}

// Canonical returns an event name's canonical form: kebab-case and
// snake_case name the same event.
func Canonical(name string) string {
	return strings.ReplaceAll(name, "-", "_")
}

// StateOf returns the task state an event name sets, or "" for an event
// that sets none (run-level and other events).
func StateOf(name string) State {
	return lifecycle[Canonical(name)]
}

// Task is one entry of task-graph.json.
type Task struct {
	ID     string
	Title  string
	Deps   []string
	IDNode *yaml.Node
	Index  int // position in the graph's tasks list
}

// Event is one valid line of an events file.
type Event struct {
	Name     string // as written ("task-verified")
	Type     string // canonical ("task_verified")
	TypeNode *yaml.Node
	// State is the task state the event sets; "" for an event that sets
	// none (run-level events such as run-started or phase-completed).
	State     State
	TaskID    string // "" when the event names no task
	TaskNode  *yaml.Node
	Timestamp string
	TimeNode  *yaml.Node
	Time      time.Time
	Actor     string
	ActorNode *yaml.Node
	Doc       *load.Document
	Line      int
	Seq       int // file order across the run
}

// Skipped is a line that is not a valid event (seed 003 §Edge Cases:
// "parse what is readable, warn user").
type Skipped struct {
	Doc    *load.Document
	Line   int
	Col    int
	Node   *yaml.Node // nil when the line is not JSON
	Reason string
}

// Run is the derived state of one run folder.
type Run struct {
	Src   *load.AgentRun
	ID    string
	Tasks []*Task // graph order, first occurrence of each id
	ByID  map[string]*Task
	// Events holds the valid events of events/**/*.jsonl in state order.
	Events  []*Event
	Skipped []Skipped
	States  map[string]State
	// LastEvent is the latest event of any kind; LastCompleted the event
	// that made the latest-finished graph task done. Either may be nil.
	LastEvent, LastCompleted *Event
	// Ended is the run-lifecycle event that closed the run (run-completed,
	// run-cancelled, run-failed), nil while it is open.
	Ended *Event
	// StateOver is workflow-state.json's workflow.status when it says the
	// run is over ("completed"); "" otherwise.
	StateOver string
	// StateNode is that status's node in workflow-state.json.
	StateNode *yaml.Node
	HasGraph  bool
	// GraphOK: the graph has a tasks list whose every entry has a string
	// id, so an event for an id it lacks really names an unknown task.
	GraphOK bool
	// BadTasks counts task entries without a string id (not counted).
	BadTasks int
}

// Derive computes a run's state. It never fails: what cannot be read is
// skipped and listed in Skipped.
func Derive(src *load.AgentRun) *Run {
	r := &Run{Src: src, ID: src.ID, ByID: map[string]*Task{}, States: map[string]State{}}
	if src.TaskGraph != nil && src.TaskGraph.Root != nil {
		r.HasGraph = true
		r.GraphOK = node.IsMap(src.TaskGraph.Root) && node.IsSeq(node.Val(src.TaskGraph.Root, "tasks"))
		for i, t := range TaskNodes(src.TaskGraph.Root) {
			task := parseTask(t, i)
			if task == nil {
				r.BadTasks++
				r.GraphOK = false
				continue
			}
			if r.ByID[task.ID] != nil {
				continue
			}
			r.Tasks = append(r.Tasks, task)
			r.ByID[task.ID] = task
			r.States[task.ID] = Pending
		}
	}
	seq := 0
	for _, d := range src.Events {
		if !InEventsDir(src, d) {
			continue
		}
		for _, l := range d.Lines {
			if l.Err != nil {
				r.Skipped = append(r.Skipped, Skipped{Doc: d, Line: l.Line, Col: l.Err.Pos.Col, Reason: "not valid JSON: " + l.Err.Msg})
				continue
			}
			ev, reason, at := CheckEvent(l.Node)
			if reason != "" {
				r.Skipped = append(r.Skipped, Skipped{Doc: d, Line: l.Line, Col: node.Pos(at).Col, Node: at, Reason: reason})
				continue
			}
			ev.Doc, ev.Line, ev.Seq = d, l.Line, seq
			seq++
			r.Events = append(r.Events, ev)
		}
	}
	sort.SliceStable(r.Events, func(i, j int) bool { return r.Events[i].Time.Before(r.Events[j].Time) })
	for _, e := range r.Events {
		r.apply(e)
	}
	if n := len(r.Events); n > 0 {
		r.LastEvent = r.Events[n-1]
	}
	if ws := src.WorkflowState; ws != nil && node.IsMap(ws.Root) {
		sn := node.Val(node.Val(ws.Root, "workflow"), "status")
		if st, ok := node.Str(sn); ok && node.FinishedWord(st) != "" {
			r.StateOver, r.StateNode = st, sn
		}
	}
	return r
}

// apply moves a task's state by one event (done is final), or the run's
// open/closed state by a run-lifecycle event.
func (r *Run) apply(e *Event) {
	if e.State == "" {
		switch {
		case runEnds[e.Type]:
			r.Ended = e
		case runOpens[e.Type]:
			r.Ended = nil
		}
		return
	}
	st, ok := r.States[e.TaskID]
	if !ok || st == Done {
		return
	}
	r.States[e.TaskID] = e.State
	if e.State == Done {
		r.LastCompleted = e
	}
}

// TaskNodes returns the entries of a task graph's `tasks` list.
func TaskNodes(root *yaml.Node) []*yaml.Node {
	ts := node.Val(root, "tasks")
	if !node.IsSeq(ts) {
		return nil
	}
	return ts.Content
}

// DepNodes returns a task's dependency list: `depends_on`, or its alias
// `dependencies` (RL501 reports a task with both).
func DepNodes(t *yaml.Node) []*yaml.Node {
	v := node.Val(t, "depends_on")
	if v == nil {
		v = node.Val(t, "dependencies")
	}
	if !node.IsSeq(v) {
		return nil
	}
	return v.Content
}

func parseTask(t *yaml.Node, i int) *Task {
	idNode := node.Val(t, "id")
	id, ok := node.Str(idNode)
	if !ok {
		return nil
	}
	task := &Task{ID: id, IDNode: idNode, Index: i}
	task.Title, _ = node.Str(node.Val(t, "title"))
	for _, d := range DepNodes(t) {
		if s, ok := node.Str(d); ok {
			task.Deps = append(task.Deps, s)
		}
	}
	return task
}

// RelPath is a file's path inside the run folder, '/'-separated.
func RelPath(src *load.AgentRun, d *load.Document) string {
	if rel, err := filepath.Rel(src.Folder.OSPath, d.File.OSPath); err == nil {
		return filepath.ToSlash(rel)
	}
	return d.File.Path
}

// InEventsDir reports whether an events file lies under events/, where
// seed 003 step 3 reads them.
func InEventsDir(src *load.AgentRun, d *load.Document) bool {
	return strings.HasPrefix(RelPath(src, d), "events/")
}

// ActorDir returns the actor folder of a well-placed events file
// (events/<actor-id>/<name>.jsonl), or "" for any other location.
func ActorDir(src *load.AgentRun, d *load.Document) string {
	parts := strings.Split(RelPath(src, d), "/")
	if len(parts) != 3 || parts[0] != "events" || parts[1] == "" {
		return ""
	}
	return parts[1]
}

// CheckEvent checks a line's value against #Event (cue/agentrun.cue) in Go:
// the common case costs no CUE evaluation. It accepts what #Event accepts,
// and adds what #Event cannot say: a name under one of NameKeys (the same
// one when several are given), a string task_id on a task-state event,
// and no unknown `task_…` name on an event for a task (a misspelt state
// that would leave the task where it was). reason is empty for a valid
// event; otherwise at is the offending node.
func CheckEvent(n *yaml.Node) (ev *Event, reason string, at *yaml.Node) {
	n = node.Resolve(n)
	if !node.IsMap(n) {
		return nil, "an event must be a JSON object, found " + node.Kind(n), n
	}
	var e Event // copied to the heap only when valid: most bad lines cost nothing
	var nameKey *yaml.Node
	for _, key := range NameKeys {
		k, v := node.Get(n, key)
		if k == nil {
			continue
		}
		s, ok := node.Str(v)
		if !ok {
			return nil, key + ": expected a string, found " + node.Kind(v), v
		}
		if s == "" {
			return nil, key + ": the event name is empty", v
		}
		if nameKey != nil && Canonical(s) != e.Type {
			return nil, nameKey.Value + " " + show(e.TypeNode) + " and " + key + " " + show(v) + " disagree", k
		}
		if nameKey == nil {
			nameKey, e.Name, e.Type, e.TypeNode = k, s, Canonical(s), v
		}
	}
	if nameKey == nil {
		return nil, "missing the event name (event, type or event_type)", n
	}
	e.State = lifecycle[e.Type]
	tsk, tsv := node.Get(n, "timestamp")
	if tsk == nil {
		return nil, "missing required key timestamp", n
	}
	if e.Timestamp, reason = strField("timestamp", tsv); reason != "" {
		return nil, reason, tsv
	}
	if !datePrefix(e.Timestamp) {
		return nil, "timestamp: " + show(tsv) + " is not a timestamp (expected e.g. \"2026-02-20T21:00:00Z\")", tsv
	}
	e.TimeNode, e.Time = tsv, ParseTime(e.Timestamp)
	tid, tv := node.Get(n, "task_id")
	if tid != nil && !node.IsNull(tv) {
		if e.TaskID, reason = strField("task_id", tv); reason != "" {
			return nil, reason, tv
		}
		e.TaskNode = tv
	}
	switch {
	case e.State != "" && e.TaskNode == nil:
		return nil, "missing task_id: " + show(e.TypeNode) + " sets a task's state", n
	case e.State == "" && e.TaskNode != nil && strings.HasPrefix(e.Type, "task_"):
		return nil, nameKey.Value + " " + show(e.TypeNode) + " is not a task-lifecycle event (task " + show(tv) + " keeps its state)", e.TypeNode
	}
	if ak, av := node.Get(n, "actor"); ak != nil {
		if e.Actor, reason = strField("actor", av); reason != "" {
			return nil, reason, av
		}
		e.ActorNode = av
	}
	valid := e
	return &valid, "", nil
}

func strField(name string, v *yaml.Node) (string, string) {
	s, ok := node.Str(v)
	if !ok {
		return "", name + ": expected a string, found " + node.Kind(v)
	}
	return s, ""
}

func show(n *yaml.Node) string {
	if s, ok := node.Str(n); ok {
		return `"` + s + `"`
	}
	if node.IsScalar(n) {
		return n.Value
	}
	return node.Kind(n)
}

// datePrefix mirrors #Timestamp: the text starts with YYYY-MM-DD.
func datePrefix(s string) bool {
	if len(s) < 10 {
		return false
	}
	for i := 0; i < 10; i++ {
		c := s[i]
		if i == 4 || i == 7 {
			if c != '-' {
				return false
			}
		} else if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ParseTime reads the timestamp forms seen in event logs; a zone-less time
// is taken as UTC, and text that is only a valid date prefix gives that day.
func ParseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	if len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return t
		}
	}
	return time.Time{}
}

// State returns a task's state (Pending for an unknown id).
func (r *Run) State(id string) State {
	if s, ok := r.States[id]; ok {
		return s
	}
	return Pending
}

// Count returns the tasks done and the tasks in the graph.
func (r *Run) Count() (done, total int) {
	for _, t := range r.Tasks {
		if r.States[t.ID] == Done {
			done++
		}
	}
	return done, len(r.Tasks)
}

// Runnable returns the tasks whose dependencies are all done and that are
// neither done nor blocked, in task-graph order (seed 003 step 5).
func (r *Run) Runnable() []*Task {
	var out []*Task
	for _, t := range r.Tasks {
		if r.IsRunnable(t) {
			out = append(out, t)
		}
	}
	return out
}

// IsRunnable applies step 5 to one task.
func (r *Run) IsRunnable(t *Task) bool {
	st := r.States[t.ID]
	if st == Done || st == Blocked {
		return false
	}
	for _, d := range t.Deps {
		if r.ByID[d] == nil || r.States[d] != Done {
			return false
		}
	}
	return true
}

// InState returns the tasks in state s, in task-graph order.
func (r *Run) InState(s State) []*Task {
	var out []*Task
	for _, t := range r.Tasks {
		if r.States[t.ID] == s {
			out = append(out, t)
		}
	}
	return out
}

// Complete reports whether every task of a non-empty graph is done.
func (r *Run) Complete() bool {
	done, total := r.Count()
	return total > 0 && done == total
}

// Finished reports whether the run is history: every task done, closed by
// a run-lifecycle event, or recorded over by its workflow-state.json. Only
// unfinished runs are resumed, go stale or compete to be resumed (RL507,
// RL508).
func (r *Run) Finished() bool {
	return r.Complete() || r.Closed()
}

// Closed reports a run recorded over: by a run-lifecycle event or by its
// workflow-state.json. It is history, with nothing to resume (status says
// so); a run whose tasks are all done still has its cleanup and memory
// consolidation ahead (phases 3 and 4).
func (r *Run) Closed() bool { return r.Ended != nil || r.StateOver != "" }

// ActorMatches reports whether an event's actor is the owner of the actor
// folder its log is in: the same name, or the same name with a prefix
// before a '-' on either side, as the agent packs write it (mode slug
// "agentic-executor" in events/executor/).
func ActorMatches(actor, folder string) bool {
	a, f := strings.ToLower(actor), strings.ToLower(folder)
	return a == f || strings.HasSuffix(a, "-"+f) || strings.HasSuffix(f, "-"+a)
}

// Phase derives seed 003 step 6's phase (see the package comment).
func (r *Run) Phase() int {
	done, total := r.Count()
	switch {
	case total > 0 && done == total:
		return 3
	case total > 0:
		return 2
	case r.Src.Present["prd.md"] || r.Src.Present["plan.md"] || r.Src.Present["bootstrap-plan.md"]:
		return 1
	}
	return 0
}
