package lsp

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/resumelint/resumelint/docs"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// Result is what the engine found in one document.
type Result struct {
	// Checked is false when the document is not a file resumelint checks
	// (no known kind, or excluded by the configuration).
	Checked bool
	// Findings are the document's own findings; their positions are in
	// the text that was linted.
	Findings []diag.Finding
	// Path is the document's path as the findings name it; Base is the
	// folder relative paths (of related positions) start from.
	Path, Base string
	// Format is the document's format, for checking a fix's result.
	// AsSaved: the document is checked only as saved (a file of a bundle or
	// an agent run) and its text is not what was saved: the diagnostics of
	// the saved file stay until it is saved again.
	Format  load.Format
	AsSaved bool
	// Needles, for a lint that listed the open documents, are what a
	// workflow must be tied to (its id, a checkpoint file its compaction
	// events name: rules.WorkflowNames) for its opening or closing to
	// change this lint; none: any workflow may.
	Needles []string
}

// Engine lints documents.
type Engine interface {
	// Lint checks text as the content of the file at osPath. saved is
	// true when text is what the disk holds (open and save): files of a
	// bundle or agent run are checked with their folder, as saved. open
	// holds the other open documents' texts by absolute OS path: rules
	// that read other files read these instead, so they see what the
	// editor shows. It is the server's own index, valid during the call.
	Lint(osPath string, text []byte, saved bool, open load.Overlay) (Result, error)
	// Reload reads the configuration again.
	Reload() error
	// Checks reports whether resumelint checks the file at osPath (a known
	// kind, not excluded): a document too large to hold is reported as
	// not read only then.
	Checks(osPath string) bool
	// Listed reports whether a lint may take the file at osPath from the
	// list of open documents (Overlay's Paths: the workflows open beside
	// a checkpoint): opening or closing it lints again those that asked.
	// Opening any other file changes no lint but its own.
	Listed(osPath string) bool
	// Saved is the content of the file at osPath as saved, read as a lint
	// reads it (inside its repository, within the input limits); nil when
	// it cannot be read. A document opened with that content changes
	// nothing for the lints that read the file.
	Saved(osPath string) []byte
}

// ConfigName is the configuration file whose change reloads it.
const ConfigName = ".resumelint.yaml"

type document struct {
	uri     string
	osPath  string
	abs     string // osPath made absolute, the key of server.open
	version int
	text    []byte
	res     Result
	starts  []int
	cols    *colCache // positions on the long lines of text (nil: none kept)
	// tooLarge is set while the document's text is over maxMessage, or
	// over what the open documents may hold together (overBudget): the
	// text is not kept and the document is reported as not read.
	tooLarge, overBudget bool
	// held is the size of text counted in server.held for it.
	held int
	// dirty is set when the text changed since it was last linted; saved
	// tells how to lint it (see Engine.Lint).
	dirty, saved bool
	// diags are the diagnostics of the last lint; resultID names them for
	// pulled reports.
	diags    []diagnostic
	resultID string
	// queued is set while the document waits in server.toPublish.
	queued bool
	// pushed names the last diagnostics pushed (version and resultID): a
	// dependent linted again to the same findings is not pushed again.
	pushed string
	// reads are the absolute paths its last lint read or looked up
	// besides its own (through openBuffers): the files its cross-file
	// findings depend on (server.readers indexes them).
	reads []string
}

type server struct {
	c       *conn
	eng     Engine
	log     io.Writer
	version string
	docs    map[string]*document
	// open indexes docs by absolute OS path, kept as documents open and
	// close, so a lint hands the engine the other buffers without
	// building a map of them (openBuffers).
	open     map[string][]*document
	init     bool
	shutdown bool
	watch    bool // the client can watch files for us
	// pull is set when the client pulls diagnostics
	// (textDocument/diagnostic): it gets no publishDiagnostics, and
	// refresh says it can be asked to pull again.
	pull, refresh bool
	nextID        int
	// held is the size of the texts the open documents keep, at most
	// maxHeld: each is bounded by maxMessage, their number by nothing the
	// server controls.
	held    int
	stopped atomic.Bool
	logMu   sync.Mutex
	// toPublish are the documents changed since diagnostics were last
	// pushed, in the order they changed; waited counts the messages
	// handled since the first of them.
	toPublish []*document
	waited    int
	// refreshDue is set when documents the client did not change must be
	// pulled again (a file they read changed); the refresh is asked for
	// once the queue is idle.
	refreshDue bool
	// readers are the open documents whose last lint read a file, by its
	// absolute path: those linted again when it changes.
	readers map[string]map[*document]bool
	// queued counts the bytes of the messages read and not yet handled.
	queued queued
}

// maxPublishWait bounds how many messages a change's diagnostics wait
// behind: a push client's changes are linted once the queue is empty, so
// a burst of edits to one document is linted once, not once per edit,
// and a client that never stops sending still gets them.
const maxPublishWait = 16

// queueSize bounds the messages read and not yet handled: past it the
// reader waits for the handler, so memory does not grow with a client
// that sends faster than the server lints.
const queueSize = 64

// Serve runs the server on r and w until the client sends exit; the
// result is the process exit code (0 after shutdown, 1 otherwise).
//
// One goroutine reads and answers $/cancelRequest at once; one handles
// the other messages in order. Serve returns after both have ended.
func Serve(r io.Reader, w io.Writer, log io.Writer, eng Engine, version string) int {
	s := &server{c: newConn(r, w), eng: eng, log: log, version: version,
		docs: map[string]*document{}, open: map[string][]*document{}}
	s.queued.cond.L = &s.queued.mu
	q := make(chan *item, queueSize)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.work(q)
	}()
	exit := s.read(q)
	close(q)
	<-done
	if exit && s.shutdown {
		return 0
	}
	return 1 // exit before shutdown, or the client went away
}

// read queues the messages until exit (true) or the end of the input.
// A didChange that sends a document's whole text takes the place of the
// didChange of that document queued last, while it waits (replace).
func (s *server) read(q chan<- *item) bool {
	var last *item
	for {
		body, err := s.c.read()
		var tl *tooLargeError
		if errors.As(err, &tl) {
			s.logf("%v", err)
			last = nil
			s.enqueue(q, &item{tl: tl})
			continue
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.logf("%v", err)
			}
			s.stopped.Store(true) // no one reads the answers
			return false
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			_ = s.c.replyError(json.RawMessage("null"), codeParseError, "not a JSON-RPC message: %v", err)
			continue
		}
		switch {
		case m.Method == "exit":
			return true
		case m.Method == "$/cancelRequest":
			var p cancelParams
			if json.Unmarshal(m.Params, &p) == nil && len(p.ID) > 0 {
				if err := s.c.cancel(p.ID); err != nil {
					s.logf("$/cancelRequest: %v", err)
				}
			}
			continue
		case m.Method == "":
			continue // a response to one of our requests
		}
		if isRequest(&m) {
			s.c.track(m.ID)
		}
		uri, whole := changeOf(&m)
		if whole && last != nil {
			if old, ok := last.replace(uri, &m, len(body)); ok {
				s.queued.swap(old, len(body))
				continue
			}
		}
		last = &item{m: &m, size: len(body), uri: uri}
		s.enqueue(q, last)
	}
}

// enqueue queues a message once its bytes fit in maxQueued.
func (s *server) enqueue(q chan<- *item, it *item) {
	s.queued.take(it.size)
	q <- it
}

// work handles the queued messages in order. A request cancelled while
// queued is not run; one cancelled while running has been answered, and
// its handler's answer is dropped.
func (s *server) work(q <-chan *item) {
	for it := range q {
		m, tl, size := it.take()
		if !s.stopped.Load() {
			s.handleItem(m, tl)
		}
		s.queued.give(size)
		if !s.stopped.Load() {
			s.publishWhenIdle(len(q) == 0)
		}
	}
}

// handleItem handles one message, or answers one skipped for its size.
func (s *server) handleItem(m *message, tl *tooLargeError) {
	if tl != nil {
		if err := s.tooLarge(tl); err != nil {
			s.logf("%v", err)
		}
		return
	}
	if isRequest(m) && s.c.cancelled(m.ID) {
		s.c.unanswered(m.ID)
		return
	}
	if err := s.handle(m); err != nil {
		s.logf("%s: %v", m.Method, err)
	}
	if isRequest(m) && s.c.unanswered(m.ID) {
		_ = s.c.replyError(m.ID, codeInternalError, "%s failed", m.Method)
	}
}

// publishWhenIdle pushes the diagnostics of the documents changed since
// the last push once no message waits (idle), or once they waited
// maxPublishWait messages.
func (s *server) publishWhenIdle(idle bool) {
	if idle && s.refreshDue {
		s.refreshDue = false
		s.nextID++
		if err := s.c.request(s.nextID, "workspace/diagnostic/refresh", nil); err != nil {
			s.logf("workspace/diagnostic/refresh: %v", err)
		}
	}
	if len(s.toPublish) == 0 {
		return
	}
	if s.waited++; !idle && s.waited < maxPublishWait {
		return
	}
	docs := s.toPublish
	s.toPublish, s.waited = nil, 0
	for _, d := range docs {
		if s.docs[d.uri] != d {
			continue // closed (its diagnostics cleared) or opened anew since
		}
		d.queued = false
		s.ensure(d)
		if err := s.publish(d); err != nil {
			s.logf("publishDiagnostics: %v", err)
			return
		}
	}
}

// publish pushes a document's diagnostics, for its latest version.
func (s *server) publish(d *document) error {
	if d.osPath == "" {
		return nil // not a file: URI
	}
	v := d.version
	key := fmt.Sprintf("%d %s", v, d.resultID)
	if key == d.pushed {
		return nil
	}
	d.pushed = key
	return s.c.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: d.diags})
}

// logf writes one line to the log; both goroutines log.
func (s *server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.log, "resumelint server: "+format+"\n", args...)
}

func isRequest(m *message) bool { return len(m.ID) > 0 }

func (s *server) handle(m *message) error {
	if !s.init && m.Method != "initialize" {
		if isRequest(m) {
			return s.c.replyError(m.ID, codeServerNotInit, "the server is not initialized")
		}
		return nil
	}
	if s.shutdown && isRequest(m) {
		return s.c.replyError(m.ID, codeInvalidAfterShut, "the server is shut down")
	}
	if h := handlers[m.Method]; h != nil {
		return h(s, m)
	}
	if isRequest(m) {
		return s.c.replyError(m.ID, codeMethodNotFound, "method %q is not supported", m.Method)
	}
	return nil // notifications the server does not use ($/cancelRequest, …)
}

// handlers answer the methods the server supports.
var handlers = map[string]func(*server, *message) error{
	"initialize":  (*server).initialize,
	"initialized": (*server).initialized,
	"shutdown": func(s *server, m *message) error {
		s.shutdown = true
		return s.c.reply(m.ID, nil)
	},
	"textDocument/didOpen":             (*server).didOpen,
	"textDocument/didChange":           (*server).didChange,
	"textDocument/didSave":             (*server).didSave,
	"textDocument/didClose":            (*server).didClose,
	"workspace/didChangeWatchedFiles":  (*server).didChangeWatchedFiles,
	"workspace/didChangeConfiguration": func(s *server, _ *message) error { return s.reload() },
	"textDocument/codeAction":          (*server).codeAction,
	"textDocument/hover":               (*server).hoverRequest,
	"textDocument/diagnostic":          (*server).pullDiagnostics,
}

func (s *server) initialize(m *message) error {
	var p initializeParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return s.c.replyError(m.ID, codeInvalidParams, "initialize: %v", err)
	}
	s.init = true
	s.watch = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	pull := p.Capabilities.TextDocument.Diagnostic
	s.pull = len(pull) > 0 && string(pull) != "null"
	s.refresh = p.Capabilities.Workspace.Diagnostics.RefreshSupport
	return s.c.reply(m.ID, map[string]any{
		"capabilities": map[string]any{
			"positionEncoding":   "utf-16",
			"textDocumentSync":   map[string]any{"openClose": true, "change": 1, "save": map[string]any{"includeText": false}},
			"codeActionProvider": map[string]any{"codeActionKinds": []string{kindQuickFix, kindFixAll}},
			"hoverProvider":      true,
			"diagnosticProvider": map[string]any{"identifier": "resumelint", "interFileDependencies": true, "workspaceDiagnostics": false},
		},
		"serverInfo": map[string]any{"name": "resumelint", "version": s.version},
	})
}

// initialized asks the client to watch the configuration files, when it
// can.
func (s *server) initialized(*message) error {
	if !s.watch {
		return nil
	}
	s.nextID++
	return s.c.request(s.nextID, "client/registerCapability", map[string]any{
		"registrations": []any{map[string]any{
			"id": "resumelint-config", "method": "workspace/didChangeWatchedFiles",
			"registerOptions": map[string]any{"watchers": []any{map[string]any{"globPattern": "**/" + ConfigName}}},
		}},
	})
}

func (s *server) didOpen(m *message) error {
	var p didOpenParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return err
	}
	d := &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	d.osPath = osPathOf(d.uri)
	s.put(d)
	var text []byte
	if !d.tooLarge {
		text = d.text
	}
	listed := s.eng.Listed(d.osPath)
	if listed {
		s.listersNamed(d, text) // a lint that read the open documents' list
	}
	s.account(d)
	d.dirty, d.saved = true, true
	s.queue(d)
	// The lints that read the file from disk: the document changes them
	// only where its text differs from what they read, and (for a lint
	// with needles) where either names what concerns them.
	if rs := s.readers[d.abs]; len(rs) > 0 {
		saved := s.eng.Saved(d.osPath)
		if text == nil || saved == nil || !bytes.Equal(saved, text) {
			deps := make([]*document, 0, len(rs))
			names := namesOf(text, savedOrNone(saved))
			for o := range rs {
				if o != d && s.docs[o.uri] == o && concerned(o, names) {
					deps = append(deps, o)
				}
			}
			s.markDirty(deps)
		}
	}
	return nil
}

func (s *server) didChange(m *message) error {
	p := m.change
	if p == nil {
		p = &didChangeParams{}
		if err := json.Unmarshal(m.Params, p); err != nil {
			return err
		}
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil
	}
	for chs := p.ContentChanges; len(chs) > 0; {
		ch := chs[0]
		switch {
		case ch.Range == nil:
			d.text, d.tooLarge = []byte(ch.Text), false
			chs = chs[1:]
		case d.tooLarge:
			// Edits of a text not kept cannot be applied.
			chs = chs[1:]
		default:
			// A run of range edits is applied in one pass (editText).
			var run []rangeChange
			for len(chs) > 0 && chs[0].Range != nil {
				run = append(run, rangeChange{*chs[0].Range, chs[0].Text})
				chs = chs[1:]
			}
			text, over := applyRangeChanges(d.text, run, maxMessage)
			if over {
				text, d.tooLarge = nil, true // edits must not grow it without bound
			}
			d.text = text
		}
	}
	d.version = p.TextDocument.Version
	return s.changed(d, false)
}

func (s *server) didSave(m *message) error {
	var p didSaveParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return err
	}
	d := s.docs[p.TextDocument.URI]
	if p.Text != nil && d != nil {
		d.text = []byte(*p.Text)
	}
	if filepath.Base(osPathOf(p.TextDocument.URI)) == ConfigName {
		return s.reload()
	}
	if d != nil {
		return s.changed(d, true)
	}
	return nil
}

func (s *server) didClose(m *message) error {
	var p didCloseParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return err
	}
	if d, ok := s.docs[p.TextDocument.URI]; ok {
		s.drop(d)
		s.dependents(d.abs, nil) // they read the file from disk again
		if s.eng.Listed(d.osPath) {
			// The file on disk stands for it now: a lint it concerns
			// either way is one to run again.
			var text []byte
			if !d.tooLarge {
				text = d.text
			}
			s.listersNamed(nil, text, savedOrNone(s.eng.Saved(d.osPath)))
		}
		if s.pull {
			return nil // the client drops what it pulled
		}
		return s.c.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []diagnostic{}})
	}
	return nil
}

func (s *server) didChangeWatchedFiles(m *message) error {
	var p didChangeWatchedFilesParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return err
	}
	for _, ch := range p.Changes {
		if filepath.Base(osPathOf(ch.URI)) == ConfigName {
			return s.reload()
		}
	}
	for _, ch := range p.Changes {
		// A file on disk changed: what read it may change too.
		if abs, err := filepath.Abs(osPathOf(ch.URI)); err == nil && osPathOf(ch.URI) != "" {
			s.dependents(abs, nil)
		}
	}
	return nil
}

func (s *server) codeAction(m *message) error {
	var p codeActionParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return s.c.replyError(m.ID, codeInvalidParams, "codeAction: %v", err)
	}
	s.ensure(s.docs[p.TextDocument.URI])
	return s.c.reply(m.ID, s.codeActions(&p))
}

func (s *server) hoverRequest(m *message) error {
	var p hoverParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return s.c.replyError(m.ID, codeInvalidParams, "hover: %v", err)
	}
	s.ensure(s.docs[p.TextDocument.URI])
	h := s.hover(&p)
	if h == nil {
		return s.c.reply(m.ID, nil)
	}
	return s.c.reply(m.ID, h)
}

// pullDiagnostics answers textDocument/diagnostic: the document's
// diagnostics, or "unchanged" when they are those the client has. A
// document not open has none.
func (s *server) pullDiagnostics(m *message) error {
	var p documentDiagnosticParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		return s.c.replyError(m.ID, codeInvalidParams, "diagnostic: %v", err)
	}
	items, id := []diagnostic{}, resultIDOf(nil)
	if d := s.docs[p.TextDocument.URI]; d != nil {
		s.ensure(d)
		items, id = d.diags, d.resultID
	}
	if p.PreviousResultID != "" && p.PreviousResultID == id {
		return s.c.reply(m.ID, map[string]any{"kind": "unchanged", "resultId": id})
	}
	return s.c.reply(m.ID, map[string]any{"kind": "full", "resultId": id, "items": items})
}

// reload reads the configuration again and checks every open document
// with it. A configuration with errors is reported and the last good one
// stays in use.
func (s *server) reload() error {
	if err := s.eng.Reload(); err != nil {
		return s.c.notify("window/showMessage", showMessageParams{Type: messageError, Message: "resumelint: " + diag.Safe(err.Error())})
	}
	uris := make([]string, 0, len(s.docs))
	for u := range s.docs {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	for _, u := range uris {
		if err := s.changed(s.docs[u], false); err != nil {
			return err
		}
	}
	if s.pull && s.refresh && len(uris) > 0 {
		s.refreshDue = true
	}
	return nil
}

// changed notes that a document's text (or configuration) changed. A
// client that pushes gets the diagnostics once the messages before them
// are handled (publishWhenIdle); one that pulls gets them when it asks,
// so a request it cancels is not linted. The other open documents are
// linted again too (dependents).
func (s *server) changed(d *document, saved bool) error {
	s.account(d)
	d.dirty, d.saved = true, saved
	s.queue(d)
	s.dependents(d.abs, d)
	return nil
}

// queue puts a dirty document in line for a push.
func (s *server) queue(d *document) {
	if s.pull || d.queued {
		return
	}
	d.queued = true
	s.toPublish = append(s.toPublish, d)
}

// dependents marks the open documents whose last lint read the file at
// abs (but changed itself) to be linted again, as they are (saved or
// not): a cross-file rule read it (a workflow's compaction event names a
// checkpoint the editor has open), and its findings must follow the
// editor's text without an edit of their own. A push client gets them
// with the next push; a pull client is asked to pull again
// (workspace/diagnostic/refresh).
func (s *server) dependents(abs string, changed *document) {
	rs := s.readers[abs]
	if abs == "" || len(rs) == 0 {
		return
	}
	deps := make([]*document, 0, len(rs))
	for o := range rs {
		if o != changed && s.docs[o.uri] == o {
			deps = append(deps, o)
		}
	}
	s.markDirty(deps)
}

// markDirty puts documents in line to be linted again, in URI order.
func (s *server) markDirty(deps []*document) {
	if len(deps) == 0 {
		return
	}
	sort.Slice(deps, func(i, j int) bool { return deps[i].uri < deps[j].uri })
	for _, o := range deps {
		o.dirty = true
		s.queue(o)
	}
	if s.pull && s.refresh {
		s.refreshDue = true
	}
}

// listersNamed marks to be linted again the open documents whose last
// lint listed the open documents and would read a workflow of this text:
// those without needles, and those whose needles it names (all of them
// for a document whose text is not held). A checkpoint
// opened before a thousand workflows is not linted again for each of
// them, only for those that concern it.
func (s *server) listersNamed(changed *document, texts ...[]byte) {
	rs := s.readers[openSet]
	if len(rs) == 0 {
		return
	}
	deps := make([]*document, 0, len(rs))
	names := namesOf(texts...)
	for o := range rs {
		if o != changed && s.docs[o.uri] == o && concerned(o, names) {
			deps = append(deps, o)
		}
	}
	s.markDirty(deps)
}

// namesOf returns, for each text of a workflow, what ties it to a
// checkpoint (rules.WorkflowNames), read once for all the lints it may
// concern; nil where the text is not known.
func namesOf(texts ...[]byte) []map[string]bool {
	out := make([]map[string]bool, len(texts))
	for i, t := range texts {
		if t != nil {
			out[i] = rules.WorkflowNames(t)
		}
	}
	return out
}

// savedOrNone is what a lint reads of a file on disk: Saved's bytes, or
// none where it reads nothing (no file, a FIFO, over the limits).
func savedOrNone(saved []byte) []byte {
	if saved == nil {
		return []byte{}
	}
	return saved
}

// concerned reports whether a workflow whose texts have names (namesOf;
// nil: not known) may change o's lint: o has no needles, or a text's
// workflow id or checkpoint files is one.
func concerned(o *document, names []map[string]bool) bool {
	if len(o.res.Needles) == 0 || len(names) == 0 {
		return true
	}
	for _, ns := range names {
		if ns == nil {
			return true
		}
		for _, n := range o.res.Needles {
			if ns[strings.ToLower(n)] {
				return true
			}
		}
	}
	return false
}

// noteReads indexes what d's last lint read, in place of what the one
// before it read.
func (s *server) noteReads(d *document, reads []string) {
	for _, p := range d.reads {
		if rs := s.readers[p]; rs != nil {
			delete(rs, d)
			if len(rs) == 0 {
				delete(s.readers, p)
			}
		}
	}
	d.reads = reads
	for _, p := range reads {
		if s.readers == nil {
			s.readers = map[string]map[*document]bool{}
		}
		rs := s.readers[p]
		if rs == nil {
			rs = map[*document]bool{}
			s.readers[p] = rs
		}
		rs[d] = true
	}
}

// ensure lints a document changed since its last lint.
func (s *server) ensure(d *document) {
	if d == nil || !d.dirty {
		return
	}
	d.dirty = false
	s.lint(d, d.saved)
	d.resultID = resultIDOf(d.diags)
}

// resultIDOf names a set of diagnostics by their content, so an
// unchanged report is sent only when the client has the same ones.
func resultIDOf(diags []diagnostic) string {
	data, _ := json.Marshal(diags)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// lint checks a document and keeps its diagnostics.
func (s *server) lint(d *document, saved bool) {
	if d.osPath == "" {
		d.diags = []diagnostic{}
		return // not a file: URI
	}
	if d.tooLarge {
		d.diags = []diagnostic{}
		s.checkTooLarge(d)
		return
	}
	ob := openBuffers{s: s, except: d, read: map[string]bool{}}
	res, err := s.eng.Lint(d.osPath, d.text, saved, ob)
	reads := make([]string, 0, len(ob.read))
	for p := range ob.read {
		if p != d.abs {
			reads = append(reads, p)
		}
	}
	s.noteReads(d, reads)
	if err != nil {
		_ = s.c.notify("window/showMessage", showMessageParams{Type: messageWarning, Message: "resumelint: " + diag.Safe(err.Error())})
		res = Result{}
	}
	if res.AsSaved && d.diags != nil {
		// What the saved file gave stays until the next save; its fixes
		// are not offered, as their edits are in the saved text.
		d.res = Result{}
		return
	}
	d.diags = []diagnostic{}
	d.res = res
	d.starts, d.cols = lineStarts(d.text), &colCache{}
	texts := relatedTexts{}
	for i := range res.Findings {
		d.diags = append(d.diags, s.diagnostic(d, &res.Findings[i], texts))
	}
}

// put records an open document, in place of one open at its URI.
func (s *server) put(d *document) {
	if old := s.docs[d.uri]; old != nil {
		s.drop(old)
	}
	s.docs[d.uri] = d
	if d.osPath == "" {
		return
	}
	if abs, err := filepath.Abs(d.osPath); err == nil {
		d.abs = abs
		s.open[abs] = append(s.open[abs], d)
	}
}

// maxHeld bounds the texts all open documents keep together.
var maxHeld = 256 << 20 // a variable for the tests

// account counts d's text in what the open documents hold; a text that
// would take them past maxHeld is not kept, and d is reported as not
// read until the editor sends its whole text again.
func (s *server) account(d *document) {
	s.held += len(d.text) - d.held
	d.held = len(d.text)
	d.overBudget = false
	if s.held <= maxHeld {
		return
	}
	s.held -= d.held
	d.text, d.starts, d.res, d.held = nil, nil, Result{}, 0
	d.tooLarge, d.overBudget = true, true
}

// drop forgets a closed document.
func (s *server) drop(d *document) {
	s.noteReads(d, nil)
	s.held -= d.held
	d.held = 0
	delete(s.docs, d.uri)
	if d.abs == "" {
		return
	}
	list := slices.DeleteFunc(s.open[d.abs], func(o *document) bool { return o == d })
	if len(list) == 0 {
		delete(s.open, d.abs)
	} else {
		s.open[d.abs] = list
	}
}

// openBuffers is the engine's view of the open documents while it lints
// one, except (a document too large to keep has no text to stand for its
// file). Where two URIs name one file, the last opened stands for it,
// except for the linted document's own file, which its text stands for.
// Paths lists the others only.
type openBuffers struct {
	s      *server
	except *document
	read   map[string]bool // every path asked for, open or not
}

// openSet is the read a lint notes when it asks which documents are open
// (Paths): opening or closing any document lints it again.
const openSet = "\x00open documents"

// Paths are the absolute paths of the open documents other than the one
// linted, in order, each once.
func (b openBuffers) Paths() []string {
	if b.read != nil {
		b.read[openSet] = true
	}
	var out []string
	for abs, list := range b.s.open {
		if slices.ContainsFunc(list, func(o *document) bool { return o != b.except && !o.tooLarge }) {
			out = append(out, abs)
		}
	}
	sort.Strings(out)
	return out
}

func (b openBuffers) Buffer(abs string) ([]byte, bool) {
	if b.read != nil {
		b.read[abs] = true
	}
	if e := b.except; e != nil && e.abs == abs && !e.tooLarge && e.text != nil {
		// The linted document read as a file (a workflow naming itself
		// among its files to read): its own text, saved or not, new or not.
		return e.text, true
	}
	list := b.s.open[abs]
	for i := len(list) - 1; i >= 0; i-- {
		if o := list[i]; o != b.except && !o.tooLarge {
			return o.text, true
		}
	}
	return nil, false
}

func (s *server) diagnostic(d *document, fd *diag.Finding, texts relatedTexts) diagnostic {
	sev := severityWarning
	if fd.Severity == diag.SevError {
		sev = severityError
	}
	out := diagnostic{Range: findingRange(d, fd), Severity: sev, Code: fd.Code, CodeDescription: ruleLink(fd.Code),
		Source: "resumelint", Message: fd.Message + " [" + fd.Code + " " + fd.Name + "]"}
	for _, r := range fd.Related {
		p := r.Path
		if p == "" {
			continue
		}
		p = load.Abs(d.res.Base, p)
		var at position
		if t := s.relatedText(d, p, texts); t != nil {
			at = t.cols.pos(t.text, t.starts, r.Line, r.Column)
		} else {
			// Not readable now: the column is counted in characters.
			at = position{Line: max(r.Line-1, 0), Character: max(r.Column-1, 0)}
		}
		out.RelatedInformation = append(out.RelatedInformation, diagnosticRelatedInformation{
			Location: location{URI: uriOf(p), Range: lspRange{Start: at, End: at}},
			Message:  r.Message})
	}
	return out
}

// relatedTexts are the texts of the files related positions point into,
// by absolute path, each read once for the findings of one lint (nil: it
// could not be read).
type relatedTexts map[string]*lineText

type lineText struct {
	text   []byte
	starts []int
	cols   *colCache
}

// relatedText is the text a related position in the file at abs counts
// its column in, to convert it to UTF-16 code units as the finding's own
// range is: the document's own text, another open document's (what the
// lint read), else the file as saved.
func (s *server) relatedText(d *document, abs string, texts relatedTexts) *lineText {
	if abs == d.abs {
		return &lineText{text: d.text, starts: d.starts, cols: d.cols}
	}
	if t, ok := texts[abs]; ok {
		return t
	}
	text, ok := openBuffers{s: s}.Buffer(abs)
	if !ok {
		text = s.eng.Saved(abs)
	}
	var t *lineText
	if text != nil {
		t = &lineText{text: text, starts: lineStarts(text), cols: &colCache{}}
	}
	if texts != nil {
		texts[abs] = t
	}
	return t
}

// ruleLink points a diagnostic at its rule's page, the address SARIF's
// helpUri gives; none for a code with no page.
func ruleLink(code string) *codeDescription {
	if rules.Lookup(code) == nil {
		return nil
	}
	return &codeDescription{Href: docs.RuleURL(code)}
}

// findingRange converts a finding's 1-based line and rune column span to
// an LSP range in UTF-16 code units. A point finding covers one character.
func findingRange(d *document, fd *diag.Finding) lspRange {
	start := d.cols.pos(d.text, d.starts, fd.Start.Line, fd.Start.Col)
	end := start
	if fd.End.Line > fd.Start.Line || (fd.End.Line == fd.Start.Line && fd.End.Col > fd.Start.Col) {
		end = d.cols.pos(d.text, d.starts, fd.End.Line, fd.End.Col)
	} else {
		end = d.cols.pos(d.text, d.starts, fd.Start.Line, fd.Start.Col+1)
	}
	return lspRange{Start: start, End: end}
}

// codeActions offers each fix of a finding in the range (safe ones
// preferred, unsafe ones marked) and one action with every safe fix.
// A fix is offered only when its result passes the nothing-lost check
// that `resumelint fix` applies.
func (s *server) codeActions(p *codeActionParams) []codeAction {
	out := []codeAction{}
	d := s.docs[p.TextDocument.URI]
	if d == nil || !d.res.Checked {
		return out
	}
	want := func(kind string) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if kind == o || strings.HasPrefix(kind, o+".") {
				return true
			}
		}
		return false
	}
	var safe []*diag.Fix
	texts := relatedTexts{}
	for i := range d.res.Findings {
		fd := &d.res.Findings[i]
		fx := fd.Fix
		if fx == nil || fx.Applicability == diag.FixNone || len(fx.Edits) == 0 || fx.RenameTo != "" {
			continue // renaming a file is left to `resumelint fix`
		}
		if fx.Applicability == diag.FixSafe {
			safe = append(safe, fx)
		}
		r := findingRange(d, fd)
		if !want(kindQuickFix) || !overlaps(r, p.Range) {
			continue
		}
		edits, ok := s.verified(d, []*diag.Fix{fx})
		if !ok {
			continue
		}
		title := fmt.Sprintf("resumelint: %s (%s)", fx.Description, fd.Code)
		if fx.Applicability != diag.FixSafe {
			title = fmt.Sprintf("resumelint (unsafe fix, check the result): %s (%s)", fx.Description, fd.Code)
		}
		out = append(out, codeAction{Title: title, Kind: kindQuickFix, Diagnostics: []diagnostic{s.diagnostic(d, fd, texts)},
			IsPreferred: fx.Applicability == diag.FixSafe, Edit: workspaceEdit{Changes: map[string][]textEdit{d.uri: edits}}})
	}
	if len(safe) > 0 && want(kindFixAll) {
		var picked []*diag.Fix
		for _, ch := range fix.Select(safe) {
			if ch.Outcome == fix.Applied {
				picked = append(picked, ch.Fix)
			}
		}
		if edits, ok := s.verified(d, picked); ok {
			out = append(out, codeAction{Title: fmt.Sprintf("resumelint: apply %d safe %s", len(picked), pluralFix(len(picked))),
				Kind: kindFixAll, Edit: workspaceEdit{Changes: map[string][]textEdit{d.uri: edits}}})
		}
	}
	return out
}

func pluralFix(n int) string {
	if n == 1 {
		return "fix"
	}
	return "fixes"
}

// verified applies fixes to the document's text, checks that nothing is
// lost (fix.Verify), and returns the edits as LSP text edits.
func (s *server) verified(d *document, fixes []*diag.Fix) ([]textEdit, bool) {
	edits := fix.Edits(fixes)
	// The edits' offsets are in the text lint read: after a byte-order mark.
	skip := bomLen(d.text)
	text := d.text[skip:]
	after, err := fix.Apply(text, edits)
	if err != nil {
		return nil, false
	}
	if err := fix.Verify(d.res.Path, d.res.Format, text, after, fix.Drops(fixes)); err != nil {
		return nil, false
	}
	out := make([]textEdit, 0, len(edits))
	for _, e := range edits {
		out = append(out, textEdit{Range: lspRange{Start: offsetPos(d.text, d.starts, skip+e.Offset), End: offsetPos(d.text, d.starts, skip+e.Offset+e.Length)}, NewText: e.NewText})
	}
	return out, true
}

// hover shows, on a finding, its message and its rule's page.
func (s *server) hover(p *hoverParams) *hover {
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil
	}
	var parts []string
	var at *lspRange
	for i := range d.res.Findings {
		fd := &d.res.Findings[i]
		r := findingRange(d, fd)
		if !contains(r, p.Position) {
			continue
		}
		if at == nil {
			at = &r
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "**%s %s** (%s): %s\n", fd.Code, fd.Name, fd.Severity, diag.SafeMarkdown(fd.Message))
		if fx := fd.Fix; fx != nil && fx.Applicability != diag.FixNone {
			fmt.Fprintf(&sb, "\nFix (%s): %s\n", fx.Applicability, diag.SafeMarkdown(fx.Description))
		}
		if r := rules.Lookup(fd.Code); r != nil {
			if page, err := fs.ReadFile(docs.Rules, "rules/"+r.Code+".md"); err == nil {
				sb.WriteString("\n---\n\n" + string(page))
			}
		}
		parts = append(parts, sb.String())
	}
	if len(parts) == 0 {
		return nil
	}
	return &hover{Contents: markupContent{Kind: "markdown", Value: strings.Join(parts, "\n---\n\n")}, Range: at}
}

func before(a, b position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
}

func contains(r lspRange, p position) bool { return !before(p, r.Start) && !before(r.End, p) }

func overlaps(a, b lspRange) bool { return !before(a.End, b.Start) && !before(b.End, a.Start) }

// lineStarts returns the byte offset of each line's start.
func lineStarts(text []byte) []int {
	starts := []int{0}
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func lineEnd(text []byte, starts []int, line int) int {
	if line+1 < len(starts) {
		e := starts[line+1] - 1
		if e > starts[line] && text[e-1] == '\r' {
			e--
		}
		return e
	}
	return len(text)
}

// utf8BOM is the byte-order mark a client may send at the start of a
// text. Lint strips it before it reads the text (and reports it, RL004):
// the columns of the first line and the offsets of fixes are counted
// after it.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// bomLen is the length of the byte-order mark text starts with, if any.
func bomLen(text []byte) int {
	if bytes.HasPrefix(text, utf8BOM) {
		return len(utf8BOM)
	}
	return 0
}

// runePos converts a 1-based line and rune column to an LSP position,
// clamped to the line. In a text that starts with a byte-order mark,
// columns of the first line past the first are counted after the mark
// (one unit), as lint counts them.
func runePos(text []byte, starts []int, line, col int) position {
	var c *colCache
	return c.pos(text, starts, line, col)
}

// colCache keeps, for the long lines of one text positions were asked
// on, where every colStep-th character starts: many findings on one long
// line (a minified JSON line of 100,000 items) are placed from the mark
// before each, not each from the start of the line. The zero value is
// ready; a nil one keeps nothing.
type colCache struct {
	text    []byte // the text the marks are of
	marks   map[int][]colMark
	decoded int // characters stepped over, marks made included (for tests)
}

// colMark is the byte offset and UTF-16 units of a line's character
// 1+k*colStep, for mark k.
type colMark struct{ off, units int }

// colStep is the distance in characters between marks; colLong the length
// in bytes from which a line gets them.
const (
	colStep = 64
	colLong = 1024
)

// pos is runePos, through the marks of the line when it is long.
func (c *colCache) pos(text []byte, starts []int, line, col int) position {
	l := line - 1
	if l < 0 {
		return position{}
	}
	if l >= len(starts) {
		l = len(starts) - 1
	}
	b, e := starts[l], lineEnd(text, starts, l)
	units := 0
	if l == 0 && col > 1 && bomLen(text) > 0 {
		b, units = bomLen(text), 1
	}
	n := 1
	if c != nil && e-b >= colLong && col > colStep {
		marks := c.lineMarks(text, l, b, e, units)
		k := min((col-1)/colStep, len(marks)-1)
		b, units, n = marks[k].off, marks[k].units, 1+k*colStep
	}
	for i := b; i < e && n < col; n++ {
		r, size := utf8.DecodeRune(text[i:e])
		units += utf16Len(r)
		i += size
		if c != nil {
			c.decoded++
		}
	}
	return position{Line: l, Character: units}
}

// lineMarks returns the marks of line l of text, which runs from byte b
// (counted as units) to e, made on first use.
func (c *colCache) lineMarks(text []byte, l, b, e, units int) []colMark {
	if len(c.text) != len(text) || (len(text) > 0 && &c.text[0] != &text[0]) {
		c.text, c.marks = text, map[int][]colMark{}
	}
	if m, ok := c.marks[l]; ok {
		return m
	}
	m := []colMark{{b, units}}
	for i, n := b, 0; i < e; {
		r, size := utf8.DecodeRune(text[i:e])
		units += utf16Len(r)
		i += size
		if n++; n%colStep == 0 {
			m = append(m, colMark{i, units})
		}
	}
	c.decoded += e - b
	c.marks[l] = m
	return m
}

// offsetPos converts a byte offset to an LSP position.
func offsetPos(text []byte, starts []int, off int) position {
	off = min(max(off, 0), len(text))
	l := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
	units := 0
	for i := starts[l]; i < off; {
		r, size := utf8.DecodeRune(text[i:off])
		units += utf16Len(r)
		i += size
	}
	return position{Line: l, Character: units}
}

// posOffset converts an LSP position to a byte offset, clamped to the line.
func posOffset(text []byte, starts []int, p position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(starts) {
		return len(text)
	}
	i, e := starts[p.Line], lineEnd(text, starts, p.Line)
	for units := 0; i < e && units < p.Character; {
		r, size := utf8.DecodeRune(text[i:e])
		units += utf16Len(r)
		i += size
	}
	return i
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// applyRangeChange applies an incremental change (for clients that send
// them although the server asks for full text) to the whole text; a
// didChange's edits go through applyRangeChanges, which this checks.
func applyRangeChange(text []byte, r lspRange, newText string) []byte {
	starts := lineStarts(text)
	a, b := posOffset(text, starts, r.Start), posOffset(text, starts, r.End)
	if b < a {
		a, b = b, a
	}
	out := make([]byte, 0, len(text)-(b-a)+len(newText))
	out = append(out, text[:a]...)
	out = append(out, newText...)
	return append(out, text[b:]...)
}

// windowsPaths is set where paths start with a drive letter: the URI
// file:///C:/x (VS Code writes file:///c%3A/x) names C:\x, not \C:\x.
var windowsPaths = runtime.GOOS == "windows" // a variable for the tests

// isDrive reports whether s is a drive letter and its colon.
func isDrive(s string) bool {
	return len(s) == 2 && s[1] == ':' && 'a' <= s[0]|0x20 && s[0]|0x20 <= 'z'
}

// osPathOf returns the OS path of a file: URI, or "".
func osPathOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	p := u.Path
	if windowsPaths {
		switch {
		case isDrive(u.Host): // file://C:/x, as some clients write it
			p = u.Host + p
		case len(p) >= 3 && p[0] == '/' && isDrive(p[1:3]):
			p = p[1:]
		}
	}
	return filepath.Clean(filepath.FromSlash(p))
}

// uriOf returns the file: URI of an OS path.
func uriOf(p string) string {
	s := filepath.ToSlash(p)
	if windowsPaths && len(s) >= 2 && isDrive(s[:2]) {
		s = "/" + s
	}
	return (&url.URL{Scheme: "file", Path: s}).String()
}

// Message fields read from the first or the last bytes of a message too
// large to hold: enough to tell which document it was. Inside a JSON
// string every quote is escaped, so a key matched here is one of the
// message's own, wherever the skipped text ends.
var (
	headMethod = regexp.MustCompile(`"method"\s*:\s*"([^"\\]*)"`)
	headURI    = regexp.MustCompile(`"uri"\s*:\s*("(?:[^"\\]|\\.)*")`)
	headID     = regexp.MustCompile(`^\s*\{(?:[^{]*?)"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")`)
	// tailID is a request's id written last, at the top level.
	tailID = regexp.MustCompile(`"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")\s*\}\s*$`)
)

// field is re's match in the message's first bytes, else in its last.
func (tl *tooLargeError) field(re *regexp.Regexp) [][]byte {
	if m := re.FindSubmatch(tl.head); m != nil {
		return m
	}
	return re.FindSubmatch(tl.tail)
}

// tooLarge answers a message that was skipped for its size: a request
// gets an error; a document opened, changed or saved with a text over the
// limit is reported as not read (RL003, as lint reports a file over the
// limit), and its text is not kept.
func (s *server) tooLarge(tl *tooLargeError) error {
	id := headID.FindSubmatch(tl.head)
	if id == nil {
		id = tailID.FindSubmatch(tl.tail)
	}
	if id != nil && s.init {
		return s.c.replyError(json.RawMessage(id[1]), codeInvalidRequest, "the message is %d bytes, larger than the limit of %d", tl.size, maxMessage)
	}
	m, u := tl.field(headMethod), tl.field(headURI)
	if m == nil || u == nil || !s.init {
		return nil
	}
	var uri string
	if json.Unmarshal(u[1], &uri) != nil {
		return nil
	}
	switch string(m[1]) {
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didSave":
	default:
		return nil
	}
	d := s.docs[uri]
	if d == nil {
		d = &document{uri: uri, osPath: osPathOf(uri)}
		s.put(d)
	}
	d.text, d.starts, d.res, d.tooLarge = nil, nil, Result{}, true
	return s.changed(d, false)
}

// checkTooLarge reports a document whose text was too large to hold,
// when it is a file resumelint checks.
func (s *server) checkTooLarge(d *document) {
	d.res, d.starts = Result{}, nil
	if s.eng.Checks(d.osPath) {
		fd := load.TooLarge(&load.File{Path: d.osPath}, -1, load.DefaultLimits)
		if d.overBudget {
			fd.Message = fmt.Sprintf("the open documents hold more than %d MiB of text; not read: close some and reopen this one", maxHeld>>20)
		}
		d.diags = append(d.diags, diagnostic{Severity: severityError, Code: fd.Code, CodeDescription: ruleLink(fd.Code),
			Source: "resumelint", Message: fd.Message + " [" + fd.Code + " input-limits]"})
	}
}
