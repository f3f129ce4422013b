package agentrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/schema"
)

// CheckEvent must accept exactly what #Event accepts, or RL503 would call
// a line corrupt that the schema allows (or the reverse), except for what
// #Event leaves to Go (see goOnly below).
func TestCheckEventMatchesCUE(t *testing.T) {
	lines := []string{
		`{"event":"task_started","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`,
		`{"type":"task_completed","task_id":"T1","timestamp":"2026-02-20T10:00:00Z","actor":"builder"}`,
		`{"event_type":"task-verified","event_id":"evt-4","run_id":"r1","task_id":"T1","timestamp":"2026-02-20T10:00:00Z","actor":"verifier","details":{"all_passed":true}}`,
		`{"event_type":"run-started","event_id":"evt-1","run_id":"r1","timestamp":"2026-02-20T09:00:00Z","actor":"orchestrator","details":{}}`,
		`{"type":"plan_created","run_id":"r1","timestamp":"2026-02-20T09:30:00Z","actor":"agentic-planner","artifact":"plan.md"}`,
		`{"event_type":"phase-completed","task_id":null,"timestamp":"2026-02-20T09:40:00Z"}`,
		`{"event":"task_failed","task_id":"T1","timestamp":"2026-02-20","summary":"tests red","attempt":2}`,
		`{"event":"task_blocked","task_id":"","timestamp":"2026-02-20 10:00"}`,
		`{"event":"task_started","type":"task_started","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`,
		`{"type":"task-started","event_type":"task_started","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`,
		`{"event":"task_started","task_id":7,"timestamp":"2026-02-20T10:00:00Z"}`,
		`{"event":"task_started","task_id":"T1"}`,
		`{"event":"task_started","task_id":"T1","timestamp":"yesterday"}`,
		`{"event":"task_started","task_id":"T1","timestamp":"2026-2-20"}`,
		`{"event":"task_started","task_id":"T1","timestamp":1771581600}`,
		`{"event":"task_started","task_id":"T1","timestamp":"2026-02-20T10:00:00Z","actor":null}`,
		`{"event":null,"task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`,
		`{"event_type":3,"timestamp":"2026-02-20T10:00:00Z"}`,
		`["task_started","T1"]`,
		`"task_started"`,
		`42`,
		`null`,
		`{}`,
	}
	for _, src := range lines {
		n, _, err := load.ParseJSON([]byte(src), 1, 0)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		_, reason, _ := CheckEvent(n)
		vs, err := schema.Validate("#Event", n, schema.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if (reason == "") != (len(vs) == 0) {
			t.Errorf("%s: Go check says %q, CUE says %d violations %v", src, reason, len(vs), vs)
		}
	}
	// What #Event leaves to Go: CUE accepts these, CheckEvent does not.
	goOnly := map[string]string{
		`{"event":"task_started","type":"task_failed","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`: "disagree",
		`{"task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`:                                             "missing the event name",
		`{"event":"task_started","timestamp":"2026-02-20T10:00:00Z"}`:                                     "missing task_id",
		`{"event_type":"task-completed","task_id":null,"timestamp":"2026-02-20T10:00:00Z"}`:               "missing task_id",
		`{"event":"task_done","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`:                         "not a task-lifecycle event",
		`{"event":"","timestamp":"2026-02-20T10:00:00Z"}`:                                                 "empty",
	}
	for src, want := range goOnly {
		n, _, _ := load.ParseJSON([]byte(src), 1, 0)
		if _, reason, _ := CheckEvent(n); !strings.Contains(reason, want) {
			t.Errorf("%s: got %q, want %q", src, reason, want)
		}
		if vs, _ := schema.Validate("#Event", n, schema.Options{}); len(vs) != 0 {
			t.Errorf("%s: CUE reports %v; move it to the shared cases", src, vs)
		}
	}
}

// The documented mapping of event names onto seed 003's states
// (docs/status.md), in both spellings, and names that set no state.
func TestStateOf(t *testing.T) {
	for _, c := range []struct {
		name string
		want State
	}{
		{"task_started", InProgress},
		{"task_completed", Done},
		{"task_failed", Failed},
		{"task_blocked", Blocked},
		{"task-started", InProgress},
		{"task-completed", Done},
		{"task-failed", Failed},
		{"task-blocked", Blocked},
		{"task-created", Pending},
		{"task-ready", Pending},
		{"task-claimed", InProgress},
		{"task-implemented", InProgress},
		{"task-verified", Done},
		{"task-verification-failed", Failed},
		{"task_verification_failed", Failed},
		{"task-failure", Failed},
		{"run-started", ""},
		{"run-completed", ""},
		{"phase-completed", ""},
		{"phase_transition", ""},
		{"task_graph_created", ""},
		{"escalation", ""},
		{"Task-Completed", ""}, // names are case-sensitive, as the writers spell them
	} {
		if got := StateOf(c.name); got != c.want {
			t.Errorf("StateOf(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestActorMatches(t *testing.T) {
	for _, c := range []struct {
		actor, folder string
		want          bool
	}{
		{"executor", "executor", true},
		{"agentic-executor", "executor", true},
		{"executor", "agentic-executor", true},
		{"agentic-task-breaker", "task-breaker", true},
		{"Verifier", "verifier", true},
		{"reviewer", "planner", false},
		{"agentic-verifier", "executor", false},
		{"breaker", "task-breaker", true},
		{"xexecutor", "executor", false},
	} {
		if got := ActorMatches(c.actor, c.folder); got != c.want {
			t.Errorf("ActorMatches(%q, %q) = %v, want %v", c.actor, c.folder, got, c.want)
		}
	}
}

// run writes a run folder and loads it as the engine does.
func run(t *testing.T, files map[string]string) *Run {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".agent-memory", "runs", "r1")
	f := &load.Folder{Kind: load.KindAgentRun, Path: ".agent-memory/runs/r1", OSPath: dir, Root: dir}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		f.Files = append(f.Files, &load.File{Path: f.Path + "/" + name, OSPath: p, Kind: load.KindAgentRun, Root: dir})
	}
	ar, _ := load.LoadAgentRun(f, load.DefaultLimits)
	return Derive(ar)
}

const graph = `{"tasks": [
 {"id": "T1", "title": "Schema"},
 {"id": "T2", "title": "Loader", "depends_on": ["T1"]},
 {"id": "T3", "title": "Rules", "depends_on": ["T1"]},
 {"id": "T4", "title": "Docs", "dependencies": ["T2", "T3"]},
 {"id": "T5", "title": "Release", "depends_on": ["T4"]}
]}`

func ids(ts []*Task) string {
	var s []string
	for _, t := range ts {
		s = append(s, t.ID)
	}
	return strings.Join(s, ",")
}

func TestDerive(t *testing.T) {
	r := run(t, map[string]string{
		"prd.md":          "# PRD\n",
		"plan.md":         "# Plan\n",
		"task-graph.json": graph,
		// Out of order across files: timestamps decide, not file names.
		"events/alice/001.jsonl": `{"event":"task_started","task_id":"T1","timestamp":"2026-06-01T09:00:00Z"}
{"event":"task_completed","task_id":"T1","timestamp":"2026-06-01T10:00:00Z"}
{"event":"task_started","task_id":"T3","timestamp":"2026-06-01T12:00:00Z"}
not json
`,
		"events/bob/001.jsonl": `{"type":"task_started","task_id":"T2","timestamp":"2026-06-01T11:00:00Z"}
{"type":"task_failed","task_id":"T2","timestamp":"2026-06-01T11:30:00Z"}
{"type":"task_started","task_id":"T1","timestamp":"2026-06-01T11:40:00Z"}
`,
	})
	want := map[string]State{"T1": Done, "T2": Failed, "T3": InProgress, "T4": Pending, "T5": Pending}
	for id, s := range want {
		if got := r.State(id); got != s {
			t.Errorf("%s: state %s, want %s", id, got, s)
		}
	}
	if got := ids(r.Runnable()); got != "T2,T3" {
		t.Errorf("runnable %s, want T2,T3 (failed and in-progress tasks with done dependencies)", got)
	}
	if d, n := r.Count(); d != 1 || n != 5 {
		t.Errorf("count %d/%d", d, n)
	}
	if r.Phase() != 2 || r.Complete() {
		t.Errorf("phase %d complete %v", r.Phase(), r.Complete())
	}
	if len(r.Skipped) != 1 || r.Skipped[0].Line != 4 {
		t.Errorf("skipped %+v", r.Skipped)
	}
	if r.LastCompleted == nil || r.LastCompleted.TaskID != "T1" || r.LastEvent.Timestamp != "2026-06-01T12:00:00Z" {
		t.Errorf("last completed %+v, last event %+v", r.LastCompleted, r.LastEvent)
	}
}

func TestDeriveTiesAndBlocked(t *testing.T) {
	r := run(t, map[string]string{
		"plan.md":         "# Plan\n",
		"task-graph.json": graph,
		// Same timestamp: file order decides, so T1 ends done.
		"events/a/1.jsonl": `{"event":"task_started","task_id":"T1","timestamp":"2026-06-01T09:00:00Z"}
{"event":"task_completed","task_id":"T1","timestamp":"2026-06-01T09:00:00Z"}
{"event":"task_blocked","task_id":"T2","timestamp":"2026-06-01T09:00:00Z"}
`,
	})
	if r.State("T1") != Done || r.State("T2") != Blocked {
		t.Fatalf("states %v", r.States)
	}
	if got := ids(r.Runnable()); got != "T3" {
		t.Errorf("runnable %s, want T3 (T2 blocked)", got)
	}
}

func TestPhase(t *testing.T) {
	if p := run(t, map[string]string{"constitution.md": "x"}).Phase(); p != 0 {
		t.Errorf("no prd: phase %d", p)
	}
	if p := run(t, map[string]string{"prd.md": "x"}).Phase(); p != 1 {
		t.Errorf("prd only: phase %d", p)
	}
	done := run(t, map[string]string{"plan.md": "x", "task-graph.json": `{"tasks":[{"id":"a"}]}`,
		"events/x/1.jsonl": `{"event":"task_completed","task_id":"a","timestamp":"2026-06-01T09:00:00Z"}` + "\n"})
	if done.Phase() != 3 || !done.Complete() {
		t.Errorf("all done: phase %d", done.Phase())
	}
}

func TestEventsOutsideEventsDirDoNotCount(t *testing.T) {
	r := run(t, map[string]string{
		"task-graph.json": `{"tasks":[{"id":"a"}]}`,
		"log.jsonl":       `{"event":"task_completed","task_id":"a","timestamp":"2026-06-01T09:00:00Z"}` + "\n",
	})
	if r.State("a") != Pending {
		t.Errorf("state %s", r.State("a"))
	}
}

// A run as the agent packs write it: event_type, kebab-case, the longer
// lifecycle, run-level events and payload keys.
func TestDerivePackLifecycle(t *testing.T) {
	ev := func(typ, task, ts, actor string) string {
		tid := ""
		if task != "" {
			tid = `"task_id":"` + task + `",`
		}
		return `{"event_type":"` + typ + `","event_id":"evt-` + ts[11:13] + ts[14:16] + `","timestamp":"` + ts + `","run_id":"20260615-0930-x-k7q2","actor":"` + actor + `",` + tid + `"details":{}}` + "\n"
	}
	r := run(t, map[string]string{
		"plan.md":         "# Plan\n",
		"task-graph.json": graph,
		"events/orchestrator/20260601-090000.jsonl": ev("run-started", "", "2026-06-01T09:00:00Z", "orchestrator") +
			ev("phase-completed", "", "2026-06-01T09:30:00Z", "orchestrator") +
			ev("task-ready", "T1", "2026-06-01T09:31:00Z", "orchestrator") +
			ev("task-completed", "T1", "2026-06-01T10:30:00Z", "orchestrator") +
			ev("task-ready", "T2", "2026-06-01T10:31:00Z", "orchestrator") +
			ev("checkpoint-created", "", "2026-06-01T13:00:00Z", "orchestrator"),
		"events/task-breaker/20260601-091000.jsonl": ev("task-created", "T1", "2026-06-01T09:10:00Z", "agentic-task-breaker") +
			ev("task-created", "T2", "2026-06-01T09:10:01Z", "agentic-task-breaker") +
			ev("task-created", "T3", "2026-06-01T09:10:02Z", "agentic-task-breaker"),
		"events/executor/20260601-094000.jsonl": ev("task-claimed", "T1", "2026-06-01T09:40:00Z", "executor") +
			ev("task-implemented", "T1", "2026-06-01T10:00:00Z", "executor") +
			ev("task-claimed", "T2", "2026-06-01T10:40:00Z", "executor") +
			ev("task-implemented", "T2", "2026-06-01T11:00:00Z", "executor") +
			ev("task-claimed", "T3", "2026-06-01T11:10:00Z", "executor") +
			ev("task-blocked", "T3", "2026-06-01T11:20:00Z", "executor"),
		"events/verifier/20260601-101000.jsonl": ev("task-verified", "T1", "2026-06-01T10:10:00Z", "verifier") +
			ev("task-verification-failed", "T2", "2026-06-01T11:30:00Z", "verifier"),
	})
	if len(r.Skipped) != 0 {
		t.Fatalf("skipped %+v", r.Skipped)
	}
	want := map[string]State{"T1": Done, "T2": Failed, "T3": Blocked, "T4": Pending, "T5": Pending}
	for id, s := range want {
		if got := r.State(id); got != s {
			t.Errorf("%s: state %s, want %s", id, got, s)
		}
	}
	if got := ids(r.Runnable()); got != "T2" {
		t.Errorf("runnable %s, want T2 (failed verification: retried)", got)
	}
	// Done at task-verified; task-completed after it changes nothing.
	if lc := r.LastCompleted; lc == nil || lc.TaskID != "T1" || lc.Name != "task-verified" {
		t.Errorf("last completed %+v", lc)
	}
	// A run-level event is activity, though it sets no task state.
	if r.LastEvent == nil || r.LastEvent.Name != "checkpoint-created" || r.LastEvent.State != "" {
		t.Errorf("last event %+v", r.LastEvent)
	}
	if r.Finished() || r.Ended != nil {
		t.Errorf("finished %v, ended %+v", r.Finished(), r.Ended)
	}
}

func TestRunLifecycleEvents(t *testing.T) {
	base := map[string]string{"plan.md": "x", "task-graph.json": graph}
	with := func(lines string) *Run {
		files := map[string]string{"events/orchestrator/1.jsonl": lines}
		for k, v := range base {
			files[k] = v
		}
		return run(t, files)
	}
	cancelled := with(`{"event_type":"run-started","timestamp":"2026-06-01T09:00:00Z"}
{"event_type":"run-cancelled","timestamp":"2026-06-02T09:00:00Z","details":{"reason":"superseded"}}
`)
	if !cancelled.Finished() || cancelled.Ended == nil || cancelled.Ended.Name != "run-cancelled" || cancelled.Complete() {
		t.Errorf("cancelled run: finished %v ended %+v", cancelled.Finished(), cancelled.Ended)
	}
	reopened := with(`{"event_type":"run-failed","timestamp":"2026-06-01T09:00:00Z"}
{"event_type":"session-resumed","timestamp":"2026-06-02T09:00:00Z"}
`)
	if reopened.Finished() || reopened.Ended != nil {
		t.Errorf("reopened run: finished %v ended %+v", reopened.Finished(), reopened.Ended)
	}
}

// Events in the older one-file-per-event layout are listed, never read.
func TestPerEventFilesAreNotRead(t *testing.T) {
	r := run(t, map[string]string{
		"task-graph.json": `{"tasks":[{"id":"T001"}]}`,
		"events/2026-06-01T10-00-00Z-task-completed-T001.yaml": "event_type: task-completed\ntask_id: T001\ntimestamp: 2026-06-01T10:00:00Z\n",
		"events/0002-run-started.yml":                          "event_type: run-started\n",
		"events/notes.md":                                      "x",
	})
	if r.State("T001") != Pending || len(r.Events) != 0 {
		t.Errorf("state %s, %d events", r.State("T001"), len(r.Events))
	}
	if n := len(r.Src.PerEventFiles); n != 2 {
		t.Errorf("%d per-event files, want 2", n)
	}
}

// A graph with an entry of the wrong shape is not one an unknown id can
// be judged against (RL501 reports it; RL505 stays silent).
func TestGraphOK(t *testing.T) {
	if r := run(t, map[string]string{"task-graph.json": graph}); !r.GraphOK || r.BadTasks != 0 {
		t.Errorf("good graph: ok %v bad %d", r.GraphOK, r.BadTasks)
	}
	r := run(t, map[string]string{"task-graph.json": `{"tasks":[{"id":"T1"},{"id":4}]}`})
	if r.GraphOK || r.BadTasks != 1 || len(r.Tasks) != 1 {
		t.Errorf("bad entry: ok %v bad %d tasks %d", r.GraphOK, r.BadTasks, len(r.Tasks))
	}
	if r := run(t, map[string]string{"task-graph.json": `{"tasks":{"T1":{}}}`}); r.GraphOK {
		t.Errorf("tasks as a map: ok")
	}
}
