package load

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
)

// JSONError is a syntax error at a position.
type JSONError struct {
	Pos diag.Pos
	Msg string
}

func (e *JSONError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg) }

// DuplicateKey records a repeated key in a JSON object.
type DuplicateKey struct {
	Key        string
	Pos, First diag.Pos
}

// ParseJSON parses one JSON value into a yaml.Node tree, so rules and schema
// validation see JSON and YAML the same way, with line:column on every node.
// Unlike encoding/json it reports repeated keys instead of keeping the last.
// firstLine offsets the line numbers (for JSONL, each line is parsed alone).
func ParseJSON(data []byte, firstLine int, maxDepth int) (*yaml.Node, []DuplicateKey, error) {
	return parseJSON(data, firstLine, maxDepth, nil, nil)
}

// parseJSON is ParseJSON that also stops, with a *SizeError, once it has
// built more than *budget values (keys count too), decreasing *budget by
// the values built. A nil budget is no limit.
func parseJSON(data []byte, firstLine int, maxDepth int, budget *int, alloc *nodeAlloc) (*yaml.Node, []DuplicateKey, error) {
	p := &jsonParser{data: data, line: firstLine, lineStart: 0, maxDepth: maxDepth, budget: budget, alloc: alloc}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultLimits.MaxDepth
	}
	p.skipWS()
	if p.pos >= len(p.data) {
		return nil, nil, p.errf("empty document: expected a JSON value")
	}
	n, err := p.value(0)
	if err != nil {
		return nil, p.dups, err
	}
	p.skipWS()
	if p.pos < len(p.data) {
		return nil, p.dups, p.errf("unexpected %s after the JSON value", p.describe())
	}
	return n, p.dups, nil
}

type jsonParser struct {
	data      []byte
	pos       int
	line      int
	lineStart int
	maxDepth  int
	dups      []DuplicateKey
	budget    *int // values left to build, or nil
	// alloc, when set, hands out the nodes from pooled blocks.
	alloc *nodeAlloc

	// colAt and col cache the character count from lineStart to colAt, so
	// positions on a long single-line document cost linear time overall.
	colAt, col int
}

// node allocates a node of the tree.
func (p *jsonParser) node(n yaml.Node) *yaml.Node {
	if p.alloc != nil {
		return p.alloc.node(n)
	}
	x := new(yaml.Node) // not &n: n would move to the heap on both paths
	*x = n
	return x
}

func (p *jsonParser) cur() diag.Pos {
	if p.colAt < p.lineStart || p.colAt > p.pos {
		p.colAt, p.col = p.lineStart, 0
	}
	p.col += utf8.RuneCount(p.data[p.colAt:p.pos])
	p.colAt = p.pos
	return diag.Pos{Line: p.line, Col: p.col + 1}
}

func (p *jsonParser) errf(format string, args ...any) error {
	return &JSONError{Pos: p.cur(), Msg: fmt.Sprintf(format, args...)}
}

func (p *jsonParser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *jsonParser) skipWS() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\r':
			p.pos++
		case '\n':
			p.pos++
			p.line++
			p.lineStart = p.pos
		default:
			return
		}
	}
}

// DepthError is returned when nesting exceeds the limit (RL003).
type DepthError struct{ JSONError }

// SizeError is returned when a document holds more values than the
// limit (RL003): a tree per value would cost far more memory than the
// file's size.
type SizeError struct{ JSONError }

// spend counts one value against the budget.
func (p *jsonParser) spend(at diag.Pos) error {
	if p.budget == nil {
		return nil
	}
	if *p.budget--; *p.budget < 0 {
		return &SizeError{JSONError{Pos: at, Msg: "more values than the limit"}}
	}
	return nil
}

func (p *jsonParser) value(depth int) (*yaml.Node, error) {
	if p.pos >= len(p.data) {
		return nil, p.errf("unexpected end of input: expected a value")
	}
	start := p.cur()
	if err := p.spend(start); err != nil {
		return nil, err
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth >= p.maxDepth {
			return nil, &DepthError{JSONError{Pos: start, Msg: fmt.Sprintf("nesting deeper than %d levels", p.maxDepth)}}
		}
		if c == '{' {
			return p.object(start, depth)
		}
		return p.array(start, depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle, Line: start.Line, Column: start.Col}), nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(start)
	default:
		for _, lit := range [...]struct{ word, tag string }{{"true", "!!bool"}, {"false", "!!bool"}, {"null", "!!null"}} {
			if strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+5)]), lit.word) {
				p.pos += len(lit.word)
				return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: lit.tag, Value: lit.word, Line: start.Line, Column: start.Col}), nil
			}
		}
		return nil, p.errf("unexpected %s: expected a JSON value", p.describe())
	}
}

func (p *jsonParser) object(start diag.Pos, depth int) (*yaml.Node, error) {
	n := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle, Line: start.Line, Column: start.Col})
	// seen holds the keys of a large object; a small one scans them.
	var seen map[string]diag.Pos
	p.pos++ // {
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return n, nil
	}
	for {
		p.skipWS()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errf("unexpected %s: expected a string key", p.describe())
		}
		kpos := p.cur()
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		if first, ok := firstKey(n.Content, seen, k); ok {
			p.dups = append(p.dups, DuplicateKey{Key: k, Pos: kpos, First: first})
		} else if seen != nil {
			seen[k] = kpos
		} else if len(n.Content) >= 64 {
			// From the 33rd key on, a map costs less than a scan.
			seen = make(map[string]diag.Pos, 64)
			for i := 0; i < len(n.Content); i += 2 {
				if kn := n.Content[i]; !hasKey(seen, kn.Value) {
					seen[kn.Value] = diag.Pos{Line: kn.Line, Col: kn.Column}
				}
			}
			seen[k] = kpos
		}
		p.skipWS()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errf("unexpected %s: expected ':' after key %q", p.describe(), k)
		}
		p.pos++
		p.skipWS()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.spend(kpos); err != nil {
			return nil, err
		}
		kn := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k, Style: yaml.DoubleQuotedStyle, Line: kpos.Line, Column: kpos.Col})
		n.Content = append(n.Content, kn, v)
		p.skipWS()
		if p.pos >= len(p.data) {
			return nil, p.errf("unexpected end of input: object opened at line %d is not closed", start.Line)
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return n, nil
		default:
			return nil, p.errf("unexpected %s: expected ',' or '}'", p.describe())
		}
	}
}

// firstKey finds an earlier key k of an object: in seen when the object
// has one, else by scanning the keys of content.
func firstKey(content []*yaml.Node, seen map[string]diag.Pos, k string) (diag.Pos, bool) {
	if seen != nil {
		pos, ok := seen[k]
		return pos, ok
	}
	for i := 0; i < len(content); i += 2 {
		if kn := content[i]; kn.Value == k {
			return diag.Pos{Line: kn.Line, Col: kn.Column}, true
		}
	}
	return diag.Pos{}, false
}

func hasKey(m map[string]diag.Pos, k string) bool {
	_, ok := m[k]
	return ok
}

func (p *jsonParser) array(start diag.Pos, depth int) (*yaml.Node, error) {
	n := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: start.Line, Column: start.Col})
	p.pos++ // [
	p.skipWS()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return n, nil
	}
	for {
		p.skipWS()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, v)
		p.skipWS()
		if p.pos >= len(p.data) {
			return nil, p.errf("unexpected end of input: array opened at line %d is not closed", start.Line)
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return n, nil
		default:
			return nil, p.errf("unexpected %s: expected ',' or ']'", p.describe())
		}
	}
}

func (p *jsonParser) number(start diag.Pos) (*yaml.Node, error) {
	i := p.pos
	isFloat := false
	if p.data[i] == '-' {
		i++
	}
	digits := func() int {
		s := i
		for i < len(p.data) && p.data[i] >= '0' && p.data[i] <= '9' {
			i++
		}
		return i - s
	}
	if i < len(p.data) && p.data[i] == '0' {
		i++
	} else if digits() == 0 {
		p.pos = i
		return nil, p.errf("invalid number: expected a digit")
	}
	if i < len(p.data) && p.data[i] == '.' {
		isFloat = true
		i++
		if digits() == 0 {
			p.pos = i
			return nil, p.errf("invalid number: expected a digit after '.'")
		}
	}
	if i < len(p.data) && (p.data[i] == 'e' || p.data[i] == 'E') {
		isFloat = true
		i++
		if i < len(p.data) && (p.data[i] == '+' || p.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return nil, p.errf("invalid number: expected a digit in the exponent")
		}
	}
	text := string(p.data[p.pos:i])
	p.pos = i
	tag := "!!int"
	if isFloat || !fitsInt(text) {
		// As go-yaml tags it: an integer beyond 64 bits is a float. (A
		// number beyond float64, which go-yaml reads as a string, stays a
		// number here: JSON has no other reading.)
		tag = "!!float"
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text, Line: start.Line, Column: start.Col}), nil
}

// key is str for an object's key, interned (internKey) when it has no
// escape.
func (p *jsonParser) key() (string, error) {
	if end := p.plainEnd(); end >= 0 {
		s := internKey(p.data[p.pos+1 : end])
		p.pos = end + 1
		return s, nil
	}
	return p.str()
}

// plainEnd is the offset of the closing quote of the string at p.pos when
// it has no escape and no control character (most strings), else -1.
func (p *jsonParser) plainEnd() int {
	for i := p.pos + 1; i < len(p.data); i++ {
		if c := p.data[i]; c == '"' {
			return i
		} else if c == '\\' || c < 0x20 {
			break
		}
	}
	return -1
}

func (p *jsonParser) str() (string, error) {
	// Most strings have no escape: one copy of their bytes.
	if end := p.plainEnd(); end >= 0 {
		s := string(p.data[p.pos+1 : end])
		p.pos = end + 1
		return s, nil
	}
	p.pos++ // opening quote
	var sb strings.Builder
	for {
		if p.pos >= len(p.data) {
			return "", p.errf("unexpected end of input in a string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return sb.String(), nil
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				return "", p.errf("unexpected end of input in a string escape")
			}
			e := p.data[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				sb.WriteByte(e)
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) && p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
					next := p.pos
					p.pos += 2
					r2, err := p.hex4()
					if err != nil {
						return "", err
					}
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						r = pair
					} else {
						p.pos = next // not a pair: the second escape stands alone
					}
				}
				if utf16.IsSurrogate(r) {
					// A lone surrogate has no UTF-8 form: WriteRune would
					// make it U+FFFD, another text (a hashes key naming
					// another file). Its WTF-8 bytes keep it invalid, so
					// whoever checks the text sees it does not round-trip.
					sb.WriteByte(0xE0 | byte(r>>12))
					sb.WriteByte(0x80 | byte(r>>6)&0x3F)
					sb.WriteByte(0x80 | byte(r)&0x3F)
					continue
				}
				sb.WriteRune(r)
			default:
				p.pos--
				return "", p.errf("invalid escape '\\%c' in a string", e)
			}
		case c < 0x20:
			if c == '\n' {
				return "", p.errf("line break inside a string (missing closing quote?)")
			}
			return "", p.errf("control character 0x%02x in a string must be escaped", c)
		default:
			sb.WriteByte(c)
			p.pos++
		}
	}
}

func (p *jsonParser) hex4() (rune, error) {
	if p.pos+4 > len(p.data) {
		return 0, p.errf("invalid \\u escape")
	}
	v, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.errf("invalid \\u escape")
	}
	p.pos += 4
	return rune(v), nil
}

// fitsInt reports whether a JSON integer literal fits int64, or uint64 when
// positive: what go-yaml tags !!int.
func fitsInt(text string) bool {
	if len(text) < 19 {
		return true // at most 18 digits and a sign
	}
	if _, err := strconv.ParseInt(text, 10, 64); err == nil {
		return true
	}
	_, err := strconv.ParseUint(text, 10, 64)
	return err == nil
}
