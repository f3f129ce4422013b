package schema

import (
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/node"
)

// CUE finds a field of a struct, or an item of a list, by scanning the
// ones it already holds, so unifying a collection of n entries costs n²
// (cue v0.17, adt.nodeContext.getArc): a document rejected for one
// missing key at its root, holding a list of 100,000 valid entries, took
// 20 s and 1.7 GiB. What the fast checker accepts has nothing to say to
// CUE, so thin hands CUE a smaller collection in its place, one the same
// checker accepts: an empty list, or a mapping without the entries a
// pattern or an open struct admits. A list the checker rejects keeps only
// the items it rejects, and CUE's paths into it are turned back into the
// items' own (thinned.orig). No violation is ever inside what is left out.

// thinMin is the size from which a collection is thinned.
const thinMin = 16

// thinned is how a document was thinned: the document before (where
// violations are placed) and after (what CUE saw), and the indexes in the
// list before of the items each thinned list kept.
type thinned struct {
	before, after *yaml.Node
	items         map[*yaml.Node][]int
}

// thin returns n, or a copy of the collections on the way to the
// collections it thins (of at least thinMin entries), and how; nil when
// nothing is thinned.
func thin(c *checker, n *yaml.Node) (*yaml.Node, *thinned) {
	t := &thinner{min: thinMin}
	r := t.thin(c, n, 0)
	if r == n {
		return n, nil
	}
	return r, &thinned{before: n, after: r, items: t.items}
}

// whole is the document to place violations in: the one before thinning.
func (th *thinned) whole(root *yaml.Node) *yaml.Node {
	if th == nil {
		return root
	}
	return th.before
}

// orig turns a path in the document CUE saw into the path of the same
// place before thinning: a thinned list's index into the item's own. From
// the first step the document does not have, the path is kept as it is.
func (th *thinned) orig(path []string) []string {
	if th == nil || len(th.items) == 0 {
		return path
	}
	var out []string // a copy, once an index changes
	cur := node.Resolve(th.after)
	for i, sel := range path {
		switch {
		case cur != nil && cur.Kind == yaml.MappingNode:
			k, v := node.Get(cur, sel)
			if k == nil {
				return orCopy(out, path)
			}
			cur = v
		case cur != nil && cur.Kind == yaml.SequenceNode:
			idx, err := strconv.Atoi(sel)
			if err != nil || idx < 0 || idx >= len(cur.Content) {
				return orCopy(out, path)
			}
			if kept, ok := th.items[cur]; ok {
				if out == nil {
					out = append([]string(nil), path...)
				}
				out[i] = strconv.Itoa(kept[idx])
			}
			cur = node.Resolve(cur.Content[idx])
		default:
			return orCopy(out, path)
		}
	}
	return orCopy(out, path)
}

func orCopy(out, path []string) []string {
	if out != nil {
		return out
	}
	return path
}

// thinner is one thinning walk; min is the size from which a collection
// is thinned (tests thin every one), items what thinned lists kept.
type thinner struct {
	min   int
	items map[*yaml.Node][]int
}

// thin returns n, or a copy of the collections on the way to those it
// thins. Into what the checker rejects it descends only where no
// disjunction decides: CUE words the errors of each arm, in an order that
// depends on the data, and an arm may reject what another accepts.
func (t *thinner) thin(c *checker, n *yaml.Node, depth int) *yaml.Node {
	if c == nil || depth > maxDepth {
		return n
	}
	r, sc := classify(n)
	if sc.kind != kStruct && sc.kind != kList {
		return n
	}
	a := c.arm(sc.kind)
	if a == nil {
		return n
	}
	accepted := c.accepts(r, depth)
	if accepted && sc.kind == kList && len(r.Content) >= t.min {
		empty := &yaml.Node{Kind: r.Kind, Style: r.Style, Tag: r.Tag, Line: r.Line, Column: r.Column}
		if c.accepts(empty, depth) {
			return empty
		}
	}
	if !accepted && !partRoot(c) {
		return n // CUE words a disjunction's arms in an order its data sways
	}
	var out []*yaml.Node
	var kept []int
	switch {
	case a.op == opList && sc.kind == kList && a.elem != nil:
		out, kept = t.list(a.elem, r, accepted, depth)
	case a.op == opStruct && sc.kind == kStruct:
		out = t.entries(a, r, accepted, depth)
	}
	if out == nil {
		return n
	}
	cp := *r
	cp.Alias = nil
	cp.Content = out
	if accepted && !c.accepts(&cp, depth) {
		return n
	}
	if kept != nil {
		if t.items == nil {
			t.items = map[*yaml.Node][]int{}
		}
		t.items[&cp] = kept
	}
	return &cp
}

// list is thin over the items of list r, each checked by elem: nil when
// it keeps every item as it is. A large list elem rejects keeps only the
// items elem rejects; kept then holds their indexes in r.
func (t *thinner) list(elem *checker, r *yaml.Node, accepted bool, depth int) (out []*yaml.Node, kept []int) {
	drop := !accepted && len(r.Content) >= t.min
	for i, e := range r.Content {
		if drop && elem.accepts(e, depth+1) {
			if out == nil {
				out = prefix(r.Content, i)
			}
			continue
		}
		if drop {
			kept = append(kept, i)
		}
		te := t.thin(elem, e, depth+1)
		if te != e || out != nil {
			if out == nil {
				out = prefix(r.Content, i)
			}
			out = append(out, te)
		}
	}
	if len(kept) == len(r.Content) {
		kept = nil
	}
	return out, kept
}

// entries is thin over the entries of mapping r, which struct a
// checks: nil when it keeps every entry as it is. In a large mapping
// without a repeated key, the entries a pattern or an open struct admits
// and the value's checker accepts are left out: a mapping's other entries
// keep their paths.
func (t *thinner) entries(a *checker, r *yaml.Node, accepted bool, depth int) []*yaml.Node {
	drop := len(r.Content)/2 >= t.min && !repeatsKey(r)
	var out []*yaml.Node
	for i := 0; i+1 < len(r.Content); i += 2 {
		k, v := r.Content[i], r.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge" {
			return nil // entries ToValue merges: left whole
		}
		_, field := a.fields[k.Value]
		vc := a.entryChecker(k)
		if drop && !field && (accepted || (vc != nil && vc.accepts(v, depth+1)) || (vc == nil && a.open && len(a.patterns) == 0)) {
			if out == nil {
				out = prefix(r.Content, i)
			}
			continue
		}
		tv := v
		if vc != nil {
			tv = t.thin(vc, v, depth+1)
		}
		if tv != v || out != nil {
			if out == nil {
				out = prefix(r.Content, i)
			}
			out = append(out, k, tv)
		}
	}
	return out
}

// repeatsKey reports whether mapping m holds a key twice: which of its
// values ToValue keeps depends on the entries, so none is left out.
func repeatsKey(m *yaml.Node) bool {
	seen := make(map[string]bool, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// entryChecker is the checker of the value at key k of struct c: its
// field's, or the one pattern's that k matches; nil when a field and a
// pattern both apply, or several patterns (CUE unifies them), or none.
func (c *checker) entryChecker(k *yaml.Node) *checker {
	if k.Kind != yaml.ScalarNode {
		return nil
	}
	var vc *checker
	matches := 0
	if idx, ok := c.fields[k.Value]; ok {
		vc, matches = c.vals[idx], 1
	}
	for _, p := range c.patterns {
		if p.key.acceptsScalar(scalar{kind: kString, s: k.Value}) {
			vc = p.val
			matches++
		}
	}
	if matches != 1 {
		return nil
	}
	return vc
}
