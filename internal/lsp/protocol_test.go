package lsp

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resumelint/resumelint/docs"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// fakeEngine finds one RL104 error per document containing "lag"; Lint
// waits while block is open for a path ending in "slow.yaml".
type fakeEngine struct {
	mu     sync.Mutex
	linted []string
	block  chan struct{}
	inLint chan struct{}
}

func (e *fakeEngine) Lint(osPath string, text []byte, _ bool, _ load.Overlay) (Result, error) {
	e.mu.Lock()
	e.linted = append(e.linted, osPath)
	e.mu.Unlock()
	if strings.HasSuffix(osPath, "slow.yaml") && e.block != nil {
		e.inLint <- struct{}{}
		<-e.block
	}
	res := Result{Checked: true, Path: osPath}
	if strings.Contains(string(text), "lag") {
		res.Findings = []diag.Finding{{Code: "RL104", Name: "checkpoint-link", Severity: diag.SevError,
			Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 4}, Message: "last_checkpoint lags"}}
	}
	return res, nil
}

func (e *fakeEngine) Reload() error              { return nil }
func (e *fakeEngine) Checks(osPath string) bool  { return true }
func (e *fakeEngine) Listed(osPath string) bool  { return true }
func (e *fakeEngine) Saved(osPath string) []byte { return nil }

func (e *fakeEngine) lintedPaths() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.linted...)
}

// testClient talks to Serve over in-memory pipes.
type testClient struct {
	t    *testing.T
	c    *conn
	msgs chan *message
	done chan int
	in   io.Closer
}

func startServer(t *testing.T, eng Engine) *testClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tc := &testClient{t: t, c: newConn(outR, inW), msgs: make(chan *message, 64), done: make(chan int, 1), in: inW}
	go func() {
		tc.done <- Serve(inR, outW, io.Discard, eng, "test")
		outW.Close()
	}()
	go func() {
		defer close(tc.msgs)
		for {
			body, err := tc.c.read()
			if err != nil {
				return
			}
			var m message
			if json.Unmarshal(body, &m) == nil {
				tc.msgs <- &m
			}
		}
	}()
	t.Cleanup(func() {
		tc.in.Close()
		select {
		case <-tc.done:
		case <-time.After(20 * time.Second):
			t.Error("the server did not end within 20s of its input closing")
		}
	})
	return tc
}

func (tc *testClient) send(id int, method string, params any) {
	tc.t.Helper()
	data, _ := json.Marshal(params)
	m := &message{Method: method, Params: data}
	if id > 0 {
		m.ID = json.RawMessage(strings.TrimSpace(string(mustJSON(id))))
	}
	if err := tc.c.write(m); err != nil {
		tc.t.Fatal(err)
	}
}

func mustJSON(v any) []byte { data, _ := json.Marshal(v); return data }

// next returns the next message, failing after a generous bound.
func (tc *testClient) next() *message {
	tc.t.Helper()
	select {
	case m, ok := <-tc.msgs:
		if !ok {
			tc.t.Fatal("the server closed its output")
		}
		return m
	case <-time.After(20 * time.Second):
		tc.t.Fatal("no message from the server within 20s")
	}
	return nil
}

// answer returns the next response, failing on any other message but
// the notifications in skip.
func (tc *testClient) answer(skip ...string) *message {
	tc.t.Helper()
	for {
		m := tc.next()
		if m.Method == "" {
			return m
		}
		ok := false
		for _, s := range skip {
			ok = ok || m.Method == s
		}
		if !ok {
			tc.t.Fatalf("unexpected %s: %s", m.Method, m.Params)
		}
	}
}

func (tc *testClient) initialize(caps map[string]any) {
	tc.t.Helper()
	tc.send(1, "initialize", map[string]any{"processId": nil, "capabilities": caps})
	if m := tc.answer(); m.Error != nil || !strings.Contains(string(m.Result), `"diagnosticProvider":{"identifier":"resumelint","interFileDependencies":true,"workspaceDiagnostics":false}`) {
		tc.t.Fatalf("initialize: %s %v, want diagnosticProvider", m.Result, m.Error)
	}
	tc.send(0, "initialized", map[string]any{})
}

func openDoc(tc *testClient, uri, text string) {
	tc.send(0, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
}

type pulled struct {
	Kind, ResultID string
	Items          []diagnostic
}

// A client that pulls gets full reports, then "unchanged" while the
// diagnostics stay the same, and no publishDiagnostics; every diagnostic
// links to its rule's page.
func TestPullDiagnostics(t *testing.T) {
	tc := startServer(t, &fakeEngine{})
	tc.initialize(map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{"dynamicRegistration": false}}})
	uri := "file:///repo/ORCHESTRATION.yaml"
	openDoc(tc, uri, "lag: 1\n")
	pull := func(id int, prev string) pulled {
		t.Helper()
		tc.send(id, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}, "previousResultId": prev})
		m := tc.answer() // a publishDiagnostics here fails the test
		var p pulled
		if m.Error != nil || json.Unmarshal(m.Result, &p) != nil {
			t.Fatalf("diagnostic: %s %v", m.Result, m.Error)
		}
		return p
	}
	full := pull(2, "")
	if full.Kind != "full" || full.ResultID == "" || len(full.Items) != 1 || full.Items[0].Code != "RL104" {
		t.Fatalf("first pull: %+v, want a full report with RL104", full)
	}
	if cd := full.Items[0].CodeDescription; cd == nil || cd.Href != docs.RuleURL("RL104") {
		t.Errorf("codeDescription %+v, want href %s", cd, docs.RuleURL("RL104"))
	}
	if p := pull(3, full.ResultID); p.Kind != "unchanged" || p.ResultID != full.ResultID || p.Items != nil {
		t.Errorf("pull with the current resultId: %+v, want unchanged", p)
	}
	// The same findings after an edit elsewhere are still unchanged.
	tc.send(0, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": "lag: 1\n# note\n"}}})
	if p := pull(4, full.ResultID); p.Kind != "unchanged" {
		t.Errorf("pull after an edit that keeps the findings: %+v, want unchanged", p)
	}
	tc.send(0, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 3}, "contentChanges": []any{map[string]any{"text": "ok: 1\n"}}})
	if p := pull(5, full.ResultID); p.Kind != "full" || len(p.Items) != 0 || p.ResultID == full.ResultID {
		t.Errorf("pull after the fix: %+v, want a full empty report with a new resultId", p)
	}
	tc.send(0, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if p := pull(6, ""); p.Kind != "full" || len(p.Items) != 0 {
		t.Errorf("pull of a closed document: %+v, want a full empty report", p)
	}
}

// A client that does not pull gets publishDiagnostics, with the rule
// page's link.
func TestPushDiagnosticsLinkRulePages(t *testing.T) {
	tc := startServer(t, &fakeEngine{})
	tc.initialize(map[string]any{})
	openDoc(tc, "file:///repo/ORCHESTRATION.yaml", "lag: 1\n")
	m := tc.next()
	var p publishDiagnosticsParams
	if m.Method != "textDocument/publishDiagnostics" || json.Unmarshal(m.Params, &p) != nil || len(p.Diagnostics) != 1 {
		t.Fatalf("after didOpen: %s %s, want one pushed diagnostic", m.Method, m.Params)
	}
	if cd := p.Diagnostics[0].CodeDescription; cd == nil || cd.Href != docs.RuleURL("RL104") {
		t.Errorf("codeDescription %+v, want href %s", cd, docs.RuleURL("RL104"))
	}
}

// A document opened with a text over the message limit, as the client's
// last message, is reported as not read at once: it waits behind nothing.
// The URI is found before the text (as VS Code writes it) or after it (a
// client whose JSON objects have no key order).
func TestPushTooLargeDocumentReported(t *testing.T) {
	type item struct {
		URI        string `json:"uri"`
		LanguageID string `json:"languageId"`
		Version    int    `json:"version"`
		Text       string `json:"text"`
	}
	big := strings.Repeat("x", maxMessage+1)
	for _, doc := range []any{
		item{"file:///repo/ORCHESTRATION.yaml", "yaml", 1, big},
		map[string]any{"uri": "file:///repo/ORCHESTRATION.yaml", "languageId": "yaml", "version": 1, "text": big}, // text, then uri
	} {
		tc := startServer(t, &fakeEngine{})
		tc.initialize(map[string]any{})
		tc.send(0, "textDocument/didOpen", map[string]any{"textDocument": doc})
		m := tc.next()
		var p publishDiagnosticsParams
		if m.Method != "textDocument/publishDiagnostics" || json.Unmarshal(m.Params, &p) != nil || len(p.Diagnostics) != 1 ||
			!strings.Contains(p.Diagnostics[0].Message, "RL003") {
			t.Fatalf("after a too-large didOpen (%T): %s %.300s, want one RL003 diagnostic", doc, m.Method, m.Params)
		}
	}
	// A request too large, its id written last, is answered with an error.
	tc := startServer(t, &fakeEngine{})
	tc.initialize(map[string]any{})
	body := `{"jsonrpc":"2.0","method":"textDocument/hover","params":{"x":"` + big + `"},"id":7}`
	tc.c.mu.Lock()
	fmt.Fprintf(tc.c.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
	tc.c.mu.Unlock()
	if m := tc.answer(); string(m.ID) != "7" || m.Error == nil || m.Error.Code != codeInvalidRequest {
		t.Fatalf("a too-large request with its id last: %s %+v, want error %d for id 7", m.ID, m.Error, codeInvalidRequest)
	}
}

// $/cancelRequest answers a running request at once with
// RequestCancelled (its own answer is dropped), and a queued one too,
// whose work is then not done.
func TestCancelRequest(t *testing.T) {
	eng := &fakeEngine{block: make(chan struct{}), inLint: make(chan struct{}, 1)}
	tc := startServer(t, eng)
	tc.initialize(map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}})
	slow, other := "file:///repo/slow.yaml", "file:///repo/ORCHESTRATION.yaml"
	openDoc(tc, slow, "lag: 1\n")
	openDoc(tc, other, "lag: 1\n")
	tc.send(2, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": slow}})
	select {
	case <-eng.inLint:
	case <-time.After(20 * time.Second):
		t.Fatal("the pull did not start linting within 20s")
	}
	tc.send(3, "textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": other}})
	tc.send(0, "$/cancelRequest", map[string]any{"id": 3})
	tc.send(0, "$/cancelRequest", map[string]any{"id": 2})
	for _, want := range []string{"3", "2"} {
		m := tc.answer()
		if string(m.ID) != want || m.Error == nil || m.Error.Code != codeRequestCancelled {
			t.Fatalf("answer %s %+v, want request %s cancelled with %d", m.ID, m.Error, want, codeRequestCancelled)
		}
	}
	close(eng.block)
	// The next answer is the hover's: the cancelled ones get no second.
	tc.send(4, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": slow}, "position": map[string]any{"line": 0, "character": 0}})
	if m := tc.answer(); string(m.ID) != "4" || m.Error != nil {
		t.Fatalf("answer %s %+v %s, want the hover (4)", m.ID, m.Error, m.Result)
	}
	for _, p := range eng.lintedPaths() {
		if strings.HasSuffix(p, "ORCHESTRATION.yaml") {
			t.Errorf("linted %s for a request cancelled while queued", p)
		}
	}
	// A cancel of an answered or unknown request is ignored.
	tc.send(0, "$/cancelRequest", map[string]any{"id": 4})
	tc.send(0, "$/cancelRequest", map[string]any{"id": 99})
	tc.send(5, "shutdown", nil)
	if m := tc.answer(); string(m.ID) != "5" || m.Error != nil {
		t.Fatalf("answer %s %+v, want the shutdown's (5)", m.ID, m.Error)
	}
	tc.send(0, "exit", nil)
	select {
	case code := <-tc.done:
		tc.done <- code
		if code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20s")
	}
}
