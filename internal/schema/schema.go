// Package schema embeds the CUE definitions of every kind, compiles them
// once per run, and validates parsed documents against them, mapping each
// violation back to the offending data node.
package schema

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/node"
)

var (
	once     sync.Once
	compiled cue.Value
	loadErr  error
	defCache sync.Map // name -> cue.Value

	// cueStarted records that the CUE runtime compiled the schema (tests
	// check that a valid document never gets here).
	cueStarted atomic.Bool
)

// Compile compiles the embedded definitions (once per process), as one
// CUE instance built from the parsed files. The result is shared
// read-only by all workers; cuelang.org/go documents shared values as safe
// for concurrent use from v0.17.0.
func Compile() error {
	once.Do(func() {
		cueStarted.Store(true)
		compiled, loadErr = compileEmbedded()
	})
	return loadErr
}

// Compiled reports whether this process has started compiling the schema.
func Compiled() bool { return cueStarted.Load() }

// Def returns a compiled definition such as "#ResumptionV2".
func Def(name string) (cue.Value, error) {
	if err := Compile(); err != nil {
		return cue.Value{}, err
	}
	if v, ok := defCache.Load(name); ok {
		return v.(cue.Value), nil
	}
	v := compiled.LookupPath(cue.ParsePath(name))
	if !v.Exists() {
		return cue.Value{}, fmt.Errorf("schema has no definition %s", name)
	}
	defCache.Store(name, v)
	return v, nil
}

// Violation is one schema problem at a data node.
type Violation struct {
	Node    *yaml.Node // the offending node (value, or the mapping for a missing key)
	Key     *yaml.Node // for an unknown key: the key node
	Path    []string   // the data path, relative to the validated root
	Message string
	// Missing names the required keys a mapping lacks (a "missing required
	// keys" violation at the mapping).
	Missing []string

	// collection marks "expected X, found a mapping/list": with a
	// disjunction such as string | {path, priority}, CUE also reports the
	// mapping arm's errors inside the node, and those are the root cause.
	collection bool
	// unknown marks an unknown key: nothing under it is reported again.
	unknown bool
	// where is the displayed path of a "missing required keys" violation.
	where string
}

// missingMessage words a mapping's missing required keys, naming at most n.
func missingMessage(where string, missing []string, n int) string {
	msg := "missing required " + plural(len(missing), "key") + " " + diag.List(missing, n)
	if where != "" {
		msg = where + ": " + msg
	}
	return msg
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// Options tune validation.
type Options struct {
	// Prefix is prepended to paths in messages ("resumption").
	Prefix string
	// Template accepts {PLACEHOLDER} strings wherever a string is expected.
	Template bool
	// Allowed, when set, says whether configuration allows an unknown key
	// (its name, and its display path): such a key is never folded into a
	// mapping's missing-keys violation, so RL010 can leave it out.
	Allowed func(name, path string) bool

	// thinned, when set, is how the document CUE validates was thinned
	// (thin.go): violations are placed and worded in the whole one.
	thinned *thinned
}

// Validate checks root against the named definition. It returns one
// violation per offending node, in document order, unknown keys included
// (one per key): the form for inputs that must be exact, such as the
// configuration. Linted documents use Check, which keeps them apart.
func Validate(def string, root *yaml.Node, opt Options) ([]Violation, error) {
	res, err := Check(def, root, opt)
	if err != nil {
		return nil, err
	}
	out := res.Violations
	for _, u := range res.Unknown {
		parent := DisplayPath(opt.Prefix, u.Path)
		var candidates []string // the known keys the mapping lacks, looked up once
		for i, k := range u.Keys {
			msg := fmt.Sprintf("unknown key %s in %s", diag.QuoteFull(k.Value), parent)
			if parent == "" {
				msg = fmt.Sprintf("unknown key %s at the top level", diag.QuoteFull(k.Value))
			}
			if i == 0 {
				candidates = absentKeys(u.Mapping, u.Known)
			}
			// The same near-miss test as RL010's; bounded as there.
			if i < maxSuggestKeys {
				if s := Suggest(k.Value, candidates); s != "" {
					msg += "; did you mean " + diag.QuoteFull(s) + "?"
				}
			}
			out = append(out, Violation{Node: k, Key: k, Path: append(append([]string(nil), u.Path...), k.Value), Message: msg, unknown: true})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return before(out[i].at(), out[j].at()) })
	return out, nil
}

// maxSuggestKeys bounds the unknown keys of one mapping looked at for a
// misspelling: a mapping of 100,000 unknown keys is not a typo.
const maxSuggestKeys = 1000

// absentKeys returns the known names the mapping does not already hold:
// a key that is present is not what a misspelling meant.
func absentKeys(m *yaml.Node, names []string) []string {
	var out []string
	for _, n := range names {
		if m == nil || !node.Has(m, n) {
			out = append(out, n)
		}
	}
	return out
}

// at is the node a violation is reported at.
func (v Violation) at() *yaml.Node {
	if v.Key != nil {
		return v.Key
	}
	return v.Node
}

// validateCUE validates through CUE, which words every violation. After
// the offending entries are removed, the fast checker (when not nil) may
// prove the rest valid, which saves the CUE pass that would find nothing.
func validateCUE(d cue.Value, fast *checker, root *yaml.Node, opt Options) ([]Violation, error) {
	return validatePart(d, root, part{node: root, c: fast}, opt)
}

// part is a subtree of a document validated on its own (narrow): its
// data path from the root, with real list indexes, and the fast checker
// of the definition there (nil: none).
type part struct {
	base []string
	node *yaml.Node
	c    *checker
}

// errRebase says a CUE error path did not start at the part's path: the
// document is then validated whole.
var errRebase = errors.New("error path outside the validated part")

// validatePart is validateCUE for one part of the document under def:
// CUE sees only the part's data, unified with the definition at its path,
// and reports paths from the definition's root, so every violation is
// placed and worded as a whole-document validation would.
func validatePart(def cue.Value, root *yaml.Node, p part, opt Options) ([]Violation, error) {
	d := def
	if len(p.base) > 0 {
		var ok bool
		if d, ok = lookupData(def, p.base); !ok {
			return nil, errRebase
		}
	}
	data := ToValue(p.node)
	removed := map[string]bool{}
	seen := map[string]bool{}
	var out []Violation
	var firstErr error
	var rest *yaml.Node // the part without the removed entries, while the fast checker can check it
	if p.c != nil {
		rest = p.node
	}
	for pass := 0; pass < 4; pass++ {
		if pass > 0 && rest != nil && p.c.accepts(rest, 0) {
			break
		}
		// A fresh context per validation: values built in it are dropped
		// with it, so memory stays flat however many files a run checks.
		ctx := NewContext()
		dv := ctx.Encode(data)
		if dv.Err() != nil {
			return nil, dv.Err()
		}
		verr := d.Unify(dv).Validate(cue.Concrete(true))
		if verr == nil {
			break
		}
		if pass == 0 {
			firstErr = verr
		}
		groups, ok := group(verr, removed, p.base)
		if !ok {
			return nil, errRebase
		}
		for _, g := range groups {
			g.def = def
		}
		more, gone := false, false
		for _, g := range groups {
			v, ok := g.violation(root, opt)
			if !ok {
				if g.deliberate {
					firstErr = nil // the error is accounted for
				}
				continue
			}
			k := strings.Join(v.Path, "\x00") + "\x00" + v.Message
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, v)
			// Errors inside a mapping can hide its other errors: drop the
			// offending key and validate again to find the rest.
			if !g.required && !underRemoved(removed, g.path) {
				rel := g.path[len(p.base):]
				if rp := mapEntryPrefix(data, rel); rp != nil && removeAt(data, rp) {
					removed[strings.Join(append(slices.Clone(p.base), rp...), "\x00")] = true
					more = true
					if rest != nil {
						rest = withoutEntry(rest, rp)
					}
				} else if rp == nil && len(p.base) > 0 {
					// Validated whole, the entry removed would be the
					// part's own or an ancestor's: nothing of the part
					// would be seen again.
					gone = true
				}
			}
		}
		if !more || gone {
			break
		}
	}
	if firstErr != nil && len(out) == 0 {
		if len(p.base) > 0 {
			return nil, errRebase // said of the whole document, once
		}
		// CUE rejects the document but no error could be placed: the
		// document is still not valid. Reported at its root.
		msg := "does not match the schema"
		if errs := cueerrors.Errors(firstErr); len(errs) > 0 {
			f, a := errs[0].Msg()
			msg += ": " + fmt.Sprintf(f, a...)
		}
		if opt.Prefix != "" {
			msg = opt.Prefix + ": " + msg
		}
		out = append(out, Violation{Node: node.Resolve(opt.thinned.whole(root)), Message: msg})
	}
	out = dropShadowed(out)
	sortViolations(out)
	return out, nil
}

// underRemoved reports whether path lies in an entry this validation
// removed already (an error of the same pass, beside the one that removed
// it): it is no sign that the part itself must go.
func underRemoved(removed map[string]bool, path []string) bool {
	for i := 1; i <= len(path); i++ {
		if removed[strings.Join(path[:i], "\x00")] {
			return true
		}
	}
	return false
}

// sortViolations orders violations by the place they are reported at.
func sortViolations(out []Violation) {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Node, out[j].Node
		if out[i].Key != nil {
			a = out[i].Key
		}
		if out[j].Key != nil {
			b = out[j].Key
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// dropShadowed removes a collection's kind mismatch when violations inside
// that collection exist (they say what is wrong with it), and anything
// reported under an unknown key (the key is the one finding).
func dropShadowed(vs []Violation) []Violation {
	kept := vs[:0:0]
	for i, v := range vs {
		shadowed := false
		for j, w := range vs {
			if j == i {
				continue
			}
			if v.collection && under(w.Path, v.Path) || w.unknown && under(v.Path, w.Path) {
				shadowed = true
				break
			}
		}
		if !shadowed {
			kept = append(kept, v)
		}
	}
	return kept
}

// under reports whether path p lies strictly below path q.
func under(p, q []string) bool {
	if len(p) <= len(q) {
		return false
	}
	for i := range q {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// onlyTypeErrors reports whether every error of a node says its kind is wrong.
func onlyTypeErrors(items []errItem) bool {
	for _, it := range items {
		if !it.shape.typeError {
			return false
		}
	}
	return len(items) > 0
}

// errItem is one CUE error message, with the shape it has (errshape.go).
type errItem struct {
	format string
	args   []any
	shape  *errShape
}

type errGroup struct {
	path     []string
	required bool     // missing required keys (path is the parent)
	missing  []string // their names
	items    []errItem
	def      cue.Value
	// deliberate: no violation on purpose (reported elsewhere, or a
	// template placeholder), not for want of a place.
	deliberate bool
}

// group turns CUE's error list into one group per data path; missing
// required fields are grouped by their parent mapping. Paths are CUE's,
// from the definition's root; when only the part at base was validated,
// they must start there (a list index reads "_"), else ok is false.
func group(err error, removed map[string]bool, base []string) (groups []*errGroup, ok bool) {
	var order []string
	byKey := map[string]*errGroup{}
	for _, e := range cueerrors.Errors(err) {
		p := dataPath(e.Path())
		if len(base) > 0 {
			if p, ok = rebase(p, base); !ok {
				return nil, false
			}
		}
		format, args := e.Msg()
		sh := shapeOf(format, args)
		if sh.missing {
			if len(p) == 0 || removed[strings.Join(p, "\x00")] {
				continue
			}
			parent := p[:len(p)-1]
			k := "req\x00" + strings.Join(parent, "\x00")
			g := byKey[k]
			if g == nil {
				g = &errGroup{path: append([]string(nil), parent...), required: true}
				byKey[k] = g
				order = append(order, k)
			}
			name := p[len(p)-1]
			if !contains(g.missing, name) {
				g.missing = append(g.missing, name)
			}
			continue
		}
		k := strings.Join(p, "\x00")
		g := byKey[k]
		if g == nil {
			g = &errGroup{path: append([]string(nil), p...)}
			byKey[k] = g
			order = append(order, k)
		}
		g.items = append(g.items, errItem{format, args, sh})
	}
	out := make([]*errGroup, 0, len(order))
	for _, k := range order {
		out = append(out, byKey[k])
	}
	return out, true
}

// rebase puts base's list indexes in a path CUE reported from a part's
// definition ("_" where the definition path selects any list element).
func rebase(p, base []string) ([]string, bool) {
	if len(p) < len(base) {
		return nil, false
	}
	for i, b := range base {
		if p[i] != b && !(p[i] == "_" && isIndex(b)) {
			return nil, false
		}
	}
	return append(slices.Clone(base), p[len(base):]...), true
}

// dataPath turns a CUE error path into data keys: it drops the definition
// name and unquotes labels CUE quotes (keys such as "qg-1" or
// "out/report.csv"), which would otherwise match no data node.
func dataPath(p []string) []string {
	if len(p) > 0 && strings.HasPrefix(p[0], "#") {
		p = p[1:]
	}
	out := make([]string, len(p))
	for i, s := range p {
		if len(s) >= 2 && s[0] == '"' {
			if u, err := strconv.Unquote(s); err == nil {
				s = u
			}
		}
		out[i] = s
	}
	return out
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// DisplayPath renders a data path as resumption.events[0].trigger, each
// key from the file clipped as a message clips a value (diag.Clip).
func DisplayPath(prefix string, p []string) string {
	var sb strings.Builder
	sb.WriteString(prefix)
	for _, s := range p {
		if _, err := strconv.Atoi(s); err == nil {
			sb.WriteString("[" + s + "]")
			continue
		}
		if strings.ContainsFunc(s, func(r rune) bool { return r == '.' || r == '/' || r == ' ' || r == '[' || r == '"' }) {
			sb.WriteString("[" + diag.Quote(s) + "]") // a path-like key: hashes["out/report.csv"]
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(diag.Clip(s)) // a key from the file, as long as it was written
	}
	return sb.String()
}

var placeholderRe = func(s string) bool {
	if len(s) < 3 || s[0] != '{' || s[len(s)-1] != '}' {
		return false
	}
	for i, r := range s[1 : len(s)-1] {
		if !(r >= 'A' && r <= 'Z' || r == '_' || (i > 0 && r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// IsPlaceholder reports a whole-value template placeholder like {UPDATED_TIMESTAMP}.
func IsPlaceholder(s string) bool { return placeholderRe(s) }

// violation words g's errors and places them in root; in the document
// before thinning, when CUE saw one thinned (g.path stays CUE's).
func (g *errGroup) violation(root *yaml.Node, opt Options) (Violation, bool) {
	if opt.thinned != nil {
		at := g.path
		g.path, root = opt.thinned.orig(at), opt.thinned.whole(root)
		defer func() { g.path = at }()
	}
	n, key, matched := node.Lookup(root, g.path)
	where := DisplayPath(opt.Prefix, g.path)
	if g.required {
		if matched < len(g.path) {
			g.deliberate = true
			return Violation{}, false // the parent itself is missing: reported there
		}
		sort.Strings(g.missing)
		msg := diag.Fit(len(g.missing), func(n int) string { return missingMessage(where, g.missing, n) })
		if key != nil {
			n = key // the mapping's own key line reads better than its first child's
		}
		return Violation{Node: n, Path: g.path, Message: msg, Missing: g.missing, where: where}, true
	}
	if matched < len(g.path) {
		// CUE names a place the data does not have: still a finding, at
		// the nearest node that exists, never a silent pass.
		if len(g.items) == 0 {
			return Violation{}, false
		}
		if key != nil && n != nil && n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
			n = key
		}
		it := g.items[0]
		msg := fmt.Sprintf(it.format, it.args...)
		if where != "" {
			msg = where + ": " + msg
		}
		return Violation{Node: n, Path: g.path[:matched], Message: msg}, true
	}
	for _, it := range g.items {
		if it.shape.shape == shapeNotAllowed {
			// Next to another error CUE may place this at the unknown
			// field's list elements (old_log[0]); the key is the field.
			path := g.path
			for len(path) > 1 && isIndex(path[len(path)-1]) {
				if parent, _, _ := node.Lookup(root, path[:len(path)-1]); !node.IsSeq(parent) {
					break
				}
				path = path[:len(path)-1]
			}
			if len(path) < len(g.path) {
				n, key, _ = node.Lookup(root, path)
			}
			name := path[len(path)-1]
			parent := DisplayPath(opt.Prefix, path[:len(path)-1])
			msg := fmt.Sprintf("unknown key %s in %s", diag.QuoteFull(name), parent)
			if parent == "" {
				msg = fmt.Sprintf("unknown key %s at the top level", diag.QuoteFull(name))
			}
			return Violation{Node: n, Key: key, Path: path, Message: msg, unknown: true}, true
		}
	}
	if opt.Template && node.IsString(n) && IsPlaceholder(n.Value) {
		if !onlyTypeErrors(g.items) {
			g.deliberate = true
			return Violation{}, false
		}
	}
	msg := describe(g.items, n, enumOrder(g.def, g.path))
	if len(g.path) > 0 && node.IsTimestampKey(g.path[len(g.path)-1]) {
		msg = epochHint(msg, n)
	}
	v := Violation{Node: n, Path: g.path, Message: where + ": " + msg}
	v.collection = (node.IsMap(n) || node.IsSeq(n)) && onlyTypeErrors(g.items)
	return v, true
}

// epochHint replaces, for a timestamp written as a number, the advice to
// quote it (which a pattern then refuses) with the RFC 3339 form of the
// Unix time it reads as, when it reads as one of 1970 to 2100.
func epochHint(msg string, n *yaml.Node) string {
	i := strings.Index(msg, " (write it in quotes: ")
	if i < 0 {
		return msg
	}
	hint := " (write an RFC 3339 timestamp with a zone, such as \"2026-02-22T00:00:00Z\")"
	if v, ok := node.Int(n); ok && v > 0 && v < 4102444800 {
		hint = " (as a Unix time it is \"" + time.Unix(v, 0).UTC().Format(time.RFC3339) + "\": write that)"
	}
	return msg[:i] + hint
}

// describe renders a group of CUE errors for one node as one sentence.
func describe(items []errItem, n *yaml.Node, order []string) string {
	w := wording{found: Show(n), shown: shown(n)}
	for _, it := range items {
		if it.shape.word != nil {
			it.shape.word(&w, it, n)
		}
	}
	found, alts, types, others := w.shown, w.alts, w.types, w.others
	if len(others) > 0 {
		return others[0]
	}
	if len(alts) > 0 && len(types) == 0 {
		alts = uniq(alts)
		if len(order) == len(alts) {
			alts = order
		}
		for i, a := range alts {
			if uq, err := strconv.Unquote(a); err == nil {
				alts[i] = uq
			}
		}
		return fmt.Sprintf("%s is not one of %s", found, strings.Join(alts, ", "))
	}
	for _, a := range alts {
		// A string literal among types is that string, not any string
		// (blockers: null, "" or a list).
		switch {
		case a == `""`:
			types = append(types, "an empty string")
		case literalType(a) == "string":
			types = append(types, a)
		default:
			types = append(types, typeName(literalType(a)))
		}
	}
	types = uniq(types)
	if len(types) == 0 {
		return found + " is not valid here"
	}
	if node.IsScalar(n) && n.ShortTag() == "!!float" && bigInteger.MatchString(n.Value) && contains(types, "an integer") {
		// A literal beyond 64 bits where an integer is expected is an
		// integer out of range, not another type (YAML reads it as a float).
		return fmt.Sprintf("integer %s is out of range (beyond 64 bits, readers take it as a float)", diag.Clip(n.Value))
	}
	msg := fmt.Sprintf("expected %s, found %s", orList(types), node.Kind(n))
	if node.IsScalar(n) && !node.IsNull(n) {
		msg += " " + found
	}
	if contains(types, "a string") && (n.ShortTag() == "!!float" || n.ShortTag() == "!!int") {
		msg += fmt.Sprintf(" (write it in quotes: \"%s\")", diag.Clip(n.Value))
	}
	return msg
}

// bigInteger is a decimal integer literal, as YAML and JSON write one.
var bigInteger = lazyre.New(`^[-+]?[0-9]+$`)

// enumOrder returns the literal alternatives of the schema at a data path,
// in the order the schema lists them, so messages read like the seeds.
func enumOrder(def cue.Value, path []string) []string {
	v, ok := lookupData(def, path)
	if !ok {
		return nil
	}
	op, args := v.Eval().Expr()
	if op != cue.OrOp {
		return nil
	}
	var out []string
	for _, a := range args {
		s := fmt.Sprint(a)
		if !isLiteral(s) {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// lookupData returns the schema that applies at a data path: a list
// index selects any element; a key, the field whether required, optional
// or regular, else a pattern.
func lookupData(def cue.Value, path []string) (cue.Value, bool) {
	v := def
	for _, sel := range path {
		var next cue.Value
		if _, err := strconv.Atoi(sel); err == nil {
			next = v.LookupPath(cue.MakePath(cue.AnyIndex))
		} else {
			for _, c := range []cue.Selector{cue.Str(sel).Required(), cue.Str(sel).Optional(), cue.Str(sel), cue.AnyString} {
				if next = v.LookupPath(cue.MakePath(c)); next.Exists() {
					break
				}
			}
		}
		if !next.Exists() {
			return cue.Value{}, false
		}
		v = next
	}
	return v, true
}

// cueKind names the CUE kind of a data node as CUE's errors do.
func cueKind(n *yaml.Node) string {
	n = node.Resolve(n)
	switch {
	case n == nil:
		return ""
	case n.Kind == yaml.MappingNode:
		return "struct"
	case n.Kind == yaml.SequenceNode:
		return "list"
	}
	switch n.ShortTag() {
	case "!!int":
		return "int"
	case "!!float":
		return "float"
	case "!!bool":
		return "bool"
	case "!!null":
		return "null"
	}
	return "string"
}

// sameValue reports whether CUE's rendering of a value is the data value
// shown as found; CUE prints the YAML number 1.0 as 1.
func sameValue(cueText, found string) bool {
	if cueText == found {
		return true
	}
	a, errA := strconv.ParseFloat(cueText, 64)
	b, errB := strconv.ParseFloat(found, 64)
	return errA == nil && errB == nil && a == b
}

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

func isLiteral(s string) bool {
	return strings.HasPrefix(s, "\"") || s == "true" || s == "false" || s == "null" || isNumber(s)
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

func literalType(s string) string {
	switch {
	case strings.HasPrefix(s, "\""):
		return "string"
	case s == "true" || s == "false":
		return "bool"
	case s == "null":
		return "null"
	}
	return "number"
}

func typeName(t string) string {
	switch t {
	case "string":
		return "a string"
	case "int":
		return "an integer"
	case "float", "number":
		return "a number"
	case "bool":
		return "a boolean"
	case "null":
		return "null"
	case "struct":
		return "a mapping"
	case "list":
		return "a list"
	}
	return t
}

func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func uniq(s []string) []string {
	var out []string
	for _, x := range s {
		if !contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// Show renders a node's value the way CUE prints it, for messages.
func Show(n *yaml.Node) string {
	n = node.Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return node.Kind(n) // "nothing", "a mapping", "a list"
	}
	switch n.ShortTag() {
	case "!!str", "!!timestamp", "!!binary":
		return diag.QuoteFull(n.Value)
	case "!!null":
		return "null"
	case "!!float":
		if f, ok := node.Float(n); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return n.Value
		}
	}
	return n.Value
}

// shown is Show for a message: a value from the file clipped as every
// message clips one (diag.Quote), so that a long value cannot fill a
// report. Show, whole, is what CUE's own text of the value is compared
// with.
func shown(n *yaml.Node) string {
	n = node.Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return node.Kind(n)
	}
	switch n.ShortTag() {
	case "!!str", "!!timestamp", "!!binary":
		return diag.Quote(n.Value)
	case "!!null":
		return "null"
	}
	return diag.Clip(n.Value)
}

// ToValue converts a node tree to plain Go values for CUE. Timestamps stay
// their source text; merge keys are applied; aliases are expanded (the
// loader has already bounded their expansion).
func ToValue(n *yaml.Node) any {
	n = node.Resolve(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "<<" && k.ShortTag() == "!!merge" {
				if mv, ok := ToValue(v).(map[string]any); ok {
					for kk, vv := range mv {
						if _, exists := m[kk]; !exists {
							m[kk] = vv
						}
					}
				}
				continue
			}
			m[k.Value] = ToValue(v)
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = ToValue(c)
		}
		return l
	case yaml.ScalarNode:
		switch scalarTag(n) {
		case "!!null":
			return nil
		case "!!bool":
			b, _ := node.Bool(n)
			return b
		case "!!int":
			if i, ok := node.Int(n); ok {
				return i
			}
			if f, ok := node.Float(n); ok {
				return f
			}
			if b := bigNumber(n, "!!int"); b != nil {
				return b
			}
			return n.Value
		case "!!float":
			if f, ok := node.Float(n); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f
			}
			if b := bigNumber(n, "!!float"); b != nil {
				return b
			}
			return n.Value
		}
		return n.Value
	}
	return nil
}

// scalarTag is the tag of a scalar as the schema reads it: its ShortTag,
// except that a plain decimal number too large for a float64 (a YAML
// integer of more than 309 digits, 1e400), which go-yaml resolves to a
// string, is a float, as JSON's numbers past a float are: a number,
// however large.
func scalarTag(n *yaml.Node) string {
	tag := n.ShortTag()
	if tag == "!!str" && n.Style == 0 && decimalNumber(n.Value) {
		return "!!float"
	}
	return tag
}

// decimalNumber reports whether s is a decimal number as YAML writes a
// float ([-+]?(.d+|d+(.d*)?)([eE][-+]?d+)?), which go-yaml reads as a
// string only when it overflows a float64.
func decimalNumber(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	whole := digits()
	if i < len(s) && s[i] == '.' {
		i++
		if frac := digits(); whole == 0 && frac == 0 {
			return false
		}
	} else if whole == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// maxExactDigits is how many significant digits of a number beyond int64
// or float64 are read exactly. Reading decimal digits into a big number
// takes time in the square of their count; a number of more digits is
// beyond every bound a schema sets, so its first maxExactDigits digits and
// its exponent stand for it (its sign, kind and magnitude are kept; a
// message shows the number as written, not this value).
const maxExactDigits = 1000

// bigNumber is a number beyond int64 or float64 as CUE takes it, for n of
// tag "!!int" or "!!float" (scalarTag): a *big.Int for an integer (YAML
// reads up to 2^64-1 as one; a JSON integer has no bound), a *big.Float
// for a number past float64 (1e400). Nil when n's text is no such number
// (.inf, .nan). Such a number is a number to the schema, as to its
// readers: a string field rejects it.
func bigNumber(n *yaml.Node, tag string) any {
	s := strings.ReplaceAll(n.Value, "_", "")
	switch tag {
	case "!!int":
		if long, ok := shortenInt(s); ok {
			s = long
		}
		if i, ok := new(big.Int).SetString(s, 0); ok {
			return i
		}
	case "!!float":
		if long, ok := shortenFloat(s); ok {
			s = long
		}
		if f, ok := new(big.Float).SetString(s); ok && !f.IsInf() {
			return f
		}
	}
	return nil
}

// shortenInt is a decimal integer of more than maxExactDigits digits cut
// to its first maxExactDigits (its sign kept); ok is false for any other
// text, which is read as it is.
func shortenInt(s string) (string, bool) {
	sign := 0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign = 1
	}
	if len(s)-sign <= maxExactDigits || (len(s) > sign+1 && s[sign] == '0') {
		return "", false // short, or 0x…, 0o…, 0b…, 0…: not decimal digits
	}
	for i := sign; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", false
		}
	}
	return s[:sign+maxExactDigits], true
}

// shortenFloat is a decimal number of more than maxExactDigits characters
// rewritten as its first maxExactDigits significant digits, a final 1
// standing for any nonzero digit dropped, and the exponent that keeps its
// magnitude (clamped where a big.Float's range ends anyway); ok is false
// for any other text.
func shortenFloat(s string) (string, bool) {
	if len(s) <= maxExactDigits || !decimalNumber(s) {
		return "", false
	}
	var b strings.Builder
	i := 0
	if s[0] == '-' || s[0] == '+' {
		b.WriteByte(s[0])
		i++
	}
	// The significand's digits, leading zeros skipped: exp counts the
	// digits before the point from the first nonzero one.
	exp, kept, sticky, point := 0, 0, false, false
	for ; i < len(s) && s[i] != 'e' && s[i] != 'E'; i++ {
		c := s[i]
		if c == '.' {
			point = true
			continue
		}
		if kept == 0 && c == '0' {
			if point {
				exp--
			}
			continue
		}
		if !point {
			exp++
		}
		if kept < maxExactDigits {
			if kept == 0 {
				b.WriteString("0.")
			}
			b.WriteByte(c)
			kept++
		} else if c != '0' {
			sticky = true
		}
	}
	if kept == 0 {
		b.WriteString("0")
		return b.String(), true
	}
	if sticky {
		b.WriteByte('1')
	}
	if i < len(s) {
		e, err := strconv.ParseInt(s[i+1:], 10, 64)
		const limit = 1 << 40
		if err != nil || e > limit || e < -limit {
			e = limit // past any float: an overflow, as the text is
			if s[i+1] == '-' {
				e = -limit
			}
		}
		exp += int(e)
	}
	return b.String() + "e" + strconv.Itoa(exp), true
}

// mapEntryPrefix returns the longest prefix of path that ends at a mapping
// entry: removing that entry hides the error without shifting list indexes.
func mapEntryPrefix(v any, path []string) []string {
	best := -1
	cur := v
	for i, sel := range path {
		switch c := cur.(type) {
		case map[string]any:
			best = i
			cur = c[sel]
		case []any:
			idx, err := strconv.Atoi(sel)
			if err != nil || idx < 0 || idx >= len(c) {
				return nil
			}
			cur = c[idx]
		default:
			return nil
		}
	}
	if best < 0 {
		return nil
	}
	return path[:best+1]
}

// withoutEntry returns a copy of the tree at n without the mapping entry at
// path, as removeAt leaves the ToValue tree, sharing every node off the
// path. It returns nil where the two could differ: an entry a merge key
// may also supply, or a path that leaves the tree.
func withoutEntry(n *yaml.Node, path []string) *yaml.Node {
	n = node.Resolve(n)
	if n == nil || len(path) == 0 {
		return nil
	}
	cp := *n
	cp.Alias = nil
	switch n.Kind {
	case yaml.MappingNode:
		at, merges := -1, false
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k := n.Content[i]; {
			case k.Value == "<<" && k.ShortTag() == "!!merge":
				merges = true
			case k.Value == path[0]:
				at = i // ToValue keeps the last of repeated keys
			}
		}
		if at < 0 || (merges && len(path) == 1) {
			return nil
		}
		cp.Content = make([]*yaml.Node, 0, len(n.Content))
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch {
			case k.Value != path[0] || (k.Value == "<<" && k.ShortTag() == "!!merge"):
			case len(path) == 1:
				continue // removed, with any repeats of it
			case i == at:
				if v = withoutEntry(v, path[1:]); v == nil {
					return nil
				}
			}
			cp.Content = append(cp.Content, k, v)
		}
	case yaml.SequenceNode:
		idx, err := strconv.Atoi(path[0])
		if err != nil || idx < 0 || idx >= len(n.Content) || len(path) == 1 {
			return nil
		}
		c := withoutEntry(n.Content[idx], path[1:])
		if c == nil {
			return nil
		}
		cp.Content = append([]*yaml.Node(nil), n.Content...)
		cp.Content[idx] = c
	default:
		return nil
	}
	return &cp
}

// removeAt deletes the map entry at path from a ToValue tree; it returns
// false when the path's parent is not a mapping.
func removeAt(v any, path []string) bool {
	cur := v
	for i, sel := range path {
		last := i == len(path)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if _, ok := c[sel]; ok {
					delete(c, sel)
					return true
				}
				return false
			}
			cur = c[sel]
		case []any:
			idx, err := strconv.Atoi(sel)
			if err != nil || idx < 0 || idx >= len(c) || last {
				return false
			}
			cur = c[idx]
		default:
			return false
		}
	}
	return false
}
