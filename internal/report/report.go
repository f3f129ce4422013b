// Package report renders findings: text for people, JSON for programs
// (SARIF and GitHub workflow commands for CI).
package report

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/diag"
)

// Input is everything a renderer needs.
type Input struct {
	Findings []diag.Finding
	Checked  int
	Version  string
	Color    bool
	Quiet    bool // no summary line
	// Root is the repository root (an absolute OS path) that SARIF's
	// %SRCROOT% stands for; empty leaves it to the consumer.
	Root string
	// Rules describe the rules of the catalog, in its order (SARIF's
	// tool.driver.rules); formats that need no rule metadata ignore it.
	Rules []RuleInfo
}

// RuleInfo is what output formats say about a rule.
type RuleInfo struct {
	Code, Name, Summary string
	Severity            diag.Severity
	Tags                []string
	// Description is the rule's description on one line; Help its whole
	// page (Markdown). Empty when the rule has no page: formats fall back
	// to Summary.
	Description, Help string
	HelpURI           string
	// SecuritySeverity, for a rule that finds security problems, is the
	// score (0.0–10.0) GitHub code scanning ranks its alerts by.
	SecuritySeverity string
}

// Summary counts findings.
type Summary struct {
	Files int `json:"files"`
	// FilesWithFindings counts the files findings point at (at most Files),
	// so a summary tells files linted from files with problems.
	FilesWithFindings int `json:"files_with_findings"`
	Errors            int `json:"errors"`
	Warnings          int `json:"warnings"`
	Fixable           int `json:"fixable"`
}

// Summarize counts the findings of in.
func Summarize(in *Input) Summary {
	s := Summary{Files: in.Checked}
	// The findings come sorted by path, so a file's are adjacent and a
	// file is counted when its path differs from the last one counted;
	// out of order, a set of the paths counts them.
	var paths map[string]bool
	last, counted := "", false
	for i := range in.Findings {
		f := &in.Findings[i]
		if f.Severity == diag.SevError || f.Severity == diag.SevWarning {
			switch {
			case paths != nil:
				paths[f.Path] = true
			case counted && f.Path < last:
				paths = pathSet(in.Findings[:i])
				paths[f.Path] = true
			case !counted || f.Path != last:
				s.FilesWithFindings++
				last, counted = f.Path, true
			}
		}
		switch f.Severity {
		case diag.SevError:
			s.Errors++
		case diag.SevWarning:
			s.Warnings++
		}
		if f.Fix != nil && f.Fix.Applicability == diag.FixSafe {
			s.Fixable++
		}
	}
	if paths != nil {
		s.FilesWithFindings = len(paths)
	}
	withFindings := s.FilesWithFindings
	s.FilesWithFindings = min(withFindings, s.Files)
	if s.FilesWithFindings == 0 && withFindings > 0 {
		s.FilesWithFindings = withFindings
	}
	return s
}

// pathSet is the paths of the errors and warnings among fs.
func pathSet(fs []diag.Finding) map[string]bool {
	paths := map[string]bool{}
	for i := range fs {
		if fs[i].Severity == diag.SevError || fs[i].Severity == diag.SevWarning {
			paths[fs[i].Path] = true
		}
	}
	return paths
}

// Text writes path:line:col: severity: message [CODE name], the source
// line and a caret under the column, then a summary.
func Text(w io.Writer, in *Input) error {
	p := newTextPaint(in.Color)
	masks := secretMasks(in.Findings)
	long := longLinesOf(in.Findings)
	// Written as it is made: the output of 24,000 findings is megabytes.
	sb := bufio.NewWriterSize(w, 64<<10)
	err := inOrder(sb, len(in.Findings), func(sb *bytes.Buffer, i int) {
		f := &in.Findings[i]
		p.head(sb, f)
		if f.HasSnippet {
			k := maskKey{f.Path, f.Start.Line}
			p.snippet(sb, f, masks[k], long[k])
		}
	})
	if err != nil {
		return err
	}
	if !in.Quiet {
		textSummary(sb, Summarize(in))
	}
	return sb.Flush()
}

// textSummary writes the text report's last line.
func textSummary(sb *bufio.Writer, s Summary) {
	if s.Errors+s.Warnings == 0 {
		fmt.Fprintf(sb, "No problems found in %s.\n", plural(s.Files, "file", "files"))
		return
	}
	fmt.Fprintf(sb, "Found %s (%s, %s) in %s.", plural(s.Errors+s.Warnings, "problem", "problems"),
		plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), filesPart(s))
	if s.Fixable > 0 {
		fmt.Fprintf(sb, " %d fixable with `resumelint fix`.", s.Fixable)
	}
	sb.WriteString("\n")
}

// filesPart says how many of the files linted have findings: "2 of 35 files".
func filesPart(s Summary) string {
	if s.FilesWithFindings >= s.Files {
		return plural(s.Files, "file", "files")
	}
	return fmt.Sprintf("%d of %s", s.FilesWithFindings, plural(s.Files, "file", "files"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

type maskKey struct {
	path string
	line int
}

// secretMasks returns the character ranges (0-based, end exclusive) of
// secrets per line, so no snippet prints one.
func secretMasks(fs []diag.Finding) map[maskKey][][2]int {
	out := map[maskKey][][2]int{}
	for _, f := range fs {
		if !f.Secret {
			continue
		}
		end := max(f.End.Line, f.Start.Line)
		for l := f.Start.Line; l <= end && l-f.Start.Line < 1000; l++ {
			a, b := 0, 1<<30 // a line inside a block: all of it
			if l == f.Start.Line {
				a = f.Start.Col - 1
			}
			if l == end && f.End.Col > 0 {
				b = f.End.Col - 1
			}
			k := maskKey{f.Path, l}
			out[k] = append(out[k], [2]int{a, b})
		}
	}
	// By start, so a snippet reads only those that begin where it shows:
	// a minified line holding thousands of secrets costs each finding on
	// it a few, not all.
	for _, ms := range out {
		slices.SortFunc(ms, func(x, y [2]int) int { return cmp.Compare(x[0], y[0]) })
	}
	return out
}

// JSONFinding is one finding in the JSON output (docs/json-output.md).
type JSONFinding struct {
	Code      string         `json:"code"`
	Name      string         `json:"name"`
	Severity  string         `json:"severity"`
	Path      string         `json:"path"`
	Line      int            `json:"line"`
	Column    int            `json:"column"`
	EndLine   int            `json:"end_line"`
	EndColumn int            `json:"end_column"`
	Message   string         `json:"message"`
	Fix       *JSONFix       `json:"fix"`
	Related   []diag.Related `json:"related"`
}

// JSONFix says whether and how a finding can be fixed.
type JSONFix struct {
	Applicability string `json:"applicability"`
}

// JSONDoc is the whole JSON output.
type JSONDoc struct {
	Version  string        `json:"version"`
	Findings []JSONFinding `json:"findings"`
	Summary  Summary       `json:"summary"`
}

// JSON writes one JSON document: the document json.Encoder with a two-space
// indent writes for a JSONDoc, one finding at a time, so a run's output is
// never held in memory whole.
func JSON(w io.Writer, in *Input) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head, err := json.Marshal(in.Version)
	if err != nil {
		return err
	}
	fmt.Fprintf(bw, "{\n  \"version\": %s,\n  \"findings\": [", head)
	err = inOrder(bw, len(in.Findings), func(buf *bytes.Buffer, i int) {
		f := &in.Findings[i]
		jf := JSONFinding{Code: f.Code, Name: f.Name, Severity: f.Severity.String(), Path: f.Path,
			Line: f.Start.Line, Column: f.Start.Col, EndLine: f.End.Line, EndColumn: f.End.Col,
			Message: f.Message, Related: f.Related}
		if jf.Related == nil {
			jf.Related = []diag.Related{}
		}
		if f.Fix != nil && f.Fix.Applicability != diag.FixNone { // documented: safe, unsafe or null
			jf.Fix = &JSONFix{Applicability: string(f.Fix.Applicability)}
		}
		if i > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n    ")
		buf.Write(appendFinding(buf.AvailableBuffer(), jf))
	})
	if err != nil {
		return err
	}
	if len(in.Findings) > 0 {
		bw.WriteString("\n  ")
	}
	sum, err := json.MarshalIndent(Summarize(in), "  ", "  ")
	if err != nil {
		return err
	}
	bw.WriteString("],\n  \"summary\": ")
	bw.Write(sum)
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// appendFinding appends what json.MarshalIndent(jf, "    ", "  ") writes,
// without reflection for the common finding (no related locations): at
// tens of thousands of findings the report is written after every check
// has ended, so its cost is wall time. jf is a copy, so that only a
// finding with related locations is moved to the heap for the encoder.
func appendFinding(b []byte, jf JSONFinding) []byte {
	if len(jf.Related) > 0 {
		out, err := json.MarshalIndent(jf, "    ", "  ")
		if err != nil { // unreachable: every field is a string, number or such a struct
			panic(err)
		}
		return append(b, out...)
	}
	field := func(name string) { b = append(b, "\n      \""...); b = append(b, name...); b = append(b, "\": "...) }
	str := func(name, v string) { field(name); b = appendJSONString(b, v); b = append(b, ',') }
	num := func(name string, v int) { field(name); b = strconv.AppendInt(b, int64(v), 10); b = append(b, ',') }
	b = append(b, '{')
	str("code", jf.Code)
	str("name", jf.Name)
	str("severity", jf.Severity)
	str("path", jf.Path)
	num("line", jf.Line)
	num("column", jf.Column)
	num("end_line", jf.EndLine)
	num("end_column", jf.EndColumn)
	str("message", jf.Message)
	field("fix")
	if jf.Fix == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, "{\n        \"applicability\": "...)
		b = appendJSONString(b, jf.Fix.Applicability)
		b = append(b, "\n      }"...)
	}
	b = append(b, ',')
	field("related")
	return append(b, "[]\n    }"...)
}

// appendJSONString appends s as encoding/json writes it (HTML-escaped):
// the same escapes, byte for byte, without its reflection and allocation,
// which were most of a report's time at thousands of findings whose
// messages quote values.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default: // other controls, and <, > and &
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonSafe holds the ASCII bytes encoding/json writes as they are.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := byte(0x20); c < utf8.RuneSelf; c++ {
		t[c] = !strings.ContainsRune(`"\<>&`, rune(c))
	}
	return t
}()

// snippet returns the source line a finding points at, when it is known.
// headRunes is the first n characters of s, in time independent of the
// rest of s.
func headRunes(s string, n int) []rune {
	r := make([]rune, 0, min(n, len(s)))
	for _, c := range s {
		if len(r) == n {
			break
		}
		r = append(r, c)
	}
	return r
}
