package agentrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	schema "github.com/resumelint/resumelint/cue"
	"github.com/resumelint/resumelint/internal/load"
)

// CheckEvent must accept exactly what #Event accepts, or RL503 would call
// a line corrupt that the schema allows (or the reverse). The deliberate
// differences are the alias pair: #Event leaves both `event` and `type`
// optional, and the Go check requires one of them, agreeing if both.
func TestCheckEventMatchesCUE(t *testing.T) {
	lines := []string{
		`{"event":"task_started","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`,
		`{"type":"task_completed","task_id":"T1","timestamp":"2026-02-20T10:00:00Z","actor":"builder"}`,
		`{"event":"task_failed","task_id":"T1","timestamp":"2026-02-20","summary":"tests red","attempt":2}`,
		`{"event":"task_blocked","task_id":"","timestamp":"2026-02-20 10:00"}`,
		`{"event":"task_started","type":"task_started","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`,
		`{"event":"task_done","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`,
		`{"event":"task_started","task_id":7,"timestamp":"2026-02-20T10:00:00Z"}`,
		`{"event":"task_started","task_id":"T1"}`,
		`{"event":"task_started","timestamp":"2026-02-20T10:00:00Z"}`,
		`{"event":"task_started","task_id":"T1","timestamp":"yesterday"}`,
		`{"event":"task_started","task_id":"T1","timestamp":"2026-2-20"}`,
		`{"event":"task_started","task_id":"T1","timestamp":1771581600}`,
		`{"event":"task_started","task_id":"T1","timestamp":"2026-02-20T10:00:00Z","actor":null}`,
		`{"event":null,"task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`,
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
	for src, want := range map[string]string{
		`{"event":"task_started","type":"task_failed","task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`: "disagree",
		`{"task_id":"T1","timestamp":"2026-02-20T10:00:00Z"}`:                                             "missing required key event",
	} {
		n, _, _ := load.ParseJSON([]byte(src), 1, 0)
		if _, reason, _ := CheckEvent(n); !strings.Contains(reason, want) {
			t.Errorf("%s: got %q, want %q", src, reason, want)
		}
	}
}

// run writes a run folder and loads it as the engine does.
func run(t *testing.T, files map[string]string) *Run {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".agent-memory", "runs", "r1")
	f := &load.Folder{Kind: load.KindAgentRun, Path: ".agent-memory/runs/r1", OSPath: dir}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		f.Files = append(f.Files, &load.File{Path: f.Path + "/" + name, OSPath: p, Kind: load.KindAgentRun})
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
