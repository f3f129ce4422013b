package load

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

func TestLoadBundle(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "b", "STATUS.json"), "{\"status\": \"success\", \"cmp01\": \"pass\"}\n")
	writeFile(t, filepath.Join(dir, "b", "OUTPUT_HASHES.json"), "{\"hashes\": {\n  \"out/a.txt\": \"sha256:00\",\n  \"out/a.txt\": \"sha256:11\"}}\n")
	writeFile(t, filepath.Join(dir, "b", "out", "a.txt"), "a\n")
	if err := os.Mkdir(filepath.Join(dir, "b", "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := discoverQuick(t, []string{"b"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if len(d.Folders) != 1 || d.Folders[0].Kind != KindBundle {
		t.Fatalf("discovered %q", discovered(d))
	}
	b, probs := LoadBundle(d.Folders[0], DefaultLimits)
	// TASK_SPEC.json is missing: no entry (RL401 reports it); the others
	// are parsed with display paths inside the folder.
	if _, ok := b.Artifacts["TASK_SPEC.json"]; ok {
		t.Error("a missing artifact has an entry")
	}
	for _, name := range []string{"STATUS.json", "OUTPUT_HASHES.json"} {
		a := b.Artifacts[name]
		if a == nil || a.Root == nil || a.File.Path != "b/"+name || a.File.Kind != KindBundle {
			t.Errorf("%s: %+v", name, a)
		}
	}
	if len(probs) != 1 || probs[0].Code != "RL002" || probs[0].Path != "b/OUTPUT_HASHES.json" || probs[0].Start.Line != 3 {
		t.Errorf("probs = %s", codesOf(probs))
	}
	entries := append([]string(nil), b.Entries...)
	sort.Strings(entries)
	if want := []string{"OUTPUT_HASHES.json", "STATUS.json", "logs/", "out/"}; !reflect.DeepEqual(entries, want) {
		t.Errorf("entries = %q, want %q", entries, want)
	}

	// An artifact that does not parse has a Document without a root.
	writeFile(t, filepath.Join(dir, "b", "TASK_SPEC.json"), "{\"task_id\": }\n")
	b, probs = LoadBundle(d.Folders[0], DefaultLimits)
	if a := b.Artifacts["TASK_SPEC.json"]; a == nil || a.Root != nil {
		t.Errorf("unparsable TASK_SPEC.json: %+v", a)
	}
	if len(probs) != 2 || probs[0].Code != "RL001" || probs[0].Path != "b/TASK_SPEC.json" {
		t.Errorf("probs = %s", codesOf(probs))
	}
}

func TestLoadAgentRun(t *testing.T) {
	dir := t.TempDir()
	run := ".agent-memory/runs/2026-02-20-001/"
	tree(t, dir, run+"plan.md")
	writeFile(t, filepath.Join(dir, filepath.FromSlash(run+"task-graph.json")), "{\"tasks\": [{\"id\": \"T1\"}]}\n")
	writeFile(t, filepath.Join(dir, filepath.FromSlash(run+"events/zeta/1.jsonl")), "{\"event\": \"task_started\", \"task_id\": \"T1\"}\n")
	writeFile(t, filepath.Join(dir, filepath.FromSlash(run+"events/alpha/2.jsonl")), "not json\n{\"event\": \"task_completed\", \"task_id\": \"T1\"}\n")
	writeFile(t, filepath.Join(dir, filepath.FromSlash(run+"notes.txt")), "free text\n")
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if len(d.Folders) != 1 || d.Folders[0].Kind != KindAgentRun {
		t.Fatalf("discovered %q", discovered(d))
	}
	r, probs := LoadAgentRun(d.Folders[0], DefaultLimits)
	if len(probs) != 0 {
		t.Errorf("probs = %s", codesOf(probs))
	}
	if r.ID != "2026-02-20-001" || r.TaskGraph == nil || r.TaskGraph.Root == nil || r.TaskGraph.File.Path != run+"task-graph.json" {
		t.Errorf("run %q task graph %+v", r.ID, r.TaskGraph)
	}
	if !r.Present["plan.md"] || !r.Present["events"] || r.Present["prd.md"] {
		t.Errorf("present = %v", r.Present)
	}
	// Events files in path order, each line parsed on its own.
	var paths []string
	for _, e := range r.Events {
		paths = append(paths, e.File.Path)
	}
	if want := []string{run + "events/alpha/2.jsonl", run + "events/zeta/1.jsonl"}; !reflect.DeepEqual(paths, want) {
		t.Fatalf("events = %q, want %q", paths, want)
	}
	if l := r.Events[0].Lines; len(l) != 2 || l[0].Err == nil || l[1].Node == nil || l[1].Line != 2 {
		t.Errorf("alpha lines = %+v", l)
	}

	// No task graph: nil, not an error.
	if err := os.Remove(filepath.Join(dir, filepath.FromSlash(run+"task-graph.json"))); err != nil {
		t.Fatal(err)
	}
	d = discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	r, _ = LoadAgentRun(d.Folders[0], DefaultLimits)
	if r.TaskGraph != nil {
		t.Errorf("task graph %+v", r.TaskGraph)
	}
}
