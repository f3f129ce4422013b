package report

import (
	"encoding/xml"
	"fmt"
	"io"
)

// JUnit XML, as CI systems without SARIF read test reports (GitLab, Jenkins,
// Azure Pipelines, CircleCI): one testsuite per file with findings, one
// testcase per finding holding one failure. A run without findings is one
// passing testcase, so the report is never empty.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnit writes a JUnit XML report. rel maps a display path to the
// repository-relative path the report names files by.
func JUnit(w io.Writer, in *Input, rel func(string) string) error {
	doc := junitSuites{Name: "resumelint"}
	index := map[string]int{}
	for i := range in.Findings {
		f := &in.Findings[i]
		p := ""
		if f.Path != "" {
			p = rel(f.Path)
		}
		suite := p
		if suite == "" {
			suite = "resumelint"
		}
		si, ok := index[suite]
		if !ok {
			si = len(doc.Suites)
			index[suite] = si
			doc.Suites = append(doc.Suites, junitSuite{Name: suite})
		}
		where := p
		name := f.Code + " " + f.Name
		if f.Start.Line > 0 {
			where = fmt.Sprintf("%s:%d:%d", p, f.Start.Line, f.Start.Col)
			name = fmt.Sprintf("%s (%d:%d)", name, f.Start.Line, f.Start.Col)
		}
		text := fmt.Sprintf("%s: %s: %s [%s %s]", where, f.Severity, f.Message, f.Code, f.Name)
		if where == "" {
			text = fmt.Sprintf("%s: %s [%s %s]", f.Severity, f.Message, f.Code, f.Name)
		}
		text += "\nhelp: " + HelpURI(f.Code)
		c := junitCase{Name: name, Classname: suite, File: p, Line: max(f.Start.Line, 0),
			Failure: &junitFailure{Message: f.Message, Type: f.Severity.String(), Text: text}}
		s := &doc.Suites[si]
		s.Cases = append(s.Cases, c)
		s.Tests++
		s.Failures++
		doc.Tests++
		doc.Failures++
	}
	if len(doc.Suites) == 0 {
		doc.Suites = []junitSuite{{Name: "resumelint", Tests: 1,
			Cases: []junitCase{{Name: fmt.Sprintf("no problems in %s", plural(in.Checked, "file", "files")), Classname: "resumelint"}}}}
		doc.Tests = 1
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
