package schema

import (
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
}

func (b *bounder) drop(n *yaml.Node, path []string) {
	if b.first == nil {
		b.first = n
		b.path = append([]string(nil), path...)
	}
	b.dropped++
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
	if a == nil || (a.op == opList && (sc.kind != kList || a.elem == nil)) || (a.op == opStruct && sc.kind != kStruct) {
		b.left-- // one place, one problem
		return n
	}
	var out []*yaml.Node // the copied content, once something is dropped
	switch a.op {
	case opList:
		for i, e := range r.Content {
			sub := append(path[:len(path):len(path)], itoa(i))
			if b.left <= 0 {
				// Cut the list here: count what is left to reject.
				for j := i; j < len(r.Content); j++ {
					if !a.elem.accepts(r.Content[j], depth+1) {
						b.drop(r.Content[j], append(path[:len(path):len(path)], itoa(j)))
					}
				}
				if out == nil {
					out = append([]*yaml.Node(nil), r.Content[:i]...)
				}
				break
			}
			t := b.trim(a.elem, e, sub, depth+1)
			if t != e && out == nil {
				out = append([]*yaml.Node(nil), r.Content[:i]...)
			}
			if out != nil {
				out = append(out, t)
			}
		}
	case opStruct:
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
						out = append([]*yaml.Node(nil), r.Content[:i]...)
					}
					continue
				}
			default:
				t = b.trim(vc, v, sub, depth+1)
			}
			if t != v && out == nil {
				out = append([]*yaml.Node(nil), r.Content[:i]...)
			}
			if out != nil {
				out = append(out, k, t)
			}
		}
		if seen&a.reqMask != a.reqMask {
			b.left-- // missing required keys: one violation
		}
	}
	if out == nil {
		return n
	}
	cp := *r
	cp.Alias = nil
	cp.Content = out
	return &cp
}
