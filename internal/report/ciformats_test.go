package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// hostileFindings carry, in paths and messages, what a file can put
// there: markup, control characters, invalid XML characters.
func hostileFindings() *Input {
	in := sampleFindings()
	in.Findings = append(in.Findings, diag.Finding{Code: "RL102", Name: "resumption-schema", Severity: diag.SevError,
		Path: "x<y>/&ORCHESTRATION.yaml", Start: diag.Pos{Line: 4, Col: 2}, End: diag.Pos{Line: 4, Col: 9},
		Message: "value \"]]></failure><x a='1'>\x00\x1b[31m\x7f\u202e | <script>alert(1)</script> [link](javascript:x) @team #1\r\nnext"})
	return in
}

func TestJUnitIsWellFormed(t *testing.T) {
	in := hostileFindings()
	var buf bytes.Buffer
	if err := JUnit(&buf, in, identity); err != nil {
		t.Fatal(err)
	}
	// Every token parses: no control character or markup from a file
	// breaks the document.
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, buf.String())
		}
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Cases    []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				File      string `xml:"file,attr"`
				Line      int    `xml:"line,attr"`
				Failures  []struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// One failure per finding, each in its own testcase, grouped by file.
	if doc.Tests != len(in.Findings) || doc.Failures != len(in.Findings) {
		t.Errorf("testsuites: %d tests, %d failures; want %d", doc.Tests, doc.Failures, len(in.Findings))
	}
	total := 0
	for _, s := range doc.Suites {
		if s.Tests != len(s.Cases) || s.Failures != len(s.Cases) {
			t.Errorf("suite %s: tests %d, failures %d, %d cases", s.Name, s.Tests, s.Failures, len(s.Cases))
		}
		for _, c := range s.Cases {
			total++
			if len(c.Failures) != 1 || c.Classname != s.Name {
				t.Errorf("case %s in %s: %d failures, classname %s", c.Name, s.Name, len(c.Failures), c.Classname)
			}
			if f := c.Failures[0]; (f.Type != "error" && f.Type != "warning") || f.Message == "" || !strings.Contains(f.Text, "help: https://") {
				t.Errorf("failure: %+v", f)
			}
		}
	}
	if total != len(in.Findings) || len(doc.Suites) != 4 {
		t.Errorf("%d testcases in %d suites; want %d in 4 (3 files and one for the finding about no file)", total, len(doc.Suites), len(in.Findings))
	}
	last := doc.Suites[len(doc.Suites)-1]
	if last.Name != "x<y>/&ORCHESTRATION.yaml" || last.Cases[0].Line != 4 || !strings.Contains(last.Cases[0].Failures[0].Message, "<script>") {
		t.Errorf("the hostile finding did not round-trip: %+v", last)
	}

	// No findings: one passing testcase.
	buf.Reset()
	if err := JUnit(&buf, &Input{Checked: 3}, identity); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `tests="1" failures="0"`) || !strings.Contains(buf.String(), `<testcase name="no problems in 3 files"`) {
		t.Errorf("clean run:\n%s", buf.String())
	}
}

func TestCodeClimateShape(t *testing.T) {
	in := hostileFindings()
	var buf bytes.Buffer
	if err := CodeClimate(&buf, in, identity); err != nil {
		t.Fatal(err)
	}
	// Decoded without the Go types: GitLab's required keys and types.
	var issues []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &issues); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, buf.String())
	}
	if len(issues) != len(in.Findings) {
		t.Fatalf("%d issues for %d findings", len(issues), len(in.Findings))
	}
	seen := map[string]bool{}
	for i, is := range issues {
		for _, k := range []string{"description", "check_name", "fingerprint", "severity"} {
			if s, ok := is[k].(string); !ok || s == "" {
				t.Errorf("issue %d: %s = %v", i, k, is[k])
			}
		}
		switch is["severity"] {
		case "info", "minor", "major", "critical", "blocker":
		default:
			t.Errorf("issue %d: severity %v is not one of GitLab's", i, is["severity"])
		}
		fp := is["fingerprint"].(string)
		if seen[fp] {
			t.Errorf("issue %d: fingerprint %s is not unique", i, fp)
		}
		seen[fp] = true
		path, _ := get(is, "location", "path").(string)
		begin, _ := get(is, "location", "lines", "begin").(float64)
		if path == "" || strings.HasPrefix(path, "/") || begin < 1 {
			t.Errorf("issue %d: location %v", i, is["location"])
		}
	}
	if issues[0]["severity"] != "major" || issues[1]["severity"] != "minor" || issues[0]["check_name"] != "RL102" {
		t.Errorf("severity or check name: %v, %v", issues[0], issues[1])
	}
	// The finding about no file still has a path GitLab accepts.
	if get(issues[2], "location", "path") != "." {
		t.Errorf("no-file finding: %v", issues[2]["location"])
	}

	buf.Reset()
	if err := CodeClimate(&buf, &Input{}, identity); err != nil || strings.TrimSpace(buf.String()) != "[]" {
		t.Errorf("no findings: %q %v", buf.String(), err)
	}
}

func TestMarkdownIsInert(t *testing.T) {
	in := hostileFindings()
	var buf bytes.Buffer
	if err := Markdown(&buf, in, identity); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"<script>", "<x ", "\x00", "\x1b", "\x7f", "\u202e", "\r", "](javascript", " @team", " #1", "| <", "next\n"} {
		if strings.Contains(out, bad) {
			t.Errorf("the report holds %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"&lt;script&gt;", `\x00\x1b`, `\u202e`, `\x0d\x0anext`, `\[link\]\(javascript\:x\)`, `\@team \#1`, `x&lt;y&gt;/&amp;ORCHESTRATION.yaml`} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// Each finding is one line, each table row one line.
	if n := strings.Count(out, "\n- **"); n != len(in.Findings) {
		t.Errorf("%d finding lines, want %d:\n%s", n, len(in.Findings), out)
	}
}

func TestMarkdownLimits(t *testing.T) {
	in := &Input{Checked: 100}
	for i := 0; i < 100; i++ {
		in.Findings = append(in.Findings, diag.Finding{Code: "RL006", Name: "timestamp-format", Severity: diag.SevWarning,
			Path: strings.Repeat("d/", i%40) + "resume-context.md", Start: diag.Pos{Line: 1, Col: 1}, Message: "w"})
	}
	in.Findings = append(in.Findings, diag.Finding{Code: "RL102", Name: "resumption-schema", Severity: diag.SevError,
		Path: "z/ORCHESTRATION.yaml", Start: diag.Pos{Line: 1, Col: 1}, Message: "e"})
	var buf bytes.Buffer
	if err := Markdown(&buf, in, identity); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"…and 11 more files.", "#### First 30 of 101 findings", "\n\n- **error** z/ORCHESTRATION.yaml\\:1\\:1: e "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}

func TestStatistics(t *testing.T) {
	in := sampleFindings()
	in.Findings = append(in.Findings, in.Findings[1])
	in.Findings[1].Fix = &diag.Fix{Applicability: diag.FixSafe}
	st := Statistics(in.Findings)
	want := []RuleCount{{"RL006", "timestamp-format", "warning", 2, 1}, {"RL000", "internal-error", "error", 1, 0}, {"RL102", "resumption-schema", "error", 1, 0}}
	if len(st) != len(want) {
		t.Fatalf("%+v", st)
	}
	for i := range want {
		if st[i] != want[i] {
			t.Errorf("row %d: %+v, want %+v", i, st[i], want[i])
		}
	}
	var buf bytes.Buffer
	in.Quiet = true
	if err := StatisticsText(&buf, in); err != nil {
		t.Fatal(err)
	}
	if want := "2  RL006  timestamp-format   warning  1 fixable\n1  RL000  internal-error     error\n1  RL102  resumption-schema  error\n"; buf.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", buf.String(), want)
	}
}
