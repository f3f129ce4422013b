package schema

import "go.yaml.in/yaml/v3"

// CUE finds a field of a struct, or an item of a list, by scanning the
// ones it already holds, so unifying a collection of n entries costs n²
// (cue v0.17, adt.nodeContext.getArc): a document rejected for one
// missing key at its root, holding a list of 100,000 valid entries, took
// 20 s and 1.7 GiB. What the fast checker accepts has nothing to say to
// CUE, so thin hands CUE a smaller collection in its place, one the same
// checker accepts: an empty list, or a mapping without the entries a
// pattern or an open struct admits. Paths to everything else stay as
// they are, and no violation is ever inside what is thinned.

// thinMin is the size from which a collection is thinned.
const thinMin = 16

// thin returns n, or a copy of the collections on the way to the
// collections it thins (of at least thinMin entries).
func thin(c *checker, n *yaml.Node) *yaml.Node {
	t := thinner{min: thinMin}
	return t.thin(c, n, 0)
}

// thinner is one thinning walk; min is the size from which a collection
// is thinned (tests thin every one).
type thinner struct{ min int }

// thin returns n, or a copy of the collections on the way to those it
// thins. It descends only where the data's kind selects one arm of the
// checker: under a disjunction with several arms of the kind, CUE words
// each arm's errors, and an arm may reject what another accepts.
func (t thinner) thin(c *checker, n *yaml.Node, depth int) *yaml.Node {
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
	var out []*yaml.Node
	switch {
	case a.op == opList && sc.kind == kList && a.elem != nil:
		out = t.items(a.elem, r, accepted, depth)
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
	return &cp
}

// items is thin over the items of list r, each checked by elem: nil
// when it keeps every item as it is. In a list elem rejects, the items
// after the last rejected one are left out: the paths of the others stay.
func (t thinner) items(elem *checker, r *yaml.Node, accepted bool, depth int) []*yaml.Node {
	end := len(r.Content)
	if !accepted && end >= t.min {
		for end > 0 && elem.accepts(r.Content[end-1], depth+1) {
			end--
		}
	}
	var out []*yaml.Node
	if end < len(r.Content) {
		out = prefix(r.Content, 0)
	}
	for i, e := range r.Content[:end] {
		if te := t.thin(elem, e, depth+1); te != e || out != nil {
			if out == nil {
				out = prefix(r.Content, i)
			}
			out = append(out, te)
		}
	}
	return out
}

// entries is thin over the entries of mapping r, which struct a
// checks: nil when it keeps every entry as it is. In a large mapping
// without a repeated key, the entries a pattern or an open struct admits
// and the value's checker accepts are left out: a mapping's other entries
// keep their paths.
func (t thinner) entries(a *checker, r *yaml.Node, accepted bool, depth int) []*yaml.Node {
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
