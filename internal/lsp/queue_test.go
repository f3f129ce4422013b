package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// waitLint waits until the engine's lint of slow.yaml has started.
func waitLint(t *testing.T, eng *fakeEngine) {
	t.Helper()
	select {
	case <-eng.inLint:
	case <-time.After(20 * time.Second):
		t.Fatal("the lint did not start within 20s")
	}
}

// A burst of whole texts of a document sent while a lint runs (an editor
// sends the whole text at every keystroke, as the server asks) is held as
// its last text, and linted once more: not once per maxPublishWait of
// them, each kept in the queue until its turn.
func TestWholeTextsWhileLintingCoalesce(t *testing.T) {
	eng := &fakeEngine{block: make(chan struct{}), inLint: make(chan struct{}, 1000)}
	tc := startServer(t, eng)
	tc.initialize(map[string]any{})
	slow := "file:///repo/slow.yaml"
	openDoc(tc, slow, "a: 1\n")
	waitLint(t, eng)
	const last = 101
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for v := 2; v <= last; v++ {
			data, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": slow, "version": v},
				"contentChanges": []any{map[string]any{"text": fmt.Sprintf("a: %d\n", v)}}})
			if tc.c.write(&message{Method: "textDocument/didChange", Params: data}) != nil {
				return
			}
		}
	}()
	select {
	case <-sent:
	case <-time.After(2 * time.Second): // a full queue stops the reader
	}
	close(eng.block)
	for {
		m := tc.next()
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p publishDiagnosticsParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			t.Fatal(err)
		}
		if *p.Version == last {
			break
		}
	}
	// The first text's lint, the last text's, and one more at most for a
	// text the reader was still reading when the lint ended.
	if n := len(eng.lintedPaths()); n > 3 {
		t.Errorf("%d lints for a burst of %d texts sent during one lint, want at most 3", n, last-1)
	}
}

// While the handler is busy, the reader holds at most maxQueued bytes of
// messages (and a message larger than it alone), not queueSize of them
// whatever their size: a client sending whole texts of different
// documents waits.
func TestQueueBoundedInBytes(t *testing.T) {
	defer func(n int) { maxQueued = n }(maxQueued)
	text := strings.Repeat("x", 100<<10) // larger than the reader's buffer
	maxQueued = 3 * len(text)
	eng := &fakeEngine{block: make(chan struct{}), inLint: make(chan struct{}, 1000)}
	tc := startServer(t, eng)
	tc.initialize(map[string]any{})
	openDoc(tc, "file:///repo/slow.yaml", "a: 1\n")
	waitLint(t, eng)
	var sent atomic.Int32
	go func() {
		for i := range 20 {
			data, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": fmt.Sprintf("file:///repo/d%d.yaml", i), "version": 2},
				"contentChanges": []any{map[string]any{"text": text}}})
			if tc.c.write(&message{Method: "textDocument/didChange", Params: data}) != nil {
				return
			}
			sent.Add(1)
		}
	}()
	time.Sleep(300 * time.Millisecond)
	// Three in the queue, one waiting for room, the next in the pipe.
	if n := sent.Load(); n > 5 {
		t.Errorf("%d messages of %d bytes read while the handler was busy, want at most 5 (maxQueued %d)", n, len(text), maxQueued)
	}
	close(eng.block)
	deadline := time.Now().Add(20 * time.Second)
	for sent.Load() < 20 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := sent.Load(); n != 20 {
		t.Errorf("%d of 20 messages read once the handler was free", n)
	}
}
