package cli

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/resumelint/resumelint/internal/report"
)

// startLSP runs `resumelint server` in dir over in-memory pipes.
func startLSP(t *testing.T, dir string) *lspClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() {
		c := &Command{Stdin: inR, Stdout: outW, Stderr: io.Discard, Cwd: dir, Getenv: func(k string) string {
			if k == "SOURCE_DATE_EPOCH" {
				return "1782000000"
			}
			return ""
		}}
		c.Main([]string{"server"})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	c := newLSPClient(t, inW, outR, nil)
	return c
}

// An editor that pulls diagnostics (Neovim 0.10+, VS Code) gets lint's
// finding from textDocument/diagnostic, linked to the page SARIF's
// helpUri names, and "unchanged" while it stays.
func TestServerPullDiagnostics(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ORCHESTRATION.yaml")
	if err := os.WriteFile(path, []byte(brokenOrchestration), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": brokenOrchestration}})
	var full struct {
		Kind, ResultID string
		Items          []struct {
			Code            string
			CodeDescription struct{ Href string }
		}
	}
	res := c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if err := json.Unmarshal(res, &full); err != nil || full.Kind != "full" || len(full.Items) != 1 || full.Items[0].Code != "RL104" {
		t.Fatalf("diagnostic: %s, want a full report with RL104", res)
	}
	if got, want := full.Items[0].CodeDescription.Href, report.HelpURI("RL104"); got != want {
		t.Errorf("codeDescription.href %q, want SARIF's helpUri %q", got, want)
	}
	var again struct{ Kind, ResultID string }
	res = c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": full.ResultID})
	if err := json.Unmarshal(res, &again); err != nil || again.Kind != "unchanged" || again.ResultID != full.ResultID {
		t.Errorf("diagnostic with previousResultId: %s, want unchanged", res)
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	for m := range c.msgs {
		if string(m["method"]) == `"textDocument/publishDiagnostics"` {
			t.Errorf("a pulling client was pushed diagnostics: %s", m["params"])
		}
	}
}
