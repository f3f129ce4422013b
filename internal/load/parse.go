package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/node"
)

// Document is a parsed file. Root is the top-level value (for Markdown, the
// front matter mapping) with file-relative positions on every node.
type Document struct {
	File *File
	Root *yaml.Node

	// Markdown with front matter.
	FrontMatter bool
	BodyLine    int // first line of the body
	Body        string

	// JSONL: one entry per non-blank line.
	Lines []JSONLine

	// Empty is a YAML file that holds no value (nothing, or only
	// comments and document markers), which is no parse error.
	Empty bool

	// A YAML tree built without comments (fastParse) from File.Data's
	// bytes [yamlFrom, yamlTo); AddComments puts them on.
	uncommented      bool
	needComments     bool
	yamlFrom, yamlTo int
	pooled           pooled // what the fast parsers allocated the tree in, for Release
}

// JSONLine is one line of a JSONL file: a value or the error that line gave.
type JSONLine struct {
	Line int
	Node *yaml.Node
	Err  *JSONError
	// Conflict: the line is a merge's conflict marker (Err is set too).
	Conflict bool
}

// Parse parses f.Data by its format. Problems (RL001–RL003, RL310) are
// returned as findings; Root is nil when the file could not be parsed.
func Parse(f *File, format Format, lim Limits) (*Document, []diag.Finding) {
	return parse(&Document{File: f}, format, lim)
}

// ParseWithComments is Parse with every comment on the YAML tree, for
// fixes that move them.
func ParseWithComments(f *File, format Format, lim Limits) (*Document, []diag.Finding) {
	return parse(&Document{File: f, needComments: true}, format, lim)
}

func parse(doc *Document, format Format, lim Limits) (*Document, []diag.Finding) {
	f := doc.File
	var out []diag.Finding
	switch format {
	case FormatYAML:
		n, fs := parseYAML(doc, 0, len(f.Data), 0, lim)
		doc.Root, out = n, fs
		doc.Empty = n == nil && len(fs) == 0
	case FormatJSON:
		var alloc nodeAlloc
		n, dups, err := parseJSON(f.Data, 1, lim.MaxDepth, nodeBudget(lim), &alloc)
		out = append(out, dupFindings(f, dups)...)
		var se *SizeError
		if errors.As(err, &se) {
			out = append(out, sizeFinding(f, se, lim))
		} else if err != nil {
			out = append(out, jsonErrFinding(f, err))
		} else {
			doc.Root, doc.pooled = n, alloc.pooled
		}
		if doc.Root == nil {
			alloc.pooled.release() // no tree holds them
		}
	case FormatMarkdown:
		out = parseFrontMatter(f, doc, lim)
	case FormatJSONL:
		out = parseJSONL(f, doc, lim)
	}
	return doc, withConflict(f, out)
}

// Format is how a file's bytes are structured.
type Format int

const (
	FormatYAML Format = iota
	FormatJSON
	FormatMarkdown
	FormatJSONL
)

// FormatOf returns the format of a file kind or artifact name.
func FormatOf(k Kind, name string) Format {
	switch {
	case k == KindOrchestration:
		return FormatYAML
	case k == KindResumeContext:
		return FormatMarkdown
	case strings.HasSuffix(name, ".jsonl"):
		return FormatJSONL
	case strings.HasSuffix(name, ".md"):
		return FormatMarkdown
	case strings.HasSuffix(name, ".yaml"), strings.HasSuffix(name, ".yml"):
		return FormatYAML
	}
	return FormatJSON
}

func jsonErrFinding(f *File, err error) diag.Finding {
	var de *DepthError
	if errors.As(err, &de) {
		return Problem(f, code.InputLimits, de.Pos, "%s", de.Msg)
	}

	var je *JSONError
	if errors.As(err, &je) {
		return Problem(f, code.ParseError, je.Pos, "invalid JSON: %s", je.Msg)
	}
	return Problem(f, code.ParseError, diag.Pos{}, "invalid JSON: %v", err)
}

func dupFindings(f *File, dups []DuplicateKey) []diag.Finding {
	var out []diag.Finding
	for _, d := range dups {
		fd := Problem(f, code.DuplicateKey, d.Pos, "key %q is repeated (first at line %d); readers disagree on which value wins", d.Key, d.First.Line)
		fd.Related = []diag.Related{{Path: f.Path, Line: d.First.Line, Column: d.First.Col, Message: "first occurrence of " + strconv.Quote(d.Key)}}
		out = append(out, fd)
	}
	return out
}

var yamlLineRe = lazyre.New(`^yaml: line (\d+): (.*)$`)

// yamlParserProblems are the messages of go-yaml's parser stage, whose
// "line N" is 0-based; its scanner stage reports 1-based lines.
var yamlParserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// parseYAML parses one YAML document, bytes [from, to) of doc.File.Data;
// lineOffset is added to every line (front matter starts below its
// opening ---).
func parseYAML(doc *Document, from, to, lineOffset int, lim Limits) (root *yaml.Node, out []diag.Finding) {
	f := doc.File
	data := f.Data[from:to]
	defer func() {
		if r := recover(); r != nil {
			root = nil
			out = append(out, Problem(f, code.ParseError, diag.Pos{Line: lineOffset + 1, Col: 1}, "YAML parser failed: %v", r))
		}
	}()
	var n yaml.Node
	if fast, ok := fastDocument(doc, from, to); ok {
		n = *fast
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&n); err != nil {
			if err == io.EOF {
				return nil, nil // empty document
			}
			return nil, []diag.Finding{yamlErrFinding(f, data, err, lineOffset, firstDocument)}
		}
		// A second document is ignored by readers that load one (and
		// rejected by others), so what they see is not what the file says.
		var extra yaml.Node
		switch err := dec.Decode(&extra); {
		case err == nil:
			out = append(out, Problem(f, code.ParseError, diag.Pos{Line: extra.Line + lineOffset, Col: 1}, "a second YAML document starts here (after '---'); the file must hold one document"))
		case err != io.EOF:
			out = append(out, yamlErrFinding(f, data, err, lineOffset, "invalid YAML in a second document (after '---'): "))
		}
	}
	if lm := yamlLineMap(data); lm != nil {
		remapLines(&n, lm, map[*yaml.Node]bool{})
	}
	if lineOffset != 0 {
		shiftLines(&n, lineOffset, map[*yaml.Node]bool{})
	}
	root = &n
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil, out
		}
		root = n.Content[0]
	}
	if fs := checkTree(f, root, lim); len(fs) > 0 {
		out = append(out, fs...)
		for _, x := range fs {
			// Past a limit, or refused by readers: not checked further.
			if x.Code == code.InputLimits || x.Code == code.ParseError {
				return nil, out
			}
		}
	}
	out = append(out, expandMerges(f, root)...)
	return root, out
}

// aliasesAndMerges reports whether a tree holds an alias and a merge key
// (<<), walking it as parsed: aliases are not followed.
func aliasesAndMerges(n *yaml.Node) (aliases, merges bool) {
	if n == nil {
		return false, false
	}
	if n.Kind == yaml.AliasNode {
		return true, false
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && isMergeKey(c) {
			merges = true
		}
		a, m := aliasesAndMerges(c)
		aliases, merges = aliases || a, merges || m
		if aliases && merges {
			break
		}
	}
	return aliases, merges
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge"
}

// expandMerges applies YAML merge keys (<<) in place, as readers that load
// the file do: a mapping gets the entries of the merged mappings it does
// not set itself (of a list of mappings, the earlier wins), and loses its
// << entries. Everything after parsing (the schema, every rule) then sees
// the keys a reader sees, so a << cannot hide an error. A merge of anything
// but a mapping or a list of mappings is an error readers raise too.
// checkTree has run: the tree has no alias cycle and a bounded expansion.
func expandMerges(f *File, root *yaml.Node) []diag.Finding {
	aliases, merges := aliasesAndMerges(root)
	if !merges {
		return nil // most documents: nothing to expand, no memo to build
	}
	var out []diag.Finding
	var done map[*yaml.Node]bool // only aliases reach a node twice
	if aliases {
		done = map[*yaml.Node]bool{}
	}
	var visit func(n *yaml.Node)
	visit = func(n *yaml.Node) {
		if n == nil || done[n] {
			return
		}
		if done != nil {
			done[n] = true
		}
		switch n.Kind {
		case yaml.AliasNode:
			visit(n.Alias)
			return
		case yaml.MappingNode:
		default:
			for _, c := range n.Content {
				visit(c)
			}
			return
		}
		merges := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if isMergeKey(n.Content[i]) {
				merges = true
			}
			visit(n.Content[i+1]) // merged mappings are expanded first
		}
		if !merges {
			return
		}
		var sources []*yaml.Node
		kept := make([]*yaml.Node, 0, len(n.Content))
		set := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if !isMergeKey(k) {
				kept = append(kept, k, v)
				if k.Kind == yaml.ScalarNode {
					set[k.Value] = true
				}
				continue
			}
			r := node.Resolve(v)
			switch {
			case r != nil && r.Kind == yaml.MappingNode:
				sources = append(sources, r)
				continue
			case r != nil && r.Kind == yaml.SequenceNode:
				ok := true
				for _, e := range r.Content {
					if m := node.Resolve(e); m != nil && m.Kind == yaml.MappingNode {
						sources = append(sources, m)
					} else {
						ok = false
					}
				}
				if ok {
					continue
				}
			}
			out = append(out, Problem(f, code.ParseError, diag.Pos{Line: k.Line, Col: k.Column}, "the merge key << takes a mapping or a list of mappings, not %s; readers refuse the file", node.Kind(r)))
		}
		for _, src := range sources {
			for i := 0; i+1 < len(src.Content); i += 2 {
				k, v := src.Content[i], src.Content[i+1]
				if k.Kind == yaml.ScalarNode {
					if set[k.Value] {
						continue
					}
					set[k.Value] = true
				}
				kc := *k // its own key node: a key is reported per mapping
				kept = append(kept, &kc, v)
			}
		}
		n.Content = kept
	}
	visit(root)
	return out
}

// yamlErrFinding turns a go-yaml error into a finding at the line it names.
func yamlErrFinding(f *File, data []byte, err error, lineOffset int, prefix string) diag.Finding {
	msg := err.Error()
	pos := diag.Pos{Line: lineOffset + 1, Col: 1}
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		l, _ := strconv.Atoi(m[1])
		msg = m[2]
		if yamlParserProblems[msg] {
			l++ // go-yaml numbers parser (not scanner) errors from 0
		}
		// An error at the end of input points at the last line, not
		// at the empty one after the final line break.
		if last := bytes.Count(data, []byte("\n")); l > last && len(data) > 0 && data[len(data)-1] == '\n' {
			l = max(last, 1)
		}
		lm := yamlLineMap(data)
		if opens := blockOpened[msg]; opens != "" && lm == nil && prefix == firstDocument && len(data) <= maxBrokenLineBytes {
			// go-yaml names the line where the enclosing mapping or list
			// starts (far above, in a long file); the line that breaks it
			// is the first one whose prefix of the file fails the same way.
			if k, ends := brokenLine(data, l, err.Error()); k > l {
				fd := Problem(f, code.ParseError, diag.Pos{Line: k + lineOffset, Col: indentOf(data, ends, k) + 1}, "%s%s in the %s from line %d", prefix, msg, opens, l+lineOffset)
				fd.Related = []diag.Related{{Path: f.Path, Line: l + lineOffset, Column: indentOf(data, ends, l) + 1, Message: "the " + opens + " starts here"}}
				return fd
			}
		}
		if lm != nil {
			l, _ = remapLine(lm, l, 1)
		}
		pos.Line = l + lineOffset
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
		if l, c := unreadableAt(data); l > 0 && readerErrors[msg] {
			pos = diag.Pos{Line: l + lineOffset, Col: c}
		}
	}
	if strings.Contains(msg, "exceeded max depth") {
		return Problem(f, code.InputLimits, pos, "YAML nesting deeper than the parser's limit")
	}
	return Problem(f, code.ParseError, pos, "%s%s", prefix, msg)
}

// unreadableAt returns the line and column (1-based, in characters) of
// the first character of data YAML's reader refuses (a control character,
// a byte that is not UTF-8), or 0, 0:
// go-yaml names no position for these errors, and a file holding one
// deep down would otherwise be reported at its first line.
func unreadableAt(data []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return line, col
		case r == '\n':
			line, col = line+1, 1
			i += size
			continue
		case !yamlReadable(r):
			return line, col
		}
		col++
		i += size
	}
	return 0, 0
}

// readerErrors are go-yaml's errors of a character it cannot read, which
// name no position (unreadableAt finds it).
var readerErrors = map[string]bool{
	"control characters are not allowed": true,
	"invalid leading UTF-8 octet":        true,
	"incomplete UTF-8 octet sequence":    true,
	"invalid trailing UTF-8 octet":       true,
	"invalid length of a UTF-8 sequence": true,
	"invalid Unicode character":          true,
}

// yamlReadable reports a character YAML's reader accepts (YAML 1.1's
// printable set, which go-yaml checks).
func yamlReadable(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D, r >= 0x20 && r <= 0x7E, r == 0x85:
		return true
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// firstDocument prefixes an error in a file's first (or only) YAML
// document.
const firstDocument = "invalid YAML: "

// blockOpened are the parser's problems inside a block collection, which
// go-yaml reports at the line the collection starts, with what starts
// there. (A flow collection's problem stays at its opening bracket: an
// unclosed '[' is where to look.)
var blockOpened = map[string]string{
	"did not find expected key":           "mapping",
	"did not find expected '-' indicator": "list",
}

// maxBrokenLineBytes bounds the documents whose broken line is looked
// for (over twice the largest state file of the reference systems):
// the search parses them again up to maxBrokenLineParses times.
const maxBrokenLineBytes = 256 << 10

// maxBrokenLineParses bounds the prefixes brokenLine parses: a binary
// search over a file of 2^20 lines.
const maxBrokenLineParses = 20

// brokenLine returns the line (1-based) of data that breaks the block
// collection starting at line from, or 0, and the ends of data's lines
// (lineEnds): the shortest prefix of whole lines that fails with the
// same error (want, what parsing all of data gave) ends there, since a
// parser stops at the first token it cannot take and never reads past it.
// A binary search: at most maxBrokenLineParses parses, on files that do
// not parse.
func brokenLine(data []byte, from int, want string) (int, []int) {
	ends := lineEnds(data)
	fails := func(k int) bool {
		var n yaml.Node
		err := yaml.NewDecoder(bytes.NewReader(data[:ends[k-1]])).Decode(&n)
		return err != nil && err.Error() == want
	}
	lo, hi := from, len(ends) // fails(hi) holds: the whole input
	for i := 0; lo < hi && i < maxBrokenLineParses; i++ {
		if mid := lo + (hi-lo)/2; fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo != hi || hi <= from {
		return 0, nil
	}
	return hi, ends
}

// indentOf returns how many blanks begin line k (1-based) of data, whose
// lines end at ends.
func indentOf(data []byte, ends []int, k int) int {
	start := 0
	if k > 1 {
		start = ends[k-2]
	}
	line := data[start:ends[k-1]]
	return len(line) - len(bytes.TrimLeft(line, " \t"))
}

// lineEnds returns the offset just past each line of data (its \n
// included; the last line may have none).
func lineEnds(data []byte) []int {
	var ends []int
	for i, c := range data {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		ends = append(ends, len(data))
	}
	return ends
}

// lineStart is where a line of the YAML parser begins in the file's own
// lines (which only \n ends, \r\n included).
type lineStart struct{ line, col int }

// yamlLineMap returns, for each line number of the YAML parser, where it
// begins in the file's lines, or nil when they are the same. The parser
// also breaks lines at a lone CR, U+0085, U+2028 and U+2029 (YAML 1.1);
// every other part of resumelint (snippets, the secret scan, fixes)
// counts only \n, so positions are moved to those lines, and a finding, a
// mask or an edit lands where it belongs.
func yamlLineMap(data []byte) []lineStart {
	if !bytes.Contains(data, []byte("\u2028")) && !bytes.Contains(data, []byte("\u2029")) && !bytes.Contains(data, []byte("\u0085")) {
		lone := false
		for i := bytes.IndexByte(data, '\r'); i >= 0; {
			if i+1 >= len(data) || data[i+1] != '\n' {
				lone = true
				break
			}
			j := bytes.IndexByte(data[i+1:], '\r')
			if j < 0 {
				break
			}
			i += 1 + j
		}
		if !lone {
			return nil
		}
	}
	lm := []lineStart{{}, {1, 0}} // index 0 unused
	line, col := 1, 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == '\n' || r == '\r' && i+1 < len(data) && data[i+1] == '\n':
			if r == '\r' {
				size = 2
			}
			line, col = line+1, 0
			lm = append(lm, lineStart{line, 0})
		case r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029:
			col++
			lm = append(lm, lineStart{line, col})
		default:
			col++
		}
		i += size
	}
	return lm
}

// remapLine moves a parser position to the file's own lines.
func remapLine(lm []lineStart, line, col int) (int, int) {
	if line < 1 || line >= len(lm) {
		return line, col
	}
	return lm[line].line, lm[line].col + col
}

func remapLines(n *yaml.Node, lm []lineStart, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	n.Line, n.Column = remapLine(lm, n.Line, n.Column)
	for _, c := range n.Content {
		remapLines(c, lm, seen)
	}
}

func shiftLines(n *yaml.Node, off int, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	n.Line += off
	for _, c := range n.Content {
		shiftLines(c, off, seen)
	}
}

// checkTree enforces depth and alias-expansion limits, finds repeated
// mapping keys (however spelled: quoted, through an alias, a second <<),
// and refuses what YAML readers take differently or not at all (keys that
// are collections, tags no safe loader constructs: treeCheck.refuse). It
// counts the expanded size with memoisation, so an alias bomb costs linear
// time to detect.
func checkTree(f *File, root *yaml.Node, lim Limits) []diag.Finding {
	c := &treeCheck{f: f, lim: lim}
	total := c.walk(root, 0)
	out := c.out
	if c.cycle != nil {
		return append(out, Problem(f, code.InputLimits, diag.Pos{Line: c.cycle.Line, Col: c.cycle.Column}, "alias *%s refers to a node that contains it (an endless value); not checked", c.cycle.Value))
	}
	if c.tooDeep != nil {
		return append(out, Problem(f, code.InputLimits, diag.Pos{Line: c.tooDeep.Line, Col: c.tooDeep.Column}, "nesting deeper than %d levels; not checked", lim.MaxDepth))
	}
	if lim.MaxNodes > 0 && total > lim.MaxNodes && !c.aliases {
		return append(out, Problem(f, code.InputLimits, diag.Pos{Line: root.Line, Col: root.Column}, "more than %d values in this file; not checked", lim.MaxNodes))
	}
	if lim.MaxNodes > 0 && total > lim.MaxNodes {
		return append(out, Problem(f, code.InputLimits, diag.Pos{Line: root.Line, Col: root.Column}, "YAML aliases expand to more than %d nodes (an alias bomb?); not checked", lim.MaxNodes))
	}
	return out
}

// treeCheck is one checkTree walk.
type treeCheck struct {
	f              *File
	lim            Limits
	out            []diag.Finding
	memo           map[*yaml.Node]int // of anchored nodes
	tooDeep, cycle *yaml.Node
	aliases        bool
}

func (c *treeCheck) walk(n *yaml.Node, depth int) int {
	if n == nil || c.tooDeep != nil || c.cycle != nil {
		return 0
	}
	if depth >= c.lim.MaxDepth && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) {
		c.tooDeep = n // the same count as JSON: at most MaxDepth nested collections
		return 0
	}
	// Only anchored nodes can be reached twice (through an alias), so
	// only they are memoised; the rest of the tree is walked once.
	if n.Anchor != "" {
		if v, ok := c.memo[n]; ok {
			return max(v, 0)
		}
		if c.memo == nil {
			c.memo = map[*yaml.Node]int{}
		}
		c.memo[n] = -1 // being walked: an alias to it from inside is a cycle
	}
	if n.Style&yaml.TaggedStyle != 0 {
		c.tag(n) // a tag the file spells out (the parser's own are all YAML's)
	}
	size := 1
	switch n.Kind {
	case yaml.AliasNode:
		c.aliases = true
		if c.memo[n.Alias] < 0 {
			// An alias inside the node it names: the value would be
			// infinite, and readers recurse until they crash.
			c.cycle = n
			return 0
		}
		size = c.walk(n.Alias, depth)
	case yaml.MappingNode:
		c.keys(n)
		fallthrough
	default:
		for _, x := range n.Content {
			size += c.walk(x, depth+1)
			if size > c.lim.MaxNodes {
				size = c.lim.MaxNodes + 1
			}
		}
	}
	if n.Anchor != "" {
		c.memo[n] = size
	}
	return size
}

// keys checks the keys of mapping n. A key that is an alias of a scalar
// becomes a copy of that scalar, so it is compared, and read by the
// schema and every rule, as the key readers see. A key that is a mapping
// or a list is refused: readers that load the file into a map refuse it.
// Mappings of up to 32 keys (nearly all of a state file's) scan the
// earlier keys: it costs less than a map.
func (c *treeCheck) keys(n *yaml.Node) {
	var seen map[string]*yaml.Node
	if len(n.Content) > 64 {
		seen = make(map[string]*yaml.Node, len(n.Content)/2)
	}
	var merge *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if a := k.Alias; k.Kind == yaml.AliasNode && a != nil && a.Kind == yaml.ScalarNode {
			kc := *a
			kc.Anchor, kc.Line, kc.Column = "", k.Line, k.Column
			kc.HeadComment, kc.LineComment, kc.FootComment = k.HeadComment, k.LineComment, k.FootComment
			n.Content[i], k = &kc, &kc
		}
		if k.Kind != yaml.ScalarNode {
			c.refuse(k, "a key that is %s: readers that load the file into a map refuse it; keys are strings", node.Kind(k))
			continue
		}
		if isMergeKey(k) {
			if merge != nil {
				c.repeated(k, merge, "the merge key << is repeated (first at line %d); YAML readers disagree on which applies, or refuse the file: merge a list, <<: [*a, *b]", merge.Line)
			} else {
				merge = k
			}
			continue
		}
		id := keyID(k)
		var first *yaml.Node
		if seen != nil {
			first = seen[id]
		} else {
			for j := 0; j < i; j += 2 {
				if pk := n.Content[j]; pk.Kind == yaml.ScalarNode && keyID(pk) == id && !isMergeKey(pk) {
					first = pk
					break
				}
			}
		}
		switch {
		case first != nil:
			c.repeated(k, first, "key %q is repeated (first at line %d); YAML readers disagree on which value wins", k.Value, first.Line)
		case seen != nil:
			seen[id] = k
		}
	}
}

// keyID is the key a reader's map holds for the scalar k: its text, or
// for an integer, a float, a boolean or null the value read (0x1 and 1 are
// one key, and so are True and true).
func keyID(k *yaml.Node) string {
	if k.Tag == "!!str" {
		return k.Value // nearly every key
	}
	switch k.ShortTag() {
	case "!!int":
		if i, ok := node.Int(k); ok {
			return strconv.FormatInt(i, 10)
		}
	case "!!float":
		if f, ok := node.Float(k); ok {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
	case "!!bool":
		if b, ok := node.Bool(k); ok {
			return strconv.FormatBool(b)
		}
	case "!!null":
		return "null"
	}
	return k.Value
}

// repeated reports key k, repeated from first (RL002).
func (c *treeCheck) repeated(k, first *yaml.Node, format string, args ...any) {
	fd := Problem(c.f, code.DuplicateKey, diag.Pos{Line: k.Line, Col: k.Column}, format, args...)
	fd.Related = []diag.Related{{Path: c.f.Path, Line: first.Line, Column: first.Column, Message: "first occurrence of " + strconv.Quote(first.Value)}}
	c.out = append(c.out, fd)
}

// refuse reports what readers take differently or refuse at n (RL001):
// the file is then not checked further, as one that does not parse.
func (c *treeCheck) refuse(n *yaml.Node, format string, args ...any) {
	c.out = append(c.out, Problem(c.f, code.ParseError, diag.Pos{Line: n.Line, Col: n.Column}, format, args...))
}

// parseFrontMatter splits Markdown into YAML front matter and body (RL310).
func parseFrontMatter(f *File, doc *Document, lim Limits) []diag.Finding {
	data := f.Data
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if strings.TrimRight(string(first), " \t\r") != "---" {
		doc.Body = string(data)
		doc.BodyLine = 1
		if path.Base(f.Path) == "_resume.md" {
			// A note: nexus's reader of _resume.md took its front matter
			// when there was one (RL313 tells when the file is legacy).
			return nil
		}
		return []diag.Finding{Problem(f, code.Frontmatter, diag.Pos{Line: 1, Col: 1}, "no YAML front matter: the file must start with a line '---'")}
	}
	off := len(first) + 1
	line := 2
	for len(rest) > 0 || off < len(data) {
		ln, next, found := bytes.Cut(rest, []byte("\n"))
		t := strings.TrimRight(string(ln), " \t\r")
		if t == "---" || t == "..." {
			doc.FrontMatter = true
			root, out := parseYAML(doc, len(first)+1, off, 1, lim)
			if root == nil && len(out) == 0 {
				out = append(out, Problem(f, code.Frontmatter, diag.Pos{Line: 1, Col: 1}, "the front matter between the '---' lines is empty"))
			}
			if root != nil && root.Kind != yaml.MappingNode {
				out = append(out, Problem(f, code.Frontmatter, diag.Pos{Line: root.Line, Col: root.Column}, "front matter is not a mapping of keys to values"))
				root = nil
			}
			doc.Root = root
			doc.BodyLine = line + 1
			doc.Body = string(next)
			if t == "..." {
				// YAML's document end, but the readers split front
				// matter at a line '---': they find none, or take the
				// body up to its first rule.
				out = append(out, Problem(f, code.Frontmatter, diag.Pos{Line: line, Col: 1}, "the front matter is closed by '...', which readers do not take as its end: write '---'"))
			}
			return out
		}
		if !found {
			break
		}
		off += len(ln) + 1
		rest = next
		line++
	}
	return []diag.Finding{Problem(f, code.Frontmatter, diag.Pos{Line: 1, Col: 1}, "front matter opened at line 1 is not closed by a line '---'")}
}

// parseJSONL parses each non-blank line as JSON; a bad line is recorded and
// the rest of the file still counts (seed 003: parse what is readable).
func parseJSONL(f *File, doc *Document, lim Limits) []diag.Finding {
	var out []diag.Finding
	data := f.Data
	line := 1
	budget := nodeBudget(lim) // for the whole file, not per line
	for len(data) > 0 {
		ln, next, _ := bytes.Cut(data, []byte("\n"))
		if len(bytes.TrimSpace(ln)) > 0 {
			n, dups, err := parseJSON(ln, line, lim.MaxDepth, budget, nil)
			var se *SizeError
			if errors.As(err, &se) {
				doc.Lines = nil
				return []diag.Finding{sizeFinding(f, se, lim)}
			}
			out = append(out, dupFindings(f, dups)...)
			jl := JSONLine{Line: line, Node: n}
			if n == nil && ConflictMarker(ln) {
				jl.Conflict = true
			}
			if err != nil {
				var je *JSONError
				var de *DepthError
				switch {
				case errors.As(err, &de):
					jl.Err = &de.JSONError
				case errors.As(err, &je):
					jl.Err = je
				default:
					jl.Err = &JSONError{Pos: diag.Pos{Line: line, Col: 1}, Msg: err.Error()}
				}
			}
			doc.Lines = append(doc.Lines, jl)
		}
		data = next
		line++
	}
	return out
}

// String renders a parse position for messages.
func (p JSONLine) String() string { return fmt.Sprintf("line %d", p.Line) }

// nodeBudget is the number of values a JSON or JSONL file may hold, or nil
// without a limit. A value costs a tree node of about 160 bytes, so a file
// of the largest size made of tiny values (`{}` lines) would otherwise
// take some 200 times its size in memory.
func nodeBudget(lim Limits) *int {
	if lim.MaxNodes <= 0 {
		return nil
	}
	n := lim.MaxNodes
	return &n
}

func sizeFinding(f *File, se *SizeError, lim Limits) diag.Finding {
	return Problem(f, code.InputLimits, se.Pos, "more than %d values in this file; not checked", lim.MaxNodes)
}
