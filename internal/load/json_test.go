package load

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
)

// posOfNode is a node's position as a diag.Pos, for comparisons.
func posOfNode(n *yaml.Node) diag.Pos { return diag.Pos{Line: n.Line, Col: n.Column} }

// mapValue returns the key and value nodes of k in a mapping node.
func mapValue(t *testing.T, m *yaml.Node, k string) (*yaml.Node, *yaml.Node) {
	t.Helper()
	if m == nil || m.Kind != yaml.MappingNode {
		t.Fatalf("not a mapping: %+v", m)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			return m.Content[i], m.Content[i+1]
		}
	}
	t.Fatalf("key %q not found", k)
	return nil, nil
}

func TestParseJSONPositions(t *testing.T) {
	src := "{\n" +
		"  \"checkpoint_id\": \"cx-001\",\n" +
		"  \"naïve\": {\"fill\": 0.5, \"tier\": \"LOW\"},\n" +
		"\t\"list\": [1, true, null,\n" +
		"    \"ü\", {\"k\": false}]\n" +
		"}\n"
	root, dups, err := ParseJSON([]byte(src), 1, 256)
	if err != nil || len(dups) != 0 {
		t.Fatalf("ParseJSON: %v %v", err, dups)
	}
	if root.Kind != yaml.MappingNode || posOfNode(root) != (diag.Pos{Line: 1, Col: 1}) {
		t.Fatalf("root: kind %d at %v", root.Kind, posOfNode(root))
	}
	k, v := mapValue(t, root, "checkpoint_id")
	if posOfNode(k) != (diag.Pos{Line: 2, Col: 3}) || posOfNode(v) != (diag.Pos{Line: 2, Col: 20}) || v.Value != "cx-001" || v.Tag != "!!str" {
		t.Errorf("checkpoint_id: key %v value %v %q %s", posOfNode(k), posOfNode(v), v.Value, v.Tag)
	}
	// Columns count characters: "ï" is one column though two bytes.
	k, v = mapValue(t, root, "naïve")
	if posOfNode(k) != (diag.Pos{Line: 3, Col: 3}) || posOfNode(v) != (diag.Pos{Line: 3, Col: 12}) {
		t.Errorf("naïve: key %v value %v", posOfNode(k), posOfNode(v))
	}
	fk, fv := mapValue(t, v, "fill")
	if posOfNode(fk) != (diag.Pos{Line: 3, Col: 13}) || posOfNode(fv) != (diag.Pos{Line: 3, Col: 21}) || fv.Tag != "!!float" || fv.Value != "0.5" {
		t.Errorf("fill: key %v value %v %s %q", posOfNode(fk), posOfNode(fv), fv.Tag, fv.Value)
	}
	_, tv := mapValue(t, v, "tier")
	if posOfNode(tv) != (diag.Pos{Line: 3, Col: 34}) {
		t.Errorf("tier value at %v, want 3:34", posOfNode(tv))
	}
	// A tab is one column, as in the YAML parser.
	k, list := mapValue(t, root, "list")
	if posOfNode(k) != (diag.Pos{Line: 4, Col: 2}) || list.Kind != yaml.SequenceNode || posOfNode(list) != (diag.Pos{Line: 4, Col: 10}) {
		t.Fatalf("list: key %v value %v kind %d", posOfNode(k), posOfNode(list), list.Kind)
	}
	want := []struct {
		pos      diag.Pos
		tag, val string
	}{
		{diag.Pos{Line: 4, Col: 11}, "!!int", "1"},
		{diag.Pos{Line: 4, Col: 14}, "!!bool", "true"},
		{diag.Pos{Line: 4, Col: 20}, "!!null", "null"},
		{diag.Pos{Line: 5, Col: 5}, "!!str", "ü"},
		{diag.Pos{Line: 5, Col: 10}, "!!map", ""},
	}
	if len(list.Content) != len(want) {
		t.Fatalf("list has %d items, want %d", len(list.Content), len(want))
	}
	for i, w := range want {
		n := list.Content[i]
		if posOfNode(n) != w.pos || n.Tag != w.tag || n.Value != w.val {
			t.Errorf("item %d: %v %s %q, want %v %s %q", i, posOfNode(n), n.Tag, n.Value, w.pos, w.tag, w.val)
		}
	}
	bk, bv := mapValue(t, list.Content[4], "k")
	if posOfNode(bk) != (diag.Pos{Line: 5, Col: 11}) || posOfNode(bv) != (diag.Pos{Line: 5, Col: 16}) {
		t.Errorf("k: %v %v", posOfNode(bk), posOfNode(bv))
	}
	// Every node has a position.
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Line < 1 || n.Column < 1 {
			t.Errorf("node %q (kind %d) has no position", n.Value, n.Kind)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
}

func TestParseJSONFirstLineOffset(t *testing.T) {
	root, _, err := ParseJSON([]byte(`{"a": [1]}`), 42, 256)
	if err != nil {
		t.Fatal(err)
	}
	_, v := mapValue(t, root, "a")
	if posOfNode(root) != (diag.Pos{Line: 42, Col: 1}) || posOfNode(v.Content[0]) != (diag.Pos{Line: 42, Col: 8}) {
		t.Errorf("root %v, item %v", posOfNode(root), posOfNode(v.Content[0]))
	}
}

func TestParseJSONDuplicateKeys(t *testing.T) {
	src := "{\n  \"status\": \"success\",\n  \"nested\": {\"a\": 1, \"a\": 2},\n  \"status\": \"failure\"\n}"
	root, dups, err := ParseJSON([]byte(src), 1, 256)
	if err != nil {
		t.Fatal(err)
	}
	if root == nil {
		t.Fatal("a repeated key must not stop parsing")
	}
	want := []DuplicateKey{
		{Key: "a", Pos: diag.Pos{Line: 3, Col: 22}, First: diag.Pos{Line: 3, Col: 14}},
		{Key: "status", Pos: diag.Pos{Line: 4, Col: 3}, First: diag.Pos{Line: 2, Col: 3}},
	}
	if len(dups) != len(want) {
		t.Fatalf("dups = %+v, want %+v", dups, want)
	}
	for i := range want {
		if dups[i] != want[i] {
			t.Errorf("dup %d = %+v, want %+v", i, dups[i], want[i])
		}
	}
	// Both values are kept in the tree, as written.
	n := 0
	for i := 0; i < len(root.Content); i += 2 {
		if root.Content[i].Value == "status" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("tree keeps %d status keys, want 2", n)
	}
	// Keys equal after unescaping are the same key.
	_, dups, _ = ParseJSON([]byte(`{"a": 1, "\u0061": 2}`), 1, 256)
	if len(dups) != 1 || dups[0].Key != "a" {
		t.Errorf("escaped duplicate: %+v", dups)
	}
	// The same key in sibling objects is not a duplicate.
	_, dups, _ = ParseJSON([]byte(`[{"a": 1}, {"a": 2}]`), 1, 256)
	if len(dups) != 0 {
		t.Errorf("sibling objects: %+v", dups)
	}
}

// Small objects scan their earlier keys, large ones use a map: both find
// a repeat at either end and name its first occurrence.
func TestParseJSONDuplicateKeysAnySize(t *testing.T) {
	for _, n := range []int{1, 8, 31, 32, 33, 200} {
		for _, dup := range []int{0, n - 1} {
			var sb strings.Builder
			sb.WriteString("{\n")
			for i := range n {
				fmt.Fprintf(&sb, "  \"k%d\": 1,\n", i)
			}
			fmt.Fprintf(&sb, "  \"k%d\": 2,\n  \"k%d\": 3,\n  \"after\": 4\n}", dup, dup)
			_, dups, err := ParseJSON([]byte(sb.String()), 1, 256)
			if err != nil {
				t.Fatal(err)
			}
			if len(dups) != 2 {
				t.Fatalf("%d keys, k%d repeated: %+v", n, dup, dups)
			}
			for i, d := range dups {
				want := DuplicateKey{Key: fmt.Sprintf("k%d", dup), Pos: diag.Pos{Line: n + 2 + i, Col: 3}, First: diag.Pos{Line: dup + 2, Col: 3}}
				if d != want {
					t.Errorf("%d keys: dup %d = %+v, want %+v", n, i, d, want)
				}
			}
		}
	}
}

func TestParseJSONEscapes(t *testing.T) {
	cases := []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`"q\"b\\s\/"`, `q"b\s/`},
		{`"\b\f\n\r\t"`, "\b\f\n\r\t"},
		{`"\u00e9\u00E9"`, "éé"},
		{`"\ud83d\ude00"`, "😀"},
		{`"é😀 raw"`, "é😀 raw"},
		{`"\u0000"`, "\x00"},
		// A lone surrogate keeps its WTF-8 bytes, invalid UTF-8, rather
		// than becoming U+FFFD (another text: a hashes key naming another
		// file); a following escape that does not pair with it is kept.
		{`"\ud800x"`, "\xed\xa0\x80x"},
		{`"\ud83d\u0041"`, "\xed\xa0\xbdA"},
		{`"\ude00\ud83d\ude00"`, "\xed\xb8\x80😀"},
	}
	for _, c := range cases {
		n, _, err := ParseJSON([]byte(c.in), 1, 256)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if n.Value != c.want || n.Tag != "!!str" {
			t.Errorf("%s = %q (%s), want %q", c.in, n.Value, n.Tag, c.want)
		}
	}
}

func TestParseJSONNumbers(t *testing.T) {
	cases := []struct{ in, tag string }{
		{"0", "!!int"}, {"-0", "!!int"}, {"42", "!!int"}, {"-17", "!!int"},
		{"0.5", "!!float"}, {"-1.25", "!!float"}, {"1e10", "!!float"}, {"2E+3", "!!float"}, {"-1.5e-3", "!!float"},
		// As go-yaml tags them: up to 2^64-1 an integer, beyond it a float.
		{"9223372036854775807", "!!int"}, {"9223372036854775808", "!!int"}, {"18446744073709551615", "!!int"},
		{"-9223372036854775808", "!!int"}, {"-9223372036854775809", "!!float"}, {"18446744073709551616", "!!float"},
		{"123456789012345678901234567890", "!!float"}, {"-123456789012345678901234567890", "!!float"},
		// Beyond float64 go-yaml reads a string; JSON has no other reading
		// than a number.
		{"1e400", "!!float"}, {"1" + strings.Repeat("0", 400), "!!float"},
	}
	for _, c := range cases {
		if c.in != "1e400" && len(c.in) < 100 {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(c.in), &doc); err != nil || doc.Content[0].ShortTag() != c.tag {
				t.Errorf("%s: go-yaml tags it %s, the case says %s", c.in, doc.Content[0].ShortTag(), c.tag)
			}
		}
		n, _, err := ParseJSON([]byte(" "+c.in+" "), 1, 256)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		// The source text is kept verbatim, so no precision is lost.
		if n.Value != c.in || n.Tag != c.tag || n.Column != 2 {
			t.Errorf("%s = %q %s col %d, want %q %s col 2", c.in, n.Value, n.Tag, n.Column, c.in, c.tag)
		}
	}
}

func TestParseJSONErrors(t *testing.T) {
	cases := []struct {
		in   string
		pos  diag.Pos
		want string // substring of the message
	}{
		{"", diag.Pos{Line: 1, Col: 1}, "empty document"},
		{"  \n ", diag.Pos{Line: 2, Col: 2}, "empty document"},
		{`{"a": [}`, diag.Pos{Line: 1, Col: 8}, "expected a JSON value"},
		{"{\n  \"a\": tru\n}", diag.Pos{Line: 2, Col: 8}, "expected a JSON value"},
		{`{"a" 1}`, diag.Pos{Line: 1, Col: 6}, `expected ':' after key "a"`},
		{`{"a": 1,}`, diag.Pos{Line: 1, Col: 9}, "expected a string key"},
		{`{'a': 1}`, diag.Pos{Line: 1, Col: 2}, "expected a string key"},
		{`[1, 2`, diag.Pos{Line: 1, Col: 6}, "array opened at line 1 is not closed"},
		{"{\"a\": 1\n", diag.Pos{Line: 2, Col: 1}, "object opened at line 1 is not closed"},
		{`[1 2]`, diag.Pos{Line: 1, Col: 4}, "expected ',' or ']'"},
		{`{"a": 1 "b": 2}`, diag.Pos{Line: 1, Col: 9}, "expected ',' or '}'"},
		{`{} {}`, diag.Pos{Line: 1, Col: 4}, "after the JSON value"},
		{`01`, diag.Pos{Line: 1, Col: 2}, "after the JSON value"},
		{`[01]`, diag.Pos{Line: 1, Col: 3}, "expected ',' or ']'"},
		{`-`, diag.Pos{Line: 1, Col: 2}, "expected a digit"},
		{`1.`, diag.Pos{Line: 1, Col: 3}, "after '.'"},
		{`1e+`, diag.Pos{Line: 1, Col: 4}, "exponent"},
		{`+1`, diag.Pos{Line: 1, Col: 1}, "expected a JSON value"},
		{`NaN`, diag.Pos{Line: 1, Col: 1}, "expected a JSON value"},
		{`"abc`, diag.Pos{Line: 1, Col: 5}, "end of input in a string"},
		{"[\"ab\ncd\"]", diag.Pos{Line: 1, Col: 5}, "line break inside a string"},
		{"\"a\tb\"", diag.Pos{Line: 1, Col: 3}, "control character 0x09"},
		{`"\q"`, diag.Pos{Line: 1, Col: 3}, `invalid escape '\q'`},
		{`"\u12"`, diag.Pos{Line: 1, Col: 4}, `invalid \u escape`},
		{`"\u12G4"`, diag.Pos{Line: 1, Col: 4}, `invalid \u escape`},
		{"{\"é\": \"ü\" x}", diag.Pos{Line: 1, Col: 11}, "expected ',' or '}'"},
	}
	for _, c := range cases {
		_, _, err := ParseJSON([]byte(c.in), 1, 256)
		var je *JSONError
		if !errors.As(err, &je) {
			t.Errorf("%q: err = %v, want a JSONError", c.in, err)
			continue
		}
		if je.Pos != c.pos || !strings.Contains(je.Msg, c.want) {
			t.Errorf("%q: %v %q, want %v %q", c.in, je.Pos, je.Msg, c.pos, c.want)
		}
	}
}

func TestParseJSONDepthLimit(t *testing.T) {
	nest := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	}
	if _, _, err := ParseJSON(nest(256), 1, 256); err != nil {
		t.Fatalf("256 levels: %v", err)
	}
	_, _, err := ParseJSON(nest(257), 1, 256)
	var de *DepthError
	if !errors.As(err, &de) {
		t.Fatalf("257 levels: err = %v, want a DepthError", err)
	}
	if de.Pos != (diag.Pos{Line: 1, Col: 257}) || !strings.Contains(de.Msg, "deeper than 256") {
		t.Errorf("depth error %v %q", de.Pos, de.Msg)
	}
	// Very deep input stops at the limit instead of exhausting the stack.
	if _, _, err := ParseJSON(nest(100_000), 1, 256); !errors.As(err, &de) {
		t.Errorf("100,000 levels: %v", err)
	}
	// Objects count too.
	deepObj := strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300)
	if _, _, err := ParseJSON([]byte(deepObj), 1, 256); !errors.As(err, &de) {
		t.Errorf("deep objects: %v", err)
	}
	// A zero limit means the default.
	if _, _, err := ParseJSON(nest(257), 1, 0); !errors.As(err, &de) {
		t.Errorf("default limit: %v", err)
	}
}

// A long single-line document (JSON written without line breaks is common)
// must parse in linear time: positions are counted incrementally.
func TestParseJSONLongLine(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("{")
	for i := 0; sb.Len() < 2<<20; i++ {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`"é`)
		sb.WriteString(strings.Repeat("x", i%7))
		sb.WriteString(`":[1,"v"]`)
	}
	sb.WriteString(`,"last":true}`)
	root, _, err := ParseJSON([]byte(sb.String()), 1, 256)
	if err != nil {
		t.Fatal(err)
	}
	k := root.Content[len(root.Content)-2]
	want := len([]rune(sb.String())) - len(`"last":true}`) + 1
	if k.Value != "last" || k.Line != 1 || k.Column != want {
		t.Errorf("last key %q at %d:%d, want 1:%d", k.Value, k.Line, k.Column, want)
	}
}

func TestParseViaParseJSONFindings(t *testing.T) {
	f := &File{Path: "x/STATUS.json", Data: []byte("{\n  \"status\": \"success\",\n  \"status\": \"error\"\n}\n")}
	doc, probs := Parse(f, FormatJSON, DefaultLimits)
	if doc.Root == nil {
		t.Fatal("Root is nil")
	}
	if len(probs) != 1 || probs[0].Code != "RL002" || probs[0].Start != (diag.Pos{Line: 3, Col: 3}) {
		t.Fatalf("probs = %+v", probs)
	}
	rel := probs[0].Related
	if len(rel) != 1 || rel[0].Path != f.Path || rel[0].Line != 2 || rel[0].Column != 3 {
		t.Errorf("related = %+v", rel)
	}
	if !strings.Contains(probs[0].Message, `"status"`) || !strings.Contains(probs[0].Message, "line 2") {
		t.Errorf("message %q", probs[0].Message)
	}

	f = &File{Path: "t.json", Data: []byte("{\n  \"a\": [}\n")}
	doc, probs = Parse(f, FormatJSON, DefaultLimits)
	if doc.Root != nil || len(probs) != 1 || probs[0].Code != "RL001" || probs[0].Start != (diag.Pos{Line: 2, Col: 9}) {
		t.Errorf("syntax error: root %v probs %+v", doc.Root, probs)
	}

	f = &File{Path: "t.json", Data: []byte(strings.Repeat("[", 300) + strings.Repeat("]", 300))}
	doc, probs = Parse(f, FormatJSON, DefaultLimits)
	if doc.Root != nil || len(probs) != 1 || probs[0].Code != "RL003" {
		t.Errorf("depth: root %v probs %+v", doc.Root, probs)
	}
}
