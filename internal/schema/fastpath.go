package schema

// The fast path: most documents are valid, and proving that through CUE
// (encode, unify, validate) is most of a lint's CPU. Each definition is
// compiled once into a small checker tree from its CUE syntax
// (fastpath_compile.go), and a document the checker accepts is valid
// without touching CUE.
//
// The checker only ever answers "certainly valid" or "don't know": any
// construct the compiler does not fully understand compiles to an unknown
// node, which accepts nothing, so the document goes through CUE, which
// produces every message. fastpath_compile.go lists the constructs
// understood.
//
// The checkers of the embedded definitions are compiled ahead of time into
// fastpath_gen.go, so a valid document never starts the CUE runtime (about
// 7 ms of compiling the schema in a one-file lint), and described, one
// file per definition, in testdata/fastpath/ (which fields are on the fast
// path, which are left to CUE and why); tests fail when either is stale.

//go:generate go test -run ^TestFastpath(Generated|Dump)$ -update .

import (
	"math"
	"math/big"
	"sync"

	"cuelang.org/go/cue"
	"go.yaml.in/yaml/v3"

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
	opAny // _: any value at all
)

// checker is one node of a compiled definition.
type checker struct {
	op   checkOp
	mask kinds // the kinds the value admits
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
	// huge is a number beyond int64 or float64 (ToValue hands CUE a big
	// value): only its kind is known here, so only a kind check decides.
	huge bool
}

// maxDepth bounds both the compiler (recursive definitions) and the checker
// (deep documents); beyond it the answer is "don't know".
const maxDepth = 200

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
	tag := scalarTag(n)
	switch tag {
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
		if sc, ok := hugeScalar(n, tag); ok {
			return n, sc
		}
	case "!!float":
		if f, ok := node.Float(n); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return n, scalar{kind: kFloat, f: f}
		}
		if sc, ok := hugeScalar(n, tag); ok {
			return n, sc
		}
	}
	return n, scalar{kind: kString, s: n.Value}
}

// hugeScalar classifies a number bigNumber makes.
func hugeScalar(n *yaml.Node, tag string) (scalar, bool) {
	switch bigNumber(n, tag).(type) {
	case *big.Int:
		return scalar{kind: kInt, huge: true}, true
	case *big.Float:
		return scalar{kind: kFloat, huge: true}, true
	}
	return scalar{}, false
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
	case opAny:
		return true
	case opKinds:
		return c.allow&sc.kind != 0
	case opLit:
		if sc.kind != c.lit.kind || sc.huge {
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
		if sc.huge {
			return false // CUE decides
		}
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
	case opAny:
		return true
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
// the CUE runtime, or else compiled from the embedded files' syntax.
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
		fd.chk = embedded().def(name)
	})
	return fd.chk
}

// fastValid reports whether root certainly satisfies the definition; false
// means "don't know", and CUE decides.
func fastValid(def string, root *yaml.Node) bool {
	return fastChecker(def).accepts(root, 0)
}
