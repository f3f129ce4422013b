package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/diag"
)

// Limits of the Markdown report, which GitHub shows as a job's step
// summary (at most 1 MiB a step).
const (
	markdownFiles    = 30
	markdownFindings = 30
)

// Markdown writes a short report for people, meant for a CI job summary
// ($GITHUB_STEP_SUMMARY): the counts, a table of findings per rule and per
// file, then the first findings, errors first. rel maps a display path to
// the repository-relative path.
func Markdown(w io.Writer, in *Input, rel func(string) string) error {
	var sb strings.Builder
	s := Summarize(in)
	if s.Errors+s.Warnings == 0 {
		fmt.Fprintf(&sb, "### resumelint: no problems\n\nNo problems found in %s.\n", plural(s.Files, "file", "files"))
		_, err := io.WriteString(w, sb.String())
		return err
	}
	fmt.Fprintf(&sb, "### resumelint: %s, %s\n\n", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"))
	sb.WriteString(strings.TrimSuffix(summaryLine(s), "\n")) // resumelint's own words, no file content
	sb.WriteString("\n\n| Findings | Rule | Severity |\n| ---: | --- | --- |\n")
	for _, rc := range Statistics(in.Findings) {
		fmt.Fprintf(&sb, "| %d | [%s](%s) %s | %s |\n", rc.Count, rc.Code, HelpURI(rc.Code), mdEscape(rc.Name), rc.Severity)
	}

	type fileCount struct {
		path             string
		errors, warnings int
	}
	byPath := map[string]*fileCount{}
	var files []*fileCount
	for i := range in.Findings {
		f := &in.Findings[i]
		p := f.Path
		if p != "" {
			p = rel(p)
		}
		fc := byPath[p]
		if fc == nil {
			fc = &fileCount{path: p}
			byPath[p] = fc
			files = append(files, fc)
		}
		if f.Severity == diag.SevError {
			fc.errors++
		} else {
			fc.warnings++
		}
	}
	sort.SliceStable(files, func(i, j int) bool {
		a, b := files[i], files[j]
		if a.errors+a.warnings != b.errors+b.warnings {
			return a.errors+a.warnings > b.errors+b.warnings
		}
		return a.path < b.path
	})
	sb.WriteString("\n| Errors | Warnings | File |\n| ---: | ---: | --- |\n")
	for i, fc := range files {
		if i == markdownFiles {
			fmt.Fprintf(&sb, "\n…and %s.\n", plural(len(files)-i, "more file", "more files"))
			break
		}
		name := fc.path
		if name == "" {
			name = "(no file)"
		}
		fmt.Fprintf(&sb, "| %d | %d | %s |\n", fc.errors, fc.warnings, mdEscape(name))
	}

	order := make([]int, len(in.Findings))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		return in.Findings[order[i]].Severity > in.Findings[order[j]].Severity
	})
	n := min(len(order), markdownFindings)
	if n == len(order) {
		sb.WriteString("\n#### Findings\n\n")
	} else {
		fmt.Fprintf(&sb, "\n#### First %d of %d findings\n\n", n, len(order))
	}
	for _, i := range order[:n] {
		f := &in.Findings[i]
		where := "(no file)"
		if f.Path != "" {
			where = rel(f.Path)
			if f.Start.Line > 0 {
				where = fmt.Sprintf("%s:%d:%d", where, f.Start.Line, f.Start.Col)
			}
		}
		fmt.Fprintf(&sb, "- **%s** %s: %s ([%s](%s) %s)\n", f.Severity, mdEscape(where), mdEscape(f.Message), f.Code, HelpURI(f.Code), mdEscape(f.Name))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// mdEscape makes text from files inert in Markdown (diag.SafeMarkdown:
// secrets masked, Markdown and HTML syntax and control characters escaped).
func mdEscape(s string) string { return diag.SafeMarkdown(s) }
