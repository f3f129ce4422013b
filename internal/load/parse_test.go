package load

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
)

func parseText(t *testing.T, path, src string, format Format) (*Document, []diag.Finding) {
	t.Helper()
	f := &File{Path: path, Data: []byte(src)}
	return Parse(f, format, DefaultLimits)
}

// codesOf lists the codes and positions of findings, for messages.
func codesOf(fs []diag.Finding) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, fmt.Sprintf("%s@%d:%d %q", f.Code, f.Start.Line, f.Start.Col, f.Message))
	}
	return strings.Join(parts, "; ")
}

func TestParseYAMLPositions(t *testing.T) {
	src := "# comment\n" +
		"resumption:\n" +
		"  recovery_state:\n" +
		"    updated_at: 2026-02-20T21:00:00Z   # unquoted\n" +
		"    current_phase: 3\n" +
		"  files_to_read:\n" +
		"    - \"ORCHESTRATION_PLAN.md\"\n" +
		"    - {path: \"WORKTRACKER.md\", priority: 2}\n" +
		"  note: \"héllo\" \n"
	doc, probs := parseText(t, "ORCHESTRATION.yaml", src, FormatYAML)
	if len(probs) != 0 || doc.Root == nil {
		t.Fatalf("probs %s, root %v", codesOf(probs), doc.Root)
	}
	if doc.Root.Kind != yaml.MappingNode || posOfNode(doc.Root) != (diag.Pos{Line: 2, Col: 1}) {
		t.Fatalf("root kind %d at %v", doc.Root.Kind, posOfNode(doc.Root))
	}
	_, res := mapValue(t, doc.Root, "resumption")
	_, rs := mapValue(t, res, "recovery_state")
	k, v := mapValue(t, rs, "updated_at")
	if posOfNode(k) != (diag.Pos{Line: 4, Col: 5}) || posOfNode(v) != (diag.Pos{Line: 4, Col: 17}) || v.Value != "2026-02-20T21:00:00Z" {
		t.Errorf("updated_at: %v %v %q", posOfNode(k), posOfNode(v), v.Value)
	}
	_, ftr := mapValue(t, res, "files_to_read")
	if len(ftr.Content) != 2 || posOfNode(ftr.Content[0]) != (diag.Pos{Line: 7, Col: 7}) || posOfNode(ftr.Content[1]) != (diag.Pos{Line: 8, Col: 7}) {
		t.Fatalf("files_to_read items: %+v", ftr.Content)
	}
	_, pr := mapValue(t, ftr.Content[1], "priority")
	if posOfNode(pr) != (diag.Pos{Line: 8, Col: 42}) {
		t.Errorf("priority at %v, want 8:42", posOfNode(pr))
	}
}

func TestParseYAMLDuplicateKeys(t *testing.T) {
	src := "workflow:\n  status: ACTIVE\n  id: w-1\n  status: COMPLETE\nother: {a: 1, a: 2}\nmerge:\n  <<: {x: 1}\n  <<: {y: 2}\n"
	doc, probs := parseText(t, "ORCHESTRATION.yaml", src, FormatYAML)
	if doc.Root == nil {
		t.Fatal("a repeated key must not stop the other rules")
	}
	if len(probs) != 3 {
		t.Fatalf("probs = %s", codesOf(probs))
	}
	want := []struct {
		key          string
		pos, related diag.Pos
	}{
		{"status", diag.Pos{Line: 4, Col: 3}, diag.Pos{Line: 2, Col: 3}},
		{"a", diag.Pos{Line: 5, Col: 15}, diag.Pos{Line: 5, Col: 9}},
		// PyYAML applies the last <<, this parser the first, go-yaml
		// refuses the file.
		{"<<", diag.Pos{Line: 8, Col: 3}, diag.Pos{Line: 7, Col: 3}},
	}
	for i, w := range want {
		p := probs[i]
		if p.Code != "RL002" || p.Start != w.pos || !strings.Contains(p.Message, fmt.Sprintf("%q", w.key)) && !strings.Contains(p.Message, "merge key "+w.key) {
			t.Errorf("finding %d: %s, want RL002 at %v for %q", i, codesOf(probs[i:i+1]), w.pos, w.key)
		}
		if len(p.Related) != 1 || p.Related[0].Line != w.related.Line || p.Related[0].Column != w.related.Col || p.Related[0].Path != "ORCHESTRATION.yaml" {
			t.Errorf("finding %d related = %+v, want %v", i, p.Related, w.related)
		}
	}
}

// Small mappings scan their earlier keys, large ones use a map: both
// find a repeat at either end, and the first occurrence, not a later one.
func TestParseYAMLDuplicateKeysAnySize(t *testing.T) {
	for _, n := range []int{2, 8, 9, 32, 33, 200} {
		for _, dup := range []int{0, n - 1} {
			var sb strings.Builder
			sb.WriteString("phases:\n")
			for i := range n {
				fmt.Fprintf(&sb, "  k%d: v\n", i)
			}
			fmt.Fprintf(&sb, "  k%d: again\n  k%d: third\n", dup, dup)
			_, probs := parseText(t, "ORCHESTRATION.yaml", sb.String(), FormatYAML)
			if len(probs) != 2 {
				t.Fatalf("%d keys, k%d repeated: %s", n, dup, codesOf(probs))
			}
			for i, p := range probs {
				if p.Code != "RL002" || p.Start.Line != n+2+i || len(p.Related) != 1 || p.Related[0].Line != dup+2 {
					t.Errorf("%d keys, k%d repeated: finding %d is %s, related %+v", n, dup, i, codesOf(probs[i:i+1]), p.Related)
				}
			}
		}
	}
}

// billionLaughs builds levels of aliases, each ten copies of the previous.
func billionLaughs(levels int) string {
	var sb strings.Builder
	sb.WriteString("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= levels; i++ {
		p := fmt.Sprintf("*l%d", i-1)
		fmt.Fprintf(&sb, "l%d: &l%d [%s]\n", i, i, strings.Repeat(p+", ", 9)+p)
	}
	return sb.String()
}

func TestParseYAMLAliasBomb(t *testing.T) {
	start := time.Now()
	doc, probs := parseText(t, "ORCHESTRATION.yaml", billionLaughs(9), FormatYAML) // 10^10 nodes expanded
	if doc.Root != nil {
		t.Error("an alias bomb must not be handed to the rules")
	}
	if len(probs) != 1 || probs[0].Code != "RL003" || !strings.Contains(probs[0].Message, "alias") {
		t.Fatalf("probs = %s", codesOf(probs))
	}
	// Detection counts with memoisation: far below any timeout even on a
	// loaded machine (the expansion itself would take hours).
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("alias bomb took %v", d)
	}
	// Ordinary aliases stay fine.
	doc, probs = parseText(t, "ORCHESTRATION.yaml", billionLaughs(2), FormatYAML)
	if doc.Root == nil || len(probs) != 0 {
		t.Errorf("small alias use: root %v probs %s", doc.Root, codesOf(probs))
	}
}

func TestParseYAMLDepth(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) + "\n" }
	doc, probs := parseText(t, "ORCHESTRATION.yaml", nest(256), FormatYAML)
	if doc.Root == nil || len(probs) != 0 {
		t.Fatalf("256 levels: root %v probs %s", doc.Root, codesOf(probs))
	}
	// The same limit as JSON: the 257th nested collection is reported at its position.
	doc, probs = parseText(t, "ORCHESTRATION.yaml", nest(257), FormatYAML)
	if doc.Root != nil || len(probs) != 1 || probs[0].Code != "RL003" || probs[0].Start != (diag.Pos{Line: 1, Col: 257}) {
		t.Fatalf("257 levels: root %v probs %s", doc.Root, codesOf(probs))
	}
	// Block style nests too.
	var sb strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&sb, "%sk:\n", strings.Repeat(" ", i))
	}
	fmt.Fprintf(&sb, "%sv\n", strings.Repeat(" ", 300))
	doc, probs = parseText(t, "ORCHESTRATION.yaml", sb.String(), FormatYAML)
	if doc.Root != nil || len(probs) != 1 || probs[0].Code != "RL003" || probs[0].Start.Line != 257 {
		t.Errorf("block nesting: root %v probs %s", doc.Root, codesOf(probs))
	}
	// Beyond the parser's own limit: still RL003, not a crash.
	doc, probs = parseText(t, "ORCHESTRATION.yaml", nest(100_000), FormatYAML)
	if doc.Root != nil || len(probs) != 1 || probs[0].Code != "RL003" {
		t.Errorf("100,000 levels: root %v probs %s", doc.Root, codesOf(probs))
	}
}

func TestParseYAMLErrors(t *testing.T) {
	cases := []struct {
		src  string
		line int
		want string
	}{
		{"a: 1\nb: [x,\n", 2, "did not find expected node content"}, // at the last line, not past it
		{"resumption:\n  a: 1\n   b: 2\n", 3, "invalid YAML: mapping values are not allowed"},
		{"a: 1\nb: \"open\n", 2, "found unexpected end of stream"}, // where the string opens
		{"a: 1\nb: [x, y\nc: 2\nd: 3\n", 2, "did not find expected ',' or ']'"},
		{"a: 1\nb: 2\n- c\nd: 4\n", 3, "did not find expected key"},
		{"a: 1\nb:\n  c: 1\n d: 2\n", 4, "did not find expected key"},
		// Inside a nested mapping or list: the line that breaks it, not the
		// line where it starts (go-yaml's), which the message names.
		{"a: 1\nb:\n  c: 1\n  # ADRs\n\n  d: 2\n  - id: x\n  e: 3\n", 7, "did not find expected key in the mapping from line 3"},
		{"a:\n  b:\n    - x\n    - y\n    z: 1\n", 5, "did not find expected '-' indicator in the list from line 3"},
		{"a: 1\nb: 2\nc: @x\n", 3, "found character that cannot start any token"},
		{"a: *nowhere\n", 1, "unknown anchor"},
		{"key: value\n\tbad: tab\n", 2, "invalid YAML"},
	}
	for _, c := range cases {
		doc, probs := parseText(t, "ORCHESTRATION.yaml", c.src, FormatYAML)
		if doc.Root != nil || len(probs) != 1 || probs[0].Code != "RL001" || probs[0].Start.Line != c.line || !strings.Contains(probs[0].Message, c.want) {
			t.Errorf("%q: root %v probs %s; want RL001 at line %d containing %q", c.src, doc.Root, codesOf(probs), c.line, c.want)
		}
	}
}

func TestParseYAMLDocuments(t *testing.T) {
	// An empty file and a comment-only file have no root and no finding:
	// the rules of the kind report what is missing.
	for _, src := range []string{"", "# only a comment\n", "\n\n"} {
		doc, probs := parseText(t, "ORCHESTRATION.yaml", src, FormatYAML)
		if doc.Root != nil || len(probs) != 0 {
			t.Errorf("%q: root %v probs %s", src, doc.Root, codesOf(probs))
		}
	}
	// A leading '---' is one document.
	doc, probs := parseText(t, "ORCHESTRATION.yaml", "# header\n---\na: 1\n", FormatYAML)
	if doc.Root == nil || len(probs) != 0 || doc.Root.Line != 3 {
		t.Errorf("leading ---: root %v probs %s", doc.Root, codesOf(probs))
	}
	// A second document is reported where it starts; the first is still checked.
	doc, probs = parseText(t, "ORCHESTRATION.yaml", "a: 1\nb: 2\n---\nc: 3\n", FormatYAML)
	if doc.Root == nil || len(probs) != 1 || probs[0].Code != "RL001" || probs[0].Start.Line != 3 || !strings.Contains(probs[0].Message, "second YAML document") {
		t.Errorf("two documents: root %v probs %s", doc.Root, codesOf(probs))
	}
	doc, probs = parseText(t, "ORCHESTRATION.yaml", "a: 1\n---\nb: [\n", FormatYAML)
	if doc.Root == nil || len(probs) != 1 || probs[0].Code != "RL001" || probs[0].Start.Line != 3 {
		t.Errorf("broken second document: root %v probs %s", doc.Root, codesOf(probs))
	}
}

func TestFrontMatter(t *testing.T) {
	src := "---\n" +
		"# LOADING MANIFEST\n" +
		"resume_schema_version: \"1.0\"\n" +
		"files_to_load:\n" +
		"  - 01-planning/overview.md\n" +
		"---\n" +
		"# Validation Gate\n" +
		"\n" +
		"---\n" +
		"more: text\n" +
		"---\n"
	doc, probs := parseText(t, "p/01-planning/resume-context.md", src, FormatMarkdown)
	if len(probs) != 0 || doc.Root == nil || !doc.FrontMatter {
		t.Fatalf("probs %s root %v", codesOf(probs), doc.Root)
	}
	// Front-matter nodes carry file line numbers, not front-matter ones.
	k, v := mapValue(t, doc.Root, "resume_schema_version")
	if posOfNode(k) != (diag.Pos{Line: 3, Col: 1}) || posOfNode(v) != (diag.Pos{Line: 3, Col: 24}) {
		t.Errorf("resume_schema_version: %v %v", posOfNode(k), posOfNode(v))
	}
	_, list := mapValue(t, doc.Root, "files_to_load")
	if posOfNode(list.Content[0]) != (diag.Pos{Line: 5, Col: 5}) {
		t.Errorf("files_to_load[0] at %v", posOfNode(list.Content[0]))
	}
	// The first closing line ends the front matter; later '---' lines
	// belong to the body.
	if doc.BodyLine != 7 || doc.Body != "# Validation Gate\n\n---\nmore: text\n---\n" {
		t.Errorf("body at line %d: %q", doc.BodyLine, doc.Body)
	}
	if _, extra := mapValueOK(doc.Root, "more"); extra {
		t.Error("body text leaked into the front matter")
	}
}

func mapValueOK(m *yaml.Node, k string) (*yaml.Node, bool) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			return m.Content[i+1], true
		}
	}
	return nil, false
}

func TestFrontMatterProblems(t *testing.T) {
	cases := []struct {
		name, src string
		code      string
		pos       diag.Pos
		want      string
		root      bool
	}{
		{"missing", "# Resume\n\nfiles_to_load: []\n", "RL310", diag.Pos{Line: 1, Col: 1}, "no YAML front matter", false},
		{"unclosed", "---\nproject_id: \"07-x\"\n\n# Body\n", "RL310", diag.Pos{Line: 1, Col: 1}, "not closed", false},
		{"unclosed, no newline", "---", "RL310", diag.Pos{Line: 1, Col: 1}, "not closed", false},
		{"empty", "---\n---\nbody\n", "RL310", diag.Pos{Line: 1, Col: 1}, "empty", false},
		{"not a mapping", "---\n- a\n- b\n---\n", "RL310", diag.Pos{Line: 2, Col: 1}, "not a mapping", false},
		{"bad YAML", "---\na: 1\nb: [\n---\nbody\n", "RL001", diag.Pos{Line: 3, Col: 1}, "invalid YAML", false},
		{"duplicate key", "---\na: 1\nb: 2\na: 3\n---\n", "RL002", diag.Pos{Line: 4, Col: 1}, `"a"`, true},
	}
	for _, c := range cases {
		doc, probs := parseText(t, "resume-context.md", c.src, FormatMarkdown)
		if len(probs) != 1 || probs[0].Code != c.code || probs[0].Start != c.pos || !strings.Contains(probs[0].Message, c.want) {
			t.Errorf("%s: probs %s; want %s at %v containing %q", c.name, codesOf(probs), c.code, c.pos, c.want)
		}
		if (doc.Root != nil) != c.root {
			t.Errorf("%s: root %v", c.name, doc.Root)
		}
	}
	// A missing front matter keeps the whole file as the body.
	doc, _ := parseText(t, "resume-context.md", "# Resume\n", FormatMarkdown)
	if doc.Body != "# Resume\n" || doc.BodyLine != 1 || doc.FrontMatter {
		t.Errorf("missing: body %q at %d", doc.Body, doc.BodyLine)
	}
}

func TestFrontMatterVariants(t *testing.T) {
	// CRLF line endings, trailing spaces on the fences, '...' as the end
	// marker, no newline after the closing fence. '...' is YAML's end of
	// a document, read as such, but readers split front matter at '---'
	// (nexus's resume_sync finds none): one RL310 at that line.
	for _, src := range []string{
		"---\r\nproject_id: \"07-x\"\r\n---\r\nbody\r\n",
		"--- \nproject_id: \"07-x\"\n...\nbody\n",
		"---\nproject_id: \"07-x\"\n---",
	} {
		doc, probs := parseText(t, "resume-context.md", src, FormatMarkdown)
		want := 0
		if strings.Contains(src, "...") {
			want = 1
		}
		if len(probs) != want || doc.Root == nil || want == 1 && (probs[0].Code != "RL310" || probs[0].Start.Line != 3) {
			t.Errorf("%q: probs %s", src, codesOf(probs))
			continue
		}
		_, v := mapValue(t, doc.Root, "project_id")
		if v.Value != "07-x" || v.Line != 2 || doc.BodyLine != 4 {
			t.Errorf("%q: project_id %q at line %d, body at %d", src, v.Value, v.Line, doc.BodyLine)
		}
	}
}

func TestJSONL(t *testing.T) {
	truncated := `{"event": "task_completed", "task_id": "T1", "timestamp": `
	dupLine := `{"event": "task_started", "task_id": "T2", "task_id": "T3"}`
	src := `{"event": "task_started", "task_id": "T1", "timestamp": "2026-02-20T10:00:00Z"}` + "\n" +
		"\n" +
		truncated + "\n" +
		dupLine + "\r\n" +
		"   \n" +
		`[1, 2]`
	doc, probs := parseText(t, "run/events/planner/events.jsonl", src, FormatJSONL)
	if doc.Root != nil {
		t.Error("JSONL has no single root")
	}
	if len(doc.Lines) != 4 {
		t.Fatalf("lines = %+v", doc.Lines)
	}
	wantLines := []int{1, 3, 4, 6}
	for i, l := range doc.Lines {
		if l.Line != wantLines[i] {
			t.Errorf("entry %d is line %d, want %d", i, l.Line, wantLines[i])
		}
	}
	if doc.Lines[0].Err != nil || doc.Lines[0].Node == nil || doc.Lines[0].Node.Line != 1 {
		t.Errorf("line 1: %+v", doc.Lines[0])
	}
	// The corrupt line is recorded with its number and the column of the
	// problem; the lines after it are still parsed.
	bad := doc.Lines[1]
	if bad.Err == nil || bad.Node != nil || bad.Err.Pos != (diag.Pos{Line: 3, Col: len(truncated) + 1}) {
		t.Errorf("corrupt line: %+v %v", bad, bad.Err)
	}
	if doc.Lines[2].Err != nil || doc.Lines[2].Node == nil {
		t.Errorf("line 4 (CRLF) not parsed: %v", doc.Lines[2].Err)
	} else if _, v := mapValue(t, doc.Lines[2].Node, "event"); v.Line != 4 || v.Column != 11 {
		t.Errorf("line 4 event value at %d:%d", v.Line, v.Column)
	}
	if doc.Lines[3].Err != nil || doc.Lines[3].Node.Kind != yaml.SequenceNode {
		t.Errorf("line 6: %+v", doc.Lines[3])
	}
	// A repeated key within a line is RL002 at that line.
	if len(probs) != 1 || probs[0].Code != "RL002" || probs[0].Start != (diag.Pos{Line: 4, Col: strings.LastIndex(dupLine, `"task_id"`) + 1}) || probs[0].Related[0].Line != 4 {
		t.Errorf("probs = %s", codesOf(probs))
	}
	// Too deep a line is recorded, not fatal.
	deep := strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n{\"a\": 1}\n"
	doc, _ = parseText(t, "e.jsonl", deep, FormatJSONL)
	if len(doc.Lines) != 2 || doc.Lines[0].Err == nil || doc.Lines[1].Err != nil {
		t.Errorf("deep line: %+v", doc.Lines)
	}
}

func TestFormatOf(t *testing.T) {
	cases := []struct {
		k    Kind
		name string
		want Format
	}{
		{KindOrchestration, "ORCHESTRATION.yaml", FormatYAML},
		{KindResumeContext, "_resume.md", FormatMarkdown},
		{KindCheckpoint, "cx-001.json", FormatJSON},
		{KindAgentRun, "events/a/1.jsonl", FormatJSONL},
		{KindAgentRun, "task-graph.json", FormatJSON},
		{KindBundle, "STATUS.json", FormatJSON},
	}
	for _, c := range cases {
		if got := FormatOf(c.k, c.name); got != c.want {
			t.Errorf("FormatOf(%s, %s) = %d, want %d", c.k, c.name, got, c.want)
		}
	}
}

// A file may hold at most MaxNodes values (keys count): past it the file
// is RL003 and not checked, at the position where the limit is passed —
// for JSONL counted over the whole file, not per line.
func TestValueLimit(t *testing.T) {
	lim := DefaultLimits
	lim.MaxNodes = 6
	cases := []struct {
		name, path, src string
		format          Format
		at              int // line of the RL003 finding, 0 for none
		msg             string
	}{
		{"JSON at the limit", "c.json", `{"a": [1, 2, 3]}`, FormatJSON, 0, ""},
		{"JSON one value over", "c.json", "{\"a\": [1, 2],\n \"b\": 3, \"c\": 4}", FormatJSON, 2, "more than 6 values"},
		{"JSONL lines share the budget", "e.jsonl", "{\"a\": 1}\n{\"b\": 2}\n{\"c\": 3}\n", FormatJSONL, 3, "more than 6 values"},
		{"JSONL under the budget", "e.jsonl", "{\"a\": 1}\n{\"b\": 2}\n", FormatJSONL, 0, ""},
		{"YAML without aliases", "o.yaml", "a: [1, 2]\nb: [3, 4]\n", FormatYAML, 1, "more than 6 values"},
		{"YAML with aliases", "o.yaml", "a: &x [1, 2]\nb: *x\n", FormatYAML, 1, "alias bomb"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, fs := Parse(&File{Path: tc.path, Data: []byte(tc.src)}, tc.format, lim)
			var got *diag.Finding
			for i := range fs {
				if fs[i].Code == "RL003" {
					got = &fs[i]
				}
			}
			switch {
			case tc.at == 0 && got != nil:
				t.Fatalf("unexpected %s", codesOf(fs))
			case tc.at == 0:
				if doc.Root == nil && doc.Lines == nil {
					t.Fatal("nothing parsed")
				}
			case got == nil:
				t.Fatalf("no RL003: %s", codesOf(fs))
			case got.Start.Line != tc.at || !strings.Contains(got.Message, tc.msg):
				t.Errorf("got %s, want line %d with %q", codesOf(fs), tc.at, tc.msg)
			case doc.Root != nil || doc.Lines != nil:
				t.Error("a file over the limit must not be handed to the rules")
			}
		})
	}
}

// TestParseYAMLBrokenLine: the finding points at the first character of
// the line that breaks a nested mapping, and names where it starts; in
// front matter, in the file's own lines.
func TestParseYAMLBrokenLine(t *testing.T) {
	src := "---\nproject_id: p\nfiles:\n  a: 1\n  - b\n---\n# body\n"
	_, probs := parseText(t, "resume-context.md", src, FormatMarkdown)
	if len(probs) != 1 || probs[0].Start.Line != 5 || probs[0].Start.Col != 3 || len(probs[0].Related) != 1 || probs[0].Related[0].Line != 4 || probs[0].Related[0].Column != 3 {
		t.Fatalf("got %+v; want RL001 at 5:3 related to 4:3", probs)
	}
}

// A control character go-yaml refuses is reported where it stands (go-yaml
// names no position for it), also in front matter and a second document.
func TestParseYAMLControlCharacterPosition(t *testing.T) {
	cases := []struct {
		path, src string
		format    Format
		want      diag.Pos
	}{
		{"ORCHESTRATION.yaml", "# plan\nworkflow:\n  id: \"w-1\"\nresumption:\n  note: \"日本\x01b\"\n", FormatYAML, diag.Pos{Line: 5, Col: 12}},
		{"ORCHESTRATION.yaml", "\ufeffworkflow:\n  note: \"\x1b[31m\"\n", FormatYAML, diag.Pos{Line: 2, Col: 10}},
		{"ORCHESTRATION.yaml", "workflow:\n  id: w-1\n---\nnext:\n  x: \"\x7f\"\n", FormatYAML, diag.Pos{Line: 5, Col: 7}},
		{"resume-context.md", "---\nproject_id: \"p\"\nnote: \"a\x02\"\n---\n# Resume\n", FormatMarkdown, diag.Pos{Line: 3, Col: 9}},
	}
	for _, c := range cases {
		_, probs := parseText(t, c.path, c.src, c.format)
		if len(probs) != 1 || probs[0].Start != c.want {
			t.Errorf("%q: %s, want one finding at %v", c.src, codesOf(probs), c.want)
		}
	}
}
