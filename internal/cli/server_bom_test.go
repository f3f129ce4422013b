package cli

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bom is the UTF-8 byte-order mark a client may send at the start of a
// text: one UTF-16 unit in its buffer, which lint strips before it counts
// columns and fix offsets.
const bom = "\uFEFF"

// A client that sends the byte-order mark gets the same findings as lint
// (RL004 among them), placed in its buffer, mark included: a column on the
// first line is counted after the mark.
func TestServerByteOrderMarkPositions(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	text := bom + `{"event_id": "CX-001", "timestamp": "2026-02-20T10:00:00Z", "trigger": "auto"}` + "\n"
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, ".jerry", "checkpoints", "cx-001.json"))}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": text}})
	var got []string
	for _, d := range c.diagnostics(uri) {
		if strings.Contains(d.Message, "event_id") {
			s, e := lineCharOffset(text, 0, d.Range.Start.Character), lineCharOffset(text, 0, d.Range.End.Character)
			got = append(got, text[s:e])
		}
	}
	if len(got) != 1 || got[0] != `"CX-001"` {
		t.Errorf("the event_id diagnostic covers %q, want the value \"CX-001\"", got)
	}
}

// The quick fixes of a text sent with its byte-order mark apply to it:
// their edits are placed in the buffer, mark included, as the findings are.
func TestServerByteOrderMarkQuickFix(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		text := bom + strings.ReplaceAll(brokenOrchestration, "\n", eol)
		uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "ORCHESTRATION.yaml"))}).String()
		c := startLSP(t, dir)
		c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
		c.notify("initialized", map[string]any{})
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
		var rl104 *testDiag
		diags := c.diagnostics(uri)
		for i := range diags {
			if diags[i].Code == "RL104" {
				rl104 = &diags[i]
			}
		}
		if rl104 == nil {
			t.Fatalf("eol %q: diagnostics %+v, want RL104", eol, diags)
		}
		fixed := ""
		for _, a := range codeActions(t, c, uri, rl104.Range) {
			if a.Kind == "quickfix" {
				fixed = applyEdits(text, a.Edit.Changes[uri])
			}
		}
		want := strings.Replace(text, `last_checkpoint: "CP-002"`, `last_checkpoint: "CP-003"`, 1)
		if fixed != want {
			t.Errorf("eol %q: the quick fix of RL104 gives\n%q\nwant\n%q", eol, fixed, want)
		}
	}
}

// lint of stdin says of a text with a byte-order mark what lint of the
// file says: RL104's fix is safe (the dry run edits the text as read,
// after the mark).
func TestLintStdinByteOrderMarkFix(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A suppression that RL004 leaves unjudged (it would be unused): the
	// dry run reads the text with its mark, as the fix writes it.
	text := bom + strings.Replace(brokenOrchestration, "  files_to_read: []", "  # resumelint:ignore RL110 -- nothing to hide here\n  files_to_read: []", 1)
	if err := os.WriteFile(filepath.Join(dir, "ORCHESTRATION.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"lint", "--format", "json", "ORCHESTRATION.yaml"},
		{"lint", "--format", "json", "--stdin-filename", "ORCHESTRATION.yaml", "-"},
	} {
		_, stdout, _ := run(t, dir, text, args...)
		var out struct {
			Findings []struct {
				Code string
				Fix  *struct{ Applicability string }
			}
		}
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stdout)
		}
		fixed := false
		for _, f := range out.Findings {
			fixed = fixed || f.Code == "RL104" && f.Fix != nil && f.Fix.Applicability == "safe"
		}
		if !fixed {
			t.Errorf("%v: %s, want RL104 with a safe fix", args, stdout)
		}
	}
}
