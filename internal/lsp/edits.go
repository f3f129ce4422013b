package lsp

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// A didChange may carry many range edits, each against the text the
// previous one left. Applying each to the whole text (finding its lines
// and copying it) costs the document's size per edit; editText keeps the
// text in chunks of about chunkSize bytes, each with its count of lines
// and UTF-16 units, so an edit costs the chunks it walks past plus the one
// or two it changes: one message's edits cost about the document's size
// plus, per edit, its chunk and the chunk list, not the whole text.
//
// The text is valid UTF-8 (it came from JSON strings), and every edit
// lands on a rune boundary, so each chunk decodes alone as it does inside
// the text.

// chunkSize is the size a chunk is cut to; a chunk over twice it is cut.
var chunkSize = 4 << 10

type chunk struct {
	b         []byte
	nl, units int // line feeds, UTF-16 units
}

func newChunk(b []byte) chunk {
	units := utf8.RuneCount(b)
	for _, c := range b {
		if c >= 0xF0 { // a rune outside the BMP: two units
			units++
		}
	}
	return chunk{b: b, nl: bytes.Count(b, []byte{'\n'}), units: units}
}

type editText struct {
	chunks []chunk
	size   int
}

// cut appends b to chunks in pieces of about chunkSize bytes, cut at rune
// starts. The pieces share b's array, capped so that none grows into the
// next.
func cut(chunks []chunk, b []byte) []chunk {
	for len(b) > 0 {
		n := min(chunkSize, len(b))
		for n < len(b) && !utf8.RuneStart(b[n]) {
			n++
		}
		chunks = append(chunks, newChunk(b[:n:n]))
		b = b[n:]
	}
	return chunks
}

func newEditText(text []byte) *editText {
	t := &editText{chunks: cut(nil, text), size: len(text)}
	if len(t.chunks) == 0 {
		t.chunks = []chunk{{}}
	}
	return t
}

func (t *editText) bytes() []byte {
	out := make([]byte, 0, t.size)
	for _, c := range t.chunks {
		out = append(out, c.b...)
	}
	return out
}

// cursor is a byte in the text: chunk ci, offset off in it (off may be
// the chunk's length).
type cursor struct{ ci, off int }

func (a cursor) before(b cursor) bool { return a.ci < b.ci || (a.ci == b.ci && a.off < b.off) }

// byteAt returns the byte at c and whether there is one.
func (t *editText) byteAt(c cursor) (byte, bool) {
	for ; c.ci < len(t.chunks); c.ci, c.off = c.ci+1, 0 {
		if c.off < len(t.chunks[c.ci].b) {
			return t.chunks[c.ci].b[c.off], true
		}
	}
	return 0, false
}

// end is the cursor past the last byte.
func (t *editText) end() cursor {
	last := len(t.chunks) - 1
	return cursor{last, len(t.chunks[last].b)}
}

// pos finds an LSP position as posOffset does: clamped to its line, whose
// end is before its line feed (and a carriage return before that); a
// line past the last is the end of the text.
func (t *editText) pos(p position) cursor {
	if p.Line < 0 {
		return cursor{}
	}
	// The line's start: just past its p.Line'th line feed.
	var c cursor
	if p.Line > 0 {
		need, i := p.Line, 0
		for ; i < len(t.chunks) && t.chunks[i].nl < need; i++ {
			need -= t.chunks[i].nl
		}
		if i == len(t.chunks) {
			return t.end()
		}
		b, off := t.chunks[i].b, 0
		for ; need > 0; need-- {
			off += bytes.IndexByte(b[off:], '\n') + 1
		}
		c = cursor{i, off}
	}
	// Walk p.Character units, stopping at the line's end.
	left := p.Character
	for c.ci < len(t.chunks) {
		ch := &t.chunks[c.ci]
		if c.off == 0 && ch.nl == 0 && ch.units <= left && !t.crlfAt(c.ci) {
			left -= ch.units // the whole chunk is in the line
			if c.ci+1 == len(t.chunks) {
				return cursor{c.ci, len(ch.b)}
			}
			c = cursor{c.ci + 1, 0}
			continue
		}
		for c.off < len(ch.b) {
			if left <= 0 {
				return c
			}
			r, size := utf8.DecodeRune(ch.b[c.off:])
			if r == '\n' {
				return c
			}
			if r == '\r' {
				if nb, ok := t.byteAt(cursor{c.ci, c.off + 1}); ok && nb == '\n' {
					return c
				}
			}
			left -= utf16Len(r)
			c.off += size
		}
		if c.ci+1 == len(t.chunks) {
			return c
		}
		c = cursor{c.ci + 1, 0}
	}
	return c
}

// crlfAt reports whether chunk i ends with a carriage return whose line
// feed starts a later chunk: the line ends before it.
func (t *editText) crlfAt(i int) bool {
	b := t.chunks[i].b
	if len(b) == 0 || b[len(b)-1] != '\r' {
		return false
	}
	nb, ok := t.byteAt(cursor{i + 1, 0})
	return ok && nb == '\n'
}

// replace puts s in place of the bytes from a to b.
func (t *editText) replace(a, b cursor, s string) {
	if b.before(a) {
		a, b = b, a
	}
	head := t.chunks[a.ci].b[:a.off]
	tail := t.chunks[b.ci].b[b.off:]
	removed := 0
	for i := a.ci; i <= b.ci; i++ {
		removed += len(t.chunks[i].b)
	}
	joined := make([]byte, 0, len(head)+len(s)+len(tail))
	joined = append(append(append(joined, head...), s...), tail...)
	t.size += len(joined) - removed
	var mid []chunk
	if len(joined) <= 2*chunkSize {
		if len(joined) > 0 {
			mid = []chunk{newChunk(joined)}
		}
	} else {
		mid = cut(nil, joined)
	}
	if len(mid) == 1 && a.ci == b.ci {
		t.chunks[a.ci] = mid[0]
		return
	}
	t.chunks = slices.Replace(t.chunks, a.ci, b.ci+1, mid...)
	if len(t.chunks) == 0 {
		t.chunks = []chunk{{}}
	}
}

// applyRangeChanges applies range edits in order, each to the text the
// previous one left, as applyRangeChange would one by one. It stops,
// with over set, once the text is larger than limit (what remains of the
// edits is not applied).
func applyRangeChanges(text []byte, changes []rangeChange, limit int) (out []byte, over bool) {
	valid := utf8.Valid(text)
	for _, ch := range changes {
		valid = valid && utf8.ValidString(ch.text)
	}
	if !valid { // not from JSON: edit the bytes as they are
		for _, ch := range changes {
			text = applyRangeChange(text, ch.r, ch.text)
			if len(text) > limit {
				return nil, true
			}
		}
		return text, false
	}
	t := newEditText(text)
	for _, ch := range changes {
		t.replace(t.pos(ch.r.Start), t.pos(ch.r.End), ch.text)
		if t.size > limit {
			return nil, true
		}
	}
	return t.bytes(), false
}

// rangeChange is one range edit of a didChange.
type rangeChange struct {
	r    lspRange
	text string
}
