package report

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/fatih/color"
	"golang.org/x/text/width"

	"github.com/resumelint/resumelint/internal/diag"
)

// snippetRunes is how many characters of a finding's line the text
// report shows; maskReach is how far past them the secret mask reads, so
// a credential cut at the edge is still recognised.
const (
	snippetRunes = 200
	maskReach    = snippetRunes + 4096
)

// textPaint is the text report's colours, each as the bytes written
// before and after what it paints (none without colour). Thousands of
// findings are written after every unit is checked: appended, not
// formatted, a finding costs a few allocations instead of a hundred.
type textPaint struct {
	bold, red, yellow, gray, green [2]string
}

func newTextPaint(on bool) *textPaint {
	paint := func(attrs ...color.Attribute) [2]string {
		c := color.New(attrs...)
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		// What the colour writes around a NUL, which it writes as is.
		before, after, _ := strings.Cut(c.Sprint("\x00"), "\x00")
		return [2]string{before, after}
	}
	return &textPaint{bold: paint(color.Bold), red: paint(color.FgRed, color.Bold), yellow: paint(color.FgYellow, color.Bold),
		gray: paint(color.FgHiBlack), green: paint(color.FgGreen)}
}

// head writes "path:line:col: severity: message [CODE name]". Paths and
// messages come from the repository: escaped, so none can move the
// cursor or start a line of its own; the path, which starts the line,
// is a safe line (diag.SafeLine: masked, and a leading "::" that GitHub
// Actions would run as a workflow command shown as \x3a).
func (p *textPaint) head(sb *bytes.Buffer, f *diag.Finding) {
	b := sb.AvailableBuffer()
	b = append(b, p.bold[0]...)
	b = append(b, diag.SafeLine(f.Path)...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(f.Start.Line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(f.Start.Col), 10)
	b = append(b, p.bold[1]...)
	b = append(b, ": "...)
	sev := p.yellow
	if f.Severity == diag.SevError {
		sev = p.red
	}
	b = append(b, sev[0]...)
	b = append(b, f.Severity.String()...)
	b = append(b, sev[1]...)
	b = append(b, ": "...)
	b = append(b, diag.Escape(f.Message)...)
	b = append(b, ' ')
	b = append(b, p.gray[0]...)
	b = append(b, '[')
	b = append(b, f.Code...)
	b = append(b, ' ')
	b = append(b, f.Name...)
	b = append(b, ']')
	b = append(b, p.gray[1]...)
	b = append(b, '\n')
	sb.Write(b)
}

// snippet writes the finding's source line, numbered, and a caret under
// its span. masks are the located secrets' character ranges on the line.
func (p *textPaint) snippet(sb *bytes.Buffer, f *diag.Finding, masks [][2]int, long *longLine) {
	if long != nil {
		if g, text, shifted, ok := long.window(f, masks); ok {
			p.runeSnippet(sb, g, text, shifted)
			return
		}
	}
	// Not the whole line (findings on one long line), but the mask reads
	// past what is shown: located secrets by their ranges, and whatever
	// else has a credential's shape (RL005 may be off).
	text := f.Snippet
	if len(text) > maskReach || !utf8.ValidString(text) {
		text = string(headRunes(text, maskReach))
	}
	masked := diag.MaskInPlace(text)
	if len(masks) == 0 && plainASCII(masked, snippetRunes) {
		p.plainSnippet(sb, f, masked[:min(len(masked), snippetRunes)])
		return
	}
	p.runeSnippet(sb, f, masked, masks)
}

// runeSnippet is snippet for any line: each character escaped on its
// own, so the caret lines up under it, and the located secrets masked.
func (p *textPaint) runeSnippet(sb *bytes.Buffer, f *diag.Finding, masked string, masks [][2]int) {
	var runes [snippetRunes]rune
	line := runes[:0]
	for _, r := range masked {
		if len(line) == snippetRunes {
			break
		}
		line = append(line, r)
	}
	for _, m := range masks {
		if m[0] >= len(line) {
			break // sorted by start: the rest begin past what is shown
		}
		for i := max(m[0], 0); i < m[1] && i < len(line); i++ {
			line[i] = '*'
		}
	}
	b := p.lineHead(sb.AvailableBuffer(), f.Start.Line)
	// Each character escaped on its own, so the caret lines up under it.
	var widths [snippetRunes]uint8
	for i, r := range line {
		if e := diag.RuneEscape(r); e != "" {
			b = append(b, e...)
			widths[i] = uint8(len(e))
		} else {
			b = utf8.AppendRune(b, r)
			widths[i] = cellWidth(r)
		}
	}
	b = p.caretHead(b, f.Start.Line)
	for i := 0; i < f.Start.Col-1 && i < len(line); i++ {
		if line[i] == '\t' {
			b = append(b, '\t')
		} else {
			for range widths[i] {
				b = append(b, ' ')
			}
		}
	}
	width := 1
	if f.End.Line == f.Start.Line && f.End.Col > f.Start.Col {
		width = 0
		for i := f.Start.Col - 1; i < f.End.Col-1; i++ {
			if i >= 0 && i < len(line) {
				width += int(widths[i])
			} else {
				width++
			}
		}
	}
	sb.Write(p.caret(b, width))
}

// cellWidth is how many columns a terminal gives the character r, which
// shows as itself: two for a wide East Asian character or an emoji, none
// for a combining mark or an invisible format character, else one. The
// caret line is padded by these widths, so it sits under the column.
func cellWidth(r rune) uint8 {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// lineHead appends the gutter above a snippet's line and the line's
// number: what comes before its text.
func (p *textPaint) lineHead(b []byte, num int) []byte {
	b = p.rule(b, num)
	b = append(b, '\n')
	b = append(b, p.gray[0]...)
	b = strconv.AppendInt(b, int64(num), 10)
	b = append(b, p.gray[1]...)
	b = append(b, ' ')
	b = p.paint(b, p.gray, "|")
	return append(b, ' ')
}

// caretHead ends a snippet's line and appends the gutter of the caret's
// line under it.
func (p *textPaint) caretHead(b []byte, num int) []byte {
	b = append(b, '\n')
	b = p.rule(b, num)
	return append(b, ' ')
}

// caret appends the caret and its tildes, width columns in all, and
// ends the snippet's last line.
func (p *textPaint) caret(b []byte, width int) []byte {
	b = append(b, p.green[0]...)
	b = append(b, '^')
	for range width - 1 {
		b = append(b, '~')
	}
	b = append(b, p.green[1]...)
	return append(b, '\n')
}

// windowLead is how many characters before a finding's column the text
// report shows of a line too long to show its column from the start.
const windowLead = 60

// longLine is a line longer than the text report shows, holding findings
// past what it shows (a minified JSON file, a single-line bundle file):
// their snippets show a window of it around each finding's column, cut
// from the line masked once, however many findings it holds.
type longLine struct {
	text  string
	once  sync.Once
	chars int     // characters of masked
	marks []int32 // byte offset in masked of character k*markEvery
	// masked is text, valid UTF-8 (an invalid byte as U+FFFD, one
	// character, as columns count it) and its credentials masked
	// character for character.
	masked string
}

const markEvery = 64

// longLinesOf returns the lines of fs to show by windows: those whose
// findings start past what a snippet shows from the line's start.
func longLinesOf(fs []diag.Finding) map[maskKey]*longLine {
	var out map[maskKey]*longLine
	for i := range fs {
		f := &fs[i]
		if !f.HasSnippet || f.Start.Col <= snippetRunes || len(f.Snippet) <= snippetRunes {
			continue
		}
		k := maskKey{f.Path, f.Start.Line}
		if out == nil {
			out = map[maskKey]*longLine{}
		}
		if out[k] == nil {
			out[k] = &longLine{text: f.Snippet}
		}
	}
	return out
}

// index masks the line and marks its characters, once, by whichever
// report worker first needs it.
func (l *longLine) index() {
	l.once.Do(func() {
		s := l.text
		if !utf8.ValidString(s) {
			s = string([]rune(s))
		}
		l.masked = diag.MaskInPlace(s)
		for off := 0; off < len(l.masked); l.chars++ {
			if l.chars%markEvery == 0 {
				l.marks = append(l.marks, int32(off))
			}
			if c := l.masked[off]; c < utf8.RuneSelf {
				off++
			} else {
				_, w := utf8.DecodeRuneInString(l.masked[off:])
				off += w
			}
		}
	})
}

// offset is the byte offset in masked of character i (0 <= i <= chars).
func (l *longLine) offset(i int) int {
	if i >= l.chars {
		return len(l.masked)
	}
	off := int(l.marks[i/markEvery])
	for n := i % markEvery; n > 0; n-- {
		_, w := utf8.DecodeRuneInString(l.masked[off:])
		off += w
	}
	return off
}

// window returns the finding, text and located-secret masks of the
// window of the line around f's column: "…", then windowLead characters
// before the column and what follows, as many as a snippet shows, with
// f's columns and the masks moved to it. ok is false when the line, in
// characters, fits a snippet whole.
func (l *longLine) window(f *diag.Finding, masks [][2]int) (g *diag.Finding, text string, shifted [][2]int, ok bool) {
	l.index()
	if l.chars <= snippetRunes || f.Start.Col <= snippetRunes {
		return nil, "", nil, false
	}
	// From the first character shown: past the line's end, the last
	// snippetRunes-1 characters.
	from := min(f.Start.Col-1-windowLead, l.chars-(snippetRunes-1))
	text = "…" + l.masked[l.offset(from):l.offset(from+snippetRunes-1)]
	moved := *f
	moved.Start.Col -= from - 1
	if moved.End.Line == f.Start.Line {
		moved.End.Col -= from - 1
	}
	for _, m := range masks {
		a, b := max(m[0]-from+1, 1), m[1]-from+1
		if b > a {
			shifted = append(shifted, [2]int{a, b})
		}
	}
	return &moved, text, shifted, true
}

// plainASCII reports whether the first n bytes of s are printable ASCII
// or tabs: each then shows as itself, one column wide, so the snippet
// needs no per-character escaping (most lines of state files).
func plainASCII(s string, n int) bool {
	for i := range min(len(s), n) {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// plainSnippet is snippet for a line that plainASCII accepts and no
// located secret masks: what snippet writes for it, without a rune at a
// time.
func (p *textPaint) plainSnippet(sb *bytes.Buffer, f *diag.Finding, line string) {
	b := p.lineHead(sb.AvailableBuffer(), f.Start.Line)
	b = append(b, line...)
	b = p.caretHead(b, f.Start.Line)
	for i := 0; i < f.Start.Col-1 && i < len(line); i++ {
		if line[i] == '\t' {
			b = append(b, '\t')
		} else {
			b = append(b, ' ')
		}
	}
	width := 1
	if f.End.Line == f.Start.Line && f.End.Col > f.Start.Col {
		width = f.End.Col - f.Start.Col
	}
	sb.Write(p.caret(b, width))
}

// rule appends the gutter of a line with no number: as many spaces as
// num has digits, and a bar.
func (p *textPaint) rule(b []byte, num int) []byte {
	var digits [20]byte
	for range len(strconv.AppendInt(digits[:0], int64(num), 10)) {
		b = append(b, ' ')
	}
	b = append(b, ' ')
	return p.paint(b, p.gray, "|")
}

// paint appends s in colour c.
func (p *textPaint) paint(b []byte, c [2]string, s string) []byte {
	b = append(b, c[0]...)
	b = append(b, s...)
	return append(b, c[1]...)
}
