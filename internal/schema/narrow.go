package schema

import (
	"slices"

	"cuelang.org/go/cue"
	"go.yaml.in/yaml/v3"
)

// CUE's cost grows with the data it unifies: a document that breaks the
// schema in one place is validated in the parts that fail, each against
// the definition at its path, rather than whole. A mapping is only split
// when everything the whole would say about it holds (its required keys
// are there, every key is a field of its own, none repeats or merges, no
// pattern constrains its fields), and only along one failing field or
// list item: CUE words a disjunction validated alone differently (it
// names the missing keys of each arm), and an item of the wrong kind
// hides the errors of the other items of its list, so neither a
// disjunction nor one of several failing children is ever a part.

// maxNarrow bounds how deep parts are looked for.
const maxNarrow = 16

// validateNarrowed is validateCUE for a document the fast checker
// rejects, run on its failing parts.
func validateNarrowed(d cue.Value, fast *checker, root *yaml.Node, opt Options) ([]Violation, error) {
	// A part holding an alias of a node outside it is not worded as the
	// whole document is (CUE reports fewer of its errors), so a document
	// with aliases, rare in state files, is validated whole.
	if holdsAlias(root) {
		return validateCUE(d, fast, root, opt)
	}
	parts := failingParts(fast, root, nil, 0, nil)
	if len(parts) == 1 && len(parts[0].base) == 0 {
		return validateCUE(d, fast, root, opt)
	}
	var out []Violation
	for _, p := range parts {
		vs, err := validatePart(d, root, p, opt)
		if err == errRebase {
			return validateCUE(d, fast, root, opt)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, vs...)
	}
	sortViolations(out)
	return out, nil
}

// holdsAlias reports whether a tree holds an alias node (aliases are not
// followed: each node is visited once).
func holdsAlias(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if holdsAlias(c) {
			return true
		}
	}
	return false
}

// failingParts appends to out the parts of n (at data path base, checked
// by c) that fail and cannot be split further.
func failingParts(c *checker, n *yaml.Node, base []string, depth int, out []part) []part {
	self := append(out, part{base: base, node: n, c: c})
	if c == nil || depth >= maxNarrow {
		return self
	}
	r, sc := classify(n)
	var child *checker
	var at int
	switch {
	case c.op == opStruct && sc.kind == kStruct && len(c.patterns) == 0:
		var have uint64
		failing := 0
		for i := 0; i+1 < len(r.Content); i += 2 {
			k := r.Content[i]
			idx, ok := c.fields[k.Value]
			if !ok || idx >= 64 || have&(1<<idx) != 0 || k.Kind != yaml.ScalarNode {
				return self // a pattern's key, an unknown, a merge (<<) or a repeat
			}
			have |= 1 << idx
			if !c.vals[idx].accepts(r.Content[i+1], depth+1) {
				failing++
				child, at = c.vals[idx], i
			}
		}
		if c.reqMask&^have != 0 || failing != 1 || !partRoot(child) {
			return self
		}
		return failingParts(child, r.Content[at+1], append(slices.Clone(base), r.Content[at].Value), depth+1, out)
	case c.op == opList && c.elem != nil && sc.kind == kList && partRoot(c.elem):
		failing := 0
		for i, e := range r.Content {
			if !c.elem.accepts(e, depth+1) {
				failing++
				at = i
			}
		}
		if failing != 1 {
			return self
		}
		return failingParts(c.elem, r.Content[at], append(slices.Clone(base), itoa(at)), depth+1, out)
	}
	return self
}

// partRoot reports whether data checked by c can be validated on its own:
// not a disjunction, nor a conjunction holding one.
func partRoot(c *checker) bool {
	switch c.op {
	case opOr, opUnknown:
		return false
	case opAnd:
		for _, s := range c.subs {
			if !partRoot(s) {
				return false
			}
		}
	}
	return true
}
