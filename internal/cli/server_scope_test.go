package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// A file under a nested .resumelint.yaml is checked by the server at the
// time of the lint, as in the top scope: its timestamps are not "in the
// future" of a zero clock, and lint's answer is the server's.
func TestServerNestedConfigKeepsTheClock(t *testing.T) {
	dir := t.TempDir()
	resume, err := os.ReadFile(filepath.Join("..", "..", "examples", "clean", "02-projects", "07-example-project", "01-planning", "resume-context.md"))
	if err != nil {
		t.Fatal(err)
	}
	const rel = "02-projects/07-example-project/01-planning/resume-context.md"
	for name, data := range map[string][]byte{
		".git/HEAD":                    []byte("ref: refs/heads/main\n"),
		"02-projects/.resumelint.yaml": []byte("rules:\n  RL010: warning\n"),
		rel:                            resume,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(rel)))}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	for v := 1; v <= 2; v++ { // the second lint reuses the scope's settings
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "markdown", "version": v, "text": string(resume)}})
		for _, d := range c.diagnostics(uri) {
			if d.Code == "RL008" {
				t.Errorf("lint %d: %s %s, want no RL008 under a nested configuration", v, d.Code, d.Message)
			}
		}
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
}

// Outside a git work tree the server lints from the folder the editor
// started it in, as lint run there does: a precompact_state.json in
// 00-system/.cache/ finds its project in 02-projects/ above it.
func TestServerOutsideARepositoryUsesTheWorkspace(t *testing.T) {
	dir := t.TempDir()
	const state = "{\n  \"active_project_id\": \"07-example-project\",\n  \"confidence\": \"high\",\n  \"detection_method\": \"transcript\",\n  \"timestamp\": \"2026-02-20T16:41:00Z\"\n}\n"
	resume, err := os.ReadFile(filepath.Join("..", "..", "examples", "clean", "02-projects", "07-example-project", "01-planning", "resume-context.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"00-system/.cache/precompact_state.json":                       state,
		"02-projects/07-example-project/01-planning/resume-context.md": string(resume),
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "00-system", ".cache", "precompact_state.json"))}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": state}})
	if d := c.diagnostics(uri); len(d) != 0 {
		t.Errorf("%+v, want none: the project is in 02-projects/ of the workspace", d)
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
}
