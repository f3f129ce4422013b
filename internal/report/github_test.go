package report

import (
	"bytes"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

func TestGitHubEscaping(t *testing.T) {
	cases := []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"100% done", "100%25 done", "100%25 done"},
		{"two\nlines", "two%0Alines", "two%0Alines"},
		{"crlf\r\n", "crlf%0D%0A", "crlf%0D%0A"},
		{"a,b:c", "a,b:c", "a%2Cb%3Ac"},
		{"%0A literal", "%250A literal", "%250A literal"},
		{"::error::", "::error::", "%3A%3Aerror%3A%3A"},
	}
	for _, c := range cases {
		if got := EscapeData(c.in); got != c.data {
			t.Errorf("EscapeData(%q) = %q, want %q", c.in, got, c.data)
		}
		if got := EscapeProperty(c.in); got != c.prop {
			t.Errorf("EscapeProperty(%q) = %q, want %q", c.in, got, c.prop)
		}
	}
}

func TestGitHubCommands(t *testing.T) {
	in := &Input{Findings: []diag.Finding{
		{Code: "RL107", Name: "stale-resumption", Severity: diag.SevError, Path: "a,b/ORCHESTRATION.yaml",
			Start: diag.Pos{Line: 12, Col: 17}, End: diag.Pos{Line: 12, Col: 39}, Message: "updated_at is 50% stale:\nsee line 40"},
		{Code: "RL006", Name: "timestamp-format", Severity: diag.SevWarning, Path: "p/resume-context.md",
			Start: diag.Pos{Line: 3, Col: 1}, End: diag.Pos{Line: 3, Col: 5}, Message: "no zone"},
		{Code: "RL000", Name: "internal-error", Severity: diag.SevError, Message: "internal error"},
	}}
	var buf bytes.Buffer
	if err := GitHub(&buf, in, func(p string) string { return "sub/" + p }); err != nil {
		t.Fatal(err)
	}
	want := "::error file=sub/a%2Cb/ORCHESTRATION.yaml,line=12,col=17,endLine=12,endColumn=39,title=RL107 stale-resumption::updated_at is 50%25 stale:%0Asee line 40\n" +
		"::warning file=sub/p/resume-context.md,line=3,col=1,endLine=3,endColumn=5,title=RL006 timestamp-format::no zone\n" +
		"::error title=RL000 internal-error::internal error\n"
	if got := buf.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
