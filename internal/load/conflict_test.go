package load

import (
	"fmt"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/code"
)

func TestConflictMarker(t *testing.T) {
	for line, want := range map[string]bool{
		"<<<<<<< HEAD":                    true,
		"<<<<<<<":                         true,
		"||||||| merged common ancestors": true,
		"=======":                         true,
		"=======\r":                       true,
		">>>>>>> origin/main":             true,
		"========":                        false, // a setext underline
		"=======  ":                       false,
		"<<<<<<<<":                        false,
		"<<<<<< HEAD":                     false,
		"  <<<<<<< HEAD":                  false,
		`{"type":"task_started"}`:         false,
	} {
		if got := ConflictMarker([]byte(line)); got != want {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
}

// A file that does not parse because of a merge's markers gets one RL001
// at the first marker, naming the lines; one that parses although it holds
// a marker-like line, or fails to parse without markers, keeps its own.
func TestParseConflict(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		format     Format
		want       string
	}{
		{"ORCHESTRATION.yaml", "workflow:\n  id: \"w-1\"\n<<<<<<< HEAD\n  status: \"ACTIVE\"\n=======\n  status: \"PAUSED\"\n>>>>>>> feat/x\n", FormatYAML, "3:1 a merge left its conflict markers in the file (lines 3–7)"},
		{"cx-001.json", "{\n<<<<<<< HEAD\n  \"tier\": \"WARNING\"\n=======\n  \"tier\": \"CRITICAL\"\n>>>>>>> s2\n}\n", FormatJSON, "2:1 a merge left its conflict markers in the file (lines 2–6)"},
		{"cx-002.json", "{\n<<<<<<< HEAD\n  \"tier\": \"WARNING\"\n", FormatJSON, "2:1 a merge left its conflict markers in the file (lines 2–3)"},
		{"resume-context.md", "---\nproject_id: \"07-x\"\n---\nGate\n=======\n", FormatMarkdown, ""},
		{"cx-003.json", "{\"tier\": \"WARNING\",}\n=======\n", FormatJSON, "1:20 invalid JSON"},
	} {
		_, fs := Parse(&File{Path: tc.name, Data: []byte(tc.data)}, tc.format, DefaultLimits)
		got := ""
		for _, f := range fs {
			if f.Code == code.ParseError {
				got += fmt.Sprintf("%d:%d %s", f.Start.Line, f.Start.Col, f.Message)
			}
		}
		if tc.want == "" && got != "" || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
