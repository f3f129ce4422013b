package agentrun

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// Where a run stands, for `resumelint status` (SPEC §3.6, seed 003
// §Resume Reporting Template): the derivation of this package put in the
// shape of the report. internal/report renders it.

// skippedPerFile is how many skipped lines of one events file a report names.
const skippedPerFile = 5

// Load reads one run folder as the linter does, once: its files
// (load.RunFolder), then its task graph and event logs (load.LoadAgentRun).
// A folder that cannot be listed and a file that cannot be read come back
// as findings with the parse problems; root is the folder reads may not
// leave (load.File.Root).
func Load(cwd, root, dir string) (*Run, []diag.Finding) { return LoadWith(nil, cwd, root, dir) }

// LoadWith is Load with the files read through fs: a command that has
// linted the run already is served the bytes that lint kept.
func LoadWith(fs *load.Files, cwd, root, dir string) (*Run, []diag.Finding) {
	f, probs := load.RunFolder(cwd, root, dir)
	ar, ps := fs.LoadAgentRun(f, load.DefaultLimits)
	return Derive(ar), append(probs, ps...)
}

// StatusTask is a task in the report.
type StatusTask struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	State string `json:"state"`
}

// StatusCompleted is the last task completed.
type StatusCompleted struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Timestamp string `json:"timestamp"`
}

// StatusEnded is the run-lifecycle event that closed a run.
type StatusEnded struct {
	Event     string `json:"event"`
	Timestamp string `json:"timestamp"`
}

// StatusSkipped is a line or a file of the run left out of the state.
type StatusSkipped struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// Status is the report of one run, in the shape of SPEC §3.6.
type Status struct {
	RunID         string           `json:"run_id"`
	RunDir        string           `json:"run_dir"`
	Phase         int              `json:"phase"`
	TasksDone     int              `json:"tasks_done"`
	TasksTotal    int              `json:"tasks_total"`
	LastActivity  *string          `json:"last_activity"`
	LastCompleted *StatusCompleted `json:"last_completed"`
	Runnable      []StatusTask     `json:"runnable"`
	Blocked       []StatusTask     `json:"blocked"`
	Failed        []StatusTask     `json:"failed"`
	// SkippedLines names the first lines of each events file that were
	// skipped as not valid events; SkippedTotal counts them all.
	SkippedLines []StatusSkipped `json:"skipped_lines"`
	SkippedTotal int             `json:"skipped_total"`
	// UnreadFiles are files of the run that could not be read at all.
	UnreadFiles []StatusSkipped `json:"unread_files"`
	// IgnoredFiles are event files the resume protocol does not read
	// (per-event YAML files, .jsonl outside events/): the state above
	// does not include them (RL504).
	IgnoredFiles []string `json:"ignored_files"`
	// RunEnded is the run-lifecycle event that closed the run
	// (run-completed, run-cancelled, run-failed); null while it is open.
	RunEnded *StatusEnded `json:"run_ended"`
	// Stale is set when the run is incomplete and its last event is older
	// than staleness.run_max_age (seed 003 §Edge Cases: very old run).
	Stale    bool     `json:"stale"`
	Warnings []string `json:"-"`
	// GraphUnread: task-graph.json exists but could not be read, so the
	// tasks (and the phase) are unknown.
	GraphUnread bool `json:"-"`
}

// LastActivity is the time of the run's last event, nil when it has none.
func (r *Run) LastActivity() *string {
	if r.LastEvent == nil {
		return nil
	}
	s := r.LastEvent.Timestamp
	return &s
}

func (r *Run) statusTasks(ts []*Task) []StatusTask {
	out := []StatusTask{}
	for _, t := range ts {
		out = append(out, StatusTask{ID: t.ID, Title: t.Title, State: string(r.State(t.ID))})
	}
	return out
}

// NewStatus derives the report of a run at now; probs are the problems
// Load returned, of which the files not read at all are named.
func NewStatus(r *Run, probs []diag.Finding, now time.Time, maxAge time.Duration) *Status {
	st := &Status{RunID: r.ID, RunDir: r.Src.Folder.Path, Phase: r.Phase(), LastActivity: r.LastActivity(),
		Runnable: r.statusTasks(r.Runnable()), Blocked: r.statusTasks(r.InState(Blocked)), Failed: r.statusTasks(r.InState(Failed)),
		SkippedLines: []StatusSkipped{}, UnreadFiles: []StatusSkipped{}, IgnoredFiles: []string{}}
	st.TasksDone, st.TasksTotal = r.Count()
	st.GraphUnread = r.Src.Present["task-graph.json"] && !r.HasGraph
	if e := r.LastCompleted; e != nil {
		st.LastCompleted = &StatusCompleted{ID: e.TaskID, Title: r.ByID[e.TaskID].Title, Timestamp: e.Timestamp}
	}
	st.addSkipped(r)
	if e := r.Ended; e != nil {
		st.RunEnded = &StatusEnded{Event: e.Name, Timestamp: e.Timestamp}
	} else if r.StateOver != "" {
		// The agent packs record the end in workflow-state.json.
		ws := r.Src.WorkflowState.Root
		at, _ := node.Str(node.Val(ws, "updated_at"))
		st.RunEnded = &StatusEnded{Event: "workflow-state.json (workflow.status " + diag.QuoteFull(r.StateOver) + ")", Timestamp: at}
	}
	st.addIgnored(r)
	if r.BadTasks > 0 {
		what := fmt.Sprintf("%d task entries of task-graph.json have no string id and are", r.BadTasks)
		if r.BadTasks == 1 {
			what = "1 task entry of task-graph.json has no string id and is"
		}
		st.Warnings = append(st.Warnings, what+" not counted ("+code.TaskGraphSchema+")")
	}
	if !r.Finished() && r.LastEvent != nil {
		if age := now.Sub(r.LastEvent.Time); age > maxAge {
			st.Stale = true
			st.Warnings = append(st.Warnings, fmt.Sprintf("the last event is %s old (staleness.run_max_age is %s): review the run before resuming it",
				AgeInDays(age), AgeInDays(maxAge)))
		}
	}
	st.addUnread(probs)
	return st
}

// addSkipped names a few skipped lines per file and counts the rest, so a
// garbage log does not bury the report.
func (st *Status) addSkipped(r *Run) {
	perFile := map[string]int{}
	more := map[string][]int{}
	var moreOrder []string
	for _, s := range r.Skipped {
		path := s.Doc.File.Path
		st.SkippedTotal++
		if perFile[path] < skippedPerFile {
			perFile[path]++
			st.SkippedLines = append(st.SkippedLines, StatusSkipped{Path: path, Line: s.Line, Reason: s.Reason})
			st.Warnings = append(st.Warnings, fmt.Sprintf("skipped %s:%d (%s)", path, s.Line, s.Reason))
			continue
		}
		if more[path] == nil {
			moreOrder = append(moreOrder, path)
		}
		more[path] = append(more[path], s.Line)
	}
	for _, path := range moreOrder {
		ls := more[path]
		st.Warnings = append(st.Warnings, fmt.Sprintf("skipped %d more lines of %s that are not valid events (from line %d on)", len(ls), path, ls[0]))
	}
}

// addIgnored names the event files resume does not read, so a report
// never claims a state while events lie unread beside it.
func (st *Status) addIgnored(r *Run) {
	src := r.Src
	for _, f := range src.PerEventFiles {
		st.IgnoredFiles = append(st.IgnoredFiles, f.Path)
	}
	if n := len(src.PerEventFiles); n > 0 {
		first, _ := filepath.Rel(src.Folder.OSPath, src.PerEventFiles[0].OSPath)
		more := ""
		if n > 1 {
			more = ", …"
		}
		st.Warnings = append(st.Warnings, fmt.Sprintf("%d per-event files under events/ (%s%s) are not read: the state above leaves them out (%s)", n, filepath.ToSlash(first), more, code.EventLocation))
	}
	for _, d := range src.Events {
		if !InEventsDir(src, d) {
			st.IgnoredFiles = append(st.IgnoredFiles, d.File.Path)
			st.Warnings = append(st.Warnings, fmt.Sprintf("%s is outside events/ and not read: the state above leaves it out (%s)", d.File.Path, code.EventLocation))
		}
	}
	if !src.Present["task-graph.json"] && (src.Present["task-graph.yaml"] || src.Present["task-graph.yml"]) {
		st.Warnings = append(st.Warnings, "task-graph.yaml is not read (resume reads task-graph.json): the tasks above leave it out ("+code.RunArtifacts+")")
	}
}

// addUnread names the files of the run that could not be read or parsed
// at all (too large, not UTF-8, a task graph that is not JSON, a folder
// that cannot be listed): the report is incomplete without them.
func (st *Status) addUnread(probs []diag.Finding) {
	for _, p := range probs {
		switch p.Code {
		case code.ParseError, code.InputLimits, code.Encoding:
			st.UnreadFiles = append(st.UnreadFiles, StatusSkipped{Path: p.Path, Line: p.Start.Line, Reason: p.Message})
			st.Warnings = append(st.Warnings, fmt.Sprintf("not read: %s:%d (%s)", p.Path, p.Start.Line, p.Message))
		}
	}
}

// Label is a task as the report names it: "id - title", or the id.
func Label(id, title string) string {
	if title == "" {
		return id
	}
	return id + " - " + title
}

// NextActions renders seed 003 §Resume Checklist step 6 for the report.
func (st *Status) NextActions() []string {
	var out []string
	if st.GraphUnread {
		return []string{"Repair task-graph.json (see Warnings): without it the tasks and the phase are unknown"}
	}
	if e := st.RunEnded; e != nil {
		at := ""
		if e.Timestamp != "" {
			at = " at " + e.Timestamp
		}
		return []string{fmt.Sprintf("None: the run was closed by %s%s; nothing to resume", e.Event, at)}
	}
	if n := len(st.IgnoredFiles); n > 0 {
		// The state below misses these events: acting on it could redo
		// finished work.
		files := fmt.Sprintf("%d unread files", n)
		if n == 1 {
			files = "1 unread file"
		}
		out = append(out, fmt.Sprintf("First move the events of %s into events/<actor>/*.jsonl (see Warnings): the state above leaves them out", files))
	}
	switch st.Phase {
	case 0:
		return []string{"Phase 0: write prd.md (the run has no PRD, plan or task graph yet)"}
	case 1:
		return []string{"Phase 1: continue the PRD/plan, or wait for its approval (no tasks in task-graph.json yet)"}
	case 3:
		return []string{"All tasks done: re-run cleanup/PR prep (phase 3), then memory consolidation (phase 4)"}
	}
	for _, t := range st.Runnable {
		switch State(t.State) {
		case InProgress:
			out = append(out, "Resume "+Label(t.ID, t.Title)+" (in progress)")
		case Failed:
			out = append(out, "Retry "+Label(t.ID, t.Title)+" (failed)")
		default:
			out = append(out, "Start "+Label(t.ID, t.Title))
		}
	}
	if len(out) == 0 {
		out = append(out, "No task is runnable: every remaining task is blocked or waits on a task that is not done")
	}
	for _, t := range st.Blocked {
		out = append(out, "Blocked: "+Label(t.ID, t.Title))
	}
	return out
}

// RunSummary is one run in the list of runs to choose from.
type RunSummary struct {
	RunID        string  `json:"run_id"`
	RunDir       string  `json:"run_dir"`
	Phase        int     `json:"phase"`
	TasksDone    int     `json:"tasks_done"`
	TasksTotal   int     `json:"tasks_total"`
	LastActivity *string `json:"last_activity"`
}

// Summary is the run in a list of runs.
func (r *Run) Summary() RunSummary {
	done, total := r.Count()
	return RunSummary{r.ID, r.Src.Folder.Path, r.Phase(), done, total, r.LastActivity()}
}

// AgeInDays renders an age for messages ("43 days").
func AgeInDays(d time.Duration) string {
	n := int(d / (24 * time.Hour))
	if n == 1 {
		return "1 day"
	}
	if n >= 1 {
		return fmt.Sprintf("%d days", n)
	}
	return d.Round(time.Minute).String()
}
