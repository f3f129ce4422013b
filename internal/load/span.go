package load

import (
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
)

// ScalarEnd scans the scalar token that starts at line[at], on that line
// only (a line break ends it): a quoted scalar through its closing quote,
// with closed false when the line ends first; a plain scalar up to a
// comment, a key's colon or, inFlow, one of , ] } — without its trailing
// blanks. It is the one token scanner of the program: finding spans (in
// runes) and fixes (in bytes) both use it.
func ScalarEnd[T byte | rune](line []T, at int, inFlow bool) (end int, closed bool) {
	if at < 0 || at >= len(line) {
		return at, false
	}
	switch q := line[at]; q {
	case '"', '\'':
		for i := at + 1; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\n':
				return i, false
			case c == '\\' && q == '"':
				i++
			case c == q && q == '\'' && i+1 < len(line) && line[i+1] == '\'':
				i++
			case c == q:
				return i + 1, true
			}
		}
		return len(line), false
	}
	blank := func(i int) bool { return i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') }
	i := at
	for ; i < len(line) && line[i] != '\n'; i++ {
		c := line[i]
		if c == '#' && i > at && blank(i-1) {
			break
		}
		if inFlow && (c == ',' || c == ']' || c == '}') {
			break
		}
		if c == ':' && (i+1 == len(line) || blank(i+1) || line[i+1] == '\n' ||
			(inFlow && (line[i+1] == ',' || line[i+1] == ']' || line[i+1] == '}'))) {
			break
		}
	}
	for i > at && blank(i-1) {
		i--
	}
	return i, true
}

// JSONValueEnd returns the offset just after the JSON value starting at
// d[a]: a string or a literal (see ScalarEnd), or an object or array
// through its closing bracket.
func JSONValueEnd(d []byte, a int) (int, bool) {
	if a >= len(d) {
		return 0, false
	}
	if d[a] != '{' && d[a] != '[' {
		e, ok := ScalarEnd(d, a, true)
		return e, ok && e > a
	}
	depth := 0
	for i := a; i < len(d); i++ {
		switch d[i] {
		case '"':
			e, ok := ScalarEnd(d, i, true)
			if !ok {
				return 0, false
			}
			i = e - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
	}
	return 0, false
}

// EndOf is where a node's source text ends on its first line: the whole
// token for scalars, the bracket or list dash for collections. Its cost is
// the token's, not the line's (LineAt).
func EndOf(f *File, n *yaml.Node) diag.Pos {
	if f == nil || n == nil || n.Line == 0 {
		return diag.Pos{}
	}
	text, start, ok := f.LineAt(n.Line, n.Column)
	if !ok {
		return diag.Pos{Line: n.Line, Col: n.Column}
	}
	width := 1 // characters; at least the first one
	if c := text[start]; n.Kind == yaml.ScalarNode && c != '|' && c != '>' {
		end, _ := ScalarEnd(text[start:], 0, f.InFlow(n.Line, start))
		width = max(utf8.RuneCount(text[start:start+end]), 1)
	}
	return diag.Pos{Line: n.Line, Col: n.Column + width}
}
