package rules

import (
	"strings"
	"testing"
)

// headingAt reads ATX and setext headings as Markdown does, and not a
// list item, a thematic break or a line apart from its underline.
func TestHeadingAt(t *testing.T) {
	for _, tc := range []struct {
		body  string
		level int
		text  string
	}{
		{"# Validation Gate", 1, "Validation Gate"},
		{"### Validation Gate ###", 3, "Validation Gate"},
		{"Validation Gate\n===", 1, "Validation Gate"},
		{"Validation Gate\n---------", 2, "Validation Gate"},
		{"  Validation Gate\n=", 1, "Validation Gate"},
		{"Validation Gate\n-", 0, ""},       // a list item, not an underline
		{"- Validation Gate\n---", 0, ""},   // a list item then a break
		{"1. Validation Gate\n===", 0, ""},  // a list item
		{"Validation Gate\n\n===", 0, ""},   // not adjacent
		{"    Validation Gate\n===", 0, ""}, // indented code
		{"Validation Gate\n== =", 0, ""},    // not an underline
		{"#Validation Gate", 0, ""},         // no space after #
		{"Validation Gate", 0, ""},          // last line
	} {
		var lines []BodyLine
		for i, s := range strings.Split(tc.body, "\n") {
			if s != "" {
				lines = append(lines, BodyLine{Line: 10 + i, Text: s})
			}
		}
		lv, text := headingAt(lines, 0)
		if lv != tc.level || text != tc.text {
			t.Errorf("%q: level %d %q, want %d %q", tc.body, lv, text, tc.level, tc.text)
		}
	}
}
