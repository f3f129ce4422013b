package report

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// source gives the findings of path in in the snippets of a file of text.
func source(in *Input, path, text string) *Input {
	f := &load.File{Path: path, Data: []byte(text)}
	for i := range in.Findings {
		if fd := &in.Findings[i]; fd.Path == path {
			fd.Snippet, fd.HasSnippet = f.Snippet(fd.Start.Line)
		}
	}
	return in
}

func renderText(t *testing.T, in *Input) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Text(&buf, in); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// colOf returns the 1-based character column of sub in line.
func colOf(line, sub string) int {
	return len([]rune(line[:strings.Index(line, sub)])) + 1
}

func TestTextCaretWithTabsAndMultibyte(t *testing.T) {
	line := "\tnaïve: \"é😀\" COMPLETED # was ACTIVE"
	col := colOf(line, "COMPLETED")
	in := &Input{
		Findings: []diag.Finding{{Code: "RL102", Name: "resumption-schema", Severity: diag.SevError, Path: "w/ORCHESTRATION.yaml",
			Start: diag.Pos{Line: 2, Col: col}, End: diag.Pos{Line: 2, Col: col + len("COMPLETED")},
			Message: `"COMPLETED" is not one of ACTIVE, PAUSED, COMPLETE, FAILED, CANCELLED`}},
		Checked: 1,
	}
	source(in, "w/ORCHESTRATION.yaml", "a: 1\n"+line+"\n")
	got := renderText(t, in)
	want := "w/ORCHESTRATION.yaml:2:" + itoa(col) + `: error: "COMPLETED" is not one of ACTIVE, PAUSED, COMPLETE, FAILED, CANCELLED [RL102 resumption-schema]` + "\n" +
		"  |\n" +
		"2 | " + line + "\n" +
		// The tab is repeated so the caret lines up whatever the tab width;
		// every other character is as many spaces as the columns a
		// terminal gives it: one for "ï" and "é", two for the emoji.
		"  | \t" + strings.Repeat(" ", col-1) + "^" + strings.Repeat("~", len("COMPLETED")-1) + "\n" +
		"Found 1 problem (1 error, 0 warnings) in 1 file.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestTextSecretMasked(t *testing.T) {
	const secret = "ghp_Zq8vY2kLm4Np6Rs8Tu0Wx2Yz4Ab6Cd8Ef0G"
	line := `  api_token: "` + secret + `"  # rotate`
	col := colOf(line, secret)
	in := &Input{
		Findings: []diag.Finding{
			{Code: "RL005", Name: "secret-leak", Severity: diag.SevError, Path: "precompact_state.json",
				Start: diag.Pos{Line: 1, Col: col}, End: diag.Pos{Line: 1, Col: col + len(secret)},
				Message: "a GitHub token is stored here (value hidden)", Secret: true},
			// Another finding on the same line must not print the secret either.
			{Code: "RL301", Name: "precompact-schema", Severity: diag.SevWarning, Path: "precompact_state.json",
				Start: diag.Pos{Line: 1, Col: 3}, End: diag.Pos{Line: 1, Col: 12}, Message: "field not allowed"},
		},
		Checked: 1,
	}
	source(in, "precompact_state.json", line+"\n")
	got := renderText(t, in)
	if strings.Contains(got, secret) || strings.Contains(got, secret[4:20]) {
		t.Fatalf("the secret is printed:\n%s", got)
	}
	masked := `  api_token: "` + strings.Repeat("*", len(secret)) + `"  # rotate`
	if strings.Count(got, "1 | "+masked+"\n") != 2 {
		t.Errorf("want the masked line under both findings:\n%s", got)
	}
	// The caret still marks the range.
	if !strings.Contains(got, "  | "+strings.Repeat(" ", col-1)+"^"+strings.Repeat("~", len(secret)-1)+"\n") {
		t.Errorf("caret:\n%s", got)
	}
	// JSON carries no source text at all.
	var buf bytes.Buffer
	if err := JSON(&buf, in); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), secret[4:20]) {
		t.Errorf("JSON prints the secret:\n%s", buf.String())
	}
}

func TestTextSummaryAndOptions(t *testing.T) {
	fs := []diag.Finding{
		{Code: "RL006", Name: "timestamp-format", Severity: diag.SevWarning, Path: "a.md", Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 1}, Message: "m1"},
		{Code: "RL103", Name: "decisions-alias", Severity: diag.SevWarning, Path: "b.yaml", Start: diag.Pos{Line: 3, Col: 3}, End: diag.Pos{Line: 3, Col: 12}, Message: "m2",
			Fix: &diag.Fix{Applicability: diag.FixSafe}},
		{Code: "RL104", Name: "checkpoint-link", Severity: diag.SevError, Path: "b.yaml", Start: diag.Pos{Line: 4, Col: 1}, End: diag.Pos{Line: 4, Col: 1}, Message: "m3",
			Fix: &diag.Fix{Applicability: diag.FixUnsafe}},
	}
	// No source for a path: no snippet.
	got := renderText(t, &Input{Findings: fs, Checked: 4})
	want := "a.md:1:1: warning: m1 [RL006 timestamp-format]\n" +
		"b.yaml:3:3: warning: m2 [RL103 decisions-alias]\n" +
		"b.yaml:4:1: error: m3 [RL104 checkpoint-link]\n" +
		"Found 3 problems (1 error, 2 warnings) in 2 of 4 files. 1 fixable with `resumelint fix`.\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := renderText(t, &Input{Findings: fs, Checked: 4, Quiet: true}); strings.Contains(got, "Found") {
		t.Errorf("quiet prints a summary:\n%s", got)
	}
	if got := renderText(t, &Input{Checked: 1}); got != "No problems found in 1 file.\n" {
		t.Errorf("clean: %q", got)
	}
	if got := renderText(t, &Input{Checked: 0, Quiet: true}); got != "" {
		t.Errorf("clean and quiet: %q", got)
	}
	// Colour only when asked.
	if got := renderText(t, &Input{Findings: fs, Checked: 4}); strings.Contains(got, "\x1b[") {
		t.Errorf("colour without Color: %q", got)
	}
	if got := renderText(t, &Input{Findings: fs, Checked: 4, Color: true}); !strings.Contains(got, "\x1b[") {
		t.Errorf("no colour with Color: %q", got)
	}
	s := Summarize(&Input{Findings: fs, Checked: 4})
	if s != (Summary{Files: 4, FilesWithFindings: 2, Errors: 1, Warnings: 2, Fixable: 1}) {
		t.Errorf("summary %+v", s)
	}
}

func TestTextLongLineTruncated(t *testing.T) {
	line := "note: " + strings.Repeat("x", 300) + " end"
	in := &Input{
		Findings: []diag.Finding{{Code: "RL001", Name: "parse-error", Severity: diag.SevError, Path: "r.md",
			Start: diag.Pos{Line: 1, Col: 7}, End: diag.Pos{Line: 1, Col: 7}, Message: "m"}},
		Checked: 1,
	}
	source(in, "r.md", line)
	got := renderText(t, in)
	if strings.Contains(got, " end") || !strings.Contains(got, "1 | "+line[:200]+"\n") || !strings.Contains(got, "  |       ^\n") {
		t.Errorf("got\n%s", got)
	}
}

func TestJSONShape(t *testing.T) {
	in := &Input{
		Version: "1.2.3",
		Checked: 2,
		Findings: []diag.Finding{
			{Code: "RL104", Name: "checkpoint-link", Severity: diag.SevError, Path: "proj/ORCHESTRATION.yaml",
				Start: diag.Pos{Line: 12, Col: 22}, End: diag.Pos{Line: 12, Col: 30}, Message: "last_checkpoint differs",
				Fix:     &diag.Fix{Applicability: diag.FixSafe, Description: "copy latest_id"},
				Related: []diag.Related{{Path: "proj/ORCHESTRATION.yaml", Line: 80, Column: 14, Message: "checkpoints.latest_id"}}},
			{Code: "RL006", Name: "timestamp-format", Severity: diag.SevWarning, Path: "proj/x.md",
				Start: diag.Pos{Line: 3, Col: 15}, End: diag.Pos{Line: 3, Col: 36}, Message: "no zone",
				Fix: &diag.Fix{Description: "no applicable edit"}}, // no applicability: null, as documented
		},
	}
	var buf bytes.Buffer
	if err := JSON(&buf, in); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if keys := sortedKeys(doc); !reflect.DeepEqual(keys, []string{"findings", "summary", "version"}) {
		t.Errorf("top-level keys %v", keys)
	}
	if doc["version"] != "1.2.3" {
		t.Errorf("version %v", doc["version"])
	}
	findings := doc["findings"].([]any)
	if len(findings) != 2 {
		t.Fatalf("findings %v", findings)
	}
	f0 := findings[0].(map[string]any)
	wantKeys := []string{"code", "column", "end_column", "end_line", "fix", "line", "message", "name", "path", "related", "severity"}
	if keys := sortedKeys(f0); !reflect.DeepEqual(keys, wantKeys) {
		t.Errorf("finding keys %v, want %v", keys, wantKeys)
	}
	want0 := map[string]any{
		"code": "RL104", "name": "checkpoint-link", "severity": "error", "path": "proj/ORCHESTRATION.yaml",
		"line": 12.0, "column": 22.0, "end_line": 12.0, "end_column": 30.0, "message": "last_checkpoint differs",
		"fix":     map[string]any{"applicability": "safe"},
		"related": []any{map[string]any{"path": "proj/ORCHESTRATION.yaml", "line": 80.0, "column": 14.0, "message": "checkpoints.latest_id"}},
	}
	if !reflect.DeepEqual(f0, want0) {
		t.Errorf("finding 0 = %v\nwant %v", f0, want0)
	}
	f1 := findings[1].(map[string]any)
	if f1["fix"] != nil || !reflect.DeepEqual(f1["related"], []any{}) || f1["severity"] != "warning" {
		t.Errorf("finding 1: fix %v related %#v severity %v", f1["fix"], f1["related"], f1["severity"])
	}
	wantSummary := map[string]any{"files": 2.0, "files_with_findings": 2.0, "errors": 1.0, "warnings": 1.0, "fixable": 1.0}
	if !reflect.DeepEqual(doc["summary"], wantSummary) {
		t.Errorf("summary %v", doc["summary"])
	}

	// No findings: an empty list, never null.
	buf.Reset()
	if err := JSON(&buf, &Input{Version: "dev", Checked: 0}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"findings": []`) {
		t.Errorf("empty run: %s", buf.String())
	}
}

func sortedKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Every field of the JSON output is documented in docs/json-output.md,
// which promises the format is stable.
func TestJSONDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/json-output.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{JSONDoc{}, JSONFinding{}, JSONFix{}, Summary{}, diag.Related{}} {
		typ := reflect.TypeOf(v)
		for i := 0; i < typ.NumField(); i++ {
			name := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
			if name == "" || name == "-" {
				t.Errorf("%s.%s has no JSON name", typ.Name(), typ.Field(i).Name)
				continue
			}
			documented := bytes.Contains(doc, []byte("| `"+name+"` |"))
			if typ.Name() == "JSONFix" { // described inside the fix row
				documented = bytes.Contains(doc, []byte(`{"`+name+`": A}`))
			}
			if !documented {
				t.Errorf("docs/json-output.md does not document %s field %q", typ.Name(), name)
			}
		}
	}
}

// Summarize counts each file with an error or a warning once, whether
// the findings come sorted by path (adjacent runs) or not (a set).
func TestSummarizeCountsFilesInAnyOrder(t *testing.T) {
	sevs := []diag.Severity{diag.SevError, diag.SevWarning, diag.SevOff}
	rng := uint64(3)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	for round := range 500 {
		fs := make([]diag.Finding, next(12))
		want := map[string]bool{}
		for i := range fs {
			fs[i] = diag.Finding{Path: string(rune('a' + next(5))), Severity: sevs[next(len(sevs))]}
			if fs[i].Severity != diag.SevOff {
				want[fs[i].Path] = true
			}
		}
		if round%2 == 0 {
			sort.SliceStable(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
		}
		if got := Summarize(&Input{Findings: fs, Checked: 100}).FilesWithFindings; got != len(want) {
			t.Fatalf("round %d, %v: %d files with findings, want %d", round, fs, got, len(want))
		}
	}
}
