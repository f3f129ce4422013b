// Package fix computes and applies fixes: byte-range text edits derived
// from the parsed nodes' positions (the model of go/analysis TextEdit), never
// a re-serialisation of the document, so comments, key order, quoting,
// blank lines and indentation of everything untouched stay byte-identical.
//
// A fix is applied only when the result still parses and keeps every scalar
// of the original (Verify); files are written atomically (WriteFile).
package fix

import (
	"fmt"
	"sort"

	"github.com/resumelint/resumelint/internal/diag"
)

// Apply returns data with edits applied. Edits may come in any order; they
// must lie inside data and must not overlap (an insertion at the start of
// a replaced range is allowed and goes first).
func Apply(data []byte, edits []diag.TextEdit) ([]byte, error) {
	es := sorted(edits)
	size := len(data)
	for i, e := range es {
		if e.Offset < 0 || e.Length < 0 || e.Offset+e.Length > len(data) {
			return nil, fmt.Errorf("edit at offset %d (length %d) lies outside the file (%d bytes)", e.Offset, e.Length, len(data))
		}
		if i > 0 && overlap(es[i-1], e) {
			return nil, fmt.Errorf("edits at offsets %d and %d overlap", es[i-1].Offset, e.Offset)
		}
		size += len(e.NewText) - e.Length
	}
	out := make([]byte, 0, size)
	last := 0
	for _, e := range es {
		out = append(out, data[last:e.Offset]...)
		out = append(out, e.NewText...)
		last = e.Offset + e.Length
	}
	return append(out, data[last:]...), nil
}

// sorted orders edits by offset, insertions before a replacement at the
// same offset, keeping the given order otherwise.
func sorted(edits []diag.TextEdit) []diag.TextEdit {
	es := append([]diag.TextEdit(nil), edits...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Offset != es[j].Offset {
			return es[i].Offset < es[j].Offset
		}
		return es[i].Length == 0 && es[j].Length > 0
	})
	return es
}

// overlap reports whether two edits touch the same bytes, or are two
// insertions at one offset (whose order would be a guess). a starts at or
// before b.
func overlap(a, b diag.TextEdit) bool {
	if a.Offset > b.Offset {
		a, b = b, a
	}
	if a.Length == 0 && b.Length == 0 {
		return a.Offset == b.Offset
	}
	if a.Length == 0 {
		return false // an insertion at or before b's start
	}
	return a.Offset+a.Length > b.Offset
}

// Overlaps reports whether any edit of a conflicts with any edit of b.
func Overlaps(a, b []diag.TextEdit) bool {
	for _, x := range a {
		for _, y := range b {
			if overlap(x, y) && !same(x, y) {
				return true
			}
		}
	}
	return false
}

func same(a, b diag.TextEdit) bool {
	return a.Offset == b.Offset && a.Length == b.Length && a.NewText == b.NewText
}

// Equal reports whether two fixes make the same change.
func Equal(a, b *diag.Fix) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.RenameTo != b.RenameTo || len(a.Edits) != len(b.Edits) {
		return false
	}
	ea, eb := sorted(a.Edits), sorted(b.Edits)
	for i := range ea {
		if !same(ea[i], eb[i]) {
			return false
		}
	}
	return true
}

// Outcome says what became of one fix offered for a file.
type Outcome int

const (
	Applied   Outcome = iota // chosen
	Duplicate                // the same change as a fix chosen before it
	Conflict                 // overlaps a fix chosen before it
)

// Choice is the fate of one fix; With is the fix it duplicates or
// conflicts with.
type Choice struct {
	Fix     *diag.Fix
	Outcome Outcome
	With    *diag.Fix
}

// Select picks, in order, the fixes of one file that can be applied
// together: a fix that overlaps one picked before it is a Conflict (it may
// apply on a later pass, once the text it targets is settled), a fix equal
// to one picked before is a Duplicate. Only one rename is picked.
func Select(fixes []*diag.Fix) []Choice {
	out := make([]Choice, 0, len(fixes))
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

// selfOverlap reports a fix whose own edits overlap (a broken fix).
func selfOverlap(edits []diag.TextEdit) bool {
	es := sorted(edits)
	for i := 1; i < len(es); i++ {
		if overlap(es[i-1], es[i]) {
			return true
		}
	}
	return false
}

// Edits gathers the edits of several fixes.
func Edits(fixes []*diag.Fix) []diag.TextEdit {
	var out []diag.TextEdit
	for _, f := range fixes {
		out = append(out, f.Edits...)
	}
	return out
}

// Drops gathers the declared drops of several fixes.
func Drops(fixes []*diag.Fix) []string {
	var out []string
	for _, f := range fixes {
		out = append(out, f.Drops...)
	}
	return out
}

// editList builds the edits of one fix; insertions at one offset are
// merged in the order they are added, found through ins (a fix numbering
// 100,000 entries must not scan its edits for each).
type editList struct {
	list []diag.TextEdit
	ins  map[int]int // offset -> index in list of the insertion there
}

func (e *editList) replace(start, end int, text string) {
	e.list = append(e.list, diag.TextEdit{Offset: start, Length: end - start, NewText: text})
}

func (e *editList) insert(at int, text string) {
	if i, ok := e.ins[at]; ok {
		e.list[i].NewText += text
		return
	}
	if e.ins == nil {
		e.ins = map[int]int{}
	}
	e.ins[at] = len(e.list)
	e.list = append(e.list, diag.TextEdit{Offset: at, NewText: text})
}
