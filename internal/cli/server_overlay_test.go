package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/test/golden"
)

// A cross-file rule reads the editor's unsaved buffer of the file it
// looks at, not the file on disk: RL112 compares an orchestration file's
// compaction event with the checkpoint it names, and stops reporting once
// the checkpoint's open buffer holds the right event, before it is saved.
func TestServerCrossFileRuleSeesUnsavedBuffer(t *testing.T) {
	a, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", "rl112_checkpoint_other_event.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uriOf := func(rel string) string {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(rel)))}).String()
	}
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
	open(cp, "json", fixed) // edited in the editor, not saved
	c.diagnostics(cp)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": orch, "version": 2}, "contentChanges": []any{map[string]any{"text": orchText}}})
	if ds := c.diagnostics(orch); has112(ds) {
		t.Errorf("diagnostics with the checkpoint's unsaved buffer: %+v, want no RL112", ds)
	}
}
