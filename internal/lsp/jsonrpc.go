// Package lsp is resumelint's language server: the subset of the Language
// Server Protocol 3.17 an editor needs for a linter (diagnostics, code
// actions for fixes, hover with the rule page), over JSON-RPC 2.0 on
// stdio, written with the standard library alone.
//
// The linting itself comes from an Engine (internal/cli provides the one
// that runs the same engine and configuration as `resumelint lint`).
package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// maxMessage bounds one message held in memory: a document of the
// largest file resumelint reads (8 MiB), JSON-escaped, fits. A larger
// message is skipped as it arrives, keeping only its first and last
// peekSize bytes to tell which document it was (tooLargeError).
const maxMessage = 24 << 20

// peekSize is what is kept of each end of a message over maxMessage.
const peekSize = 64 << 10

// tooLargeError is a message over maxMessage, skipped: its size, its
// first bytes and its last (a client that writes the document's text
// before its URI, or params before the method, names them at the end).
type tooLargeError struct {
	size       int64
	head, tail []byte
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("message of %d bytes is larger than %d; skipped", e.size, maxMessage)
}

// message is a JSON-RPC 2.0 request, notification or response.
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
	// change is a didChange's Params, decoded as it was read (changeOf).
	change *didChangeParams
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// JSON-RPC and LSP error codes.
const (
	codeParseError       = -32700
	codeInvalidRequest   = -32600
	codeMethodNotFound   = -32601
	codeInvalidParams    = -32602
	codeServerNotInit    = -32002
	codeInvalidAfterShut = -32600
	codeInternalError    = -32603
	codeRequestCancelled = -32800
)

// conn reads and writes framed messages (Content-Length headers), and
// makes sure each request gets one answer: the handler's, or the
// RequestCancelled error when the client cancels it first.
type conn struct {
	r  *bufio.Reader
	mu sync.Mutex
	w  io.Writer
	// open holds the requests read and not yet answered, by ID; true once
	// cancelled (answered already). It holds at most the queue's requests
	// and the one running.
	omu  sync.Mutex
	open map[string]bool
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReaderSize(r, 64<<10), w: w, open: map[string]bool{}}
}

// track records a request read, to be answered once.
func (c *conn) track(id json.RawMessage) {
	c.omu.Lock()
	c.open[string(id)] = false
	c.omu.Unlock()
}

// cancel answers an open request with RequestCancelled; the handler's
// answer, if it comes later, is dropped. An answered or unknown request
// is left alone, as the protocol asks.
func (c *conn) cancel(id json.RawMessage) error {
	c.omu.Lock()
	done, ok := c.open[string(id)]
	if ok && !done {
		c.open[string(id)] = true
	}
	c.omu.Unlock()
	if !ok || done {
		return nil
	}
	return c.write(&message{ID: id, Error: &rpcError{Code: codeRequestCancelled, Message: "the request was cancelled"}})
}

// cancelled reports whether the client cancelled a request still open.
func (c *conn) cancelled(id json.RawMessage) bool {
	c.omu.Lock()
	defer c.omu.Unlock()
	return c.open[string(id)]
}

// claim closes a request for its answer: false when it was cancelled
// (answered already). Requests not tracked are always answered.
func (c *conn) claim(id json.RawMessage) bool {
	c.omu.Lock()
	defer c.omu.Unlock()
	done, ok := c.open[string(id)]
	delete(c.open, string(id))
	return !ok || !done
}

// unanswered closes a request after its handler ran and reports whether
// it still needs an answer.
func (c *conn) unanswered(id json.RawMessage) bool {
	c.omu.Lock()
	defer c.omu.Unlock()
	done, ok := c.open[string(id)]
	delete(c.open, string(id))
	return ok && !done
}

// LSP headers are tiny (Content-Length and Content-Type): a header
// longer than maxHeader bytes or than maxHeaderLines lines is no client's,
// and the connection fails rather than holding it.
const (
	maxHeader      = 4 << 10
	maxHeaderLines = 16
)

// errHeaderTooLarge fails a connection whose header is over the bounds.
var errHeaderTooLarge = fmt.Errorf("the message header is longer than %d bytes or %d lines; closing the connection", maxHeader, maxHeaderLines)

// readHeader reads a message's header up to its blank line, reading at
// most maxHeader bytes: its Content-Length value. Lines end in CRLF or LF;
// names are case-insensitive, as textproto has them.
func (c *conn) readHeader() (string, error) {
	var line []byte
	cl, size, lines := "", 0, 0
	for {
		b, err := c.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if size == 0 {
					return "", io.EOF
				}
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		if size++; size > maxHeader {
			return "", errHeaderTooLarge
		}
		if b != '\n' {
			line = append(line, b)
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			return cl, nil
		}
		if lines++; lines > maxHeaderLines {
			return "", errHeaderTooLarge
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return "", fmt.Errorf("malformed header line %q", line)
		}
		if strings.EqualFold(string(bytes.TrimSpace(name)), "Content-Length") {
			cl = string(bytes.TrimSpace(value))
		}
		line = line[:0]
	}
}

// read returns the next message's body.
func (c *conn) read() ([]byte, error) {
	cl, err := c.readHeader()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("reading the message header: %w", err)
	}
	n, err := strconv.Atoi(cl)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("bad Content-Length %q", cl)
	}
	if n > maxMessage {
		// Skipped as it arrives: memory does not grow with the message.
		head := make([]byte, peekSize)
		if _, err := io.ReadFull(c.r, head); err != nil {
			return nil, fmt.Errorf("reading the message body: %w", err)
		}
		if _, err := io.CopyN(io.Discard, c.r, int64(n-2*peekSize)); err != nil {
			return nil, fmt.Errorf("reading the message body: %w", err)
		}
		tail := make([]byte, peekSize)
		if _, err := io.ReadFull(c.r, tail); err != nil {
			return nil, fmt.Errorf("reading the message body: %w", err)
		}
		return nil, &tooLargeError{size: int64(n), head: head, tail: tail}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return nil, fmt.Errorf("reading the message body: %w", err)
	}
	return body, nil
}

// write sends one message.
func (c *conn) write(m *message) error {
	m.JSONRPC = "2.0"
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(data)); err != nil {
		return err
	}
	_, err = c.w.Write(data)
	return err
}

func (c *conn) reply(id json.RawMessage, result any) error {
	if !c.claim(id) {
		return nil
	}
	data, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return c.write(&message{ID: id, Result: data})
}

func (c *conn) replyError(id json.RawMessage, code int, format string, args ...any) error {
	if !c.claim(id) {
		return nil
	}
	return c.write(&message{ID: id, Error: &rpcError{Code: code, Message: fmt.Sprintf(format, args...)}})
}

func (c *conn) notify(method string, params any) error {
	data, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return c.write(&message{Method: method, Params: data})
}

func (c *conn) request(id int, method string, params any) error {
	data, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return c.write(&message{ID: json.RawMessage(strconv.Itoa(id)), Method: method, Params: data})
}
