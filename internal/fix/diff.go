package fix

import (
	"fmt"
	"strings"
)

// Unified returns a unified diff (3 lines of context) from a to b with the
// given header names ("a/path", "b/path"), or "" when they are equal.
func Unified(oldName, newName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := splitKeep(string(a)), splitKeep(string(b))
	ops := diffLines(al, bl)
	const ctx = 3
	var changes []int
	for i, o := range ops {
		if o.kind != ' ' {
			changes = append(changes, i)
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	for h := 0; h < len(changes); {
		start := max(changes[h]-ctx, 0)
		end := changes[h] + 1
		h++
		for h < len(changes) && changes[h]-end <= 2*ctx {
			end = changes[h] + 1
			h++
		}
		end = min(end+ctx, len(ops))
		hunk := ops[start:end]
		var na, nb int
		for _, o := range hunk {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(hunk[0].a, na), hunkRange(hunk[0].b, nb))
		for _, o := range hunk {
			line := ""
			switch o.kind {
			case '-':
				line = al[o.a]
			default:
				line = bl[o.b]
			}
			sb.WriteByte(o.kind)
			sb.WriteString(line)
			if !strings.HasSuffix(line, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	return sb.String()
}

// hunkRange is "start,count" (1-based); an empty range names the line
// before it, and a count of 1 is left out, as diff -u does.
func hunkRange(at, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", at)
	case 1:
		return fmt.Sprint(at + 1)
	}
	return fmt.Sprintf("%d,%d", at+1, n)
}

// splitKeep splits text into lines that keep their line breaks.
func splitKeep(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// op is one line of an edit script: ' ' kept, '-' removed, '+' added; a
// and b are the line indexes in the old and new text where it applies.
type op struct {
	kind byte
	a, b int
}

// diffLines returns a shortest edit script from a to b (Myers' O(ND)
// algorithm) after stripping the common prefix and suffix.
func diffLines(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []op
	for i := 0; i < pre; i++ {
		out = append(out, op{' ', i, i})
	}
	for _, o := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		out = append(out, op{o.kind, o.a + pre, o.b + pre})
	}
	for i := 0; i < suf; i++ {
		out = append(out, op{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return out
}

// maxTrace bounds the memory Myers' trace may take; beyond it the middle
// is shown as removed and added wholesale (still a correct diff).
const maxTrace = 1 << 24

func myers(a, b []string) []op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return wholesale(a, b)
	}
	total := n + m
	off := total
	v := make([]int, 2*total+2)
	var trace [][]int
	for d := 0; d <= total; d++ {
		if (d+1)*len(v) > maxTrace {
			return wholesale(a, b)
		}
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, off, n, m)
			}
		}
	}
	return wholesale(a, b)
}

func backtrack(trace [][]int, off, n, m int) []op {
	var rev []op
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		v := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := v[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, op{' ', x, y})
		}
		if d > 0 {
			if x == px {
				y--
				rev = append(rev, op{'+', x, y})
			} else {
				x--
				rev = append(rev, op{'-', x, y})
			}
		}
	}
	out := make([]op, len(rev))
	for i, o := range rev {
		out[len(rev)-1-i] = o
	}
	return out
}

func wholesale(a, b []string) []op {
	var out []op
	for i := range a {
		out = append(out, op{'-', i, 0})
	}
	for j := range b {
		out = append(out, op{'+', len(a), j})
	}
	return out
}
