package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// The streamed JSON is byte for byte what json.Encoder writes for the
// whole document.
func TestJSONStreamMatchesEncoder(t *testing.T) {
	for _, fs := range [][]diag.Finding{
		nil,
		{{Code: "RL113", Name: "files-to-read", Severity: diag.SevError, Path: "a/<b>.yaml", Start: diag.Pos{Line: 3, Col: 5}, End: diag.Pos{Line: 3, Col: 9}, Message: "x \"y\" & z\u2028"}},
		{
			{Code: "RL001", Name: "n", Severity: diag.SevWarning, Path: "p", Message: "m", Related: []diag.Related{{Path: "q", Message: "r"}}},
			{Code: "RL002", Name: "n", Severity: diag.SevError, Path: "p", Message: "m", Fix: &diag.Fix{Applicability: diag.FixSafe}},
		},
	} {
		in := &Input{Findings: fs, Version: "v1.2.3 <dev>", Checked: 3}
		var got bytes.Buffer
		if err := JSON(&got, in); err != nil {
			t.Fatal(err)
		}
		doc := JSONDoc{Version: in.Version, Findings: []JSONFinding{}, Summary: Summarize(in)}
		for _, f := range fs {
			jf := JSONFinding{Code: f.Code, Name: f.Name, Severity: f.Severity.String(), Path: f.Path,
				Line: f.Start.Line, Column: f.Start.Col, EndLine: f.End.Line, EndColumn: f.End.Col,
				Message: f.Message, Related: f.Related}
			if jf.Related == nil {
				jf.Related = []diag.Related{}
			}
			if f.Fix != nil && f.Fix.Applicability != diag.FixNone {
				jf.Fix = &JSONFix{Applicability: string(f.Fix.Applicability)}
			}
			doc.Findings = append(doc.Findings, jf)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("streamed:\n%s\nencoder:\n%s", got.String(), want.String())
		}
	}
}

// appendFinding writes each finding byte for byte as json.MarshalIndent
// does, whatever its strings hold.
func TestAppendFindingMatchesMarshalIndent(t *testing.T) {
	pieces := []string{"", "a", "RL113", "files-to-read", "projects/PROJ-1/ORCHESTRATION.yaml", `"q"`, `back\slash`,
		"<b>&amp;", "a<b", "x>y", "p&q", "tab\there", "new\nline", "\x00\x01\x1f", "\b\f\r", "é", "日本", "\u2028\u2029", "\xff\xfe", "emoji 🙂", "~/x", "%s %d"}
	rng := uint64(7)
	next := func() int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng >> 33)
	}
	pick := func() string {
		var s string
		for range next() % 4 {
			s += pieces[next()%len(pieces)]
		}
		return s
	}
	for i := range 3000 {
		jf := JSONFinding{Code: pick(), Name: pick(), Severity: pick(), Path: pick(), Line: next() % 5000, Column: next()%200 - 1,
			EndLine: next() % 5000, EndColumn: next() % 200, Message: pick(), Related: []diag.Related{}}
		switch i % 4 {
		case 1:
			jf.Fix = &JSONFix{Applicability: pick()}
		case 2:
			jf.Related = []diag.Related{{Path: pick(), Line: 1, Column: 2, Message: pick()}}
		}
		want, err := json.MarshalIndent(jf, "    ", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := appendFinding(nil, jf); !bytes.Equal(got, want) {
			t.Fatalf("finding %d:\n%s\nMarshalIndent:\n%s", i, got, want)
		}
	}
}
