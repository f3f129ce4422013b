package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/load"
)

// overlayEngine keeps what each lint was handed for other documents.
type overlayEngine struct {
	fakeEngine
	last  load.Overlay
	lints int
}

func (e *overlayEngine) Lint(osPath string, text []byte, saved bool, open load.Overlay) (Result, error) {
	e.last, e.lints = open, e.lints+1
	return Result{Checked: true, Path: osPath}, nil
}

func newTestServer(eng Engine) *server {
	s := &server{c: newConn(nil, io.Discard), eng: eng, log: io.Discard, version: "test",
		docs: map[string]*document{}, open: map[string][]*document{}, init: true}
	return s
}

func call(t testing.TB, s *server, method string, params any) {
	t.Helper()
	data, _ := json.Marshal(params)
	if err := s.handle(&message{Method: method, Params: data}); err != nil {
		t.Fatal(err)
	}
	s.publishWhenIdle(true) // as the handler does once no message waits
}

func openDocAt(t testing.TB, s *server, uri, text string) {
	call(t, s, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": text}})
}

func changeDocAt(t testing.TB, s *server, uri, text string) {
	call(t, s, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": text}}})
}

// TestOpenBuffers: a lint sees the open documents' current texts, its
// own included (a file it reads may be itself), and not those closed.
func TestOpenBuffers(t *testing.T) {
	eng := &overlayEngine{}
	s := newTestServer(eng)
	openDocAt(t, s, "file:///r/a.yaml", "a1")
	openDocAt(t, s, "file:///r/b.yaml", "b1")
	changeDocAt(t, s, "file:///r/a.yaml", "a2")
	changeDocAt(t, s, "file:///r/b.yaml", "b2")
	look := func(p string) string {
		data, ok := eng.last.Buffer(p)
		if !ok {
			return "-"
		}
		return string(data)
	}
	if got := look("/r/a.yaml") + " " + look("/r/b.yaml"); got != "a2 b2" {
		t.Errorf("linting b: %s, want a2 b2", got)
	}
	// A second URI for a.yaml stands for it while open.
	openDocAt(t, s, "file:///r/./a.yaml", "a3")
	changeDocAt(t, s, "file:///r/b.yaml", "b3")
	if got := look("/r/a.yaml"); got != "a3" {
		t.Errorf("a.yaml opened twice: %s, want a3", got)
	}
	call(t, s, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///r/./a.yaml"}})
	changeDocAt(t, s, "file:///r/b.yaml", "b4")
	if got := look("/r/a.yaml"); got != "a2" {
		t.Errorf("after closing the second: %s, want a2", got)
	}
	call(t, s, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///r/a.yaml"}})
	changeDocAt(t, s, "file:///r/b.yaml", "b5")
	if got := look("/r/a.yaml"); got != "-" || len(s.open) != 1 {
		t.Errorf("after closing a: %s, %d paths indexed", got, len(s.open))
	}
}

// bytesPerChange is what one didChange allocates, on average.
func bytesPerChange(t testing.TB, s *server, uri string) uint64 {
	const n = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range n {
		changeDocAt(t, s, uri, fmt.Sprintf("text %d", i))
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / n
}

// TestLintCostsNothingPerOpenDocument: a didChange with 4,000 other
// documents open allocates what it does with 10 (the open documents
// are indexed as they open, not gathered for each lint).
func TestLintCostsNothingPerOpenDocument(t *testing.T) {
	measure := func(others int) uint64 {
		s := newTestServer(&overlayEngine{})
		for i := range others {
			openDocAt(t, s, fmt.Sprintf("file:///r/w%05d/ORCHESTRATION.yaml", i), "x")
		}
		openDocAt(t, s, "file:///r/me.yaml", "me")
		return bytesPerChange(t, s, "file:///r/me.yaml")
	}
	few, many := measure(10), measure(4000)
	if many > few+16<<10 {
		t.Errorf("a didChange allocates %d bytes with 4000 documents open, %d with 10", many, few)
	}
}

func benchOpen(b *testing.B, n int) {
	for range b.N {
		s := newTestServer(&overlayEngine{})
		for i := range n {
			openDocAt(b, s, fmt.Sprintf("file:///r/w%05d/ORCHESTRATION.yaml", i), "x")
		}
	}
}

// BenchmarkOpenDocuments: N and 4N documents opened, each linted.
func BenchmarkOpenDocuments(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchOpen(b, n) })
	}
}

// The open documents keep at most maxHeld of text together: the one that
// would take them past it is reported as not read, its text not kept,
// until the editor sends it whole again with room for it.
func TestOpenDocumentsAreBoundedTogether(t *testing.T) {
	defer func(m int) { maxHeld = m }(maxHeld)
	maxHeld = 100
	s := newTestServer(&overlayEngine{})
	text := func(c byte) string { return string(bytes.Repeat([]byte{c}, 60)) }
	openDocAt(t, s, "file:///r/a.yaml", text('a'))
	openDocAt(t, s, "file:///r/b.yaml", text('b'))
	a, b := s.docs["file:///r/a.yaml"], s.docs["file:///r/b.yaml"]
	if string(a.text) != text('a') || b.text != nil || !b.tooLarge || s.held != 60 {
		t.Fatalf("a %q, b %q (too large %v), held %d: want a kept, b not", a.text, b.text, b.tooLarge, s.held)
	}
	if len(b.diags) != 1 || !strings.Contains(b.diags[0].Message, "the open documents hold more than") {
		t.Errorf("b's diagnostics %+v, want one saying it was not read", b.diags)
	}
	call(t, s, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///r/a.yaml"}})
	changeDocAt(t, s, "file:///r/b.yaml", text('B'))
	if string(b.text) != text('B') || b.tooLarge || s.held != 60 {
		t.Errorf("after a closed and b sent again: b %q (too large %v), held %d", b.text, b.tooLarge, s.held)
	}
}

// A push client's burst of edits is linted once, for the last text, once
// no message waits; a client that never stops sending still gets its
// diagnostics after maxPublishWait messages.
func TestPushedChangesLintedOnce(t *testing.T) {
	eng := &fakeEngine{}
	s := newTestServer(eng)
	var out bytes.Buffer
	s.c = newConn(nil, &out)
	busy := func(method string, params any) {
		data, _ := json.Marshal(params)
		if err := s.handle(&message{Method: method, Params: data}); err != nil {
			t.Fatal(err)
		}
		s.publishWhenIdle(false) // more messages wait
	}
	busy("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": "file:///r/a.yaml", "version": 1, "text": "a"}})
	for v := 2; v <= 10; v++ {
		busy("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///r/a.yaml", "version": v},
			"contentChanges": []any{map[string]any{"text": fmt.Sprintf("lag %d", v)}}})
	}
	if n := len(eng.lintedPaths()); n != 0 {
		t.Fatalf("linted %d times while messages waited", n)
	}
	s.publishWhenIdle(true)
	if got := eng.lintedPaths(); len(got) != 1 {
		t.Fatalf("linted %v, want once", got)
	}
	if pub := out.String(); strings.Count(pub, "publishDiagnostics") != 1 || !strings.Contains(pub, `"version":10`) || !strings.Contains(pub, "lags") {
		t.Fatalf("published %s, want one report of version 10 with its finding", pub)
	}
	// A client that never lets the queue empty.
	for v := 11; v < 11+maxPublishWait; v++ {
		busy("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///r/a.yaml", "version": v},
			"contentChanges": []any{map[string]any{"text": "ok"}}})
	}
	if got := eng.lintedPaths(); len(got) != 2 {
		t.Fatalf("linted %d times after %d waiting messages, want twice", len(got), maxPublishWait)
	}
	// A document closed before its turn is not reported after its clearing.
	busy("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": "file:///r/a.yaml", "version": 40},
		"contentChanges": []any{map[string]any{"text": "lag"}}})
	busy("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///r/a.yaml"}})
	out.Reset()
	s.publishWhenIdle(true)
	if got := eng.lintedPaths(); len(got) != 2 || out.Len() != 0 {
		t.Fatalf("a closed document was linted (%d lints) or reported: %s", len(got), out.String())
	}
}

// listingEngine is a fakeEngine whose lint of a ".json" document (a
// checkpoint) asks for the open documents, and for which only workflows
// are in that list (Listed).
type listingEngine struct {
	fakeEngine
	saved map[string]string // what Saved reads, by path
}

func (e *listingEngine) Lint(osPath string, text []byte, saved bool, open load.Overlay) (Result, error) {
	res, err := e.fakeEngine.Lint(osPath, text, saved, open)
	if o, ok := open.(interface{ Paths() []string }); ok && strings.HasSuffix(osPath, ".json") {
		o.Paths()
		// The workflows the repository tracks are read too, open or not.
		for p := range e.saved {
			open.Buffer(p)
		}
		res.Needles = []string{"cx-001.json", "feat020-licmig-20260216-001"}
	}
	return res, err
}

func (e *listingEngine) Saved(osPath string) []byte {
	if s, ok := e.saved[osPath]; ok {
		return []byte(s)
	}
	return nil
}

func (e *listingEngine) Listed(osPath string) bool {
	return strings.HasSuffix(osPath, "ORCHESTRATION.yaml")
}

// Opening or closing a document lints again only the documents whose lint
// listed the open ones, and only when the document is one they list: N
// opens of other files cost N lints, not N².
func TestOpeningRelintsOnlyListers(t *testing.T) {
	eng := &listingEngine{saved: map[string]string{
		"/r/tracked/ORCHESTRATION.yaml": "workflow: {id: billing-20260301-001}\n",
		"/r/named/ORCHESTRATION.yaml":   "workflow: {id: feat020-licmig-20260216-001}\n",
	}}
	s := newTestServer(eng)
	var out bytes.Buffer
	s.c = newConn(nil, &out)
	do := func(method string, params any) []string {
		data, _ := json.Marshal(params)
		before := len(eng.lintedPaths())
		if err := s.handle(&message{Method: method, Params: data}); err != nil {
			t.Fatal(err)
		}
		s.publishWhenIdle(true)
		return eng.lintedPaths()[before:]
	}
	openText := func(uri, text string) []string {
		return do("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": text}})
	}
	openDoc := func(uri string) []string { return openText(uri, "x") }
	openDoc("file:///r/.jerry/checkpoints/cx-001.json")
	for i := range 3 {
		if got := openDoc(fmt.Sprintf("file:///r/p%d/resume-context.md", i)); len(got) != 1 {
			t.Errorf("opening a file no lint lists linted %v, want itself alone", got)
		}
	}
	// A workflow that names neither the checkpoint's file nor its
	// workflow id does not concern its lint.
	if got := openText("file:///r/other/ORCHESTRATION.yaml", "workflow: {id: billing-20260301-001}\n"); len(got) != 1 {
		t.Errorf("opening a workflow the checkpoint does not concern linted %v, want the workflow alone", got)
	}
	if got := openText("file:///r/ORCHESTRATION.yaml", "workflow: {id: FEAT020-licmig-20260216-001}\n"); len(got) != 2 {
		t.Errorf("opening the checkpoint's workflow linted %v, want it and the checkpoint", got)
	}
	// Workflows the checkpoint's lint read from disk: opened as saved,
	// nothing changes for it; a buffer that differs changes it only where
	// the buffer or the saved file names what concerns it.
	if got := openText("file:///r/tracked/ORCHESTRATION.yaml", eng.saved["/r/tracked/ORCHESTRATION.yaml"]); len(got) != 1 {
		t.Errorf("opening a tracked workflow as saved linted %v, want it alone", got)
	}
	if got := openText("file:///r/named/ORCHESTRATION.yaml", "workflow: {id: other-20260301-001}\n"); len(got) != 2 {
		t.Errorf("opening, unsaved, a workflow whose saved text concerns the checkpoint linted %v, want it and the checkpoint", got)
	}
	// Naming the workflow id in a note, or a word any workflow holds, is
	// no tie: only its own id and its compaction events' files are.
	if got := openText("file:///r/note/ORCHESTRATION.yaml", "workflow: {id: billing-20260301-001}\nnotes: \"follows feat020-licmig-20260216-001 and cx-001.json\"\n"); len(got) != 1 {
		t.Errorf("opening a workflow that only mentions the checkpoint's workflow linted %v, want the workflow alone", got)
	}
	if got := openText("file:///r/merged/ORCHESTRATION.yaml", "workflow: {id: billing-20260301-001}\nresumption:\n  compaction_events:\n    events:\n      - {id: CX-001, checkpoint_file: \".jerry/checkpoints/CX-001.json\"}\n"); len(got) != 2 {
		t.Errorf("opening a workflow whose compaction event names the checkpoint linted %v, want it and the checkpoint", got)
	}
	if got := openText("file:///r/broken/ORCHESTRATION.yaml", "workflow: [\n"); len(got) != 1 {
		t.Errorf("opening a workflow that does not parse (which gives a lint nothing) linted %v, want it alone", got)
	}
	if got := do("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///r/p0/resume-context.md"}}); len(got) != 0 {
		t.Errorf("closing a file no lint lists linted %v", got)
	}
	if got := do("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///r/other/ORCHESTRATION.yaml"}}); len(got) != 0 {
		t.Errorf("closing a workflow that does not concern the checkpoint linted %v", got)
	}
	if got := do("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": "file:///r/ORCHESTRATION.yaml"}}); len(got) != 1 {
		t.Errorf("closing a workflow linted %v, want the checkpoint", got)
	}
}
