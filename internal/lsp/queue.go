package lsp

import (
	"encoding/json"
	"sync"
)

// The server asks for whole texts (textDocumentSync Full): an editor sends
// a document's whole text at every keystroke. While a lint of a large
// document runs, those messages wait in the queue; each makes the ones
// before it useless, so a didChange that sends a whole text takes the
// place of the didChange of the same document queued just before it
// (item.replace), and the queue holds one text of the document, not one
// per keystroke. Whatever the messages, the queue holds at most maxQueued
// bytes of them (and queueSize messages).

// maxQueued bounds the bytes of the messages read and not yet handled:
// past it the reader waits for the handler, as it does past queueSize
// messages. A message larger than it waits alone.
var maxQueued = 32 << 20 // a variable for the tests

// item is one message for the handler, or one skipped for its size
// (tl). size is the bytes it holds of maxQueued; uri is the document of
// a didChange ("" for any other message). Until the handler takes it,
// the reader may replace its message.
type item struct {
	mu    sync.Mutex
	m     *message
	tl    *tooLargeError
	size  int
	uri   string
	taken bool
}

// take hands the item to the handler: it is replaced no more.
func (it *item) take() (*message, *tooLargeError, int) {
	it.mu.Lock()
	defer it.mu.Unlock()
	it.taken = true
	return it.m, it.tl, it.size
}

// replace puts m, a didChange that sends the whole text of the document
// at uri, in place of the item's message when that is a didChange of the
// same document not yet taken: the edits before a whole text change
// nothing, and no message lies between the two (the item was queued
// last). It returns the size replaced.
func (it *item) replace(uri string, m *message, size int) (int, bool) {
	it.mu.Lock()
	defer it.mu.Unlock()
	if it.taken || it.uri == "" || it.uri != uri {
		return 0, false
	}
	old := it.size
	it.m, it.size = m, size
	return old, true
}

// changeOf decodes a didChange's params (the handler takes them from
// the message: its text is decoded once) and returns its document, and
// whether one of its changes sends the whole text (after which the text
// before it does not matter).
func changeOf(m *message) (uri string, whole bool) {
	if m.Method != "textDocument/didChange" || isRequest(m) {
		return "", false
	}
	var p didChangeParams
	if json.Unmarshal(m.Params, &p) != nil || p.TextDocument.URI == "" {
		return "", false
	}
	m.change, m.Params = &p, nil
	for _, ch := range p.ContentChanges {
		if ch.Range == nil {
			return p.TextDocument.URI, true
		}
	}
	return p.TextDocument.URI, false
}

// queued counts the bytes of the messages in the queue.
type queued struct {
	mu   sync.Mutex
	cond sync.Cond
	n    int
}

// take waits until size bytes fit in maxQueued, or the queue is empty,
// and counts them.
func (b *queued) take(size int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.n > 0 && b.n+size > maxQueued {
		b.cond.Wait()
	}
	b.n += size
}

// give releases the bytes of a message handled.
func (b *queued) give(size int) {
	b.mu.Lock()
	b.n -= size
	b.mu.Unlock()
	b.cond.Broadcast()
}

// swap counts a message that replaced another in the queue.
func (b *queued) swap(old, size int) {
	b.mu.Lock()
	b.n += size - old
	b.mu.Unlock()
	b.cond.Broadcast()
}
