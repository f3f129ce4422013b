// Package golden holds the setup commands of the golden cases
// (testdata/golden/*.txtar): shared fixtures and the small edits that turn
// a fixture into one case. An edit touches only the bytes it names, so a
// case's input differs from its fixture by exactly the lines the case is
// about, comments and formatting included.
package golden

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Set replaces the value at the dotted path p of a YAML or JSON document
// (the front matter of a Markdown file) with value, written as YAML/JSON
// source text. A string value takes the quotes of the value it replaces
// (always double quotes in JSON), so `set F a.b CP-009` keeps `"CP-009"`
// quoted; numbers, true, false, null and values that begin with a quote or
// bracket are written as given. Only a scalar or a one-line flow value can
// be replaced; a path that does not exist is an error, never a no-op.
func Set(name string, data []byte, p, value string) ([]byte, error) {
	doc, off, err := parseDoc(name, data)
	if err != nil {
		return nil, err
	}
	n, parent, err := lookup(doc, p)
	if err != nil {
		return nil, fmt.Errorf("set %s %s: %w", name, p, err)
	}
	start, end, err := valueRange(data[off:], n, parent.Style&yaml.FlowStyle != 0)
	if err != nil {
		return nil, fmt.Errorf("set %s %s: %w", name, p, err)
	}
	start, end = start+off, end+off
	text := render(value, data[start:end], isJSON(name))
	if start == end && start > 0 && data[start-1] == ':' {
		text = " " + text // an empty value right after its key
	}
	return splice(data, start, end, text), nil
}

// Del removes the entry at the dotted path p of a block mapping or block
// sequence in a YAML document: the key's lines through the last line of its
// value. Flow collections (and so JSON) are refused: use Set on the parent.
func Del(name string, data []byte, p string) ([]byte, error) {
	doc, off, err := parseDoc(name, data)
	if err != nil {
		return nil, err
	}
	n, parent, err := lookup(doc, p)
	if err != nil {
		return nil, fmt.Errorf("del %s %s: %w", name, p, err)
	}
	if parent.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("del %s %s: the entry is in a flow collection; set the collection instead", name, p)
	}
	first := n.Line
	if parent.Kind == yaml.MappingNode {
		first = keyOf(parent, n).Line
	}
	lines := lineStarts(data[off:])
	if parent.Kind == yaml.MappingNode {
		k := keyOf(parent, n)
		if lead := lineText(data[off:], lines, k.Line)[:k.Column-1]; len(bytes.TrimLeft(lead, " ")) > 0 {
			return nil, fmt.Errorf("del %s %s: the key shares its line with a list item's dash; use replace", name, p)
		}
	}
	last := lastLine(n)
	// Block scalars and comments inside the value sit deeper than its key.
	indent := indentOf(data[off:], lines, first)
	for last < len(lines) && deeper(data[off:], lines, last+1, indent) {
		last++
	}
	from := off + lines[first-1]
	to := len(data)
	if last < len(lines) {
		to = off + lines[last]
	}
	return splice(data, from, to, ""), nil
}

// Replace replaces the one occurrence of old in data with new; \n and \t in
// either stand for a newline and a tab. No occurrence, or several, is an
// error: the edit must name exactly one place.
func Replace(name string, data []byte, old, new string) ([]byte, error) {
	old, new = unescape(old), unescape(new)
	switch c := bytes.Count(data, []byte(old)); {
	case old == "":
		return nil, fmt.Errorf("replace %s: empty text to replace", name)
	case c == 0:
		return nil, fmt.Errorf("replace %s: %q not found", name, old)
	case c > 1:
		return nil, fmt.Errorf("replace %s: %q occurs %d times; make it unique", name, old, c)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1), nil
}

func unescape(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(s)
}

func isJSON(name string) bool { return path.Ext(name) == ".json" }

// parseDoc parses the document of name, returning its root node and the
// offset of the document in data (the front matter's, for Markdown).
func parseDoc(name string, data []byte) (*yaml.Node, int, error) {
	off := 0
	src := data
	if path.Ext(name) == ".md" {
		rest, ok := bytes.CutPrefix(data, []byte("---\n"))
		end := bytes.Index(rest, []byte("\n---"))
		if !ok || end < 0 {
			return nil, 0, fmt.Errorf("%s: no front matter to edit", name)
		}
		off, src = 4, rest[:end+1]
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, 0, fmt.Errorf("%s: %v", name, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, 0, fmt.Errorf("%s: empty document", name)
	}
	return doc.Content[0], off, nil
}

// lookup walks the dotted path p from root: mapping keys by name (a key
// that itself holds dots matches the longest run of segments), sequence
// items by index. It returns the node and its parent collection.
func lookup(root *yaml.Node, p string) (n, parent *yaml.Node, err error) {
	if p == "" {
		return nil, nil, fmt.Errorf("empty path")
	}
	segs := strings.Split(p, ".")
	n = root
	for i := 0; i < len(segs); {
		parent = n
		switch n.Kind {
		case yaml.MappingNode:
			var used int
			n, used = child(n, segs[i:])
			if n == nil {
				return nil, nil, fmt.Errorf("no key %q under %q", segs[i], strings.Join(segs[:i], "."))
			}
			i += used
		case yaml.SequenceNode:
			k, err := strconv.Atoi(segs[i])
			if err != nil || k < 0 || k >= len(n.Content) {
				return nil, nil, fmt.Errorf("no item %q in the %d-item list %q", segs[i], len(n.Content), strings.Join(segs[:i], "."))
			}
			n = n.Content[k]
			i++
		default:
			return nil, nil, fmt.Errorf("%q is not a mapping or a list", strings.Join(segs[:i], "."))
		}
	}
	return n, parent, nil
}

// child finds the value of the key spelled by the longest prefix of segs.
func child(m *yaml.Node, segs []string) (*yaml.Node, int) {
	for used := len(segs); used > 0; used-- {
		key := strings.Join(segs[:used], ".")
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == key {
				return m.Content[i+1], used
			}
		}
	}
	return nil, 0
}

func keyOf(m, v *yaml.Node) *yaml.Node {
	for i := 1; i < len(m.Content); i += 2 {
		if m.Content[i] == v {
			return m.Content[i-1]
		}
	}
	return v
}

func lastLine(n *yaml.Node) int {
	last := n.Line
	for _, c := range n.Content {
		last = max(last, lastLine(c))
	}
	return last
}

// lineStarts returns the offset of each line; line k (1-based) starts at
// lines[k-1].
func lineStarts(data []byte) []int {
	lines := []int{0}
	for i, b := range data {
		if b == '\n' && i+1 < len(data) {
			lines = append(lines, i+1)
		}
	}
	return lines
}

func lineText(data []byte, lines []int, k int) []byte {
	l := data[lines[k-1]:]
	if i := bytes.IndexByte(l, '\n'); i >= 0 {
		l = l[:i]
	}
	return l
}

func indentOf(data []byte, lines []int, k int) int {
	l := lineText(data, lines, k)
	return len(l) - len(bytes.TrimLeft(l, " "))
}

// deeper reports whether line k is non-blank and indented past indent.
func deeper(data []byte, lines []int, k, indent int) bool {
	l := lineText(data, lines, k)
	return len(bytes.TrimSpace(l)) > 0 && indentOf(data, lines, k) > indent
}

// offset converts the 1-based line and column (in characters) of a node to
// a byte offset.
func offset(data []byte, lines []int, line, col int) (int, error) {
	if line < 1 || line > len(lines) {
		return 0, fmt.Errorf("line %d out of range", line)
	}
	o := lines[line-1]
	for c := 1; c < col; c++ {
		if o >= len(data) || data[o] == '\n' {
			return 0, fmt.Errorf("column %d out of range on line %d", col, line)
		}
		_, size := utf8.DecodeRune(data[o:])
		o += size
	}
	return o, nil
}

func splice(data []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(text))
	out = append(out, data[:start]...)
	out = append(out, text...)
	return append(out, data[end:]...)
}

// valueRange returns the byte range of n's source text: a quoted or plain
// scalar, or a flow collection (flow says n sits inside one, where a plain
// scalar also ends at a comma or bracket).
func valueRange(data []byte, n *yaml.Node, flow bool) (int, int, error) {
	lines := lineStarts(data)
	start, err := offset(data, lines, n.Line, n.Column)
	if err != nil {
		return 0, 0, err
	}
	switch {
	case n.Kind == yaml.AliasNode || n.Anchor != "":
		return 0, 0, fmt.Errorf("the value is an alias or has an anchor; use replace")
	case n.Kind != yaml.ScalarNode && n.Style&yaml.FlowStyle == 0:
		return 0, 0, fmt.Errorf("the value is a block %s; set one of its entries, or use replace", kindName(n))
	case n.Kind != yaml.ScalarNode:
		end, err := closeBracket(data, start)
		return start, end, err
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return 0, 0, fmt.Errorf("the value is a block scalar; use replace")
	case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		end, err := closeQuote(data, start)
		return start, end, err
	}
	end := start
	for end < len(data) && data[end] != '\n' && !(data[end] == '#' && end > start && data[end-1] == ' ') &&
		!(flow && bytes.IndexByte([]byte(",]}"), data[end]) >= 0) {
		end++
	}
	for end > start && (data[end-1] == ' ' || data[end-1] == '\t' || data[end-1] == '\r') {
		end--
	}
	if string(data[start:end]) != n.Value {
		return 0, 0, fmt.Errorf("line %d: the value %q is not a one-line plain scalar; use replace", n.Line, n.Value)
	}
	return start, end, nil
}

func kindName(n *yaml.Node) string {
	if n.Kind == yaml.SequenceNode {
		return "list"
	}
	return "mapping"
}

// closeQuote returns the offset just past the quoted scalar at start.
func closeQuote(data []byte, start int) (int, error) {
	q := data[start]
	if q != '"' && q != '\'' {
		return 0, fmt.Errorf("no quote at the value's position")
	}
	for i := start + 1; i < len(data); i++ {
		switch {
		case q == '"' && data[i] == '\\':
			i++
		case data[i] == q && q == '\'' && i+1 < len(data) && data[i+1] == '\'':
			i++
		case data[i] == q:
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("unclosed quote")
}

// closeBracket returns the offset just past the flow collection at start.
func closeBracket(data []byte, start int) (int, error) {
	depth := 0
	for i := start; i < len(data); i++ {
		switch data[i] {
		case '"', '\'':
			end, err := closeQuote(data, i)
			if err != nil {
				return 0, err
			}
			i = end - 1
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return i + 1, nil
			}
		}
	}
	return 0, fmt.Errorf("unclosed flow collection")
}

var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// render writes value as source text in place of old (see Set).
func render(value string, old []byte, json bool) string {
	switch {
	case value == "null" || value == "true" || value == "false" || jsonNumber.MatchString(value),
		value != "" && strings.ContainsRune(`"'[{`, rune(value[0])):
		return value
	case json || bytes.HasPrefix(old, []byte(`"`)):
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value) + `"`
	case bytes.HasPrefix(old, []byte(`'`)):
		return `'` + strings.ReplaceAll(value, `'`, `''`) + `'`
	}
	return value
}
