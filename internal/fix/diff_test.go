package fix

import (
	"math/rand"
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

// Replaying an edit script rebuilds the new text, and the script is no
// longer than deleting and re-adding every line.
func TestDiffLinesReplays(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	words := []string{"a\n", "b\n", "c\n", "d\n", "e\n"}
	gen := func() []string {
		n := r.Intn(30)
		out := make([]string, n)
		for i := range out {
			out[i] = words[r.Intn(len(words))]
		}
		return out
	}
	for i := 0; i < 500; i++ {
		a, b := gen(), gen()
		ops := diffLines(a, b)
		var got []string
		changes := 0
		ai := 0
		for _, o := range ops {
			switch o.kind {
			case ' ':
				if a[o.a] != b[o.b] || o.a != ai {
					t.Fatalf("kept line differs: %q vs %q", a[o.a], b[o.b])
				}
				got = append(got, a[o.a])
				ai++
			case '-':
				if o.a != ai {
					t.Fatalf("deletion out of order")
				}
				ai++
				changes++
			case '+':
				got = append(got, b[o.b])
				changes++
			}
		}
		if ai != len(a) || strings.Join(got, "") != strings.Join(b, "") {
			t.Fatalf("replay of %q -> %q gave %q", a, b, got)
		}
		if changes > len(a)+len(b) {
			t.Fatalf("script longer than a rewrite")
		}
	}
}
