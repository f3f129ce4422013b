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
