package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/resumelint/resumelint/internal/agentrun"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// `resumelint status [RUN_DIR]`: the resume report of an agent run (SPEC
// §3.6, seed 003 §Resume Reporting Template). Task state comes from
// internal/agentrun, the same derivation the RL5xx rules use.
//
// Output formats: text (the seed's template), json (the same as data) and
// mermaid (the task graph with each task's state as a class). Mermaid is
// printed raw, without a ```mermaid fence: it can be piped into a .mmd file
// or the Mermaid CLI as is, and wrapping it for a Markdown comment is one
// line of shell, while a fence would have to be stripped everywhere else.

func init() { subcommands["status"] = (*Command).status }

// skippedPerFile is how many skipped lines of one events file a report names.
const skippedPerFile = 5

const statusRule = "═══════════════════════════════════════════════════════════"

func (c *Command) status(args []string) (int, error) {
	fset := newFlagSet("status")
	format := fset.String("format", "text", "output format: text, json or mermaid")
	nowFlag := fset.String("now", "", "the current time for the staleness warning (RFC 3339; default $SOURCE_DATE_EPOCH or the clock)")
	configFlag := fset.String("config", "", "configuration file for staleness.run_max_age (default: .resumelint.yaml at the repository root)")
	pos, err := parseInterspersed(fset, args)
	if err != nil {
		return ExitUsage, err
	}
	switch *format {
	case "text", "json", "mermaid":
	default:
		return ExitUsage, usagef("unknown --format %q (want text, json or mermaid)", *format)
	}
	if len(pos) > 1 {
		return ExitUsage, usagef("status takes one RUN_DIR, got %d", len(pos))
	}
	now, err := c.nowTime(*nowFlag)
	if err != nil {
		return ExitUsage, err
	}
	maxAge, err := c.runMaxAge(*configFlag)
	if err != nil {
		return ExitUsage, err
	}

	var run *agentrun.Run
	runsDir := ""
	if len(pos) == 1 {
		dir := pos[0]
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(c.Cwd, dir)
		}
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			return ExitUsage, usagef("%s is not a run folder (expected .agent-memory/runs/<run-id>/)", pos[0])
		}
		if looksLikeRunsDir(dir) {
			runsDir = dir
		} else {
			run = c.loadRun(dir)
		}
	} else {
		runsDir = c.findRunsDir()
		if runsDir == "" {
			return ExitUsage, usagef("no .agent-memory/runs/ folder here (%s); name a run folder: resumelint status RUN_DIR", c.Cwd)
		}
	}
	if run == nil {
		var code int
		run, code, err = c.pickRun(runsDir, *format)
		if run == nil {
			return code, err
		}
	}
	rep := newStatusReport(run, now, maxAge)
	addUnread(rep, run)
	switch *format {
	case "json":
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err = enc.Encode(rep); err == nil {
			_, err = io.WriteString(c.Stdout, rules.MaskSecrets(buf.String()))
		}
	case "mermaid":
		var buf bytes.Buffer
		if err = writeMermaid(&buf, run, rep); err == nil {
			_, err = io.WriteString(c.Stdout, rules.MaskSecrets(buf.String()))
		}
	default:
		err = writeStatusText(c.Stdout, rep)
	}
	if err != nil {
		return ExitInternal, err
	}
	return ExitOK, nil
}

// runMaxAge reads staleness.run_max_age from the configuration, as lint
// does for RL507.
func (c *Command) runMaxAge(flagPath string) (time.Duration, error) {
	osPath := flagPath
	if osPath != "" && !filepath.IsAbs(osPath) {
		osPath = filepath.Join(c.Cwd, osPath)
	}
	if osPath == "" {
		osPath = config.Find(repoRoot(c.Cwd))
	}
	if osPath == "" {
		return rules.DefaultRunMaxAge, nil
	}
	cfg, err := config.Load(osPath, load.Display(c.Cwd, osPath), load.RootFor(repoRoot(c.Cwd), osPath))
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			return 0, usagef("%s", strings.ReplaceAll(ce.Error(), "\n", "\nresumelint: "))
		}
		return 0, usagef("%v", err)
	}
	if cfg.RunMaxAge > 0 {
		return cfg.RunMaxAge, nil
	}
	return rules.DefaultRunMaxAge, nil
}

// findRunsDir looks for .agent-memory/runs/ in the working directory, then
// at the top of the repository.
func (c *Command) findRunsDir() string {
	for _, base := range []string{c.Cwd, repoRoot(c.Cwd)} {
		d := filepath.Join(base, ".agent-memory", "runs")
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		}
	}
	return ""
}

// looksLikeRunsDir tells a runs/ folder (given as RUN_DIR) from a run.
func looksLikeRunsDir(dir string) bool {
	if filepath.Base(dir) != "runs" {
		return false
	}
	for _, marker := range []string{"task-graph.json", "events", "plan.md", "prd.md"} {
		if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
			return false
		}
	}
	return true
}

// loadRun reads one run folder as the linter does.
func (c *Command) loadRun(dir string) *agentrun.Run {
	root := load.RootFor(repoRoot(c.Cwd), filepath.Join(dir, "x"))
	f := &load.Folder{Kind: load.KindAgentRun, Path: load.Display(c.Cwd, dir), OSPath: dir, Explicit: true, Root: root}
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() {
			if p != dir && (e.Name() == ".git" || e.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		f.Files = append(f.Files, &load.File{Path: load.Display(c.Cwd, p), OSPath: p, Kind: load.KindAgentRun, Root: root})
		return nil
	})
	sort.Slice(f.Files, func(i, j int) bool { return f.Files[i].Path < f.Files[j].Path })
	ar, _ := load.LoadAgentRun(f, load.DefaultLimits)
	return agentrun.Derive(ar)
}

// addUnread names the files of the run that could not be read or parsed
// at all (too large, not UTF-8, a task graph that is not JSON): the report
// is incomplete without them. The chosen run is read once more for this;
// listing runs stays a single pass.
func addUnread(rep *statusReport, r *agentrun.Run) {
	_, probs := load.LoadAgentRun(r.Src.Folder, load.DefaultLimits)
	for _, p := range probs {
		switch p.Code {
		case code.ParseError, code.InputLimits, code.Encoding:
			rep.UnreadFiles = append(rep.UnreadFiles, statusSkipped{Path: p.Path, Line: p.Start.Line, Reason: p.Message})
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("not read: %s:%d (%s)", p.Path, p.Start.Line, p.Message))
		}
	}
}

// pickRun chooses the run to report among the runs of runsDir: the only
// incomplete one. Several (seed 003: "ask user which run to resume") or
// none is exit code 2, with the list on stdout.
func (c *Command) pickRun(runsDir, format string) (*agentrun.Run, int, error) {
	ents, err := os.ReadDir(runsDir)
	if err != nil {
		return nil, ExitUsage, fmt.Errorf("reading %s: %w", load.Display(c.Cwd, runsDir), err)
	}
	var incomplete, complete []*agentrun.Run
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		r := c.loadRun(filepath.Join(runsDir, e.Name()))
		if r.Finished() {
			complete = append(complete, r)
		} else {
			incomplete = append(incomplete, r)
		}
	}
	disp := load.Display(c.Cwd, runsDir)
	switch len(incomplete) {
	case 1:
		return incomplete[0], ExitOK, nil
	case 0:
		if len(complete) == 0 {
			return nil, ExitUsage, usagef("no run under %s/: a fresh start", disp)
		}
		return nil, ExitUsage, usagef("no incomplete run under %s/ (%d finished); nothing to resume, or name one: resumelint status %s/<run-id>", disp, len(complete), disp)
	}
	if format == "json" {
		type entry struct {
			RunID        string  `json:"run_id"`
			RunDir       string  `json:"run_dir"`
			Phase        int     `json:"phase"`
			TasksDone    int     `json:"tasks_done"`
			TasksTotal   int     `json:"tasks_total"`
			LastActivity *string `json:"last_activity"`
		}
		out := struct {
			Error string  `json:"error"`
			Runs  []entry `json:"runs"`
		}{Error: "several incomplete runs: name the one to resume"}
		for _, r := range incomplete {
			done, total := r.Count()
			out.Runs = append(out.Runs, entry{r.ID, r.Src.Folder.Path, r.Phase(), done, total, lastActivity(r)})
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return nil, ExitInternal, err
		}
		if _, err := io.WriteString(c.Stdout, rules.MaskSecrets(buf.String())); err != nil {
			return nil, ExitInternal, err
		}
	} else {
		var sb strings.Builder
		fmt.Fprintf(&sb, "Incomplete runs under %s/:\n", safeText(disp))
		for _, r := range incomplete {
			done, total := r.Count()
			last := "none"
			if l := lastActivity(r); l != nil {
				last = *l
			}
			fmt.Fprintf(&sb, "- %s: phase %d, %d/%d tasks complete, last activity %s\n", safeText(r.ID), r.Phase(), done, total, safeText(last))
		}
		if _, err := io.WriteString(c.Stdout, sb.String()); err != nil {
			return nil, ExitInternal, err
		}
	}
	return nil, ExitUsage, usagef("%d incomplete runs: name the one to resume, e.g. resumelint status %s", len(incomplete), incomplete[0].Src.Folder.Path)
}

func lastActivity(r *agentrun.Run) *string {
	if r.LastEvent == nil {
		return nil
	}
	s := r.LastEvent.Timestamp
	return &s
}

// statusTask is a task in the JSON report.
type statusTask struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	State string `json:"state"`
}

type statusCompleted struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Timestamp string `json:"timestamp"`
}

type statusEnded struct {
	Event     string `json:"event"`
	Timestamp string `json:"timestamp"`
}

type statusSkipped struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// statusReport is the report of one run, in the shape of SPEC §3.6.
type statusReport struct {
	RunID         string           `json:"run_id"`
	RunDir        string           `json:"run_dir"`
	Phase         int              `json:"phase"`
	TasksDone     int              `json:"tasks_done"`
	TasksTotal    int              `json:"tasks_total"`
	LastActivity  *string          `json:"last_activity"`
	LastCompleted *statusCompleted `json:"last_completed"`
	Runnable      []statusTask     `json:"runnable"`
	Blocked       []statusTask     `json:"blocked"`
	Failed        []statusTask     `json:"failed"`
	// SkippedLines names the first lines of each events file that were
	// skipped as not valid events; SkippedTotal counts them all.
	SkippedLines []statusSkipped `json:"skipped_lines"`
	SkippedTotal int             `json:"skipped_total"`
	// UnreadFiles are files of the run that could not be read at all.
	UnreadFiles []statusSkipped `json:"unread_files"`
	// IgnoredFiles are event files the resume protocol does not read
	// (per-event YAML files, .jsonl outside events/): the state above
	// does not include them (RL504).
	IgnoredFiles []string `json:"ignored_files"`
	// RunEnded is the run-lifecycle event that closed the run
	// (run-completed, run-cancelled, run-failed); null while it is open.
	RunEnded *statusEnded `json:"run_ended"`
	// Stale is set when the run is incomplete and its last event is older
	// than staleness.run_max_age (seed 003 §Edge Cases: very old run).
	Stale    bool     `json:"stale"`
	Warnings []string `json:"-"`
	// graphUnread: task-graph.json exists but could not be read, so the
	// tasks (and the phase) are unknown.
	graphUnread bool
}

func tasksOf(r *agentrun.Run, ts []*agentrun.Task) []statusTask {
	out := []statusTask{}
	for _, t := range ts {
		out = append(out, statusTask{ID: t.ID, Title: t.Title, State: string(r.State(t.ID))})
	}
	return out
}

func newStatusReport(r *agentrun.Run, now time.Time, maxAge time.Duration) *statusReport {
	rep := &statusReport{RunID: r.ID, RunDir: r.Src.Folder.Path, Phase: r.Phase(), LastActivity: lastActivity(r),
		Runnable: tasksOf(r, r.Runnable()), Blocked: tasksOf(r, r.InState(agentrun.Blocked)), Failed: tasksOf(r, r.InState(agentrun.Failed)),
		SkippedLines: []statusSkipped{}, UnreadFiles: []statusSkipped{}, IgnoredFiles: []string{}}
	rep.TasksDone, rep.TasksTotal = r.Count()
	rep.graphUnread = r.Src.Present["task-graph.json"] && !r.HasGraph
	if e := r.LastCompleted; e != nil {
		rep.LastCompleted = &statusCompleted{ID: e.TaskID, Title: r.ByID[e.TaskID].Title, Timestamp: e.Timestamp}
	}
	// A few skipped lines per file are named; the rest are counted, so a
	// garbage log does not bury the report.
	perFile := map[string]int{}
	more := map[string][]int{}
	var moreOrder []string
	for _, s := range r.Skipped {
		path := s.Doc.File.Path
		rep.SkippedTotal++
		if perFile[path] < skippedPerFile {
			perFile[path]++
			rep.SkippedLines = append(rep.SkippedLines, statusSkipped{Path: path, Line: s.Line, Reason: s.Reason})
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("skipped %s:%d (%s)", path, s.Line, s.Reason))
			continue
		}
		if more[path] == nil {
			moreOrder = append(moreOrder, path)
		}
		more[path] = append(more[path], s.Line)
	}
	for _, path := range moreOrder {
		ls := more[path]
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("skipped %d more lines of %s that are not valid events (from line %d on)", len(ls), path, ls[0]))
	}
	if e := r.Ended; e != nil {
		rep.RunEnded = &statusEnded{Event: e.Name, Timestamp: e.Timestamp}
	}
	addIgnored(rep, r)
	if r.BadTasks > 0 {
		what := fmt.Sprintf("%d task entries of task-graph.json have no string id and are", r.BadTasks)
		if r.BadTasks == 1 {
			what = "1 task entry of task-graph.json has no string id and is"
		}
		rep.Warnings = append(rep.Warnings, what+" not counted (RL501)")
	}
	if !r.Finished() && r.LastEvent != nil {
		if age := now.Sub(r.LastEvent.Time); age > maxAge {
			rep.Stale = true
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("the last event is %s old (staleness.run_max_age is %s): review the run before resuming it",
				rules.AgeInDays(age), rules.AgeInDays(maxAge)))
		}
	}
	return rep
}

// addIgnored names the event files resume does not read, so a report
// never claims a state while events lie unread beside it.
func addIgnored(rep *statusReport, r *agentrun.Run) {
	src := r.Src
	for _, f := range src.PerEventFiles {
		rep.IgnoredFiles = append(rep.IgnoredFiles, f.Path)
	}
	if n := len(src.PerEventFiles); n > 0 {
		first, _ := filepath.Rel(src.Folder.OSPath, src.PerEventFiles[0].OSPath)
		more := ""
		if n > 1 {
			more = ", …"
		}
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d per-event files under events/ (%s%s) are not read: the state above leaves them out (RL504)", n, filepath.ToSlash(first), more))
	}
	for _, d := range src.Events {
		if !agentrun.InEventsDir(src, d) {
			rep.IgnoredFiles = append(rep.IgnoredFiles, d.File.Path)
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s is outside events/ and not read: the state above leaves it out (RL504)", d.File.Path))
		}
	}
	if !src.Present["task-graph.json"] && (src.Present["task-graph.yaml"] || src.Present["task-graph.yml"]) {
		rep.Warnings = append(rep.Warnings, "task-graph.yaml is not read (resume reads task-graph.json): the tasks above leave it out (RL506)")
	}
}

func label(id, title string) string {
	if title == "" {
		return id
	}
	return id + " - " + title
}

// nextActions renders seed 003 §Resume Checklist step 6 for the report.
func nextActions(rep *statusReport) []string {
	var out []string
	if rep.graphUnread {
		return []string{"Repair task-graph.json (see Warnings): without it the tasks and the phase are unknown"}
	}
	if e := rep.RunEnded; e != nil {
		return []string{fmt.Sprintf("None: the run was closed by %s at %s; nothing to resume", e.Event, e.Timestamp)}
	}
	if n := len(rep.IgnoredFiles); n > 0 {
		// The state below misses these events: acting on it could redo
		// finished work.
		out = append(out, fmt.Sprintf("First move the events of %d unread file(s) into events/<actor>/*.jsonl (see Warnings): the state above leaves them out", n))
	}
	switch rep.Phase {
	case 0:
		return []string{"Phase 0: write prd.md (the run has no PRD, plan or task graph yet)"}
	case 1:
		return []string{"Phase 1: continue the PRD/plan, or wait for its approval (no tasks in task-graph.json yet)"}
	case 3:
		return []string{"All tasks done: re-run cleanup/PR prep (phase 3), then memory consolidation (phase 4)"}
	}
	for _, t := range rep.Runnable {
		switch agentrun.State(t.State) {
		case agentrun.InProgress:
			out = append(out, "Resume "+label(t.ID, t.Title)+" (in progress)")
		case agentrun.Failed:
			out = append(out, "Retry "+label(t.ID, t.Title)+" (failed)")
		default:
			out = append(out, "Start "+label(t.ID, t.Title))
		}
	}
	if len(out) == 0 {
		out = append(out, "No task is runnable: every remaining task is blocked or waits on a task that is not done")
	}
	for _, t := range rep.Blocked {
		out = append(out, "Blocked: "+label(t.ID, t.Title))
	}
	return out
}

func writeStatusText(w io.Writer, rep *statusReport) error {
	var sb strings.Builder
	last := "none"
	if rep.LastActivity != nil {
		last = *rep.LastActivity
	}
	completed := "none"
	if lc := rep.LastCompleted; lc != nil {
		completed = label(lc.ID, lc.Title)
	}
	fmt.Fprintf(&sb, "%s\nRESUMING RUN: %s\n\nCurrent State:\n", statusRule, safeText(rep.RunID))
	fmt.Fprintf(&sb, "- Phase: %d\n- Tasks: %d/%d complete\n- Last activity: %s\n- Last completed: %s\n", rep.Phase, rep.TasksDone, rep.TasksTotal, safeText(last), safeText(completed))
	if len(rep.Warnings) > 0 {
		sb.WriteString("\nWarnings:\n")
		for _, x := range rep.Warnings {
			sb.WriteString("- " + safeText(x) + "\n")
		}
	}
	sb.WriteString("\nNext Action:\n")
	for _, a := range nextActions(rep) {
		sb.WriteString("- " + safeText(a) + "\n")
	}
	fmt.Fprintf(&sb, "\nContinuing...\n%s\n", statusRule)
	_, err := io.WriteString(w, sb.String())
	return err
}

// mermaidClasses style each state; a pending task whose dependencies are
// done is drawn as runnable.
var mermaidClasses = []string{
	"classDef done fill:#d3f9d8,stroke:#2b8a3e,color:#1b4332",
	"classDef in_progress fill:#d0ebff,stroke:#1971c2,color:#0b3a66",
	"classDef failed fill:#ffe3e3,stroke:#c92a2a,color:#5c0a0a",
	"classDef blocked fill:#fff3bf,stroke:#e67700,color:#5c3a00",
	"classDef runnable fill:#ffffff,stroke:#2b8a3e,stroke-width:3px,color:#1b4332",
	"classDef pending fill:#f1f3f5,stroke:#868e96,color:#343a40",
}

// mermaidText escapes a label for a quoted Mermaid node.
func mermaidText(s string) string { return mermaidEscaper.Replace(s) }

var mermaidEscaper = strings.NewReplacer(`"`, "#quot;", "\n", " ", "\r", " ")

func writeMermaid(w io.Writer, r *agentrun.Run, rep *statusReport) error {
	var sb strings.Builder
	sb.WriteString("flowchart TD\n")
	fmt.Fprintf(&sb, "    %%%% run %s: phase %d, %d/%d tasks complete\n", mermaidText(rep.RunID), rep.Phase, rep.TasksDone, rep.TasksTotal)
	for _, s := range rep.SkippedLines {
		fmt.Fprintf(&sb, "    %%%% skipped %s:%d (%s)\n", s.Path, s.Line, mermaidText(s.Reason))
	}
	ids := map[string]string{}
	for i, t := range r.Tasks {
		ids[t.ID] = fmt.Sprintf("t%d", i)
	}
	if len(r.Tasks) == 0 {
		sb.WriteString("    empty[\"no tasks in task-graph.json\"]:::pending\n")
	}
	for _, t := range r.Tasks {
		class := string(r.State(t.ID))
		if r.State(t.ID) == agentrun.Pending && r.IsRunnable(t) {
			class = "runnable"
		}
		fmt.Fprintf(&sb, "    %s[\"%s\"]:::%s\n", ids[t.ID], mermaidText(label(t.ID, t.Title)), class)
	}
	for _, t := range r.Tasks {
		for _, d := range t.Deps {
			if from, ok := ids[d]; ok {
				fmt.Fprintf(&sb, "    %s --> %s\n", from, ids[t.ID])
			}
		}
	}
	for _, cd := range mermaidClasses {
		sb.WriteString("    " + cd + "\n")
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// safeText is text from the run's files as status prints it: credentials
// masked as lint masks them, control characters escaped as text output
// escapes them, so a task title can neither leak a token nor forge a line.
func safeText(s string) string { return diag.Escape(rules.MaskSecrets(s)) }
