package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// brokenOrchestration has one error with a safe fix: last_checkpoint lags
// behind checkpoints.latest_id (RL104).
const brokenOrchestration = `workflow:
  id: "demo-20260220-001"
  status: "ACTIVE"
pipelines:
  main:
    phases:
      - {id: 1, name: "Research", status: "IN_PROGRESS"}
checkpoints:
  latest_id: "CP-003"
  entries:
    - {id: "CP-002", timestamp: "2026-02-20T12:00:00Z"}
    - {id: "CP-003", timestamp: "2026-02-20T20:00:00Z"}
resumption:
  recovery_state:
    last_checkpoint: "CP-002"  # set by the orchestrator
    current_phase: 1
    current_phase_name: "Research"
    workflow_status: "ACTIVE"
    current_activity: "phase-1-agent-execution"
    next_step: "Run the researcher agent"
    context_fill_at_update: null
    updated_at: "2026-02-20T21:00:00Z"
  files_to_read: []
  quality_trajectory:
    gates_completed: []
    gates_remaining: []
    current_gate: null
    current_gate_iteration: null
    score_history: {}
    lowest_dimension: null
    total_iterations_used: 0
  defect_summary:
    total_defects_found: 0
    total_defects_resolved: 0
    unresolved_defects: []
    recurring_patterns: []
    last_gate_primary_defect: null
  decision_log: []
  agent_summaries: {}
  compaction_events:
    count: 0
    events: []
`

// lspClient is a scripted LSP client talking to the server over pipes.
type lspClient struct {
	t    *testing.T
	w    io.Writer
	r    *bufio.Reader
	id   int
	msgs chan map[string]json.RawMessage
}

// newLSPClient reads the server's messages from r as they come, passing
// each body to tap (when set) before it is queued.
func newLSPClient(t *testing.T, w io.Writer, r io.Reader, tap func([]byte)) *lspClient {
	c := &lspClient{t: t, w: w, r: bufio.NewReader(r), msgs: make(chan map[string]json.RawMessage, 64)}
	go func() {
		defer close(c.msgs)
		tp := textproto.NewReader(c.r)
		for {
			h, err := tp.ReadMIMEHeader()
			if err != nil {
				return
			}
			n, _ := strconv.Atoi(h.Get("Content-Length"))
			body := make([]byte, n)
			if _, err := io.ReadFull(c.r, body); err != nil {
				return
			}
			if tap != nil {
				tap(body)
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(body, &m) == nil {
				c.msgs <- m
			}
		}
	}()
	return c
}

func (c *lspClient) send(m map[string]any) {
	c.t.Helper()
	m["jsonrpc"] = "2.0"
	data, err := json.Marshal(m)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(data), data); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

func (c *lspClient) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

// call sends a request and returns its result, skipping notifications.
func (c *lspClient) call(method string, params any) json.RawMessage {
	c.t.Helper()
	c.id++
	c.send(map[string]any{"id": c.id, "method": method, "params": params})
	for {
		m := c.next()
		if m["method"] == nil && string(m["id"]) == strconv.Itoa(c.id) {
			if m["error"] != nil {
				c.t.Fatalf("%s: error %s", method, m["error"])
			}
			return m["result"]
		}
	}
}

// next returns the next message from the server, failing after a bound.
func (c *lspClient) next() map[string]json.RawMessage {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the server closed its output")
		}
		return m
	case <-time.After(20 * time.Second):
		c.t.Fatal("no message from the server within 20s")
	}
	return nil
}

// wait returns the params of the next notification or request of method.
func (c *lspClient) wait(method string) json.RawMessage {
	c.t.Helper()
	for {
		m := c.next()
		if string(m["method"]) == strconv.Quote(method) {
			return m["params"]
		}
	}
}

type testDiag struct {
	Range struct {
		Start struct{ Line, Character int }
		End   struct{ Line, Character int }
	}
	Severity int
	Code     string
	Message  string
}

func (c *lspClient) diagnostics(uri string) []testDiag {
	c.t.Helper()
	for {
		var p struct {
			URI         string
			Diagnostics []testDiag
		}
		if err := json.Unmarshal(c.wait("textDocument/publishDiagnostics"), &p); err != nil {
			c.t.Fatal(err)
		}
		if p.URI == uri {
			return p.Diagnostics
		}
	}
}

// TestServerSession drives `resumelint server` as an editor does:
// initialize, open a broken ORCHESTRATION.yaml, read the diagnostics, ask
// for code actions, apply the fix, see the diagnostics clear, hover, reload
// the configuration, shut down and exit.
func TestServerSession(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ORCHESTRATION.yaml")
	if err := os.WriteFile(path, []byte(brokenOrchestration), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()

	c, done := startSessionServer(t, dir)
	initializeSession(t, c, dir)

	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": brokenOrchestration}})
	diags := c.diagnostics(uri)
	if len(diags) != 1 || diags[0].Code != "RL104" || diags[0].Severity != 1 || diags[0].Range.Start.Line != 14 {
		t.Fatalf("diagnostics after didOpen: %+v, want one RL104 error on line 15", diags)
	}

	var hov struct{ Contents struct{ Kind, Value string } }
	res := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 14, "character": 23}})
	if err := json.Unmarshal(res, &hov); err != nil || hov.Contents.Kind != "markdown" || !strings.Contains(hov.Contents.Value, "RL104 checkpoint-link") || !strings.Contains(hov.Contents.Value, "# RL104") {
		t.Errorf("hover: %s, want the finding and the rule page", res)
	}

	text := applyQuickFix(t, c, uri, diags[0])
	if !strings.Contains(text, `last_checkpoint: "CP-003"  # set by the orchestrator`) {
		t.Errorf("after the fix:\n%s", text)
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": text}}})
	if diags := c.diagnostics(uri); len(diags) != 0 {
		t.Errorf("diagnostics after the fix: %+v, want none", diags)
	}

	checkConfigurationReload(t, c, dir, uri)

	// A file of no known kind gets no diagnostics.
	other := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "notes.yaml"))}).String()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": other, "languageId": "yaml", "version": 1, "text": "a: [\n"}})
	if diags := c.diagnostics(other); len(diags) != 0 {
		t.Errorf("diagnostics of notes.yaml: %+v, want none", diags)
	}

	if res := c.call("shutdown", nil); string(res) != "null" {
		t.Errorf("shutdown: %s", res)
	}
	c.notify("exit", nil)
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d after shutdown and exit, want 0", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not exit within 20s")
	}
}

// startSessionServer runs `resumelint server --stdio` in dir, in process
// and over pipes, and returns a client talking to it and the channel its
// exit code arrives on. The client's side of the pipe is closed when the
// test ends, so a test that fails early does not leave the server waiting.
func startSessionServer(t *testing.T, dir string) (*lspClient, <-chan int) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		c := &Command{Stdin: inR, Stdout: outW, Stderr: io.Discard, Cwd: dir, Getenv: func(k string) string {
			if k == "SOURCE_DATE_EPOCH" {
				return "1782000000"
			}
			return ""
		}}
		done <- c.Main([]string{"server", "--stdio"})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return newLSPClient(t, inW, outR, nil), done
}

// initializeSession does the initialize handshake of an editor that
// watches files for the server: the server offers hovers and code actions
// and, once initialized, asks to watch .resumelint.yaml.
func initializeSession(t *testing.T, c *lspClient, dir string) {
	var init struct {
		Capabilities struct {
			HoverProvider      bool
			CodeActionProvider struct{ CodeActionKinds []string }
		}
	}
	res := c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(),
		"capabilities": map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}})
	if err := json.Unmarshal(res, &init); err != nil || !init.Capabilities.HoverProvider || len(init.Capabilities.CodeActionProvider.CodeActionKinds) == 0 {
		t.Fatalf("initialize: %s", res)
	}
	c.notify("initialized", map[string]any{})
	if reg := c.wait("client/registerCapability"); !strings.Contains(string(reg), ".resumelint.yaml") {
		t.Errorf("registerCapability: %s, want a watcher of .resumelint.yaml", reg)
	}
}

// applyQuickFix asks for the code actions at d, the RL104 error of
// brokenOrchestration at uri, checks that the first is its preferred quick
// fix, and returns brokenOrchestration with the fix's edits applied.
func applyQuickFix(t *testing.T, c *lspClient, uri string, d testDiag) string {
	actions := codeActions(t, c, uri, d.Range)
	if len(actions) == 0 {
		t.Fatalf("codeAction: no action at %+v", d.Range)
	}
	if a := actions[0]; a.Kind != "quickfix" || !a.IsPreferred || !strings.Contains(a.Title, "RL104") {
		t.Errorf("first action %+v, want the preferred quick fix of RL104", a)
	}
	// Apply the edits as an editor does (UTF-16 positions; the text is ASCII).
	edits := actions[0].Edit.Changes[uri]
	if len(edits) == 0 {
		t.Fatalf("the quick fix has no edit of %s", uri)
	}
	return applyEdits(brokenOrchestration, edits)
}

// testAction is a code action as the tests read it.
type testAction struct {
	Title, Kind string
	IsPreferred bool
	Edit        struct{ Changes map[string][]testEdit }
}

// testEdit is a text edit of a code action.
type testEdit struct {
	Range struct {
		Start struct{ Line, Character int }
		End   struct{ Line, Character int }
	}
	NewText string
}

// codeActions asks the server for the code actions of uri at rng.
func codeActions(t *testing.T, c *lspClient, uri string, rng any) []testAction {
	t.Helper()
	var actions []testAction
	res := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": rng,
		"context": map[string]any{"diagnostics": []any{}}})
	if err := json.Unmarshal(res, &actions); err != nil {
		t.Fatalf("codeAction: %s", res)
	}
	return actions
}

// applyEdits applies a code action's edits to text, last first, as an
// editor does (positions in UTF-16 code units, lineCharOffset).
func applyEdits(text string, edits []testEdit) string {
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		a, b := lineCharOffset(text, e.Range.Start.Line, e.Range.Start.Character), lineCharOffset(text, e.Range.End.Line, e.Range.End.Character)
		text = text[:a] + e.NewText + text[b:]
	}
	return text
}

// checkConfigurationReload puts the broken text back at uri and changes
// the repository's .resumelint.yaml under the server: a valid change
// applies to the open file, an invalid one is shown as a message.
func checkConfigurationReload(t *testing.T, c *lspClient, dir, uri string) {
	// Configuration reload: the repository makes RL104 a warning.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 3}, "contentChanges": []any{map[string]any{"text": brokenOrchestration}}})
	if diags := c.diagnostics(uri); len(diags) != 1 || diags[0].Severity != 1 {
		t.Fatalf("diagnostics of the broken text again: %+v", diags)
	}
	cfg := filepath.Join(dir, ".resumelint.yaml")
	if err := os.WriteFile(cfg, []byte("rules:\n  RL104: warning\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(cfg)}).String(), "type": 1}}})
	if diags := c.diagnostics(uri); len(diags) != 1 || diags[0].Severity != 2 {
		t.Errorf("diagnostics after the configuration changed: %+v, want one warning", diags)
	}
	// A configuration with an error is shown; the last good one stays.
	if err := os.WriteFile(cfg, []byte("rules:\n  RL999: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(cfg)}).String(), "type": 2}}})
	if msg := c.wait("window/showMessage"); !strings.Contains(string(msg), "RL999") {
		t.Errorf("showMessage %s, want the configuration error", msg)
	}
}

// lineCharOffset converts a line and UTF-16 character to a byte offset.
func lineCharOffset(text string, line, char int) int {
	off := 0
	for i := 0; i < line; i++ {
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			return len(text)
		}
		off += j + 1
	}
	for units := 0; units < char && off < len(text) && text[off] != '\n'; {
		r, size := utf8.DecodeRuneInString(text[off:])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		off += size
	}
	return off
}

// A fix `resumelint fix` refuses is neither a preferred quick fix nor part
// of source.fixAll: the v1.0 migration of this workflow is declared safe
// but would add an RL010 finding (the never-worse check turns it down).
func TestServerRefusedFixNotPreferred(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{".git", "skills/orchestration/templates"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var text string
	for _, name := range []string{"ORCHESTRATION.yaml", "skills/orchestration/templates/ORCHESTRATION.template.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata/refused-migration", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if text == "" {
			text = string(b)
		}
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, "ORCHESTRATION.yaml"))}).String()
	c := startLSP(t, dir)
	c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
	var rl101 *testDiag
	diags := c.diagnostics(uri)
	for i := range diags {
		if diags[i].Code == "RL101" {
			rl101 = &diags[i]
		}
	}
	if rl101 == nil {
		t.Fatalf("diagnostics %+v, want RL101", diags)
	}
	var actions []struct {
		Title, Kind string
		IsPreferred bool
	}
	whole := map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": strings.Count(text, "\n"), "character": 0}}
	res := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": whole,
		"context": map[string]any{"diagnostics": []any{}}})
	if err := json.Unmarshal(res, &actions); err != nil {
		t.Fatalf("codeAction: %s", res)
	}
	for _, a := range actions {
		if a.Kind == "source.fixAll.resumelint" || a.IsPreferred && strings.Contains(a.Title, "RL101") {
			t.Errorf("action %+v: `resumelint fix` refuses the migration", a)
		}
	}
}

// countingOverlay counts the calls to Paths, the list of open documents.
type countingOverlay struct{ paths int }

func (o *countingOverlay) Buffer(string) ([]byte, bool) { return nil, false }
func (o *countingOverlay) Paths() []string              { o.paths++; return nil }

// TestOnlyACheckpointListsOpenDocuments: a lint that asks for the open
// documents is linted again whenever one opens or closes; only a
// checkpoint's lint needs them (the workflows open beside it), and only a
// workflow is among them (Listed).
func TestOnlyACheckpointListsOpenDocuments(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := &lspEngine{c: &Command{Stdout: io.Discard, Stderr: io.Discard, Cwd: dir, Getenv: func(string) string { return "" }}, roots: map[string]*lspRoot{}}
	for _, c := range []struct {
		rel, text string
		lists     bool
	}{
		{"ORCHESTRATION.yaml", brokenOrchestration, false},
		{"02-projects/07-x/01-planning/resume-context.md", "---\nproject_id: \"07\"\ncurrent_phase: planning\n---\n", false},
		{".jerry/checkpoints/cx-001.json", `{"event_id": "cx-001", "timestamp": "2026-02-20T10:00:00Z", "trigger": "auto", "orchestration_state": {"workflow_id": "feat020-licmig-20260216-001"}}`, true},
	} {
		o := &countingOverlay{}
		p := filepath.Join(dir, filepath.FromSlash(c.rel))
		res, err := e.Lint(p, []byte(c.text), false, o)
		if err != nil {
			t.Fatal(err)
		}
		// What a workflow must name to concern the lint: the
		// checkpoint's file name and its workflow id.
		if want := map[bool]string{true: "cx-001.json feat020-licmig-20260216-001", false: ""}[c.lists]; strings.Join(res.Needles, " ") != want {
			t.Errorf("%s: needles %q, want %q", c.rel, res.Needles, want)
		}
		if (o.paths > 0) != c.lists {
			t.Errorf("%s: listed the open documents %d times, want listing %v", c.rel, o.paths, c.lists)
		}
		if got, want := e.Listed(p), c.rel == "ORCHESTRATION.yaml"; got != want {
			t.Errorf("Listed(%s) = %v, want %v", c.rel, got, want)
		}
	}
}
