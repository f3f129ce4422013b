package schema

// The fast path: most documents are valid, and proving that through CUE
// (encode, unify, validate) is most of a lint's CPU. Each definition is
// compiled once into a small checker tree by introspecting the compiled CUE
// value, and a document the checker accepts is valid without touching CUE.
//
// The checker only ever answers "certainly valid" or "don't know": any
// construct the compiler does not fully understand compiles to an unknown
// node, which accepts nothing, so the document goes through CUE, which
// produces every message. The constructs understood are: the kinds null,
// bool, int, float, number and string; literals (except float literals);
// integer bounds <, <=, >, >=; =~ regular expressions; conjunctions and
// disjunctions of these; lists [...T] and []; structs with required,
// optional and regular fields, pattern constraints [string]: T and
// [=~"re"]: T, open (...) or closed; references to top-level definitions.
//
// The value API hides some constructs that change what is valid
// (comprehensions, references to sibling fields, lets), so the source of
// each definition, and of every definition it references, must also pass
// a syntax allow-list (syntaxGuard) before its checker is trusted.
//
// The checkers of the embedded definitions are compiled ahead of time into
// fastpath_gen.go, so a valid document never starts the CUE runtime (about
// 7 ms of compiling the schema in a one-file lint); a test fails when that
// file is stale.

//go:generate go test -run ^TestFastpathGenerated$ -update .

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"
	"go.yaml.in/yaml/v3"

	schemacue "github.com/resumelint/resumelint/cue"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/node"
)

// kinds is a set of the data kinds CUE can see in a ToValue tree.
type kinds uint8

const (
	kNull kinds = 1 << iota
	kBool
	kInt
	kFloat
	kString
	kStruct
	kList
)

func kindsOf(k cue.Kind) kinds {
	var out kinds
	for _, m := range []struct {
		c cue.Kind
		k kinds
	}{{cue.NullKind, kNull}, {cue.BoolKind, kBool}, {cue.IntKind, kInt}, {cue.FloatKind, kFloat},
		{cue.StringKind, kString}, {cue.StructKind, kStruct}, {cue.ListKind, kList}} {
		if k&m.c != 0 {
			out |= m.k
		}
	}
	return out
}

type checkOp uint8

const (
	opUnknown checkOp = iota // not understood: accepts nothing
	opKinds                  // any value of the kinds in `allow`
	opLit                    // one literal scalar
	opBound                  // a number compared with an integer
	opRegex                  // a string matching re
	opAnd                    // every sub-checker accepts
	opOr                     // some sub-checker accepts (see accepts for structs and lists)
	opList                   // [...elem]; elem nil: only []
	opStruct
)

// checker is one node of a compiled definition.
type checker struct {
	op   checkOp
	mask kinds // the kinds the CUE value admits (IncompleteKind)
	why  string

	allow kinds  // opKinds
	lit   scalar // opLit
	cmp   cue.Op // opBound
	bound int64
	re    *lazyre.RE // opRegex
	subs  []*checker // opAnd, opOr
	elem  *checker   // opList

	// opStruct
	fields   map[string]int
	names    []string // field names, for reports
	vals     []*checker
	reqMask  uint64 // fields the data must have (required or regular)
	patterns []pattern
	open     bool
}

type pattern struct{ key, val *checker }

// scalar is a scalar as ToValue hands it to CUE.
type scalar struct {
	kind kinds
	s    string
	i    int64
	f    float64
	b    bool
}

// maxDepth bounds both the compiler (recursive definitions) and the checker
// (deep documents); beyond it the answer is "don't know".
const maxDepth = 200

func unknown(v cue.Value, format string, args ...any) *checker {
	return &checker{op: opUnknown, mask: kindsOf(v.IncompleteKind()), why: fmt.Sprintf(format, args...)}
}

// compiler tracks the definitions being compiled, so a recursive one ends
// in an unknown node instead of an endless (or exponential) tree.
type compiler struct {
	active map[string]bool
}

// compileValue turns a schema value into a checker.
func (cp *compiler) compileValue(v cue.Value, depth int) *checker {
	if depth > maxDepth {
		return unknown(v, "nesting deeper than %d", maxDepth)
	}
	if _, p := v.ReferencePath(); len(p.Selectors()) > 0 {
		ref := p.String()
		if cp.active[ref] {
			return unknown(v, "a recursive reference to %s", ref)
		}
		cp.active[ref] = true
		defer delete(cp.active, ref)
	}
	v = cue.Dereference(v)
	if err := v.Err(); err != nil {
		return unknown(v, "an error value")
	}
	mask := kindsOf(v.IncompleteKind())
	op, args := v.Expr()
	switch op {
	case cue.AndOp, cue.OrOp:
		c := &checker{op: opAnd, mask: mask}
		if op == cue.AndOp {
			// Closedness across conjoined structs (embedding, #A & #B)
			// has subtle rules; plain schemas conjoin scalars only.
			n := 0
			for _, a := range args {
				if kindsOf(a.IncompleteKind())&(kStruct|kList) != 0 {
					n++
				}
			}
			if n > 1 {
				return unknown(v, "a conjunction of structs or lists")
			}
		}
		if op == cue.OrOp {
			// Defaults (which [...T] has too) only matter for a missing
			// value, and a missing field is never certain here.
			c.op = opOr
		}
		for _, a := range args {
			s := cp.compileValue(a, depth+1)
			if s.op == opUnknown && op == cue.AndOp {
				return unknown(v, "%s", s.why)
			}
			c.subs = append(c.subs, s)
		}
		if len(c.subs) == 0 {
			return unknown(v, "an empty %v", op)
		}
		return c
	case cue.LessThanOp, cue.LessThanEqualOp, cue.GreaterThanOp, cue.GreaterThanEqualOp:
		if len(args) != 1 || args[0].IncompleteKind() != cue.IntKind || !args[0].IsConcrete() {
			return unknown(v, "a bound that is not an integer")
		}
		b, err := args[0].Int64()
		// float64 holds every integer up to 2^53 exactly, so a float is
		// compared with the bound as CUE compares its shortest decimal.
		if err != nil || b > 1<<53 || b < -(1<<53) {
			return unknown(v, "a bound out of range")
		}
		return &checker{op: opBound, mask: mask, cmp: op, bound: b}
	case cue.RegexMatchOp:
		if len(args) != 1 || args[0].IncompleteKind() != cue.StringKind || !args[0].IsConcrete() {
			return unknown(v, "a pattern that is not a string")
		}
		s, err := args[0].String()
		if err != nil {
			return unknown(v, "a pattern that is not a string")
		}
		if _, err := regexp.Compile(s); err != nil { // CUE matches with Go's regexp too
			return unknown(v, "pattern %q: %v", s, err)
		}
		return &checker{op: opRegex, mask: mask, re: lazyre.New(s)}
	case cue.NoOp:
		return cp.compileLeaf(v, mask, depth)
	}
	return unknown(v, "operator %v", op)
}

// basicKinds are the type names a leaf may print as, with the kinds each accepts.
var basicKinds = map[string]struct {
	cue  cue.Kind
	data kinds
}{
	"string": {cue.StringKind, kString},
	"int":    {cue.IntKind, kInt},
	"float":  {cue.FloatKind, kFloat},
	"number": {cue.NumberKind, kInt | kFloat},
	"bool":   {cue.BoolKind, kBool},
}

func (cp *compiler) compileLeaf(v cue.Value, mask kinds, depth int) *checker {
	k := v.IncompleteKind()
	switch k {
	case cue.StructKind:
		return cp.compileStruct(v, mask, depth)
	case cue.ListKind:
		return cp.compileList(v, mask, depth)
	}
	if v.IsConcrete() {
		c := &checker{op: opLit, mask: mask}
		var err error
		switch k {
		case cue.NullKind:
			c.lit.kind = kNull
		case cue.BoolKind:
			c.lit.kind = kBool
			c.lit.b, err = v.Bool()
		case cue.StringKind:
			c.lit.kind = kString
			c.lit.s, err = v.String()
		case cue.IntKind:
			c.lit.kind = kInt
			c.lit.i, err = v.Int64()
		default:
			return unknown(v, "a %v literal", k)
		}
		if err != nil {
			return unknown(v, "literal %v: %v", v, err)
		}
		return c
	}
	if b, ok := basicKinds[fmt.Sprint(v)]; ok && b.cue == k {
		return &checker{op: opKinds, mask: mask, allow: b.data}
	}
	return unknown(v, "the value %v", v)
}

func (cp *compiler) compileList(v cue.Value, mask kinds, depth int) *checker {
	it, err := v.List()
	if err != nil {
		return unknown(v, "a list: %v", err)
	}
	if it.Next() {
		return unknown(v, "a list with fixed elements")
	}
	c := &checker{op: opList, mask: mask}
	if e := v.LookupPath(cue.MakePath(cue.AnyIndex)); e.Exists() {
		c.elem = cp.compileValue(e, depth+1)
	}
	return c
}

// probeKeys are keys no schema names: one that no field or pattern takes
// tells, through Allows, whether the struct is open.
var probeKeys = []string{"\x00resumelint-probe", "#", "", "0", "_"}

func (cp *compiler) compileStruct(v cue.Value, mask kinds, depth int) *checker {
	it, err := v.Fields(cue.Optional(true), cue.Definitions(false), cue.Patterns(true))
	if err != nil {
		return unknown(v, "a struct: %v", err)
	}
	c := &checker{op: opStruct, mask: mask, fields: map[string]int{}}
	for it.Next() {
		sel := it.Selector()
		if sel.LabelType() != cue.StringLabel {
			return unknown(v, "a field %v", sel)
		}
		if sel.ConstraintType() == cue.PatternConstraint {
			key := cp.compileValue(sel.Pattern(), depth+1)
			if key.op == opUnknown {
				return unknown(v, "pattern %v: %s", sel.Pattern(), key.why)
			}
			c.patterns = append(c.patterns, pattern{key: key, val: cp.compileValue(it.Value(), depth+1)})
			continue
		}
		name := sel.Unquoted()
		if _, dup := c.fields[name]; dup || len(c.vals) == 64 {
			return unknown(v, "field %q repeated or more than 64 fields", name)
		}
		idx := len(c.vals)
		c.fields[name] = idx
		c.names = append(c.names, name)
		c.vals = append(c.vals, cp.compileValue(it.Value(), depth+1))
		if sel.ConstraintType() != cue.OptionalConstraint {
			// Required, or regular: a regular field the data omits may still
			// be fine (a concrete value), but that is CUE's to decide.
			c.reqMask |= 1 << idx
		}
	}
	for _, p := range probeKeys {
		if _, named := c.fields[p]; named {
			continue
		}
		taken := false
		for _, pt := range c.patterns {
			if pt.key.acceptsScalar(scalar{kind: kString, s: p}) {
				taken = true
				break
			}
		}
		if !taken {
			c.open = v.Allows(cue.Str(p))
			return c
		}
	}
	for _, pt := range c.patterns {
		if pt.key.op == opKinds && pt.key.allow&kString != 0 {
			return c // [string]: every key meets a pattern, open or not
		}
	}
	return unknown(v, "a struct whose openness no probe key shows")
}

// classify returns the resolved node and what ToValue makes of it: the kind
// CUE sees and, for a scalar, its value. It must agree with ToValue exactly.
func classify(n *yaml.Node) (*yaml.Node, scalar) {
	n = node.Resolve(n)
	if n == nil {
		return nil, scalar{kind: kNull}
	}
	switch n.Kind {
	case yaml.MappingNode:
		return n, scalar{kind: kStruct}
	case yaml.SequenceNode:
		return n, scalar{kind: kList}
	case yaml.ScalarNode:
	default:
		return n, scalar{kind: kNull}
	}
	switch n.ShortTag() {
	case "!!null":
		return n, scalar{kind: kNull}
	case "!!bool":
		switch n.Value { // the common spellings, without a decode
		case "true":
			return n, scalar{kind: kBool, b: true}
		case "false":
			return n, scalar{kind: kBool}
		}
		b, _ := node.Bool(n)
		return n, scalar{kind: kBool, b: b}
	case "!!int":
		if i, ok := node.Int(n); ok {
			return n, scalar{kind: kInt, i: i}
		}
		if f, ok := node.Float(n); ok {
			return n, scalar{kind: kFloat, f: f}
		}
	case "!!float":
		if f, ok := node.Float(n); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return n, scalar{kind: kFloat, f: f}
		}
	}
	return n, scalar{kind: kString, s: n.Value}
}

// accepts reports whether the checker is certain that CUE accepts n.
func (c *checker) accepts(n *yaml.Node, depth int) bool {
	if depth > maxDepth {
		return false
	}
	n, sc := classify(n)
	switch sc.kind {
	case kStruct, kList:
		return c.acceptsCollection(n, sc.kind, depth)
	}
	return c.acceptsScalar(sc)
}

func (c *checker) acceptsScalar(sc scalar) bool {
	switch c.op {
	case opKinds:
		return c.allow&sc.kind != 0
	case opLit:
		if sc.kind != c.lit.kind {
			return false
		}
		switch sc.kind {
		case kString:
			return sc.s == c.lit.s
		case kInt:
			return sc.i == c.lit.i
		case kBool:
			return sc.b == c.lit.b
		}
		return sc.kind == kNull
	case opBound:
		var d int // sign of value - bound
		switch sc.kind {
		case kInt:
			d = cmp(sc.i, c.bound)
		case kFloat:
			d = cmp(sc.f, float64(c.bound))
		default:
			return false
		}
		switch c.cmp {
		case cue.LessThanOp:
			return d < 0
		case cue.LessThanEqualOp:
			return d <= 0
		case cue.GreaterThanOp:
			return d > 0
		case cue.GreaterThanEqualOp:
			return d >= 0
		}
		return false
	case opRegex:
		return sc.kind == kString && c.re.MatchString(sc.s)
	case opAnd:
		for _, s := range c.subs {
			if !s.acceptsScalar(sc) {
				return false
			}
		}
		return true
	case opOr:
		// Concrete scalars that several arms accept unify to the same value.
		for _, s := range c.subs {
			if s.acceptsScalar(sc) {
				return true
			}
		}
	}
	return false
}

func cmp[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (c *checker) acceptsCollection(n *yaml.Node, k kinds, depth int) bool {
	switch c.op {
	case opAnd:
		for _, s := range c.subs {
			if !s.acceptsCollection(n, k, depth) {
				return false
			}
		}
		return true
	case opOr:
		// Two arms that can both be a struct (or a list) may both accept,
		// and CUE reports such a disjunction as ambiguous: only a single
		// arm of the data's kind is certain.
		arm := c.onlyArm(k)
		return arm != nil && arm.acceptsCollection(n, k, depth)
	case opList:
		if k != kList {
			return false
		}
		if c.elem == nil {
			return len(n.Content) == 0
		}
		for _, e := range n.Content {
			if !c.elem.accepts(e, depth+1) {
				return false
			}
		}
		return true
	case opStruct:
		if k != kStruct {
			return false
		}
		var seen uint64
		return c.entries(n, &seen, depth, 0) && seen&c.reqMask == c.reqMask
	}
	return false
}

// onlyArm returns the one sub-checker that admits data of kind k, or nil
// when none or several do.
func (c *checker) onlyArm(k kinds) *checker {
	var one *checker
	for _, s := range c.subs {
		if s.mask&k != 0 {
			if one != nil {
				return nil
			}
			one = s
		}
	}
	return one
}

// entries checks every key/value of mapping m as ToValue merges them. A
// key that repeats (explicitly or through merge keys) has every one of its
// values checked, so whichever ToValue keeps is known to pass.
func (c *checker) entries(m *yaml.Node, seen *uint64, depth, merges int) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Value == "<<" && k.ShortTag() == "!!merge" {
			mv := node.Resolve(v)
			if mv == nil || mv.Kind != yaml.MappingNode {
				continue // ToValue ignores a merge of anything but a mapping
			}
			if merges > 32 || !c.entries(mv, seen, depth, merges+1) {
				return false
			}
			continue
		}
		known := false
		if idx, ok := c.fields[k.Value]; ok {
			known = true
			*seen |= 1 << idx
			if !c.vals[idx].accepts(v, depth+1) {
				return false
			}
		}
		for _, p := range c.patterns {
			if p.key.acceptsScalar(scalar{kind: kString, s: k.Value}) {
				known = true
				if !p.val.accepts(v, depth+1) {
					return false
				}
			}
		}
		if !known && !c.open {
			return false
		}
	}
	return true
}

// fastDef is one definition's compiled checker, built on first use.
type fastDef struct {
	once sync.Once
	chk  *checker
}

var fastDefs sync.Map // name -> *fastDef

// fastChecker returns the checker of a definition, built once: from the
// generated source (fastpath_gen.go, written by go generate from the same
// compiler) when it holds the definition, so a valid document never starts
// the CUE runtime, or else compiled from the CUE value.
func fastChecker(name string) *checker {
	e, ok := fastDefs.Load(name)
	if !ok {
		e, _ = fastDefs.LoadOrStore(name, &fastDef{})
	}
	fd := e.(*fastDef)
	fd.once.Do(func() {
		if gen, ok := generatedCheckers[name]; ok {
			fd.chk = gen()
			return
		}
		fd.chk = compiledChecker(name)
	})
	return fd.chk
}

// compiledChecker compiles a definition's checker from its CUE value.
func compiledChecker(name string) *checker {
	d, err := Def(name)
	if err != nil {
		return &checker{op: opUnknown, why: err.Error()}
	}
	return compileDef(d, syntaxOf(), name)
}

// compileDef compiles the top-level definition name, whose value is d,
// when its source is plain.
func compileDef(d cue.Value, g *syntaxGuard, name string) *checker {
	if why := g.check(name); why != "" {
		return unknown(d, "%s", why)
	}
	cp := &compiler{active: map[string]bool{name: true}}
	return cp.compileValue(d, 0)
}

// fastValid reports whether root certainly satisfies the definition; false
// means "don't know", and CUE decides.
func fastValid(def string, root *yaml.Node) bool {
	return fastChecker(def).accepts(root, 0)
}

// syntaxGuard holds, per top-level definition, the first construct in its
// source the value compiler cannot be trusted with, and the definitions it
// references.
type syntaxGuard struct {
	global string // a problem that affects every definition
	own    map[string]string
	refs   map[string][]string
}

var (
	guardOnce sync.Once
	guard     *syntaxGuard
)

func syntaxOf() *syntaxGuard {
	guardOnce.Do(func() {
		files, err := parseFiles(schemacue.FS)
		if err != nil {
			guard = &syntaxGuard{global: err.Error()}
			return
		}
		guard = newSyntaxGuard(files)
	})
	return guard
}

// newSyntaxGuard reads the definitions of the files of one package.
func newSyntaxGuard(files []*ast.File) *syntaxGuard {
	g := &syntaxGuard{own: map[string]string{}, refs: map[string][]string{}}
	var decls []ast.Decl
	for _, f := range files {
		decls = append(decls, f.Decls...)
	}
	for _, d := range decls {
		switch d := d.(type) {
		case *ast.Package, *ast.CommentGroup:
			continue
		case *ast.Field:
			id, ok := d.Label.(*ast.Ident)
			if ok && strings.HasPrefix(id.Name, "#") && d.Alias == nil && d.Constraint == token.ILLEGAL {
				var refs []string
				why := plainExpr(d.Value, &refs)
				if g.own[id.Name] == "" {
					g.own[id.Name] = why // a definition may be declared in parts
				}
				g.refs[id.Name] = append(g.refs[id.Name], refs...)
				continue
			}
		}
		// Anything else at the top level (a comprehension, a let, an
		// import, an embedding) may add to any definition.
		g.global = fmt.Sprintf("top-level %T", d)
		return g
	}
	return g
}

// check returns why the definition (or one it references) must not be
// compiled, or "" when its source is plain.
func (g *syntaxGuard) check(name string) string {
	if g.global != "" {
		return g.global
	}
	return g.walk(name, map[string]bool{})
}

// walk searches everything name references; a definition already visited
// was plain, or the search would have stopped there.
func (g *syntaxGuard) walk(name string, visited map[string]bool) string {
	if visited[name] {
		return ""
	}
	visited[name] = true
	own, ok := g.own[name]
	if !ok {
		return "no top-level definition " + name
	}
	if own != "" {
		return name + ": " + own
	}
	for _, r := range g.refs[name] {
		if why := g.walk(r, visited); why != "" {
			return why
		}
	}
	return ""
}

// typeIdents are the predeclared identifiers a plain definition may use.
var typeIdents = map[string]bool{"string": true, "int": true, "float": true, "number": true, "bool": true}

// plainExpr returns "" when e uses only constructs the value compiler sees
// completely, collecting the definitions it references; otherwise what it
// found.
func plainExpr(e ast.Expr, refs *[]string) string {
	switch x := e.(type) {
	case *ast.Ident:
		if strings.HasPrefix(x.Name, "#") {
			*refs = append(*refs, x.Name)
			return ""
		}
		if typeIdents[x.Name] {
			return ""
		}
		return "reference to " + x.Name
	case *ast.BasicLit:
		switch x.Kind {
		case token.STRING, token.INT, token.FLOAT, token.NULL, token.TRUE, token.FALSE:
			return ""
		}
		return "literal " + x.Value
	case *ast.ParenExpr:
		return plainExpr(x.X, refs)
	case *ast.BinaryExpr:
		if x.Op != token.AND && x.Op != token.OR {
			return "operator " + x.Op.String()
		}
		if why := plainExpr(x.X, refs); why != "" {
			return why
		}
		return plainExpr(x.Y, refs)
	case *ast.UnaryExpr:
		switch x.Op {
		case token.GEQ, token.LEQ, token.GTR, token.LSS, token.MAT:
			return plainExpr(x.X, refs)
		}
		return "operator " + x.Op.String()
	case *ast.ListLit:
		for i, el := range x.Elts {
			el, ok := el.(*ast.Ellipsis)
			if !ok || i != len(x.Elts)-1 || el.Type == nil {
				return "a list that is not [...T]"
			}
			if why := plainExpr(el.Type, refs); why != "" {
				return why
			}
		}
		return ""
	case *ast.StructLit:
		for _, d := range x.Elts {
			switch d := d.(type) {
			case *ast.CommentGroup, *ast.Attribute:
			case *ast.Ellipsis:
				if d.Type != nil {
					return "a typed ... in a struct"
				}
			case *ast.Field:
				if d.Alias != nil {
					return "an aliased field"
				}
				if why := plainLabel(d.Label, refs); why != "" {
					return why
				}
				if why := plainExpr(d.Value, refs); why != "" {
					return why
				}
			default:
				return fmt.Sprintf("%T in a struct", d)
			}
		}
		return ""
	}
	return fmt.Sprintf("%T", e)
}

func plainLabel(l ast.Label, refs *[]string) string {
	switch l := l.(type) {
	case *ast.Ident:
		// A field named like a type or definition would be what those
		// identifiers refer to inside the struct.
		if strings.HasPrefix(l.Name, "#") || strings.HasPrefix(l.Name, "_") || typeIdents[l.Name] {
			return "a field labelled " + l.Name
		}
		return ""
	case *ast.BasicLit:
		if l.Kind == token.STRING {
			return ""
		}
	case *ast.ListLit:
		if len(l.Elts) == 1 {
			return plainExpr(l.Elts[0], refs)
		}
	}
	return fmt.Sprintf("a %T label", l)
}
