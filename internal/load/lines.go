package load

import (
	"slices"
	"unicode/utf8"
)

// A minified JSON file or a long flow list puts thousands of nodes on one
// line. Locating a finding by its character column must then not cost the
// length of the line each time (n findings would cost n × the line), so
// long lines get an index, built once per line: the byte offset of every
// blockRunes-th character and the flow-bracket depth at every
// blockRunes-th byte. Short lines are scanned directly.
const (
	blockRunes = 64
	longLine   = 512 // bytes; shorter lines are scanned without an index
)

// lineIndex answers column questions about one long line.
type lineIndex struct {
	text  []byte // a slice of the file's bytes, or a copy of a kept line
	ascii bool
	marks []int32 // byte offset of character k*blockRunes (non-ASCII lines)
	depth []int32 // [ { minus ] } before byte k*blockRunes
}

func newLineIndex(text []byte) *lineIndex {
	ix := &lineIndex{text: text, ascii: true}
	for i := 0; i < len(text); i++ {
		if text[i] >= utf8.RuneSelf {
			ix.ascii = false
			break
		}
	}
	if !ix.ascii {
		r := 0
		for off := 0; off < len(text); r++ {
			if r%blockRunes == 0 {
				ix.marks = append(ix.marks, int32(off))
			}
			_, w := utf8.DecodeRune(text[off:])
			off += w
		}
	}
	ix.depth = make([]int32, 0, len(text)/blockRunes+1)
	d := int32(0)
	for i := 0; i < len(text); i++ {
		if i%blockRunes == 0 {
			ix.depth = append(ix.depth, d)
		}
		d += bracket(text[i])
	}
	return ix
}

func bracket(c byte) int32 {
	switch c {
	case '[', '{':
		return 1
	case ']', '}':
		return -1
	}
	return 0
}

// offset is the byte offset of 0-based character i, false past the end.
func (ix *lineIndex) offset(i int) (int, bool) {
	if i < 0 {
		return 0, false
	}
	if ix.ascii {
		return i, i < len(ix.text)
	}
	b := i / blockRunes
	if b >= len(ix.marks) {
		return len(ix.text), false
	}
	return skipRunes(ix.text, int(ix.marks[b]), i%blockRunes)
}

// skipRunes advances off over n characters of s.
func skipRunes(s []byte, off, n int) (int, bool) {
	for ; n > 0 && off < len(s); n-- {
		_, w := utf8.DecodeRune(s[off:])
		off += w
	}
	return off, off < len(s)
}

// inFlow reports whether more brackets open than close before byte off.
func (ix *lineIndex) inFlow(off int) bool {
	if off <= 0 {
		return false
	}
	off = min(off, len(ix.text))
	b := min(off/blockRunes, len(ix.depth)-1)
	d := ix.depth[b]
	for i := b * blockRunes; i < off; i++ {
		d += bracket(ix.text[i])
	}
	return d > 0
}

// lineIndexOf returns line n's index: cached for long lines, built afresh
// for short ones (whose scan is bounded). The text is the file's while its
// bytes are read, else the line Release kept.
func (f *File) lineIndexOf(n int) *lineIndex {
	if ix, ok := f.lineIx[n]; ok {
		return ix
	}
	text, ok := f.lineBytes(n)
	if !ok {
		return nil
	}
	ix := newLineIndex(text)
	if len(text) >= longLine {
		if f.lineIx == nil {
			f.lineIx = map[int]*lineIndex{}
		}
		f.lineIx[n] = ix
	}
	return ix
}

// LineAt returns the text of line n and the byte offset in it of 1-based
// character column col, in time independent of the line's length once the
// line was seen (ok is false when the line is unknown or shorter). Use it
// rather than converting the line to runes: findings on one long line
// would cost the line's length each. The text is read-only and valid
// until Release.
func (f *File) LineAt(n, col int) (text []byte, off int, ok bool) {
	ix := f.lineIndexOf(n)
	if ix == nil {
		return nil, 0, false
	}
	off, ok = ix.offset(col - 1)
	return ix.text, off, ok
}

// InFlow guesses whether byte off of line n sits inside a flow collection
// (more [ { than ] } before it on that line).
func (f *File) InFlow(n, off int) bool {
	ix := f.lineIndexOf(n)
	return ix != nil && ix.inFlow(off)
}

// lineBytes is line n without its line ending: a slice of the file's
// bytes while they are read.
func (f *File) lineBytes(n int) ([]byte, bool) {
	if f.Data == nil {
		return nil, false
	}
	ls := f.LineStarts()
	if n < 1 || n > len(ls) {
		return nil, false
	}
	start, end := ls[n-1], len(f.Data)
	if n < len(ls) {
		end = ls[n] - 1
	}
	if end > start && f.Data[end-1] == '\r' {
		end--
	}
	return slices.Clip(f.Data[start:max(start, end)]), true
}
