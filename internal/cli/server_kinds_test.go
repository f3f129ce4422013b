package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The editor is told what lint says: another hook's precompact_state.json
// gets no diagnostic, while the same text where nexus keeps its state gets
// the schema's.
func TestServerSkipsAnotherSystemsFile(t *testing.T) {
	dir := t.TempDir()
	const text = "{\n  \"session_id\": \"6b0f3c1e\",\n  \"project\": \"ledger-sync\",\n  \"actions_count\": 137\n}\n"
	for _, rel := range []string{".git/HEAD", "tasks/precompact_state.json", "00-system/.cache/precompact_state.json"} {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uriOf := func(rel string) string {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(rel)))}).String()
	}
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	other, nexus := uriOf("tasks/precompact_state.json"), uriOf("00-system/.cache/precompact_state.json")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": other, "languageId": "json", "version": 1, "text": text}})
	if d := c.diagnostics(other); len(d) != 0 {
		t.Errorf("another hook's state: %+v, want no diagnostic", d)
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": nexus, "languageId": "json", "version": 1, "text": text}})
	if d := c.diagnostics(nexus); len(d) == 0 || d[0].Code != "RL301" {
		t.Errorf("nexus's state: %+v, want RL301", d)
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
}

// A bundle's files are checked as saved: while the editor holds unsaved
// changes to one, the diagnostics of the saved file stay (without their
// fixes) rather than vanishing until the next save.
func TestServerKeepsSavedDiagnosticsOfABundleFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "examples", "broken", "bundles", "site-build-0142")
	dst := filepath.Join(dir, "bundles", "site-build-0142")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dst, "STATUS.json")
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	codes := func(step string) {
		t.Helper()
		d := c.diagnostics(uri)
		if len(d) != 1 || d[0].Code != "RL403" {
			t.Errorf("%s: %+v, want the saved file's RL403", step, d)
		}
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": string(text)}})
	codes("open")
	edited := strings.Replace(string(text), "{", "{\n  ", 1)
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []map[string]any{{"text": edited}}})
	codes("unsaved change")
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
	codes("save")
	c.call("shutdown", nil)
	c.notify("exit", nil)
}
