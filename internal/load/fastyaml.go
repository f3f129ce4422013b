package load

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// fastParse builds, for the block-style YAML state files are written in,
// the document node go.yaml.in/yaml/v3's decoder builds, without comments,
// about four times faster: most of a lint's time went to that decoder.
// It takes block mappings with plain keys, block sequences (compact
// mappings as items included), one-line plain, single- and double-quoted
// scalars without escapes, literal and folded block scalars, and one-line
// flow sequences of one-line scalars, and returns the blocks the tree is
// in (for Document.Release). It reports false for anything else
// (anchors, aliases, tags, merge keys, multi-line flow scalars, flow
// mappings, tabs, several documents, anything invalid), and the caller
// asks the decoder. FuzzFastYAML and TestFastYAMLAgreesWithDecoder hold
// it to the decoder's tree.
func fastParse(data []byte) (*yaml.Node, pooled, bool) {
	p := fastParser{data: data}
	p.advance()
	if p.eof {
		return nil, pooled{}, false
	}
	root, ok := p.block(p.cur.indent)
	if !ok || !p.eof || p.bad {
		p.pooled.release()
		return nil, pooled{}, false
	}
	return &yaml.Node{Kind: yaml.DocumentNode, Line: root.Line, Column: root.Column, Content: []*yaml.Node{root}}, p.pooled, true
}

// nodeBlock is the unit the fast parser allocates nodes in: one
// allocation for many (a node is 152 bytes; a state file has hundreds).
type nodeBlock [32]yaml.Node

// nodeBlocks recycles the blocks of the documents a run is done with, so
// a lint allocates its trees' nodes about once per worker, not once per
// file (they were a third of what a lint allocated).
var nodeBlocks = sync.Pool{New: func() any { return new(nodeBlock) }}

// listBlock is the unit the fast parser allocates its lists of children
// (Node.Content) in, pooled like the nodes: one list for each mapping and
// sequence was the largest allocation left in a parse.
type listBlock [512]*yaml.Node

var listBlocks = sync.Pool{New: func() any { return new(listBlock) }}

// pooled is what one tree is allocated in: its nodes and its lists of
// children, handed back together (release).
type pooled struct {
	nodes []*nodeBlock
	lists []*listBlock
}

// release clears the blocks (so nothing stale is reachable, and a use
// after release finds zero nodes and nil children) and hands them back.
func (t *pooled) release() {
	for _, b := range t.nodes {
		clear(b[:])
		nodeBlocks.Put(b)
	}
	for _, b := range t.lists {
		clear(b[:])
		listBlocks.Put(b)
	}
	*t = pooled{}
}

// fastMaxDepth bounds the nesting the fast parser takes; deeper documents
// go to the decoder and the depth limit (RL003).
const fastMaxDepth = 64

// fastLine is a line holding content: not blank and not only a comment.
// Everything before indent is ASCII (spaces, and "- " of the sequence
// items a compact mapping sits in), so indent+1 is its column.
type fastLine struct {
	num    int
	indent int
	text   []byte // without the line break
}

// fastParser reads content lines one at a time: cur is the line at hand,
// eof is set past the last one (and when a line is one only the decoder
// takes, with bad).
type fastParser struct {
	data  []byte // what is left to read
	num   int    // the number of the last line read
	cur   fastLine
	eof   bool
	bad   bool
	depth int
	stack []*yaml.Node // children of the collections being built
	nodeAlloc
	// The last column counted (column): line, byte offset, characters.
	colLine, colOff, col int
}

// nodeAlloc hands out the nodes of one tree from pooled blocks; the
// tree's Document gives them back (Release).
type nodeAlloc struct {
	nodes []yaml.Node  // the rest of the current node block
	lists []*yaml.Node // the rest of the current list block
	pooled
}

// node hands out a node from the current block.
func (a *nodeAlloc) node(n yaml.Node) *yaml.Node {
	if len(a.nodes) == 0 {
		b := nodeBlocks.Get().(*nodeBlock)
		a.pooled.nodes = append(a.pooled.nodes, b)
		a.nodes = b[:]
	}
	x := &a.nodes[0]
	a.nodes = a.nodes[1:]
	*x = n
	return x
}

// list hands out a list of n children from the current list block, its
// capacity n, so an append to it never reaches the next list. A long list
// is allocated on its own, and an empty one is an empty list, never nil.
func (a *nodeAlloc) list(n int) []*yaml.Node {
	if n == 0 || n > len(listBlock{})/8 {
		return make([]*yaml.Node, n)
	}
	if len(a.lists) < n {
		b := listBlocks.Get().(*listBlock)
		a.pooled.lists = append(a.pooled.lists, b)
		a.lists = b[:]
	}
	c := a.lists[:n:n]
	a.lists = a.lists[n:]
	return c
}

// advance moves cur to the next content line. Document markers,
// directives, tabs, lone CRs and characters YAML does not allow or reads as
// line breaks end the parse as bad.
func (p *fastParser) advance() {
	for len(p.data) > 0 {
		p.num++
		end := bytes.IndexByte(p.data, '\n')
		var text []byte
		if end < 0 {
			text, p.data = p.data, nil
		} else {
			text, p.data = p.data[:end], p.data[end+1:]
		}
		if k := len(text); k > 0 && text[k-1] == '\r' {
			text = text[:k-1]
		}
		if !fastLineOK(text) {
			p.eof, p.bad = true, true
			return
		}
		ind := 0
		for ind < len(text) && text[ind] == ' ' {
			ind++
		}
		if ind == len(text) || text[ind] == '#' {
			continue
		}
		if ind == 0 && (text[0] == '%' || bytes.HasPrefix(text, []byte("---")) || bytes.HasPrefix(text, []byte("..."))) {
			p.eof, p.bad = true, true
			return
		}
		p.cur = fastLine{num: p.num, indent: ind, text: text}
		return
	}
	p.eof = true
}

// close gives a block collection the children pushed since base; one
// without any is not one the fast parser takes.
func (p *fastParser) close(n *yaml.Node, base int) (*yaml.Node, bool) {
	if len(p.stack) == base {
		return nil, false
	}
	n.Content = p.collect(base)
	return n, true
}

// collect moves the children pushed since base into a slice of their
// own, of the exact size.
func (p *fastParser) collect(base int) []*yaml.Node {
	c := p.list(len(p.stack) - base)
	copy(c, p.stack[base:])
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	return c
}

// fastLineOK reports whether a line holds only characters YAML prints and
// none it reads specially (tabs, CR, NEL, line and paragraph separators).
func fastLineOK(text []byte) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF,
			r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += size
	}
	return true
}

func isEntry(s []byte) bool { return len(s) > 0 && s[0] == '-' && (len(s) == 1 || s[1] == ' ') }

// block parses the mapping or sequence whose lines start at column ind+1.
func (p *fastParser) block(ind int) (*yaml.Node, bool) {
	if p.depth++; p.depth > fastMaxDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	if isEntry(p.cur.text[p.cur.indent:]) {
		return p.sequence(ind)
	}
	return p.mapping(ind)
}

func (p *fastParser) mapping(ind int) (*yaml.Node, bool) {
	m := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
	base := len(p.stack)
	for !p.eof {
		l := p.cur
		if l.indent < ind {
			break
		}
		s := l.text[l.indent:]
		if l.indent > ind || isEntry(s) {
			return nil, false // an entry here is no value of the key before: an error
		}
		colon, ok := plainKeyEnd(s)
		if !ok {
			return nil, false
		}
		key := bytes.TrimRight(s[:colon], " ")
		if string(key) == "<<" {
			return nil, false // a merge: expandMerges changes the tree
		}
		k := p.node(yaml.Node{Kind: yaml.ScalarNode, Value: internKey(key), Line: l.num, Column: ind + 1})
		k.Tag = plainTag(k)
		if len(p.stack) == base {
			m.Line, m.Column = k.Line, k.Column
		}
		v, ok := p.value(l, l.indent+colon+1, ind, true)
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, k, v)
	}
	return p.close(m, base)
}

func (p *fastParser) sequence(ind int) (*yaml.Node, bool) {
	seq := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"})
	base := len(p.stack)
	for !p.eof {
		l := p.cur
		if l.indent < ind {
			break
		}
		if l.indent > ind {
			return nil, false
		}
		if !isEntry(l.text[l.indent:]) {
			break // the next key of the mapping this sequence is a value in
		}
		if len(p.stack) == base {
			seq.Line, seq.Column = l.num, ind+1
		}
		at := ind + 1
		for at < len(l.text) && l.text[at] == ' ' {
			at++
		}
		var item *yaml.Node
		var ok bool
		if rest := l.text[at:]; len(rest) > 0 && rest[0] != '#' && isCompactKey(rest) {
			p.cur.indent = at // the item is a mapping whose keys start here
			item, ok = p.block(at)
		} else {
			item, ok = p.value(l, ind+1, ind, false)
		}
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, item)
	}
	return p.close(seq, base)
}

// isCompactKey reports whether a sequence item's text starts a mapping
// ("- id: 1"), as far as the fast parser takes one.
func isCompactKey(s []byte) bool {
	if isEntry(s) {
		return false
	}
	_, ok := plainKeyEnd(s)
	return ok
}

// plainKeyEnd returns the index of the colon ending the plain key s starts
// with; false when s starts with no such key (or with one the fast parser
// leaves to the decoder: quoted, complex, or holding a comment).
func plainKeyEnd(s []byte) (int, bool) {
	if !plainStart(s) {
		return 0, false
	}
	for i := 0; i < len(s) && i < 1000; i++ {
		switch s[i] {
		case ':':
			if i+1 == len(s) || s[i+1] == ' ' {
				return i, i > 0
			}
		case '#':
			if s[i-1] == ' ' {
				return 0, false
			}
		}
	}
	return 0, false
}

// plainStart reports whether a plain scalar may start s, leaving every
// indicator to the decoder.
func plainStart(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	switch s[0] {
	case '-':
		return len(s) > 1 && s[1] != ' '
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

// value parses the value that starts at byte off of l, the line at hand
// (after a key's colon or an entry's dash), moving past it; the block it
// holds, if any, is indented more than ind (or, in a mapping, is a
// sequence at ind).
func (p *fastParser) value(l fastLine, off, ind int, inMapping bool) (*yaml.Node, bool) {
	text := l.text
	j := off
	for j < len(text) && text[j] == ' ' {
		j++
	}
	if j == len(text) || (text[j] == '#' && j > off) {
		p.advance()
		if !p.eof {
			if n := p.cur; n.indent > ind {
				return p.block(n.indent)
			} else if inMapping && n.indent == ind && isEntry(n.text[n.indent:]) {
				return p.block(ind)
			}
		}
		return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: l.num, Column: p.column(l.num, text, off)}), true
	}
	if c := text[j]; c == '|' || c == '>' {
		v, ok := p.blockScalar(l, j, ind)
		if !ok {
			return nil, false
		}
		p.advance()
		if !p.eof && p.cur.indent > ind {
			return nil, false
		}
		return v, true
	}
	v, end, ok := p.inlineValue(&l, j)
	if !ok || !restIsComment(text, end) {
		return nil, false
	}
	p.advance()
	if !p.eof && p.cur.indent > ind {
		return nil, false // a continuation line, or an error
	}
	return v, true
}

// blockScalar reads the literal (|) or folded (>) scalar whose header is
// at byte j of l, the line at hand, in a block indented ind; it leaves
// p.data at the first line after it. It follows the decoder's scanner
// (yaml_parser_scan_block_scalar) line by line; an indentation indicator,
// leading lines holding spaces, and a scalar with no text line are left
// to the decoder.
func (p *fastParser) blockScalar(l fastLine, j, ind int) (*yaml.Node, bool) {
	text := l.text
	literal := text[j] == '|'
	k := j + 1
	chomp := 0 // -1 strip, 0 clip, +1 keep
	if k < len(text) {
		switch text[k] {
		case '-':
			chomp, k = -1, k+1
		case '+':
			chomp, k = 1, k+1
		}
	}
	if !restIsComment(text, k) {
		return nil, false // an indentation indicator, or text after the header
	}
	var s, leadingBreak, trailingBreaks []byte
	indent := 0
	leadingBlank := false
	first := true
	for len(p.data) > 0 {
		line, rest, nl, ok := p.rawLine()
		if !ok {
			return nil, false
		}
		sp := 0
		for sp < len(line) && line[sp] == ' ' {
			sp++
		}
		if first {
			if sp == len(line) { // a leading empty line
				if sp > 0 || !nl {
					return nil, false
				}
				trailingBreaks = append(trailingBreaks, '\n')
				p.take(rest)
				continue
			}
			indent = max(sp, ind+1, 1)
			if sp < indent {
				return nil, false // no text line
			}
			first = false
		}
		if sp < indent && sp < len(line) {
			break // a line of the block around: the scalar ends before it
		}
		if sp == len(line) && sp <= indent {
			// An empty line (spaces up to the indentation at most).
			if nl {
				trailingBreaks = append(trailingBreaks, '\n')
			}
			p.take(rest)
			if !nl {
				break
			}
			continue
		}
		content := line[indent:]
		trailingBlank := content[0] == ' '
		if !literal && !leadingBlank && !trailingBlank && len(leadingBreak) > 0 {
			if len(trailingBreaks) == 0 {
				s = append(s, ' ')
			}
		} else {
			s = append(s, leadingBreak...)
		}
		leadingBreak = leadingBreak[:0]
		s = append(s, trailingBreaks...)
		trailingBreaks = trailingBreaks[:0]
		leadingBlank = trailingBlank
		s = append(s, content...)
		if nl {
			leadingBreak = append(leadingBreak, '\n')
		}
		p.take(rest)
		if !nl {
			break
		}
	}
	if first {
		return nil, false // no text line
	}
	if chomp != -1 {
		s = append(s, leadingBreak...)
	}
	if chomp == 1 {
		s = append(s, trailingBreaks...)
	}
	style := yaml.LiteralStyle
	if !literal {
		style = yaml.FoldedStyle
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: style, Value: string(s), Line: l.num, Column: p.column(l.num, text, j)}), true
}

// rawLine returns the next line of p.data as it is (a block scalar's
// lines are text, comments and empty lines included), what follows it,
// and whether a line break ended it; false for a line only the decoder
// takes. p.data is not empty.
func (p *fastParser) rawLine() (line, rest []byte, nl, ok bool) {
	end := bytes.IndexByte(p.data, '\n')
	if end < 0 {
		line, rest = p.data, nil
	} else {
		line, rest, nl = p.data[:end], p.data[end+1:], true
	}
	if k := len(line); k > 0 && line[k-1] == '\r' {
		line, nl = line[:k-1], true // a CR ends a line too
	}
	return line, rest, nl, fastLineOK(line)
}

// take moves past a line rawLine returned.
func (p *fastParser) take(rest []byte) {
	p.num++
	p.data = rest
}

// inlineValue parses the scalar or flow sequence at byte j of l; end is
// the byte after it.
func (p *fastParser) inlineValue(l *fastLine, j int) (*yaml.Node, int, bool) {
	text := l.text
	switch text[j] {
	case '"', '\'':
		v, end, ok := quoted(text, j)
		if !ok {
			return nil, 0, false
		}
		return p.scalarAt(l, j, v, text[j]), end, true
	case '[':
		return p.flowSequence(l, j)
	case '{':
		k := j + 1
		for k < len(text) && text[k] == ' ' {
			k++
		}
		if k == len(text) || text[k] != '}' {
			return nil, 0, false
		}
		n := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Line: l.num, Column: p.column(l.num, text, j)})
		return n, k + 1, true
	}
	if !plainStart(text[j:]) {
		return nil, 0, false
	}
	end := len(text)
	for k := j; k < len(text); k++ {
		c := text[k]
		if c == '#' && text[k-1] == ' ' {
			end = k
			break
		}
		if c == ':' && (k+1 == len(text) || text[k+1] == ' ') {
			return nil, 0, false // a key where a value must be: an error
		}
	}
	v := bytes.TrimRight(text[j:end], " ")
	return p.scalarAt(l, j, string(v), 0), end, true
}

// scalarAt makes the node of a scalar starting at byte j of l; quote is
// its quote character, or 0 for a plain scalar.
func (p *fastParser) scalarAt(l *fastLine, j int, v string, quote byte) *yaml.Node {
	n := p.node(yaml.Node{Kind: yaml.ScalarNode, Value: v, Line: l.num, Column: p.column(l.num, l.text, j)})
	switch quote {
	case '"':
		n.Style, n.Tag = yaml.DoubleQuotedStyle, "!!str"
	case '\'':
		n.Style, n.Tag = yaml.SingleQuotedStyle, "!!str"
	default:
		n.Tag = plainTag(n)
	}
	return n
}

// plainTag is the tag the decoder resolves a plain scalar to. A value
// starting with none of the characters that begin a number, a timestamp,
// a boolean, a null or a merge key is a string; the rest (time stamps
// cost the decoder several parse attempts) go through the decoder's own
// resolution.
func plainTag(n *yaml.Node) string {
	v := n.Value
	if v != "" && !strings.ContainsRune("+-.0123456789yYnNtTfFoO~<", rune(v[0])) {
		return "!!str"
	}
	if decimalFraction(v) {
		return "!!float" // what the decoder finds after two failed integer parses
	}
	return n.ShortTag()
}

// decimalFraction reports whether v is digits, a point and digits (a
// quality gate's score: 0.92), short enough that it cannot overflow.
func decimalFraction(v string) bool {
	if len(v) < 3 || len(v) > 15 {
		return false
	}
	dot := strings.IndexByte(v, '.')
	if dot < 1 || dot == len(v)-1 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if i != dot && (v[i] < '0' || v[i] > '9') {
			return false
		}
	}
	return true
}

// quoted reads the one-line quoted scalar at byte j; a double-quoted one
// with an escape is left to the decoder.
func quoted(text []byte, j int) (string, int, bool) {
	q := text[j]
	if q == '"' {
		for k := j + 1; k < len(text); k++ {
			switch text[k] {
			case '\\':
				return "", 0, false
			case '"':
				return string(text[j+1 : k]), k + 1, true
			}
		}
		return "", 0, false
	}
	var b []byte
	start := j + 1
	for k := start; k < len(text); k++ {
		if text[k] != '\'' {
			continue
		}
		if k+1 < len(text) && text[k+1] == '\'' {
			b = append(b, text[start:k+1]...)
			start = k + 2
			k++
			continue
		}
		if b == nil {
			return string(text[start:k]), k + 1, true
		}
		return string(append(b, text[start:k]...)), k + 1, true
	}
	return "", 0, false
}

// flowSequence reads a one-line flow sequence of scalars at byte j.
func (p *fastParser) flowSequence(l *fastLine, j int) (*yaml.Node, int, bool) {
	text := l.text
	seq := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: l.num, Column: p.column(l.num, text, j)})
	base := len(p.stack)
	k := j + 1
	for {
		for k < len(text) && text[k] == ' ' {
			k++
		}
		if k == len(text) {
			return nil, 0, false
		}
		if text[k] == ']' {
			if len(p.stack) > base {
				return nil, 0, false // a trailing comma
			}
			return seq, k + 1, true
		}
		var item *yaml.Node
		if c := text[k]; c == '"' || c == '\'' {
			v, end, ok := quoted(text, k)
			if !ok {
				return nil, 0, false
			}
			item, k = p.scalarAt(l, k, v, c), end
		} else {
			start := k
			for k < len(text) && text[k] != ',' && text[k] != ']' {
				switch text[k] {
				case '[', '{', '}', '#', ':', '?':
					return nil, 0, false
				}
				k++
			}
			v := bytes.TrimRight(text[start:k], " ")
			if !plainStart(v) {
				return nil, 0, false
			}
			item = p.scalarAt(l, start, string(v), 0)
		}
		p.stack = append(p.stack, item)
		for k < len(text) && text[k] == ' ' {
			k++
		}
		switch {
		case k == len(text):
			return nil, 0, false
		case text[k] == ']':
			seq.Content = p.collect(base)
			return seq, k + 1, true
		case text[k] != ',':
			return nil, 0, false
		}
		k++
	}
}

// restIsComment reports whether text holds nothing after byte end but
// spaces and a comment.
func restIsComment(text []byte, end int) bool {
	k := end
	for k < len(text) && text[k] == ' ' {
		k++
	}
	return k == len(text) || (text[k] == '#' && k > 0 && text[k-1] == ' ')
}

// column is the 1-based character column of byte off of text, line num.
// Nodes of a line are made left to right, so counting on from the last
// answer for the same line keeps a long line linear (a flow list of
// 200,000 items on one line took 25 s counting from its start each time).
func (p *fastParser) column(num int, text []byte, off int) int {
	from, col := 0, 0
	if p.colLine == num && p.colOff <= off {
		from, col = p.colOff, p.col
	}
	for i := from; i < off; {
		if text[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(text[i:off])
			i += size
		}
		col++
	}
	p.colLine, p.colOff, p.col = num, off, col
	return col + 1
}

// fastDocument is fastYAML for bytes [from, to) of doc.File.Data, unless
// doc must carry comments or YAMLParserVar asks for the decoder; it notes
// where the tree came from for AddComments.
func fastDocument(doc *Document, from, to int) (*yaml.Node, bool) {
	if doc.needComments || decoderOnly.Load() {
		return nil, false
	}
	if OnFastParse != nil {
		OnFastParse()
	}
	n, t, ok := fastParse(doc.File.Data[from:to])
	if ok {
		doc.uncommented, doc.pooled = true, t
		doc.yamlFrom, doc.yamlTo = from, to
	}
	return n, ok
}

// Release hands the document's nodes back for the next document's tree:
// the caller is done with the tree and keeps no node of it (the engine,
// at the end of a unit, whose findings and facts hold no node). Its root
// is then nil.
func (d *Document) Release() {
	if d == nil || d.pooled.nodes == nil && d.pooled.lists == nil {
		return
	}
	d.Root = nil
	d.pooled.release()
}

// AddComments puts the YAML comments on a tree that was built without
// them, node for node, as the decoder attaches them; the nodes stay the
// same. Fixes that carry comments call it; false when the file's bytes
// are no longer held.
func (d *Document) AddComments() bool {
	if d == nil || !d.uncommented {
		return true
	}
	if d.File == nil || d.File.Data == nil || d.yamlTo > len(d.File.Data) {
		return false
	}
	var n yaml.Node
	if err := yaml.Unmarshal(d.File.Data[d.yamlFrom:d.yamlTo], &n); err != nil || len(n.Content) != 1 {
		return false
	}
	copyComments(d.Root, n.Content[0])
	d.uncommented = false
	return true
}

// copyComments copies the comments of from's nodes onto the nodes of to,
// a tree of the same shape.
func copyComments(to, from *yaml.Node) {
	if to == nil || from == nil || to.Kind != from.Kind || len(to.Content) != len(from.Content) {
		return
	}
	to.HeadComment, to.LineComment, to.FootComment = from.HeadComment, from.LineComment, from.FootComment
	for i := range to.Content {
		copyComments(to.Content[i], from.Content[i])
	}
}
