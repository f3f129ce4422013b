package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/diag"
)

// RuleCount is how many findings one rule has in a run (--statistics).
type RuleCount struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Severity string `json:"severity"` // error when any of its findings is one, else warning
	Count    int    `json:"count"`
	Fixable  int    `json:"fixable"` // findings with a safe fix
}

// Statistics counts the findings per rule, most findings first, then by code.
func Statistics(fs []diag.Finding) []RuleCount {
	byCode := map[string]*RuleCount{}
	var out []*RuleCount
	for i := range fs {
		f := &fs[i]
		rc := byCode[f.Code]
		if rc == nil {
			rc = &RuleCount{Code: f.Code, Name: f.Name, Severity: "warning"}
			byCode[f.Code] = rc
			out = append(out, rc)
		}
		rc.Count++
		if f.Severity == diag.SevError {
			rc.Severity = "error"
		}
		if f.Fix != nil && f.Fix.Applicability == diag.FixSafe {
			rc.Fixable++
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Code < out[j].Code
	})
	res := make([]RuleCount, len(out))
	for i, rc := range out {
		res[i] = *rc
	}
	return res
}

// StatisticsText writes one line per rule with findings (count, code,
// name, severity, how many are fixable), then the summary unless in.Quiet:
//
//	3  RL102  resumption-schema  error
//	1  RL006  timestamp-format   warning  1 fixable
func StatisticsText(w io.Writer, in *Input) error {
	st := Statistics(in.Findings)
	var wc, wcode, wname, wsev int
	for _, rc := range st {
		wc = max(wc, len(fmt.Sprint(rc.Count)))
		wcode = max(wcode, len(rc.Code))
		wname = max(wname, len(rc.Name))
		wsev = max(wsev, len(rc.Severity))
	}
	var sb strings.Builder
	for _, rc := range st {
		line := fmt.Sprintf("%*d  %-*s  %-*s  %-*s", wc, rc.Count, wcode, rc.Code, wname, rc.Name, wsev, rc.Severity)
		if rc.Fixable > 0 {
			line += fmt.Sprintf("  %d fixable", rc.Fixable)
		}
		sb.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	if !in.Quiet {
		sb.WriteString(summaryLine(Summarize(in)))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// StatisticsJSON writes the per-rule counts as a JSON array.
func StatisticsJSON(w io.Writer, in *Input) error {
	st := Statistics(in.Findings)
	if st == nil {
		st = []RuleCount{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(st)
}

// summaryLine is the closing line of the text format (Text writes the same).
func summaryLine(s Summary) string {
	if s.Errors+s.Warnings == 0 {
		return fmt.Sprintf("No problems found in %s.\n", plural(s.Files, "file", "files"))
	}
	line := fmt.Sprintf("Found %s (%s, %s) in %s.", plural(s.Errors+s.Warnings, "problem", "problems"),
		plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), filesPart(s))
	if s.Fixable > 0 {
		line += fmt.Sprintf(" %d fixable with `resumelint fix`.", s.Fixable)
	}
	return line + "\n"
}
