package cli

import (
	"net/url"
	"os"
	"path/filepath"
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
