package load

import "unicode/utf8"

// yamlComments returns the byte offsets in data of the '#' of every
// comment a YAML parser sees as a comment, in order. It follows
// go.yaml.in/yaml/v3's scanner as far as comments depend on it: quoted
// scalars (over several lines), plain scalars and their continuation
// lines, flow collections, and block scalars, whose extent depends on the
// indentation of the enclosing block collection, so that is tracked too.
// Text inside a value is never a comment. On a document the parser
// rejects the answer is unspecified (RL001 reports it, and nothing can
// suppress RL001). The lint keeps one parse per file: this runs only on
// files holding a suppression marker, in linear time.
func yamlComments(data []byte) []int {
	s := commentScanner{data: data, indents: []int{-1}}
	for pos := 0; ; {
		end, next := yamlLineEnd(data, pos)
		s.scanLine(pos, end)
		if next == end {
			return s.out
		}
		pos = next
	}
}

// commentScanner holds what a YAML line's meaning depends on from the
// lines before it.
type commentScanner struct {
	data    []byte
	out     []int
	indents []int // the block collections' indentation; -1 at the bottom
	flow    int   // depth of flow collections
	quote   byte  // the quote of a quoted scalar that spans lines, or 0
	plain   bool  // a plain scalar ended at a line break: it may go on
	// block is the content indentation of the block scalar being read
	// (0: none); blockAuto marks a header whose indentation the first
	// non-empty line decides, from blockParent and blockMax.
	block, blockParent, blockMax int
	blockAuto                    bool

	// per line
	line            []byte
	base            int // offset of line in data
	keyCol          int // column of a possible simple key, or -1
	keyOK           bool
	colAt, colBytes int // a rune column and the byte offset it is at
}

// yamlLineEnd returns where the line starting at pos ends and where the
// next one starts (equal at the end of data). YAML breaks lines at LF,
// CRLF, CR, NEL, LS and PS.
func yamlLineEnd(data []byte, pos int) (end, next int) {
	for i := pos; i < len(data); i++ {
		switch data[i] {
		case '\n':
			return i, i + 1
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				return i, i + 2
			}
			return i, i + 1
		case 0xC2:
			if i+1 < len(data) && data[i+1] == 0x85 {
				return i, i + 2
			}
		case 0xE2:
			if i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9) {
				return i, i + 3
			}
		}
	}
	return len(data), len(data)
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// blankAt reports a blank or the end of the line at i.
func blankAt(line []byte, i int) bool { return i >= len(line) || isBlank(line[i]) }

// col returns the column (in characters, from 0) of byte i of the line;
// calls on one line go left to right, so a line costs its length once.
func (s *commentScanner) col(i int) int {
	if i < s.colBytes {
		s.colAt, s.colBytes = 0, 0
	}
	s.colAt += utf8.RuneCount(s.line[s.colBytes:i])
	s.colBytes = i
	return s.colAt
}

func (s *commentScanner) top() int { return s.indents[len(s.indents)-1] }

// roll opens a block collection at column c (the parser's roll_indent).
func (s *commentScanner) roll(c int) {
	if s.flow == 0 && s.top() < c {
		s.indents = append(s.indents, c)
	}
}

// unroll closes the block collections indented deeper than column c.
func (s *commentScanner) unroll(c int) {
	for s.flow == 0 && len(s.indents) > 1 && s.top() > c {
		s.indents = s.indents[:len(s.indents)-1]
	}
}

func (s *commentScanner) comment(i int) { s.out = append(s.out, s.base+i) }

// scanLine reads one line, in the state the lines before it left.
func (s *commentScanner) scanLine(start, end int) {
	line := s.data[start:end]
	s.line, s.base, s.keyCol, s.keyOK, s.colAt, s.colBytes = line, start, -1, true, 0, 0
	ind := 0
	for ind < len(line) && line[ind] == ' ' {
		ind++
	}
	if s.inBlockScalar(line, ind) {
		return
	}
	i := 0
	switch {
	case s.quote != 0:
		if i = s.quoted(line, 0, s.quote); i < 0 {
			return
		}
		s.quote, s.keyOK = 0, false
	case s.plain:
		j := ind
		for j < len(line) && isBlank(line[j]) {
			j++
		}
		if j == len(line) {
			return // a blank line inside the scalar
		}
		s.plain = false
		if line[j] != '#' && !docMarker(line, j) && (s.flow > 0 || s.col(j) > s.top()) {
			s.keyOK = false
			s.tokens(s.plainEnd(line, j))
			return
		}
	}
	if i == 0 {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i < len(line) && line[i] != '#' && s.flow == 0 {
			if docMarker(line, i) {
				s.indents, s.keyOK = s.indents[:1], false
				i += 3
			} else {
				s.unroll(s.col(i))
			}
		}
	}
	s.tokens(i)
}

// docMarker reports `---` or `...` at the start of a line.
func docMarker(line []byte, i int) bool {
	return i == 0 && len(line) >= 3 && (string(line[:3]) == "---" || string(line[:3]) == "...") && blankAt(line, 3)
}

// inBlockScalar reports whether the line is content of a block scalar
// (or a blank line before its first content), and ends the scalar at the
// first less indented line.
func (s *commentScanner) inBlockScalar(line []byte, ind int) bool {
	if s.blockAuto {
		if ind == len(line) {
			s.blockMax = max(s.blockMax, ind)
			return true
		}
		s.block, s.blockAuto = max(s.blockMax, ind, s.blockParent+1, 1), false
	}
	if s.block == 0 {
		return false
	}
	if ind == len(line) || ind >= s.block {
		return true
	}
	s.block = 0
	return false
}

// tokens reads the tokens of the line from byte i.
func (s *commentScanner) tokens(i int) {
	line := s.line
	for i < len(line) {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			return
		}
		if line[i] == '#' {
			s.comment(i)
			return
		}
		i = s.token(i)
		if i < 0 {
			return
		}
	}
}

// key notes a token that may be a simple key, at byte i.
func (s *commentScanner) key(i int) {
	if s.keyOK {
		s.keyCol, s.keyOK = s.col(i), false
	}
}

// token reads the token at byte i and returns the byte after it, or -1
// when the rest of the line is taken (a scalar that goes on, a header).
func (s *commentScanner) token(i int) int {
	line := s.line
	c := line[i]
	switch {
	case c == '"' || c == '\'':
		s.key(i)
		j := s.quoted(line, i+1, c)
		if j < 0 {
			s.quote = c
		}
		return j
	case (c == '|' || c == '>') && s.flow == 0:
		s.blockHeader(i + 1)
		return -1
	case c == '[' || c == '{':
		s.key(i)
		s.flow++
		s.keyOK = true
	case c == ']' || c == '}':
		if s.flow > 0 {
			s.flow--
		}
		s.keyOK = false
	case c == ',' && s.flow > 0:
		s.keyOK = true
	case c == '-' && blankAt(line, i+1):
		s.roll(s.col(i))
		s.keyCol, s.keyOK = -1, true
	case c == '?' && (s.flow > 0 || blankAt(line, i+1)):
		s.roll(s.col(i))
		s.keyCol, s.keyOK = -1, true
	case c == ':' && (s.flow > 0 || blankAt(line, i+1)):
		if s.keyCol >= 0 {
			s.roll(s.keyCol)
		} else {
			s.roll(s.col(i))
		}
		s.keyCol, s.keyOK = -1, s.flow == 0
	case c == '&' || c == '*':
		s.key(i)
		i++
		for i < len(line) && isAnchorChar(line[i]) {
			i++
		}
		return i
	case c == '!':
		s.key(i)
		return tagEnd(line, i+1)
	default:
		s.key(i)
		return s.plainEnd(line, i)
	}
	return i + 1
}

// blockHeader reads a block scalar's header from byte i (after `|` or
// `>`): its indentation indicator, chomping, and a comment.
func (s *commentScanner) blockHeader(i int) {
	line, inc := s.line, 0
	for n := 0; n < 2 && i < len(line); n++ {
		switch c := line[i]; {
		case c >= '1' && c <= '9' && inc == 0:
			inc = int(c - '0')
		case c == '+' || c == '-':
		default:
			n = 2
			continue
		}
		i++
	}
	if inc > 0 {
		s.block = max(s.top(), 0) + inc
	} else {
		s.blockAuto, s.blockParent, s.blockMax = true, s.top(), 0
	}
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	if i < len(line) && line[i] == '#' {
		s.comment(i)
	}
}

// quoted returns the byte after the closing quote q from byte i, or -1
// when the scalar goes on past the line.
func (s *commentScanner) quoted(line []byte, i int, q byte) int {
	for ; i < len(line); i++ {
		switch c := line[i]; {
		case q == '"' && c == '\\':
			i++
		case c == q && q == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++
		case c == q:
			return i + 1
		}
	}
	return -1
}

// plainEnd returns the byte where the plain scalar starting at byte i
// ends on this line: at `: `, a flow indicator in a flow collection, or
// before a ` #` comment; at a line break it may go on (s.plain).
func (s *commentScanner) plainEnd(line []byte, i int) int {
	for {
		for i < len(line) && !isBlank(line[i]) {
			c := line[i]
			if c == ':' && blankAt(line, i+1) || s.flow > 0 && (c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}') {
				return i
			}
			i++
		}
		j := i
		for j < len(line) && isBlank(line[j]) {
			j++
		}
		if j == len(line) {
			s.plain = true
			return j
		}
		if line[j] == '#' {
			return i
		}
		i = j
	}
}

func isAnchorChar(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b == '_' || b == '-'
}

// tagEnd returns the byte after a tag whose `!` is before byte i.
func tagEnd(line []byte, i int) int {
	if i < len(line) && line[i] == '<' {
		for i < len(line) && line[i] != '>' {
			i++
		}
		return min(i+1, len(line))
	}
	for i < len(line) && (isAnchorChar(line[i]) || isTagChar(line[i])) {
		i++
	}
	return i
}

func isTagChar(b byte) bool {
	switch b {
	case ';', '/', '?', ':', '@', '&', '=', '+', '$', ',', '.', '!', '~', '*', '\'', '(', ')', '[', ']', '%':
		return true
	}
	return false
}
