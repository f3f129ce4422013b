package lsp

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// endless yields prefix, then fill forever (up to limit bytes, so a server
// that does not stop still ends), counting what was read.
type endless struct {
	prefix []byte
	fill   []byte
	n      int64
	limit  int64
}

func (r *endless) Read(p []byte) (int, error) {
	if r.n >= r.limit {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.n < r.limit {
		var b byte
		if r.n < int64(len(r.prefix)) {
			b = r.prefix[r.n]
		} else {
			b = r.fill[(r.n-int64(len(r.prefix)))%int64(len(r.fill))]
		}
		p[k] = b
		k++
		r.n++
	}
	return k, nil
}

// TestHeaderIsBounded: a header line that never ends, or header lines
// that never stop, fail the connection once past the bound, with the
// reason on the log, having read no more than the reader's buffer.
func TestHeaderIsBounded(t *testing.T) {
	for _, tc := range []struct {
		name         string
		prefix, fill string
	}{
		{"one endless line", "X-Junk: ", "a"},
		{"endless short lines", "", "X: a\r\n"},
		{"endless lines after a Content-Length", "Content-Length: 2\r\n", "X: a\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &endless{prefix: []byte(tc.prefix), fill: []byte(tc.fill), limit: 64 << 20}
			var log bytes.Buffer
			code := Serve(r, io.Discard, &log, &fakeEngine{}, "test")
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if !strings.Contains(log.String(), "header is longer than") {
				t.Errorf("log = %q, want the header's bound", log.String())
			}
			if r.n > 1<<20 {
				t.Errorf("read %d bytes of a header; want it stopped near %d", r.n, maxHeader)
			}
		})
	}
}

// TestHeaderForms: LF-only lines, any case and extra fields are read as
// before.
func TestHeaderForms(t *testing.T) {
	body := `{"jsonrpc":"2.0","method":"exit"}`
	for _, h := range []string{
		"Content-Length: 33\r\n\r\n",
		"content-length:33\n\n",
		"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:  33 \r\n\r\n",
	} {
		c := newConn(strings.NewReader(h+body), io.Discard)
		got, err := c.read()
		if err != nil || string(got) != body {
			t.Errorf("%q: read %q, %v", h, got, err)
		}
	}
	c := newConn(strings.NewReader("Content-Length 33\r\n\r\n"+body), io.Discard)
	if _, err := c.read(); err == nil {
		t.Error("a header line without a colon was read")
	}
}
