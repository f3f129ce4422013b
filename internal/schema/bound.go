package schema

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxProblems bounds what one document hands to CUE: CUE's validation
// costs time quadratic in the number of errors it collects (each is
// compared with every earlier one), so a file with 100,000 wrong entries
// would take minutes. The compiled checker finds the offending places in
// linear time; CUE sees at most this many of them, and one violation says
// how many more there are.
const MaxProblems = 100

// bounder walks a document along its checker, counting the places the
// checker rejects, and past the budget drops what remains to be rejected:
// mapping entries other than required fields, and the tail of a list from
// the first offending item on. Paths to what is kept do not change (list
// items are only cut at the end), so violations still point at the
// document's own nodes.
type bounder struct {
	left    int        // problems CUE may still see
	dropped int        // offending places dropped
	first   *yaml.Node // the first of them
	path    []string   // its data path

	// items: every place dropped is an item of one list (its path, the
	// list node) of one kind that list does not take: one root cause,
	// which absorb folds into the finding about the items CUE saw.
	items    bool
	list     *yaml.Node
	listPath []string
	kind     kinds
}

func (b *bounder) drop(n *yaml.Node, path []string) {
	if b.first == nil {
		b.first = n
		b.path = append([]string(nil), path...)
	}
	b.dropped++
	b.items = false
}

// dropItem is drop for item n of list (at path), which elem checks.
func (b *bounder) dropItem(list, n *yaml.Node, path []string, j int, elem *checker) {
	_, sc := classify(n)
	same := b.dropped == 0 || (b.items && b.list == list && b.kind == sc.kind)
	b.drop(n, append(path[:len(path):len(path)], itoa(j)))
	if same && elem.mask&sc.kind == 0 {
		b.items, b.list, b.listPath, b.kind = true, list, path, sc.kind
	}
}

// trim returns n, or a copy of the collections on the way to what it drops.
func (b *bounder) trim(c *checker, n *yaml.Node, path []string, depth int) *yaml.Node {
	if c == nil || depth > maxDepth || c.accepts(n, depth) {
		return n
	}
	r, sc := classify(n)
	var a *checker
	if sc.kind == kStruct || sc.kind == kList {
		a = c.arm(sc.kind)
	}
	if a == nil && sc.kind == kStruct {
		a = structArmFor(c, r)
	}
	if a == nil || (a.op == opList && (sc.kind != kList || a.elem == nil)) || (a.op == opStruct && sc.kind != kStruct) {
		b.left-- // one place, one problem
		return n
	}
	var out []*yaml.Node // the copied content, once something is dropped
	switch a.op {
	case opList:
		out = b.trimList(a, r, path, depth)
	case opStruct:
		out = b.trimStruct(a, r, path, depth)
	}
	if out == nil {
		return n
	}
	cp := *r
	cp.Alias = nil
	cp.Content = out
	return &cp
}

// trimList is trim over a list's items: nil when it keeps every item.
func (b *bounder) trimList(a *checker, r *yaml.Node, path []string, depth int) []*yaml.Node {
	var out []*yaml.Node
	for i, e := range r.Content {
		sub := append(path[:len(path):len(path)], itoa(i))
		if b.left <= 0 {
			// Cut the list here: count what is left to reject.
			for j := i; j < len(r.Content); j++ {
				if !a.elem.accepts(r.Content[j], depth+1) {
					b.dropItem(r, r.Content[j], path, j, a.elem)
				}
			}
			if out == nil {
				out = prefix(r.Content, i)
			}
			break
		}
		t := b.trim(a.elem, e, sub, depth+1)
		if t != e && out == nil {
			out = prefix(r.Content, i)
		}
		if out != nil {
			out = append(out, t)
		}
	}
	return out
}

// trimStruct is trim over a mapping's entries: nil when it keeps every
// entry.
func (b *bounder) trimStruct(a *checker, r *yaml.Node, path []string, depth int) []*yaml.Node {
	var out []*yaml.Node
	var seen uint64
	for i := 0; i+1 < len(r.Content); i += 2 {
		k, v := r.Content[i], r.Content[i+1]
		sub := append(path[:len(path):len(path)], k.Value)
		var vc *checker
		required := false
		matches := 0
		if idx, ok := a.fields[k.Value]; ok {
			seen |= 1 << idx
			vc, matches = a.vals[idx], 1
			required = a.reqMask&(1<<idx) != 0
		}
		for _, p := range a.patterns {
			if p.key.acceptsScalar(scalar{kind: kString, s: k.Value}) {
				vc = p.val
				matches++
			}
		}
		t := v
		switch {
		case matches == 0:
			if !a.open {
				b.left-- // an unknown key (the unknown-key walk takes most)
			}
		case matches > 1:
			// A field and a pattern both apply: CUE decides, as one place.
			if !vc.accepts(v, depth+1) {
				b.left--
			}
		case b.left <= 0 && !required:
			if !vc.accepts(v, depth+1) {
				b.drop(k, sub)
				if out == nil {
					out = prefix(r.Content, i)
				}
				continue
			}
		default:
			t = b.trim(vc, v, sub, depth+1)
		}
		if t != v && out == nil {
			out = prefix(r.Content, i)
		}
		if out != nil {
			out = append(out, k, t)
		}
	}
	if seen&a.reqMask != a.reqMask {
		b.left-- // missing required keys: one violation
	}
	return out
}

// structArmFor picks, of a disjunction with several arms that take a
// mapping (a checkpoint's two forms), the one whose fields name the most
// of m's keys: without an arm nothing would be bounded, and CUE's error
// collection is quadratic. Nil on a tie or without such a disjunction.
func structArmFor(c *checker, m *yaml.Node) *checker {
	if c.op != opOr {
		return nil
	}
	var best *checker
	most, tie := 0, false
	for _, s := range c.subs {
		if s.mask&kStruct == 0 {
			continue
		}
		a := s.arm(kStruct)
		if a == nil || a.op != opStruct {
			continue
		}
		n := 0
		for i := 0; i+1 < len(m.Content); i += 2 {
			if _, ok := a.fields[m.Content[i].Value]; ok {
				n++
			}
		}
		switch {
		case n > most:
			best, most, tie = a, n, false
		case n == most:
			tie = true
		}
	}
	if tie || most == 0 {
		return nil
	}
	return best
}

// prefix copies the first i entries into a new slice with room for the
// rest: never nil, so a change at entry 0 is still seen as a change.
func prefix(content []*yaml.Node, i int) []*yaml.Node {
	return append(make([]*yaml.Node, 0, len(content)), content[:i]...)
}

// moreMessage words the places past the budget that are not folded into
// another finding.
func (b *bounder) moreMessage(where string) string {
	msg := itoa(b.dropped) + " more places break the schema from here on; they are not reported one by one (at most " + itoa(MaxProblems) + " problems per file are)"
	if where != "" {
		msg = where + ": " + msg
	}
	return msg
}

// absorb folds the dropped items of one wrong kind into the finding that
// already counts the items of that kind CUE saw ("list: 100 items:
// expected …, found an integer" becomes "list: 100000 items: …"), so a
// list of the same wrong item is one finding however long. vs are the
// violations after collapseItems; more is the "more places" violation's
// message.
func (b *bounder) absorb(vs []Violation, more string, opt Options) []Violation {
	if b.dropped == 0 || !b.items {
		return vs
	}
	seen := 0 // items of the kind before the cut: those CUE saw
	for _, e := range b.list.Content {
		if e == b.first {
			break
		}
		if _, sc := classify(e); sc.kind == b.kind {
			seen++
		}
	}
	head := DisplayPath(opt.Prefix, b.listPath) + ": " + itoa(seen) + " items: "
	at, group := -1, -1
	for i, v := range vs {
		switch {
		case v.Message == more && v.Node == b.first:
			at = i
		case seen > 1 && strings.HasPrefix(v.Message, head) && slices.Equal(v.Path, b.listPath):
			group = i
		}
	}
	if at < 0 || group < 0 {
		return vs
	}
	vs[group].Message = DisplayPath(opt.Prefix, b.listPath) + ": " + itoa(seen+b.dropped) + " items: " + strings.TrimPrefix(vs[group].Message, head)
	return slices.Delete(vs, at, at+1)
}
