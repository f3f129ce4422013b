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
	"math"
	"slices"
	"sort"
	"strings"

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
//
// The fixes picked are looked up by what they change (equalKey) and by
// where (pickedEdits), never compared with each one in turn: a file with
// tens of thousands of fixes (one per unused suppression) is settled in
// time linear in them.
func Select(fixes []*diag.Fix) []Choice {
	out := make([]Choice, 0, len(fixes))
	var picked []*diag.Fix
	byKey := map[string]*diag.Fix{}
	at := newPickedEdits(fixes)
	var rename *diag.Fix
	for _, f := range fixes {
		k := equalKey(f)
		if p := byKey[k]; p != nil {
			out = append(out, Choice{Fix: f, Outcome: Duplicate, With: p})
			continue
		}
		if selfOverlap(f.Edits) {
			out = append(out, Choice{Fix: f, Outcome: Conflict, With: f})
			continue
		}
		if i := at.conflict(f.Edits); i >= 0 {
			out = append(out, Choice{Fix: f, Outcome: Conflict, With: picked[i]})
			continue
		}
		if f.RenameTo != "" && rename != nil {
			out = append(out, Choice{Fix: f, Outcome: Conflict, With: rename})
			continue
		}
		if f.RenameTo != "" {
			rename = f
		}
		byKey[k] = f
		at.add(len(picked), f.Edits)
		picked = append(picked, f)
		out = append(out, Choice{Fix: f, Outcome: Applied})
	}
	return out
}

// equalKey is what Equal compares: two fixes have the same key exactly
// when they make the same change.
func equalKey(f *diag.Fix) string {
	var sb strings.Builder
	sb.WriteString(f.RenameTo)
	for _, e := range sorted(f.Edits) {
		fmt.Fprintf(&sb, "\x00%d,%d,%d:", e.Offset, e.Length, len(e.NewText))
		sb.WriteString(e.NewText)
	}
	return sb.String()
}

// pickedEdits holds the edits of the fixes picked so far by offset, to
// answer "which picked fix does this edit overlap first" (Overlaps, as
// the order of the fixes picked says) without visiting every picked fix.
// Offsets are those of all the fixes offered, numbered in order (pos);
// a segment tree over them gives the least index of a fix picked with an
// edit starting in a range, and the last offset before a point where a
// picked replacement starts.
type pickedEdits struct {
	offs  []int       // the distinct offsets of every edit offered, ascending
	pos   map[int]int // offset -> its index in offs
	lists [][]pickedEdit
	minIx []int  // segment tree: least picked index at the offsets below a node
	repl  []bool // segment tree: a picked replacement starts below a node
	size  int
}

type pickedEdit struct {
	fix  int // index among the picked fixes
	edit diag.TextEdit
}

func newPickedEdits(fixes []*diag.Fix) *pickedEdits {
	var offs []int
	for _, f := range fixes {
		for _, e := range f.Edits {
			offs = append(offs, e.Offset)
		}
	}
	sort.Ints(offs)
	offs = slices.Compact(offs)
	p := &pickedEdits{offs: offs, pos: make(map[int]int, len(offs)), lists: make([][]pickedEdit, len(offs))}
	for i, o := range offs {
		p.pos[o] = i
	}
	p.size = 1
	for p.size < len(offs) {
		p.size *= 2
	}
	p.minIx = make([]int, 2*p.size)
	for i := range p.minIx {
		p.minIx[i] = math.MaxInt
	}
	p.repl = make([]bool, 2*p.size)
	return p
}

func (p *pickedEdits) add(fix int, edits []diag.TextEdit) {
	for _, e := range edits {
		i := p.pos[e.Offset]
		p.lists[i] = append(p.lists[i], pickedEdit{fix: fix, edit: e})
		n := p.size + i
		p.minIx[n] = min(p.minIx[n], fix)
		if e.Length > 0 {
			p.repl[n] = true
		}
		for n /= 2; n > 0; n /= 2 {
			p.minIx[n] = min(p.minIx[2*n], p.minIx[2*n+1])
			p.repl[n] = p.repl[2*n] || p.repl[2*n+1]
		}
	}
}

// rangeMin is the least picked index at the offsets numbered [lo, hi).
func (p *pickedEdits) rangeMin(lo, hi int) int {
	m := math.MaxInt
	for lo, hi = lo+p.size, hi+p.size; lo < hi; lo, hi = lo/2, hi/2 {
		if lo&1 == 1 {
			m = min(m, p.minIx[lo])
			lo++
		}
		if hi&1 == 1 {
			hi--
			m = min(m, p.minIx[hi])
		}
	}
	return m
}

// lastRepl is the greatest index below hi where a picked replacement
// starts, or -1.
func (p *pickedEdits) lastRepl(hi int) int {
	var walk func(n, lo, width int) int
	walk = func(n, lo, width int) int {
		if lo >= hi || !p.repl[n] {
			return -1
		}
		if width == 1 {
			return lo
		}
		if r := walk(2*n+1, lo+width/2, width/2); r >= 0 {
			return r
		}
		return walk(2*n, lo, width/2)
	}
	return walk(1, 0, p.size)
}

// conflict returns the least index of a picked fix one of edits overlaps
// (and is not the same edit as), or -1: what Overlaps(edits, picked[i])
// finds first.
func (p *pickedEdits) conflict(edits []diag.TextEdit) int {
	best := math.MaxInt
	for _, x := range edits {
		i := p.pos[x.Offset]
		// Edits starting where x does.
		for _, y := range p.lists[i] {
			if y.fix < best && overlap(x, y.edit) && !same(x, y.edit) {
				best = y.fix
			}
		}
		// Edits starting inside x: every one overlaps it.
		if x.Length > 0 {
			hi := sort.SearchInts(p.offs, x.Offset+x.Length)
			best = min(best, p.rangeMin(i+1, hi))
		}
		// A replacement starting before x that covers its start: picked
		// replacements do not overlap each other, so only the last one
		// can.
		if j := p.lastRepl(i); j >= 0 {
			for _, y := range p.lists[j] {
				if y.fix < best && overlap(x, y.edit) && !same(x, y.edit) {
					best = y.fix
				}
			}
		}
	}
	if best == math.MaxInt {
		return -1
	}
	return best
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
