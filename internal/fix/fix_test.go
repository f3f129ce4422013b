package fix

import (
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

func TestApply(t *testing.T) {
	const text = "alpha: 1\nbeta: 2\ngamma: 3\n"
	e := func(off, n int, s string) diag.TextEdit { return diag.TextEdit{Offset: off, Length: n, NewText: s} }
	tests := []struct {
		name  string
		edits []diag.TextEdit
		want  string
		err   string
	}{
		{"no edits", nil, text, ""},
		{"replace a value", []diag.TextEdit{e(7, 1, "10")}, "alpha: 10\nbeta: 2\ngamma: 3\n", ""},
		{"insert at start", []diag.TextEdit{e(0, 0, "# head\n")}, "# head\n" + text, ""},
		{"insert at end", []diag.TextEdit{e(len(text), 0, "delta: 4\n")}, text + "delta: 4\n", ""},
		{"delete a line", []diag.TextEdit{e(9, 8, "")}, "alpha: 1\ngamma: 3\n", ""},
		{"order does not matter", []diag.TextEdit{e(24, 1, "30"), e(7, 1, "10")}, "alpha: 10\nbeta: 2\ngamma: 30\n", ""},
		{"adjacent replacements", []diag.TextEdit{e(0, 5, "ALPHA"), e(5, 1, "=")}, "ALPHA= 1\nbeta: 2\ngamma: 3\n", ""},
		{"insertion before a replacement at the same offset", []diag.TextEdit{e(9, 4, "BETA"), e(9, 0, "# b\n")}, "alpha: 1\n# b\nBETA: 2\ngamma: 3\n", ""},
		{"insertion at the end of a deletion", []diag.TextEdit{e(9, 8, ""), e(17, 0, "x: 0\n")}, "alpha: 1\nx: 0\ngamma: 3\n", ""},
		{"overlapping replacements", []diag.TextEdit{e(0, 6, "a"), e(5, 2, "b")}, "", "overlap"},
		{"two insertions at one offset", []diag.TextEdit{e(9, 0, "a"), e(9, 0, "b")}, "", "overlap"},
		{"past the end", []diag.TextEdit{e(len(text), 1, "")}, "", "outside"},
		{"negative offset", []diag.TextEdit{e(-1, 0, "x")}, "", "outside"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply([]byte(text), tc.edits)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	fx := func(edits ...diag.TextEdit) *diag.Fix { return &diag.Fix{Applicability: diag.FixSafe, Edits: edits} }
	e := func(off, n int) diag.TextEdit { return diag.TextEdit{Offset: off, Length: n, NewText: "x"} }
	a := fx(e(0, 5))
	b := fx(e(10, 5))
	overlapsA := fx(e(3, 4))
	sameAsA := fx(e(0, 5))
	touchesA := fx(e(5, 2)) // starts where a ends: no overlap
	insideB := fx(e(12, 0))
	broken := fx(e(20, 5), e(22, 1))
	renameOne := &diag.Fix{RenameTo: "x/resume-context.md"}
	renameTwo := &diag.Fix{RenameTo: "x/other.md"}
	tests := []struct {
		name  string
		fixes []*diag.Fix
		want  []Outcome
	}{
		{"disjoint", []*diag.Fix{a, b}, []Outcome{Applied, Applied}},
		{"overlap: the first wins", []*diag.Fix{a, overlapsA, b}, []Outcome{Applied, Conflict, Applied}},
		{"overlap: order decides", []*diag.Fix{overlapsA, a}, []Outcome{Applied, Conflict}},
		{"the same change twice", []*diag.Fix{a, sameAsA}, []Outcome{Applied, Duplicate}},
		{"the same pointer twice", []*diag.Fix{a, a}, []Outcome{Applied, Duplicate}},
		{"adjacent ranges", []*diag.Fix{a, touchesA}, []Outcome{Applied, Applied}},
		{"insertion inside a replaced range", []*diag.Fix{b, insideB}, []Outcome{Applied, Conflict}},
		{"a fix whose own edits overlap", []*diag.Fix{broken, a}, []Outcome{Conflict, Applied}},
		{"one rename per file", []*diag.Fix{renameOne, renameTwo, a}, []Outcome{Applied, Conflict, Applied}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Select(tc.fixes)
			if len(got) != len(tc.want) {
				t.Fatalf("%d choices, want %d", len(got), len(tc.want))
			}
			for i, ch := range got {
				if ch.Fix != tc.fixes[i] || ch.Outcome != tc.want[i] {
					t.Errorf("fix %d: outcome %d, want %d", i, ch.Outcome, tc.want[i])
				}
				if ch.Outcome != Applied && ch.With == nil {
					t.Errorf("fix %d: %d without the fix it clashes with", i, ch.Outcome)
				}
			}
		})
	}
}

// The fixes Select picks always apply together.
func TestSelectedApply(t *testing.T) {
	text := []byte(strings.Repeat("0123456789", 4))
	var fixes []*diag.Fix
	for i := 0; i < 35; i += 3 {
		fixes = append(fixes, &diag.Fix{Edits: []diag.TextEdit{{Offset: i, Length: i % 5, NewText: "<>"}}})
	}
	var picked []*diag.Fix
	for _, ch := range Select(fixes) {
		if ch.Outcome == Applied {
			picked = append(picked, ch.Fix)
		}
	}
	if _, err := Apply(text, Edits(picked)); err != nil {
		t.Fatal(err)
	}
	if len(picked) == len(fixes) {
		t.Fatal("expected some conflicts in this set")
	}
}
