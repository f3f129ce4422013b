package fix

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

func parsed(t *testing.T, name, text string) *load.Document {
	t.Helper()
	f := &load.File{Path: name, Data: []byte(text)}
	doc, probs := load.Parse(f, load.FormatOf(load.KindUnknown, name), load.DefaultLimits)
	if doc.Root == nil {
		t.Fatalf("%s does not parse: %v", name, probs)
	}
	return doc
}

// key returns the key node at a dotted path.
func keyAt(doc *load.Document, path string) *yaml.Node {
	_, k, _ := node.Lookup(doc.Root, strings.Split(path, "."))
	return k
}

func valAt(doc *load.Document, path string) *yaml.Node {
	v, _, _ := node.Lookup(doc.Root, strings.Split(path, "."))
	return v
}

// check applies fx to doc and compares with want; "" wants no fix.
func check(t *testing.T, doc *load.Document, fx *diag.Fix, want string) {
	t.Helper()
	if want == "" {
		if fx != nil {
			out, _ := Apply(doc.File.Data, fx.Edits)
			t.Fatalf("got a fix, want none:\n%s", out)
		}
		return
	}
	if fx == nil {
		t.Fatal("no fix")
	}
	if fx.Applicability != diag.FixSafe {
		t.Errorf("applicability %q, want safe", fx.Applicability)
	}
	out, err := Apply(doc.File.Data, fx.Edits)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if err := Verify(doc.File.Path, load.FormatOf(load.KindUnknown, doc.File.Path), doc.File.Data, out, fx.Drops); err != nil {
		t.Errorf("nothing-lost check: %v", err)
	}
}

func TestRenameKey(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "resumption:\n  decisions:   # old name\n    - decision: x\n", "resumption:\n  decision_log:   # old name\n    - decision: x\n"},
		{"double-quoted", "resumption:\n  \"decisions\": []\n", "resumption:\n  \"decision_log\": []\n"},
		{"single-quoted", "resumption:\n  'decisions': []\n", "resumption:\n  'decision_log': []\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := parsed(t, "o.yaml", tc.in)
			check(t, doc, RenameKey(doc, keyAt(doc, "resumption.decisions"), "decision_log", false), tc.want)
		})
	}
	t.Run("flow mapping", func(t *testing.T) {
		doc := parsed(t, "o.yaml", "resumption: {decisions: [], x: 1}\n")
		check(t, doc, RenameKey(doc, keyAt(doc, "resumption.decisions"), "decision_log", true), "resumption: {decision_log: [], x: 1}\n")
	})
}

func TestRenameKeyKeepString(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"number becomes a string", "---\nresume_version: 1.0\nproject_id: \"x\"\n---\nbody\n", "---\nresume_schema_version: \"1.0\"\nproject_id: \"x\"\n---\nbody\n"},
		{"single-quoted file", "---\nresume_version: 1.6\nproject_id: 'x'\nname: 'y'\n---\n", "---\nresume_schema_version: '1.6'\nproject_id: 'x'\nname: 'y'\n---\n"},
		{"plain file still quotes the number", "---\nresume_version: 2\nproject_id: x\n---\n", "---\nresume_schema_version: \"2\"\nproject_id: x\n---\n"},
		{"already a string", "---\nresume_version: \"1.0\" # legacy\n---\n", "---\nresume_schema_version: \"1.0\" # legacy\n---\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := parsed(t, "resume-context.md", tc.in)
			check(t, doc, RenameKeyKeepString(doc, keyAt(doc, "resume_version"), valAt(doc, "resume_version"), "resume_schema_version"), tc.want)
		})
	}
	t.Run("a block value is left alone", func(t *testing.T) {
		doc := parsed(t, "resume-context.md", "---\nresume_version: !!float 1.0\n---\n")
		check(t, doc, RenameKeyKeepString(doc, keyAt(doc, "resume_version"), valAt(doc, "resume_version"), "resume_schema_version"), "")
	})
}

func TestCopyLatestID(t *testing.T) {
	const base = "checkpoints:\n  latest_id: %s\nresumption:\n  recovery_state:\n    last_checkpoint: %s  # keep me\n"
	tests := []struct{ name, latest, last, want string }{
		{"string", `"CP-006"`, `"CP-005"`, `"CP-006"`},
		{"plain file", `cp-2`, `cp-1`, `cp-2`},
		{"from null", `"CP-001"`, `null`, `"CP-001"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := fmt.Sprintf(base, tc.latest, tc.last)
			want := fmt.Sprintf(base, tc.latest, tc.want)
			doc := parsed(t, "o.yaml", in)
			check(t, doc, CopyLatestID(doc, valAt(doc, "resumption.recovery_state.last_checkpoint"), valAt(doc, "checkpoints.latest_id"), false), want)
		})
	}
	t.Run("no latest id: no fix", func(t *testing.T) {
		doc := parsed(t, "o.yaml", fmt.Sprintf(base, "null", `"CP-005"`))
		check(t, doc, CopyLatestID(doc, valAt(doc, "resumption.recovery_state.last_checkpoint"), valAt(doc, "checkpoints.latest_id"), false), "")
	})
}

// A recomputed count leaves no trace of the old one: the fix declares it
// dropped.
func TestRecomputeCount(t *testing.T) {
	doc := parsed(t, "o.yaml", "compaction_events:\n  count: 1   # one?\n  events:\n    - id: \"CX-001\"\n    - id: \"CX-002\"\n")
	fx := RecomputeCount(doc, valAt(doc, "compaction_events.count"), 2, false)
	check(t, doc, fx, "compaction_events:\n  count: 2   # one?\n  events:\n    - id: \"CX-001\"\n    - id: \"CX-002\"\n")
	if len(fx.Drops) != 1 || fx.Drops[0] != "1" {
		t.Errorf("drops %q, want the old count", fx.Drops)
	}
	flow := parsed(t, "o.yaml", "compaction_events: {count: 0, events: [{id: CX-001}]}\n")
	check(t, flow, RecomputeCount(flow, valAt(flow, "compaction_events.count"), 1, true), "compaction_events: {count: 1, events: [{id: CX-001}]}\n")
	same := parsed(t, "o.yaml", "compaction_events: {count: 0, events: []}\n")
	check(t, same, RecomputeCount(same, valAt(same, "compaction_events.count"), 0, true), "")
}

func TestNumberDecisionIDs(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"block entries",
			"decision_log:\n  - id: \"RD-001\"\n    decision: \"a\"\n  - decision: \"b\"   # no id\n    applied: true\n  - gate: null\n    decision: \"c\"\n",
			"decision_log:\n  - id: \"RD-001\"\n    decision: \"a\"\n  - id: \"RD-002\"\n    decision: \"b\"   # no id\n    applied: true\n  - id: \"RD-003\"\n    gate: null\n    decision: \"c\"\n"},
		{"flow entries", "decision_log:\n  - {decision: 'a', applied: true}\n", "decision_log:\n  - {id: 'RD-001', decision: 'a', applied: true}\n"},
		{"plain style", "decision_log:\n- decision: a\n  applied: false\n", "decision_log:\n- id: RD-001\n  decision: a\n  applied: false\n"},
		{"an id out of place: no fix", "decision_log:\n  - id: \"RD-002\"\n    decision: \"a\"\n  - decision: \"b\"\n", ""},
		{"every id present: no fix", "decision_log:\n  - id: \"RD-001\"\n    decision: \"a\"\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := parsed(t, "o.yaml", tc.in)
			check(t, doc, NumberDecisionIDs(doc, valAt(doc, "decision_log")), tc.want)
		})
	}
}

func TestRenameFile(t *testing.T) {
	f := &load.File{Path: "02-projects/10-x/_resume.md"}
	fx := RenameFile(f, "02-projects/10-x/01-planning/resume-context.md")
	if fx.RenameTo != "02-projects/10-x/01-planning/resume-context.md" || len(fx.Edits) != 0 || fx.Applicability != diag.FixSafe {
		t.Errorf("got %+v", fx)
	}
	if RenameFile(f, f.Path) != nil {
		t.Error("a rename to the same name")
	}
}

func TestFlattenJSON(t *testing.T) {
	rename := map[string]string{"project_id": "active_project_id"}
	tests := []struct{ name, in, want string }{
		{"nested members move up, duplicates go",
			"{\n  \"project_detection\": {\n    \"project_id\": \"24-project-test\",\n    \"confidence\": \"high\"\n  },\n  \"confidence\": \"high\",\n  \"detection_method\": \"transcript\"\n}\n",
			"{\n  \"active_project_id\": \"24-project-test\",\n  \"confidence\": \"high\",\n  \"detection_method\": \"transcript\"\n}\n"},
		{"only duplicates: the member is removed",
			"{\n  \"confidence\": \"low\",\n  \"project_detection\": {\"confidence\": \"low\"}\n}\n",
			"{\n  \"confidence\": \"low\"\n}\n"},
		{"nested members keep their order",
			"{\"project_detection\": {\"project_id\": null, \"detection_method\": \"cache\"}, \"timestamp\": \"2026-01-04T12:00:00Z\"}",
			"{\"active_project_id\": null, \"detection_method\": \"cache\", \"timestamp\": \"2026-01-04T12:00:00Z\"}"},
		{"a conflicting value: no fix",
			"{\n  \"project_detection\": {\"confidence\": \"high\"},\n  \"confidence\": \"low\"\n}\n", ""},
		{"a tab-indented file keeps its tabs",
			"{\n\t\"project_detection\": {\n\t\t\"project_id\": \"25-pipeline\",\n\t\t\"detection_method\": \"file_path\"\n\t},\n\t\"timestamp\": \"2026-01-04T12:00:00Z\"\n}",
			"{\n\t\"active_project_id\": \"25-pipeline\",\n\t\"detection_method\": \"file_path\",\n\t\"timestamp\": \"2026-01-04T12:00:00Z\"\n}"},
		{"a nested object moves up one level of tabs",
			"{\n\t\"project_detection\": {\n\t\t\"project_id\": \"25-pipeline\",\n\t\t\"evidence\": {\n\t\t\t\"lines\": 12\n\t\t}\n\t}\n}\n",
			"{\n\t\"active_project_id\": \"25-pipeline\",\n\t\"evidence\": {\n\t\t\"lines\": 12\n\t}\n}\n"},
		{"a nested object moves up one level of spaces",
			"{\n    \"project_detection\": {\n        \"project_id\": \"25-pipeline\",\n        \"evidence\": {\n            \"lines\": 12\n        }\n    }\n}\n",
			"{\n    \"active_project_id\": \"25-pipeline\",\n    \"evidence\": {\n        \"lines\": 12\n    }\n}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := parsed(t, "precompact_state.json", tc.in)
			check(t, doc, FlattenJSON(doc, "project_detection", rename), tc.want)
		})
	}
}
