package fix

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/diff"
)

// Unified returns a unified diff (3 lines of context) from a to b with the
// given header names ("a/path", "b/path"), or "" when they are equal.
//
// The hunks come from go-internal's anchored diff; the output follows
// diff -u: no "diff" line before the headers, a count of 1 left out of a
// hunk's range, and hunks whose context lines meet printed as one.
func Unified(oldName, newName string, a, b []byte) string {
	d := diff.Diff(oldName, a, newName, b)
	if d == nil {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range mergeHunks(parseHunks(string(d))) {
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(h.old), hunkRange(h.new))
		for _, l := range h.lines {
			sb.WriteString(l)
		}
	}
	return sb.String()
}

// span is one side of a hunk: its first line (1-based; for an empty span,
// the line before it) and its number of lines.
type span struct{ start, count int }

type hunk struct {
	old, new span
	lines    []string // the hunk's lines, each ending in a line break
}

// parseHunks reads the hunks of diff.Diff's output, skipping its three
// header lines. A hunk keeps its lines as a list, never as one string
// grown line by line: a file whose every other line changes is one hunk
// of tens of thousands of lines, and growing a string copies it whole
// for each line.
func parseHunks(d string) []hunk {
	var hs []hunk
	for _, line := range strings.SplitAfter(d, "\n") {
		if rest, ok := strings.CutPrefix(line, "@@ -"); ok {
			f := strings.Fields(rest) // "x,n" "+y,m" "@@"
			hs = append(hs, hunk{old: parseSpan(f[0]), new: parseSpan(strings.TrimPrefix(f[1], "+"))})
			continue
		}
		if len(hs) > 0 {
			hs[len(hs)-1].lines = append(hs[len(hs)-1].lines, line)
		}
	}
	return hs
}

// parseSpan reads "start,count" or "start" (a count of 1).
func parseSpan(s string) span {
	start, count, ok := strings.Cut(s, ",")
	a, _ := strconv.Atoi(start)
	if !ok {
		return span{a, 1}
	}
	n, _ := strconv.Atoi(count)
	return span{a, n}
}

// mergeHunks joins a hunk to the one before it when they touch: diff -u
// prints changes separated by up to twice the context as one hunk.
func mergeHunks(hs []hunk) []hunk {
	var out []hunk
	for _, h := range hs {
		if n := len(out); n > 0 {
			p := &out[n-1]
			if p.old.count > 0 && h.old.count > 0 && p.old.start+p.old.count == h.old.start {
				p.old.count += h.old.count
				p.new.count += h.new.count
				p.lines = append(p.lines, h.lines...)
				continue
			}
		}
		out = append(out, h)
	}
	return out
}

// hunkRange is "start,count"; a count of 1 is left out, as diff -u does.
func hunkRange(s span) string {
	if s.count == 1 {
		return strconv.Itoa(s.start)
	}
	return fmt.Sprintf("%d,%d", s.start, s.count)
}
