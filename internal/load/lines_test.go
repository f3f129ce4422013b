package load

import (
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// TestLineAt checks the long-line index against a plain scan of the
// line's characters: ASCII and non-ASCII, short and long lines, before and
// after Release.
func TestLineAt(t *testing.T) {
	long := `{"tasks": [` + strings.Repeat(`{"id": "tâche-é", "n": [1, 2]}, `, 200) + `{"id": "end"}]}`
	data := "short: [a, {b: ü}]\n" + long + "\r\n" + strings.Repeat("x", 700) + "\n"
	f := &File{Path: "t.json", Data: []byte(data)}
	lines := strings.Split(strings.ReplaceAll(data, "\r\n", "\n"), "\n")
	check := func(when string) {
		for n := 1; n <= 3; n++ {
			runes := []rune(lines[n-1])
			for col := 1; col <= len(runes)+1; col += 7 {
				text, off, ok := f.LineAt(n, col)
				if ok != (col <= len(runes)) {
					t.Fatalf("%s: line %d col %d: ok %v", when, n, col, ok)
				}
				if !ok {
					continue
				}
				if got := utf8.RuneCount(text[:off]); got != col-1 {
					t.Fatalf("%s: line %d col %d: offset %d is character %d", when, n, col, off, got)
				}
				depth := 0
				for _, r := range runes[:col-1] {
					switch r {
					case '[', '{':
						depth++
					case ']', '}':
						depth--
					}
				}
				if f.InFlow(n, off) != (depth > 0) {
					t.Fatalf("%s: line %d col %d: InFlow %v, depth %d", when, n, col, !(depth > 0), depth)
				}
			}
		}
	}
	check("read")
}

// TestEndOfOnALongLine checks spans on one long line: a quoted scalar
// with non-ASCII characters ends at its closing quote.
func TestEndOfOnALongLine(t *testing.T) {
	line := `[` + strings.Repeat(`"é", `, 500) + `"naïve value", 42]`
	f := &File{Path: "t.json", Data: []byte(line + "\n")}
	col := utf8.RuneCountInString(line[:strings.Index(line, `"naïve`)]) + 1
	n := &yaml.Node{Kind: yaml.ScalarNode, Line: 1, Column: col, Value: "naïve value"}
	if got := EndOf(f, n); got.Line != 1 || got.Col != col+len([]rune(`"naïve value"`)) {
		t.Errorf("EndOf = %v, want 1:%d", got, col+len([]rune(`"naïve value"`)))
	}
	n = &yaml.Node{Kind: yaml.ScalarNode, Line: 1, Column: col + 15, Value: "42"}
	if got := EndOf(f, n); got.Col != col+17 {
		t.Errorf("EndOf(42) = %v, want 1:%d (in flow: the comma is not part of it)", got, col+17)
	}
}
