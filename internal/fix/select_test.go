package fix

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// selectByScan is Select as it was written first: each fix compared with
// every fix picked before it. Select must choose exactly as it does.
func selectByScan(fixes []*diag.Fix) []Choice {
	var out []Choice
	var picked []*diag.Fix
	var rename *diag.Fix
next:
	for _, f := range fixes {
		for _, p := range picked {
			if Equal(f, p) {
				out = append(out, Choice{Fix: f, Outcome: Duplicate, With: p})
				continue next
			}
		}
		if selfOverlap(f.Edits) {
			out = append(out, Choice{Fix: f, Outcome: Conflict, With: f})
			continue
		}
		for _, p := range picked {
			if Overlaps(f.Edits, p.Edits) {
				out = append(out, Choice{Fix: f, Outcome: Conflict, With: p})
				continue next
			}
		}
		if f.RenameTo != "" && rename != nil {
			out = append(out, Choice{Fix: f, Outcome: Conflict, With: rename})
			continue
		}
		if f.RenameTo != "" {
			rename = f
		}
		picked = append(picked, f)
		out = append(out, Choice{Fix: f, Outcome: Applied})
	}
	return out
}

func TestSelectAsByScan(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := range 3000 {
		n := 1 + rng.Intn(12)
		span := 1 + rng.Intn(30)
		var fixes []*diag.Fix
		for range n {
			f := &diag.Fix{}
			if rng.Intn(8) == 0 {
				f.RenameTo = []string{"a", "b"}[rng.Intn(2)]
			}
			for range rng.Intn(4) {
				e := diag.TextEdit{Offset: rng.Intn(span), Length: rng.Intn(4) * rng.Intn(2), NewText: []string{"", "x", "y"}[rng.Intn(3)]}
				f.Edits = append(f.Edits, e)
			}
			if rng.Intn(5) == 0 && len(fixes) > 0 { // a copy of an earlier fix
				g := fixes[rng.Intn(len(fixes))]
				f = &diag.Fix{RenameTo: g.RenameTo, Edits: append([]diag.TextEdit(nil), g.Edits...)}
				rng.Shuffle(len(f.Edits), func(i, j int) { f.Edits[i], f.Edits[j] = f.Edits[j], f.Edits[i] })
			}
			fixes = append(fixes, f)
		}
		got, want := Select(fixes), selectByScan(fixes)
		if show(fixes, got) != show(fixes, want) {
			t.Fatalf("round %d: Select\n%s\nscan\n%s", round, show(fixes, got), show(fixes, want))
		}
	}
}

func show(fixes []*diag.Fix, cs []Choice) string {
	ix := map[*diag.Fix]int{}
	for i, f := range fixes {
		ix[f] = i
	}
	var sb strings.Builder
	for _, c := range cs {
		w := -1
		if c.With != nil {
			w = ix[c.With]
		}
		fmt.Fprintf(&sb, "%d %v %d %v\n", ix[c.Fix], c.Outcome, w, c.Fix.Edits)
	}
	return sb.String()
}

// commentFixes returns n fixes each removing one line of its own, as RL007
// offers for n unused suppressions.
func commentFixes(n int) []*diag.Fix {
	fixes := make([]*diag.Fix, n)
	for i := range fixes {
		fixes[i] = &diag.Fix{Edits: []diag.TextEdit{{Offset: 40 * i, Length: 40}}}
	}
	return fixes
}

func benchmarkSelect(b *testing.B, n int) {
	fixes := commentFixes(n)
	for b.Loop() {
		Select(fixes)
	}
}

func BenchmarkSelect5k(b *testing.B)  { benchmarkSelect(b, 5000) }
func BenchmarkSelect20k(b *testing.B) { benchmarkSelect(b, 20000) }
