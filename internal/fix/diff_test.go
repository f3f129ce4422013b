package fix

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"insert into empty", "", "x\n", "--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n"},
		{"delete everything", "x\ny\n", "", "--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{"no final newline", "a\nb", "a\nb\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"context is three lines", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n",
			"--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n"},
		{"far apart changes make two hunks",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "X\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nY\n",
			"--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+X\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+Y\n"},
		{"near changes share a hunk",
			"1\n2\n3\n4\n5\n6\n7\n8\n", "X\n2\n3\n4\n5\n6\n7\nY\n",
			"--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unified("a/f", "b/f", []byte(tc.a), []byte(tc.b)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestUnifiedIsNotQuadratic: a file whose every third line goes (10,000
// unused suppressions removed) is one hunk of 30,000 lines. Growing its
// text line by line copied it for each line: gigabytes allocated, and
// `fix --diff` took a minute for 20,000 removals.
func TestUnifiedIsNotQuadratic(t *testing.T) {
	var a, b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&a, "    # resumelint:ignore RL010 -- kept %d\n    k%d: %d\n    # resumelint:ignore RL102 -- unused %d\n", i, i, i, i)
		fmt.Fprintf(&b, "    # resumelint:ignore RL010 -- kept %d\n    k%d: %d\n", i, i, i)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := Unified("a/f", "b/f", []byte(a.String()), []byte(b.String()))
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 128<<20 {
		t.Errorf("a diff of %d bytes allocated %d bytes", len(d), n)
	}
	if got := apply(t, a.String(), d); got != b.String() {
		t.Error("the diff does not turn the old text into the new")
	}
}

// Applying a diff to the old text rebuilds the new one, and every hunk's
// counts match its lines.
func TestUnifiedApplies(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []string{"a\n", "b\n", "c\n", "d\n", "e\n", "f\n", "g\n"}
	gen := func() string {
		var sb strings.Builder
		for range r.Intn(40) {
			sb.WriteString(words[r.Intn(len(words))])
		}
		return sb.String()
	}
	for range 500 {
		a, b := gen(), gen()
		d := Unified("a/f", "b/f", []byte(a), []byte(b))
		if got := apply(t, a, d); got != b {
			t.Fatalf("applying\n%s\nto %q gave %q, want %q", d, a, got, b)
		}
	}
}

// apply applies a unified diff of texts that end in a line break.
func apply(t *testing.T, a, d string) string {
	t.Helper()
	old := strings.SplitAfter(a, "\n")
	old = old[:len(old)-1]
	var out []string
	next := 0 // the next old line to copy
	lines := strings.SplitAfter(d, "\n")
	for i := 2; i < len(lines)-1; {
		hs := parseHunks(lines[i])
		if len(hs) != 1 {
			t.Fatalf("want a hunk header, got %q", lines[i])
		}
		h := hs[0]
		start := h.old.start - 1
		if h.old.count == 0 {
			start = h.old.start
		}
		out = append(out, old[next:start]...)
		next = start
		i++
		var no, nn int
		for ; i < len(lines)-1 && !strings.HasPrefix(lines[i], "@@"); i++ {
			text := lines[i][1:]
			switch lines[i][0] {
			case ' ':
				out = append(out, old[next])
				next, no, nn = next+1, no+1, nn+1
			case '-':
				if old[next] != text {
					t.Fatalf("removed line %q is %q in the old text", text, old[next])
				}
				next, no = next+1, no+1
			case '+':
				out = append(out, text)
				nn++
			}
		}
		if no != h.old.count || nn != h.new.count {
			t.Fatalf("hunk %+v has %d old and %d new lines", h, no, nn)
		}
	}
	return strings.Join(append(out, old[next:]...), "")
}
