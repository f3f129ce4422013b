package cli

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/resumelint/resumelint/test/golden"
)

// goldenRepo writes a golden case's files (after a shared fixture's, when
// fixture is not "") into a new repository folder; uriOf names a file of
// it as the editor does.
func goldenRepo(t *testing.T, name, fixture string) (a *txtar.Archive, dir string, uriOf func(rel string) string) {
	t.Helper()
	a, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	files := a.Files
	if fixture != "" {
		fx, err := golden.Fixture(filepath.Join("..", "..", filepath.FromSlash(golden.FixtureDir)), fixture, "")
		if err != nil {
			t.Fatal(err)
		}
		files = append(fx, files...)
	}
	dir = t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(f.Name)), string(f.Data))
	}
	uriOf = func(rel string) string {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(rel)))}).String()
	}
	return a, dir, uriOf
}

// A cross-file rule reads the editor's unsaved buffer of the file it
// looks at, not the file on disk: RL112 compares an orchestration file's
// compaction event with the checkpoint it names, and stops reporting once
// the checkpoint's open buffer holds the right event, before it is saved.
func TestServerCrossFileRuleSeesUnsavedBuffer(t *testing.T) {
	a, dir, uriOf := goldenRepo(t, "rl112_checkpoint_other_event.txtar", "")
	orch := uriOf("projects/PROJ-010-license-migration/ORCHESTRATION.yaml")
	cp := uriOf(".jerry/checkpoints/cx-001-checkpoint.json")
	orchText := archiveFile(a, "projects/PROJ-010-license-migration/ORCHESTRATION.yaml")
	cpText := archiveFile(a, ".jerry/checkpoints/cx-001-checkpoint.json")

	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	open := func(uri, lang, text string) {
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": lang, "version": 1, "text": text}})
	}
	has112 := func(ds []testDiag) bool {
		for _, d := range ds {
			if d.Code == "RL112" {
				return true
			}
		}
		return false
	}

	open(orch, "yaml", orchText)
	if ds := c.diagnostics(orch); !has112(ds) {
		t.Fatalf("diagnostics with the checkpoint on disk: %+v, want RL112", ds)
	}
	fixed := strings.Replace(cpText, `"event_id": "cx-002"`, `"event_id": "cx-001"`, 1)
	if fixed == cpText {
		t.Fatal("the checkpoint's event_id was not found")
	}
	// The workflow read the checkpoint: opening it in the editor with the
	// right event lints the workflow again, without an edit of its own.
	open(cp, "json", fixed) // edited in the editor, not saved
	if ds := c.diagnostics(orch); has112(ds) {
		t.Errorf("diagnostics with the checkpoint's unsaved buffer: %+v, want no RL112", ds)
	}
	// Its event changed back, in the editor: the workflow's RL112 returns.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": cp, "version": 2}, "contentChanges": []any{map[string]any{"text": cpText}}})
	if ds := c.diagnostics(orch); !has112(ds) {
		t.Errorf("diagnostics after the checkpoint's buffer changed back: %+v, want RL112", ds)
	}
}

// A client that pulls is asked to pull again when a file a document's
// findings read changes in the editor, and then gets the new findings.
func TestServerPullDependentRefreshed(t *testing.T) {
	a, dir, uriOf := goldenRepo(t, "rl112_checkpoint_other_event.txtar", "")
	orch := uriOf("projects/PROJ-010-license-migration/ORCHESTRATION.yaml")
	cp := uriOf(".jerry/checkpoints/cx-001-checkpoint.json")
	cpText := archiveFile(a, ".jerry/checkpoints/cx-001-checkpoint.json")
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(),
		"capabilities": map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}},
			"workspace": map[string]any{"diagnostics": map[string]any{"refreshSupport": true}}}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": orch, "languageId": "yaml", "version": 1, "text": archiveFile(a, "projects/PROJ-010-license-migration/ORCHESTRATION.yaml")}})
	pull := func(prev string) (kind, id string, codes []string) {
		var r struct {
			Kind, ResultID string
			Items          []struct{ Code string }
		}
		if err := json.Unmarshal(c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": orch}, "previousResultId": prev}), &r); err != nil {
			t.Fatal(err)
		}
		for _, it := range r.Items {
			codes = append(codes, it.Code)
		}
		return r.Kind, r.ResultID, codes
	}
	_, id, codes := pull("")
	if !slices.Contains(codes, "RL112") {
		t.Fatalf("first pull: %v, want RL112", codes)
	}
	fixed := strings.Replace(cpText, `"event_id": "cx-002"`, `"event_id": "cx-001"`, 1)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": cp, "languageId": "json", "version": 1, "text": fixed}})
	c.wait("workspace/diagnostic/refresh")
	if kind, _, codes := pull(id); kind != "full" || slices.Contains(codes, "RL112") {
		t.Errorf("pull after the checkpoint opened fixed: %s %v, want a full report without RL112", kind, codes)
	}
}

// checkpointInEditor starts a server on the RL206 golden repository with
// its unmerged checkpoint open, checked to hold RL206, and returns the
// workflow's text with a compaction event merging that checkpoint.
func checkpointInEditor(t *testing.T) (c *lspClient, cp string, uriOf func(string) string, merged string) {
	t.Helper()
	_, dir, uriOf := goldenRepo(t, "rl206_checkpoint_unreferenced.txtar", "jerry")
	wfText, err := os.ReadFile(filepath.Join(dir, "projects", "PROJ-010-license-migration", "ORCHESTRATION.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	merged = strings.Replace(string(wfText), "  compaction_events:\n    count: 1\n    events:\n",
		"  compaction_events:\n    count: 2\n    events:\n      - id: \"CX-002\"\n        timestamp: \"2026-02-16T19:05:00Z\"\n        trigger: \"auto\"\n        checkpoint_file: \".jerry/checkpoints/cx-002-checkpoint.json\"\n        acknowledged: true\n", 1)
	if merged == string(wfText) {
		t.Fatal("the workflow's compaction events were not found")
	}
	cp = uriOf(".jerry/checkpoints/cx-002-checkpoint.json")
	c = startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	cpText, _ := os.ReadFile(filepath.Join(dir, ".jerry", "checkpoints", "cx-002-checkpoint.json"))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": cp, "languageId": "json", "version": 1, "text": string(cpText)}})
	if ds := c.diagnostics(cp); !has206(ds) {
		t.Fatalf("the checkpoint alone: %+v, want RL206", ds)
	}
	return c, cp, uriOf, merged
}

func has206(ds []testDiag) bool {
	return slices.ContainsFunc(ds, func(d testDiag) bool { return d.Code == "RL206" })
}

// A checkpoint open in the editor is checked with the workflows beside it
// (RL206: merged by none of them) as the editor holds them: merging it
// into the open workflow's buffer, unsaved, clears its RL206.
func TestServerCheckpointReadsOpenWorkflow(t *testing.T) {
	c, cp, uriOf, merged := checkpointInEditor(t)
	wf := uriOf("projects/PROJ-010-license-migration/ORCHESTRATION.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": wf, "languageId": "yaml", "version": 1, "text": merged}})
	if ds := c.diagnostics(cp); has206(ds) {
		t.Errorf("with the workflow's unsaved buffer merging it: %+v, want no RL206", ds)
	}
}

// TestServerCheckpointReadsNewOpenWorkflow: a workflow the editor has open
// but that is on no disk and in no index yet (a new one) is read beside a
// checkpoint like a tracked one; opening it lints the checkpoint again,
// closing it too.
func TestServerCheckpointReadsNewOpenWorkflow(t *testing.T) {
	c, cp, uriOf, merged := checkpointInEditor(t)
	newWf := uriOf("projects/PROJ-011-relicensing/ORCHESTRATION.yaml")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": newWf, "languageId": "yaml", "version": 1, "text": merged}})
	if ds := c.diagnostics(cp); has206(ds) {
		t.Errorf("with a new workflow open that merges it: %+v, want no RL206", ds)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": newWf}})
	if ds := c.diagnostics(cp); !has206(ds) {
		t.Errorf("the new workflow closed (never saved): %+v, want RL206 again", ds)
	}
}

// A workflow open in the editor alone gets the verdict a lint of the
// repository gives: RL101 weighs the repository's other tracked workflows
// (one live one holds recovery_state), not only the open document.
func TestServerWorkflowGetsRepositoryVerdict(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	v1 := `workflow:
  id: "docs-site-20260203-001"
  status: "ACTIVE"
pipelines:
  docs:
    current_phase: 1
    phases:
      - {id: 1, name: "Outline", status: "IN_PROGRESS"}
resumption:
  last_checkpoint: null
  current_state: "Phase 1 outline in progress"
  next_step: "Finish the outline"
  files_to_read:
    - "projects/docs/ORCHESTRATION.yaml"
`
	writeFile(t, filepath.Join(dir, "projects", "docs", "ORCHESTRATION.yaml"), v1)
	writeFile(t, filepath.Join(dir, "projects", "demo", "ORCHESTRATION.yaml"), brokenOrchestration)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "base"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "projects", "docs", "ORCHESTRATION.yaml"))}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": v1}})
	ds := c.diagnostics(uri)
	if !slices.ContainsFunc(ds, func(d testDiag) bool { return d.Code == "RL101" }) {
		t.Errorf("diagnostics of the v1.0 workflow open alone: %+v, want RL101 as the repository's lint gives", ds)
	}
}

// A new workflow the editor has open but that is not saved yet may list
// itself among its files to read (jerry's workflows do: "read
// ORCHESTRATION.yaml first"): the open buffer is the file, so the path
// resolves, as it does for `resumelint lint` once the file is saved.
func TestServerNewWorkflowListsItself(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(brokenOrchestration, "  files_to_read: []\n",
		"  files_to_read:\n    - path: \"wf/ORCHESTRATION.yaml\"\n      priority: 1\n      purpose: \"This workflow's state.\"\n", 1)
	if text == brokenOrchestration {
		t.Fatal("files_to_read was not found")
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "wf", "ORCHESTRATION.yaml"))}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
	ds := c.diagnostics(uri)
	if slices.ContainsFunc(ds, func(d testDiag) bool { return d.Code == "RL113" }) {
		t.Errorf("the unsaved new workflow naming itself: %+v, want no RL113", ds)
	}
	if !slices.ContainsFunc(ds, func(d testDiag) bool { return d.Code == "RL104" }) {
		t.Errorf("diagnostics %+v, want its RL104", ds)
	}
}

// The same for a nexus project's new resume-context.md, whose
// files_to_load names itself (nexus writes it so): no RL314 while the
// editor holds it unsaved.
func TestServerNewResumeContextLoadsItself(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	planning := filepath.Join(dir, "02-projects", "07-price-alerts", "01-planning")
	writeFile(t, filepath.Join(planning, "01-overview.md"), "---\nid: 07-price-alerts\nname: Price Alerts\nstatus: IN_PROGRESS\n---\n\n# Price Alerts\n")
	const text = `---
session_id: "2b9f4c11-7e3a-4d52-a0c8-61f5e2d9b374"
resume_schema_version: "2.0"
last_updated: "2026-06-20T15:02:37Z"
project_id: "07-price-alerts"
project_name: "Price Alerts"
project_type: "build"
current_phase: "execution"
next_action: "execute-project"
files_to_load:
  - "01-planning/resume-context.md"
  - "01-planning/01-overview.md"
current_section: 1
current_task: 1
total_tasks: 0
tasks_completed: 0
---

## Progress Summary
`
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(planning, "resume-context.md"))}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
	if ds := c.diagnostics(uri); slices.ContainsFunc(ds, func(d testDiag) bool { return d.Code == "RL314" }) {
		t.Errorf("the unsaved new resume context loading itself: %+v, want no RL314", ds)
	}
}
