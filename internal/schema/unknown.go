package schema

import (
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/node"
)

// Unknown keys are not schema violations a reader trips over (SPEC §0):
// they are found here, in Go, before CUE sees the document, reported once
// per mapping by their own rule (RL010), and removed from what CUE
// validates, so they cost nothing there and hide no other error.

// UnknownKeys is one mapping's keys that no field of the schema names.
type UnknownKeys struct {
	Path    []string   // the mapping's data path, relative to the validated root
	Mapping *yaml.Node // the mapping
	Key     *yaml.Node // the mapping's own key in its parent, nil at the root or in a list
	Keys    []*yaml.Node
	Known   []string // the field names the schema has there, for suggestions
}

// Result is a document's schema check: violations a reader trips over, and
// unknown keys.
type Result struct {
	Violations []Violation
	Unknown    []UnknownKeys
}

// Check validates root against the named definition, with unknown keys
// reported apart from the violations and kept out of CUE.
//
// A document the fast checker accepts never reaches the CUE runtime: the
// schema is compiled (Def) only for one it cannot prove valid.
func Check(def string, root *yaml.Node, opt Options) (Result, error) {
	fast := fastChecker(def)
	w := &unknownWalk{ancestors: map[string]bool{}, drop: map[dropKey]bool{}}
	// The path is a stack: room for the usual depth saves a copy per level.
	w.walk(fast, root, nil, make([]string, 0, 16), 0)
	res := Result{Unknown: w.sets}
	rest := root
	if len(w.drop) > 0 {
		rest = w.prune(root, make([]string, 0, 16))
	}
	if fast.accepts(rest, 0) {
		return res, nil
	}
	d, err := Def(def)
	if err != nil {
		return Result{}, err
	}
	b := &bounder{left: MaxProblems}
	rest = b.trim(fast, rest, nil, 0)
	vopt := opt
	rest, vopt.thinned = thin(fast, rest)
	vs, err := validateNarrowed(d, fast, rest, vopt)
	if err != nil {
		return Result{}, err
	}
	more := b.moreMessage(DisplayPath(opt.Prefix, b.path))
	if b.dropped > 0 {
		vs = append(vs, Violation{Node: b.first, Path: b.path, Message: more})
	}
	for _, v := range vs {
		if v.unknown {
			res.addUnknown(root, v)
			continue
		}
		res.Violations = append(res.Violations, v)
	}
	res.Violations = b.absorb(collapseItems(res.Violations, root, opt), more, opt)
	res.absorbMisspellings(opt)
	sort.SliceStable(res.Unknown, func(i, j int) bool { return before(res.Unknown[i].Keys[0], res.Unknown[j].Keys[0]) })
	return res, nil
}

func before(a, b *yaml.Node) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// addUnknown files an unknown key CUE found (where the compiled checker
// could not tell) under its mapping.
func (r *Result) addUnknown(root *yaml.Node, v Violation) {
	if v.Key == nil || len(v.Path) == 0 {
		return
	}
	parent := v.Path[:len(v.Path)-1]
	for i := range r.Unknown {
		if strings.Join(r.Unknown[i].Path, "\x00") == strings.Join(parent, "\x00") {
			r.Unknown[i].Keys = append(r.Unknown[i].Keys, v.Key)
			return
		}
	}
	m, key, _ := node.Lookup(root, parent)
	r.Unknown = append(r.Unknown, UnknownKeys{Path: append([]string(nil), parent...), Mapping: m, Key: key, Keys: []*yaml.Node{v.Key}})
}

// absorbMisspellings folds the unknown keys of a mapping that lacks
// required keys into that one violation: the mapping is written in another
// shape (or a key is misspelled), one cause, one finding.
func (r *Result) absorbMisspellings(opt Options) {
	for vi := range r.Violations {
		v := &r.Violations[vi]
		if len(v.Missing) == 0 {
			continue
		}
		for ui := range r.Unknown {
			u := &r.Unknown[ui]
			if strings.Join(u.Path, "\x00") != strings.Join(v.Path, "\x00") {
				continue
			}
			keys, allowed := u.Keys, []*yaml.Node(nil)
			if opt.Allowed != nil {
				keys, allowed = splitAllowed(u, opt)
				if len(keys) == 0 {
					continue
				}
			}
			var names []string
			hint := ""
			total := len(keys)
			for i, k := range keys {
				if len(names) < 6 {
					names = append(names, k.Value)
				}
				if i >= 1000 || hint != "" {
					continue // a mapping of 100,000 unknown keys is not a typo
				}
				if s := Suggest(k.Value, v.Missing); s != "" {
					hint = " (" + k.Value + " → " + s + "?)"
				}
			}
			list := func(n int) string {
				if n > len(names) {
					n = len(names)
				}
				if total <= n {
					return strings.Join(names[:total], ", ")
				}
				return strings.Join(names[:n], ", ") + " and " + itoa(total-n) + " more"
			}
			render := func(n int) string {
				return missingMessage(v.where, v.Missing, n) + "; unknown " + plural(total, "key") + " " + list(n) + hint
			}
			v.Message = diag.Fit(5, render)
			if len([]rune(v.Message)) > diag.MaxMessage {
				v.Message = strings.Replace(render(1), "missing required ", "missing ", 1)
			}
			u.Keys = allowed // RL010 leaves them out
		}
	}
	kept := r.Unknown[:0]
	for _, u := range r.Unknown {
		if len(u.Keys) > 0 {
			kept = append(kept, u)
		}
	}
	r.Unknown = kept
}

// splitAllowed parts a mapping's unknown keys into those configuration
// does not allow and those it does.
func splitAllowed(u *UnknownKeys, opt Options) (keys, allowed []*yaml.Node) {
	where := DisplayPath(opt.Prefix, u.Path)
	for _, k := range u.Keys {
		full := k.Value
		if where != "" {
			full = where + "." + k.Value
		}
		if opt.Allowed(k.Value, full) {
			allowed = append(allowed, k)
		} else {
			keys = append(keys, k)
		}
	}
	return keys, allowed
}

// unknownWalk follows a document along a compiled checker and collects the
// keys of closed structs that no field or pattern takes.
//
// A node reached through an alias sits at several paths, and a key unknown
// at one of them may be known (and wrong) at another: what is dropped and
// what lies on the way to it are recorded by path, never by node alone.
type unknownWalk struct {
	sets      []UnknownKeys
	setIndex  map[string]int   // a mapping's path (joined) -> its entry in sets
	drop      map[dropKey]bool // unknown keys, each at its mapping's path
	ancestors map[string]bool  // paths (joined) of collections on the way to one
}

// dropKey is an unknown key node in the mapping at a path (joined).
type dropKey struct {
	path string
	key  *yaml.Node
}

func joinPath(path []string) string { return strings.Join(path, "\x00") }

// walk returns whether an unknown key was found at or below n.
func (w *unknownWalk) walk(c *checker, n *yaml.Node, key *yaml.Node, path []string, depth int) bool {
	if c == nil || depth > maxDepth {
		return false
	}
	r, sc := classify(n)
	if sc.kind != kStruct && sc.kind != kList {
		return false
	}
	c = c.arm(sc.kind)
	if c == nil {
		return false
	}
	found := false
	switch {
	case sc.kind == kList && c.op == opList && c.elem != nil:
		for i, e := range r.Content {
			if w.walk(c.elem, e, nil, append(path, itoa(i)), depth+1) {
				found = true
			}
		}
	case sc.kind == kStruct && c.op == opStruct:
		w.entries(c, r, key, path, depth, &found, 0)
	}
	if found {
		w.ancestors[joinPath(path)] = true
	}
	return found
}

// entries walks one mapping's entries, following merge keys as ToValue does.
func (w *unknownWalk) entries(c *checker, m, key *yaml.Node, path []string, depth int, found *bool, merges int) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Value == "<<" && k.ShortTag() == "!!merge" {
			if mv := node.Resolve(v); mv != nil && mv.Kind == yaml.MappingNode && merges < 32 {
				// The merged mapping's keys are the mapping's own, at its
				// path: prune follows the merge at the same path.
				w.entries(c, mv, key, path, depth, found, merges+1)
			}
			continue
		}
		// path is a stack: what keeps a path copies it (sets).
		sub := append(path, k.Value)
		known := false
		if idx, ok := c.fields[k.Value]; ok {
			known = true
			if w.walk(c.vals[idx], v, k, sub, depth+1) {
				*found = true
			}
		}
		for _, p := range c.patterns {
			if p.key.acceptsScalar(scalar{kind: kString, s: k.Value}) {
				known = true
				if w.walk(p.val, v, k, sub, depth+1) {
					*found = true
				}
			}
		}
		if known || c.open {
			continue
		}
		// Found by path each time: walking values may grow (and move) w.sets.
		at := joinPath(path)
		s := w.setAt(at)
		if s == nil {
			if w.setIndex == nil {
				w.setIndex = map[string]int{}
			}
			w.setIndex[at] = len(w.sets)
			w.sets = append(w.sets, UnknownKeys{Path: append([]string(nil), path...), Mapping: m, Key: key, Known: c.names})
			s = &w.sets[len(w.sets)-1]
		}
		s.Keys = append(s.Keys, k)
		w.drop[dropKey{at, k}] = true
		*found = true
	}
}

func (w *unknownWalk) setAt(at string) *UnknownKeys {
	if i, ok := w.setIndex[at]; ok {
		return &w.sets[i]
	}
	return nil
}

// arm picks the part of a checker that applies to data of kind k: itself,
// or the single arm of a disjunction or conjunction that admits k. Nil when
// that is ambiguous or not understood (CUE then decides).
func (c *checker) arm(k kinds) *checker {
	for range maxDepth {
		switch c.op {
		case opStruct, opList:
			return c
		case opAnd, opOr:
			if c = c.onlyArm(k); c == nil {
				return nil
			}
		default:
			return nil
		}
	}
	return nil
}

// prune returns n, at path, without the unknown keys found at their paths,
// copying only the collections on the way to one; everything else is
// shared, so violations still point at the document's own nodes. A node
// an alias reaches at two paths is copied apart for each path that drops
// keys, so a key unknown at one stays, and is validated, at the other.
// The walk that recorded the paths was bounded in depth, so this is too.
func (w *unknownWalk) prune(n *yaml.Node, path []string) *yaml.Node {
	r := node.Resolve(n)
	if r == nil || (r.Kind != yaml.MappingNode && r.Kind != yaml.SequenceNode) {
		return n
	}
	at := joinPath(path)
	if !w.ancestors[at] {
		return n
	}
	cp := *r
	cp.Alias = nil
	cp.Content = make([]*yaml.Node, 0, len(r.Content))
	if r.Kind == yaml.SequenceNode {
		for i, e := range r.Content {
			cp.Content = append(cp.Content, w.prune(e, append(path, itoa(i))))
		}
		return &cp
	}
	for i := 0; i+1 < len(r.Content); i += 2 {
		k, v := r.Content[i], r.Content[i+1]
		switch {
		case w.drop[dropKey{at, k}]:
			continue
		case k.Value == "<<" && k.ShortTag() == "!!merge" && node.IsMap(v):
			cp.Content = append(cp.Content, k, w.prune(v, path)) // merged at this path
		default:
			cp.Content = append(cp.Content, k, w.prune(v, append(path, k.Value)))
		}
	}
	return &cp
}

// collapseItems turns the same violation at the same place in two or more
// items of one list ("expected a string, found a mapping" at each item, or
// an id of the wrong form in each entry) into one finding: a list written
// in one wrong shape is one root cause.
func collapseItems(vs []Violation, root *yaml.Node, opt Options) []Violation {
	type group struct {
		list, rest []string
		idx        []int
	}
	var order []string
	groups := map[string]*group{}
	for i, v := range vs {
		at := lastIndex(v.Path)
		if at < 0 || len(v.Missing) > 0 || v.Key != nil {
			continue
		}
		list, rest := v.Path[:at], v.Path[at+1:]
		k := strings.Join(list, "\x00") + "\x01" + strings.Join(rest, "\x00") + "\x01" + withoutValue(stripWhere(v))
		g := groups[k]
		if g == nil {
			g = &group{list: list, rest: rest}
			groups[k] = g
			order = append(order, k)
		}
		g.idx = append(g.idx, i)
	}
	drop := map[int]bool{}
	for _, k := range order {
		g := groups[k]
		if len(g.idx) < 2 {
			continue
		}
		first := vs[g.idx[0]]
		n := first.Node
		what := withoutFoundValue(stripWhere(first))
		msg := DisplayPath(opt.Prefix, g.list) + ": " + itoa(len(g.idx)) + " items: " + what
		if len(g.rest) == 0 {
			// The items themselves: point at the list.
			ln, key, _ := node.Lookup(root, g.list)
			if key != nil {
				n = key
			} else if ln != nil {
				n = ln
			}
		} else {
			msg = DisplayPath(opt.Prefix, g.list) + ": " + strings.Join(g.rest, ".") + " of " + itoa(len(g.idx)) + " items: " + what + ", and so on"
		}
		vs[g.idx[0]] = Violation{Node: n, Path: append([]string(nil), g.list...), Message: msg}
		for _, i := range g.idx[1:] {
			drop[i] = true
		}
	}
	if len(drop) == 0 {
		return vs
	}
	out := vs[:0]
	for i, v := range vs {
		if !drop[i] {
			out = append(out, v)
		}
	}
	return out
}

// lastIndex returns the position of the last list index in a path, -1 if none.
func lastIndex(p []string) int {
	for i := len(p) - 1; i >= 0; i-- {
		if isIndex(p[i]) {
			return i
		}
	}
	return -1
}

// withoutValue drops a leading quoted or numeric value from a message, so
// the same violation of different values compares equal.
func withoutValue(msg string) string {
	if msg == "" {
		return msg
	}
	if msg[0] == '"' {
		for i := 1; i < len(msg); i++ {
			if msg[i] == '\\' {
				i++
				continue
			}
			if msg[i] == '"' {
				return msg[i+1:]
			}
		}
		return msg
	}
	if (msg[0] >= '0' && msg[0] <= '9') || msg[0] == '-' {
		if i := strings.IndexByte(msg, ' '); i > 0 {
			return msg[i:]
		}
	}
	return withoutFoundValue(msg)
}

// foundValue is the value a type mismatch quotes after its kind, with the
// quoting hint that repeats it ("expected a number, found a string
// "0.91"").
var foundValue = lazyre.New(`(, found (?:a|an) [a-z]+) (?:"(?:[^"\\]|\\.)*"|\S+)(?: \(write it in quotes: "(?:[^"\\]|\\.)*"\))?$`)

// withoutFoundValue drops the value a type mismatch quotes, so the same
// mismatch of different items reads as one.
func withoutFoundValue(msg string) string {
	if !strings.Contains(msg, ", found ") {
		return msg
	}
	return foundValue.ReplaceAllString(msg, "$1")
}

// stripWhere returns a violation's message without its leading data path.
func stripWhere(v Violation) string {
	if i := strings.Index(v.Message, ": "); i >= 0 {
		return v.Message[i+2:]
	}
	return v.Message
}

// Suggest returns the candidate closest to name when it is a near miss (a
// small edit distance, or one extends the other by a word), else "".
func Suggest(name string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(name, c)
		// Short keys are a letter apart by chance (date, gate).
		ok := min(len(name), len(c)) >= 6 && d <= max(1, min(len(name), len(c))/4)
		if !ok && (strings.HasPrefix(c, name+"_") || strings.HasPrefix(name, c+"_")) {
			ok = true
		}
		if ok && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of two short keys.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return max(len(a), len(b))
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func itoa(i int) string { return strconv.Itoa(i) }
