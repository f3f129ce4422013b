package fix

import (
	"bytes"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// src is a file's bytes seen as lines, for turning node positions into
// byte offsets and whole-line ranges.
type src struct {
	f    *load.File
	data []byte
	ls   []int
	eol  string
}

func newSrc(f *load.File) *src {
	s := &src{f: f, data: f.Data, ls: f.LineStarts(), eol: "\n"}
	if i := bytes.IndexByte(f.Data, '\n'); i > 0 && f.Data[i-1] == '\r' {
		s.eol = "\r\n"
	}
	return s
}

// lines is the number of lines, not counting the empty one after a final
// line break.
func (s *src) lines() int {
	n := len(s.ls)
	if n > 0 && s.ls[n-1] == len(s.data) {
		n--
	}
	return n
}

// start is the offset of the first byte of line l (1-based).
func (s *src) start(l int) int {
	if l < 1 {
		return 0
	}
	if l > len(s.ls) {
		return len(s.data)
	}
	return s.ls[l-1]
}

// next is the offset just after line l's line break (the start of l+1).
func (s *src) next(l int) int { return s.start(l + 1) }

// text is line l without its line break.
func (s *src) text(l int) string {
	a, b := s.start(l), s.next(l)
	t := string(s.data[a:b])
	t = strings.TrimSuffix(t, "\n")
	return strings.TrimSuffix(t, "\r")
}

func (s *src) indent(l int) int {
	t := s.text(l)
	return len(t) - len(strings.TrimLeft(t, " "))
}

// leading returns the text between the start of the line holding offset
// at and at, when it is only spaces and tabs.
func (s *src) leading(at int) (string, bool) {
	a := at
	for a > 0 && (s.data[a-1] == ' ' || s.data[a-1] == '\t') {
		a--
	}
	if a > 0 && s.data[a-1] != '\n' && s.data[a-1] != '\r' {
		return "", false
	}
	return string(s.data[a:at]), true
}

func (s *src) blank(l int) bool { return strings.TrimSpace(s.text(l)) == "" }

// comment reports a line holding only a comment.
func (s *src) comment(l int) bool {
	return strings.HasPrefix(strings.TrimLeft(s.text(l), " \t"), "#")
}

// off is the byte offset of a node's first character.
func (s *src) off(n *yaml.Node) int {
	return s.f.Offset(diag.Pos{Line: n.Line, Col: n.Column})
}

// lineText returns lines a..b (inclusive) with their line breaks; the last
// one gets a line break if the file lacks a final one.
func (s *src) lineText(a, b int) string {
	t := string(s.data[s.start(a):s.next(b)])
	if !strings.HasSuffix(t, "\n") {
		t += s.eol
	}
	return t
}

// scalarEnd returns the offset just after a single-line scalar's token
// (quotes included), or false for block, multi-line, tagged or anchored
// scalars, which fixes leave alone. inFlow tells a plain scalar inside
// [...] or {...}, where , ] } end it.
func (s *src) scalarEnd(n *yaml.Node, inFlow bool) (int, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Line == 0 {
		return 0, false
	}
	d := s.data
	a := s.off(n)
	if a >= len(d) {
		return 0, false
	}
	switch d[a] {
	case '|', '>', '&', '!', '*', '[', '{':
		return 0, false
	}
	end, closed := load.ScalarEnd(d, a, inFlow)
	if !closed {
		return 0, false
	}
	if d[a] != '"' && d[a] != '\'' && string(d[a:end]) != n.Value {
		return 0, false // a multi-line plain scalar, or not what the parser read
	}
	return end, true
}

// item is one key of a block mapping and the whole lines it spans.
type item struct {
	key, val *yaml.Node
	first    int // first line: its own comment lines directly above the key
	keyLine  int
	last     int // last line of its value (trailing blank and outdented comment lines excluded)
}

// items splits a block mapping into whole-line items. limit is the first
// line after the mapping (the next key of an enclosing mapping, or past the
// end of the file).
func (s *src) items(m *yaml.Node, limit int) []item {
	var out []item
	n := len(m.Content) / 2
	for i := 0; i < n; i++ {
		k, v := m.Content[2*i], m.Content[2*i+1]
		it := item{key: k, val: v, keyLine: k.Line, first: k.Line}
		end := limit
		if i+1 < n {
			end = m.Content[2*i+2].Line
		}
		ind := k.Column - 1
		last := end - 1
		for last > k.Line && (s.blank(last) || (s.comment(last) && s.indent(last) <= ind)) {
			last--
		}
		it.last = last
		for l := k.Line - 1; l >= 1; l-- {
			if !s.comment(l) || s.indent(l) != ind {
				break
			}
			if len(out) > 0 && l <= out[len(out)-1].last {
				break
			}
			it.first = l
		}
		out = append(out, it)
	}
	return out
}

// reindent shifts every non-blank line of text right by n spaces.
func reindent(text string, n int) string {
	if n <= 0 {
		return text
	}
	pad := strings.Repeat(" ", n)
	var b strings.Builder
	for _, ln := range strings.SplitAfter(text, "\n") {
		if strings.TrimSpace(ln) != "" {
			b.WriteString(pad)
		}
		b.WriteString(ln)
	}
	return b.String()
}

// style is how a file writes YAML, so inserted text looks like its own.
type style struct {
	indent    int  // spaces per nesting level
	seqIndent int  // spaces between a key and the '-' of its block list
	quote     byte // '"', '\'' or 0 for plain strings where YAML allows
	eol       string
	blankSep  bool // block-valued sub-sections are separated by a blank line
}

// detectStyle reads the indentation unit, list indentation and quoting of
// strings in section, falling back on the whole document.
func detectStyle(s *src, root, section *yaml.Node) style {
	st := style{indent: 2, seqIndent: 2, quote: '"', eol: s.eol}
	for _, n := range []*yaml.Node{section, root} {
		if n == nil {
			continue
		}
		if u, ok := indentUnit(n); ok {
			st.indent = u
			break
		}
	}
	st.seqIndent = st.indent
	for _, n := range []*yaml.Node{section, root} {
		if n == nil {
			continue
		}
		if u, ok := seqIndent(n); ok {
			st.seqIndent = u
			break
		}
	}
	for _, n := range []*yaml.Node{section, root} {
		if n == nil {
			continue
		}
		if q, ok := quoteStyle(n); ok {
			st.quote = q
			break
		}
	}
	return st
}

// mostCommon returns the most frequent value (the smallest on a tie).
func mostCommon(counts map[int]int) (int, bool) {
	best, bestN := 0, 0
	for v, c := range counts {
		if c > bestN || (c == bestN && v < best) {
			best, bestN = v, c
		}
	}
	return best, bestN > 0
}

func indentUnit(root *yaml.Node) (int, bool) {
	counts := map[int]int{}
	walkPairs(root, func(k, v *yaml.Node) {
		if v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Content[0].Line > k.Line {
			if d := v.Content[0].Column - k.Column; d > 0 {
				counts[d]++
			}
		}
	})
	return mostCommon(counts)
}

func seqIndent(root *yaml.Node) (int, bool) {
	counts := map[int]int{}
	walkPairs(root, func(k, v *yaml.Node) {
		if v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Line > k.Line {
			if d := v.Column - k.Column; d >= 0 {
				counts[d]++
			}
		}
	})
	return mostCommon(counts)
}

func quoteStyle(root *yaml.Node) (byte, bool) {
	var dq, sq, plain int
	walkPairs(root, func(k, v *yaml.Node) {
		count := func(n *yaml.Node) {
			if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
				return
			}
			switch {
			case n.Style&yaml.DoubleQuotedStyle != 0:
				dq++
			case n.Style&yaml.SingleQuotedStyle != 0:
				sq++
			case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
				plain++
			}
		}
		count(v)
		if v.Kind == yaml.SequenceNode {
			for _, c := range v.Content {
				count(c)
			}
		}
	})
	switch {
	case dq+sq+plain == 0:
		return 0, false
	case plain > dq && plain > sq:
		return 0, true
	case sq > dq:
		return '\'', true
	}
	return '"', true
}

// walkPairs calls fn for every key/value pair under n.
func walkPairs(n *yaml.Node, fn func(k, v *yaml.Node)) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			fn(n.Content[i], n.Content[i+1])
			walkPairs(n.Content[i+1], fn)
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			walkPairs(c, fn)
		}
	}
}

// str renders a string value in the file's quoting.
func (st style) str(v string) string { return st.scalar(v, false) }

// strFlow renders a string inside a flow collection.
func (st style) strFlow(v string) string { return st.scalar(v, true) }

func (st style) scalar(v string, flow bool) string {
	switch st.quote {
	case 0:
		if plainSafe(v, flow) {
			return v
		}
	case '\'':
		if !strings.ContainsAny(v, "\n\r\t") && strconv.IsPrint(firstNonPrint(v)) {
			return "'" + strings.ReplaceAll(v, "'", "''") + "'"
		}
	}
	return strconv.Quote(v)
}

// key renders a mapping key: plain when YAML reads it back unchanged.
func (st style) key(k string) string {
	if plainSafe(k, false) && !strings.Contains(k, ": ") {
		return k
	}
	return strconv.Quote(k)
}

func firstNonPrint(s string) rune {
	for _, r := range s {
		if !strconv.IsPrint(r) {
			return r
		}
	}
	return 'a'
}

// plainSafe reports whether v written without quotes reads back as the
// same string (not a number, boolean, null, timestamp, or broken syntax).
func plainSafe(v string, flow bool) bool {
	if v == "" || strings.TrimSpace(v) != v || strings.ContainsAny(v, "\n\r\t#") {
		return false
	}
	doc := "k: " + v
	if flow {
		doc = "k: [" + v + "]"
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil || len(n.Content) != 1 {
		return false
	}
	m := n.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		return false
	}
	x := m.Content[1]
	if flow {
		if x.Kind != yaml.SequenceNode || len(x.Content) != 1 {
			return false
		}
		x = x.Content[0]
	}
	return x.Kind == yaml.ScalarNode && x.ShortTag() == "!!str" && x.Style == 0 && x.Value == v
}

// flowList renders items already rendered for a flow context.
func flowList(items []string) string {
	return "[" + strings.Join(items, ", ") + "]"
}

// lineWriter builds indented lines in the file's line ending.
type lineWriter struct {
	b   strings.Builder
	eol string
}

func (w *lineWriter) line(indent int, text string) {
	w.b.WriteString(strings.Repeat(" ", indent))
	w.b.WriteString(text)
	w.b.WriteString(w.eol)
}

func (w *lineWriter) raw(text string) {
	if w.eol != "\n" {
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", w.eol)
	}
	w.b.WriteString(text)
}

func (w *lineWriter) blank() { w.b.WriteString(w.eol) }

func (w *lineWriter) String() string { return w.b.String() }

// commentLines writes text as comment lines, the first prefixed by label;
// every line of text is kept verbatim after "# ".
func (w *lineWriter) commentLines(indent int, label, text string) {
	text = strings.TrimRight(text, "\n")
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		w.line(indent, strings.TrimRight("# "+label+lines[0], " "))
		return
	}
	w.line(indent, strings.TrimRight("# "+label, " "))
	for _, ln := range lines {
		w.line(indent, strings.TrimRight("#   "+ln, " "))
	}
}
