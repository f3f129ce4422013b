package schema

// The fast path's compiler reads the CUE syntax of the embedded files
// alone: it never starts the CUE runtime, and what it understands is
// decided by the syntax tree, not by a second representation that must
// agree with it. In the supported subset closedness is syntactic: every
// struct inside a definition is closed unless it holds `...`.
//
// Supported: top (_), the kinds string, int, float, number and bool; string, int,
// bool and null literals; integer bounds <, <=, >, >=; =~ with a string
// literal; & and | of these; lists [...T] and []; structs of required (!),
// optional (?) and regular fields, pattern constraints [K]: V and `...`;
// references to top-level definitions. Anything else compiles to an
// unknown node that accepts nothing, so CUE decides: a value the compiler
// does not understand leaves that field to CUE; a struct element it does
// not understand (an embedding, a comprehension, a let, an alias, a label
// that could shadow an identifier) leaves the whole struct to CUE; a
// top-level construct other than a definition leaves every definition to
// CUE, as it may change any of them.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"

	schemacue "github.com/resumelint/resumelint/cue"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
)

// allKinds is the mask of a node whose kinds the compiler does not know.
const allKinds = kNull | kBool | kInt | kFloat | kString | kStruct | kList

// typeIdents are the predeclared kinds a definition may name.
var typeIdents = map[string]kinds{"string": kString, "int": kInt, "float": kFloat, "number": kInt | kFloat, "bool": kBool}

// boundOps maps the syntax of a bound to the operator the checker compares with.
var boundOps = map[token.Token]cue.Op{token.LSS: cue.LessThanOp, token.LEQ: cue.LessThanEqualOp,
	token.GTR: cue.GreaterThanOp, token.GEQ: cue.GreaterThanEqualOp}

// defSyntax holds the top-level definitions of the files of one package.
type defSyntax struct {
	global string              // a top-level construct that may change every definition
	defs   map[string]ast.Expr // name -> value
	order  []string            // names, in source order
	bad    map[string]string   // a definition the compiler leaves to CUE, and why
}

// newDefSyntax reads the top-level definitions of the files of one package.
func newDefSyntax(files []*ast.File) *defSyntax {
	s := &defSyntax{defs: map[string]ast.Expr{}, bad: map[string]string{}}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.Package, *ast.CommentGroup, *ast.Attribute:
				continue
			case *ast.Field:
				id, ok := d.Label.(*ast.Ident)
				if ok && strings.HasPrefix(id.Name, "#") && d.Alias == nil && d.Constraint == token.ILLEGAL {
					s.add(id.Name, d.Value)
					continue
				}
			}
			if s.global == "" {
				s.global = fmt.Sprintf("top-level %s", syntaxName(d))
			}
		}
	}
	return s
}

func (s *defSyntax) add(name string, v ast.Expr) {
	if _, dup := s.defs[name]; dup {
		s.bad[name] = "declared in more than one place"
		return
	}
	s.defs[name] = v
	s.order = append(s.order, name)
}

// def compiles the top-level definition name.
func (s *defSyntax) def(name string) *checker {
	switch _, ok := s.defs[name]; {
	case s.global != "":
		return unknownNode(allKinds, "%s", s.global)
	case !ok:
		return unknownNode(allKinds, "no top-level definition %s", name)
	}
	cp := &compiler{syntax: s, active: map[string]bool{}}
	return cp.ref(name, 0)
}

// syntaxName names a syntax node's type for a reason: *ast.EmbedDecl → an EmbedDecl.
func syntaxName(n ast.Node) string {
	return "an " + strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast.")
}

func unknownNode(mask kinds, format string, args ...any) *checker {
	return &checker{op: opUnknown, mask: mask, why: fmt.Sprintf(format, args...)}
}

// compiler compiles one definition; active holds the definitions being
// compiled, so a recursive one ends in an unknown node instead of an
// endless (or exponential) tree.
type compiler struct {
	syntax *defSyntax
	active map[string]bool
}

// ref compiles a reference to a top-level definition.
func (cp *compiler) ref(name string, depth int) *checker {
	e, ok := cp.syntax.defs[name]
	switch {
	case !ok:
		return unknownNode(allKinds, "a reference to %s, which is not a top-level definition", name)
	case cp.syntax.bad[name] != "":
		return unknownNode(allKinds, "%s: %s", name, cp.syntax.bad[name])
	case cp.active[name]:
		return unknownNode(allKinds, "a recursive reference to %s", name)
	}
	cp.active[name] = true
	defer delete(cp.active, name)
	return cp.expr(e, depth)
}

// expr compiles one value.
func (cp *compiler) expr(e ast.Expr, depth int) *checker {
	if depth > maxDepth {
		return unknownNode(allKinds, "nesting deeper than %d", maxDepth)
	}
	switch x := e.(type) {
	case *ast.Ident:
		if x.Name == "_" {
			return &checker{op: opAny, mask: allKinds}
		}
		if k, ok := typeIdents[x.Name]; ok {
			return &checker{op: opKinds, mask: k, allow: k}
		}
		if strings.HasPrefix(x.Name, "#") {
			return cp.ref(x.Name, depth+1)
		}
		return unknownNode(allKinds, "a reference to %s", x.Name)
	case *ast.BasicLit:
		return literalChecker(x, false)
	case *ast.ParenExpr:
		return cp.expr(x.X, depth+1)
	case *ast.BinaryExpr:
		return cp.binary(x, depth)
	case *ast.UnaryExpr:
		return unaryChecker(x)
	case *ast.ListLit:
		return cp.list(x, depth)
	case *ast.StructLit:
		return cp.structLit(x, depth)
	}
	return unknownNode(allKinds, "%s", syntaxName(e))
}

// operands flattens a chain of one operator: a | (b | c) has three.
func operands(e ast.Expr, op token.Token, out []ast.Expr) []ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			break
		}
		e = p.X
	}
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == op {
		return operands(b.Y, op, operands(b.X, op, out))
	}
	return append(out, e)
}

// binary compiles a conjunction or a disjunction.
func (cp *compiler) binary(x *ast.BinaryExpr, depth int) *checker {
	var c *checker
	switch x.Op {
	case token.AND:
		c = &checker{op: opAnd, mask: allKinds}
	case token.OR:
		c = &checker{op: opOr}
	default:
		return unknownNode(allKinds, "the operator %s", x.Op)
	}
	why, collections := "", 0
	for _, a := range operands(x, x.Op, nil) {
		s := cp.expr(a, depth+1)
		c.subs = append(c.subs, s)
		if c.op == opOr {
			c.mask |= s.mask
			continue
		}
		c.mask &= s.mask
		if s.op == opUnknown && why == "" {
			why = s.why
		}
		if s.mask&(kStruct|kList) != 0 {
			collections++
		}
	}
	switch {
	case why != "":
		return unknownNode(c.mask, "%s", why)
	case collections > 1:
		// Closedness across conjoined structs (embedding, #A & #B) has
		// subtle rules; plain schemas conjoin scalars only.
		return unknownNode(c.mask, "a conjunction of structs or lists")
	}
	return c
}

// literalChecker compiles a literal; negative negates an integer.
func literalChecker(x *ast.BasicLit, negative bool) *checker {
	switch x.Kind {
	case token.NULL:
		return &checker{op: opLit, mask: kNull, lit: scalar{kind: kNull}}
	case token.TRUE, token.FALSE:
		return &checker{op: opLit, mask: kBool, lit: scalar{kind: kBool, b: x.Kind == token.TRUE}}
	case token.STRING:
		s, err := literal.Unquote(x.Value)
		if err != nil || negative {
			return unknownNode(kString, "the string %s", x.Value)
		}
		return &checker{op: opLit, mask: kString, lit: scalar{kind: kString, s: s}}
	case token.INT:
		i, ok := intLiteral(x.Value, negative)
		if !ok {
			return unknownNode(kInt, "the integer %s", x.Value)
		}
		return &checker{op: opLit, mask: kInt, lit: scalar{kind: kInt, i: i}}
	case token.FLOAT:
		return unknownNode(kFloat, "a float literal %s", x.Value)
	}
	return unknownNode(allKinds, "the literal %s", x.Value)
}

// intLiteral reads a decimal, hexadecimal, octal or binary integer without
// multipliers (1Ki) or a leading zero.
func intLiteral(s string, negative bool) (int64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if len(s) > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9' {
		return 0, false
	}
	if negative {
		s = "-" + s
	}
	i, err := strconv.ParseInt(s, 0, 64)
	return i, err == nil
}

// unaryChecker compiles a bound, a pattern or a negative integer.
func unaryChecker(x *ast.UnaryExpr) *checker {
	lit, _ := x.X.(*ast.BasicLit)
	if neg, ok := x.X.(*ast.UnaryExpr); ok && neg.Op == token.SUB {
		if l, ok := neg.X.(*ast.BasicLit); ok && l.Kind == token.INT {
			lit = &ast.BasicLit{Kind: token.INT, Value: "-" + l.Value}
		}
	}
	switch {
	case x.Op == token.SUB && lit != nil && lit.Kind == token.INT:
		return literalChecker(lit, true)
	case boundOps[x.Op] != 0:
		if lit == nil || lit.Kind != token.INT {
			return unknownNode(kInt|kFloat|kString, "a bound that is not an integer")
		}
		b, ok := intLiteral(strings.TrimPrefix(lit.Value, "-"), strings.HasPrefix(lit.Value, "-"))
		// float64 holds every integer up to 2^53 exactly, so a float is
		// compared with the bound as CUE compares its shortest decimal.
		if !ok || b > 1<<53 || b < -(1<<53) {
			return unknownNode(kInt|kFloat, "a bound out of range")
		}
		return &checker{op: opBound, mask: kInt | kFloat, cmp: boundOps[x.Op], bound: b}
	case x.Op == token.MAT:
		if lit == nil || lit.Kind != token.STRING {
			return unknownNode(kString, "a pattern that is not a string literal")
		}
		s, err := literal.Unquote(lit.Value)
		if err != nil {
			return unknownNode(kString, "pattern %s: %v", lit.Value, err)
		}
		if _, err := regexp.Compile(s); err != nil { // CUE matches with Go's regexp too
			return unknownNode(kString, "pattern %s: %v", diag.QuoteFull(s), err)
		}
		return &checker{op: opRegex, mask: kString, re: lazyre.New(s)}
	}
	return unknownNode(allKinds, "the operator %s", x.Op)
}

// list compiles [] and [...T].
func (cp *compiler) list(x *ast.ListLit, depth int) *checker {
	switch len(x.Elts) {
	case 0:
		return &checker{op: opList, mask: kList}
	case 1:
		if el, ok := x.Elts[0].(*ast.Ellipsis); ok && el.Type != nil {
			return &checker{op: opList, mask: kList, elem: cp.expr(el.Type, depth+1)}
		}
	}
	return unknownNode(kList, "a list that is not [] or [...T]")
}

// structLit compiles a struct: closed unless it holds `...`.
func (cp *compiler) structLit(x *ast.StructLit, depth int) *checker {
	c := &checker{op: opStruct, mask: kStruct, fields: map[string]int{}}
	for _, d := range x.Elts {
		why := ""
		switch d := d.(type) {
		case *ast.CommentGroup, *ast.Attribute:
		case *ast.Ellipsis:
			if d.Type != nil {
				why = "a typed ... in a struct"
			}
			c.open = true
		case *ast.Field:
			why = cp.field(c, d, depth)
		default:
			why = syntaxName(d) + " in a struct"
		}
		if why != "" {
			return unknownNode(kStruct, "%s", why)
		}
	}
	return c
}

// field adds one field or pattern constraint to c; it returns why the
// struct cannot be compiled, or "".
func (cp *compiler) field(c *checker, d *ast.Field, depth int) string {
	if d.Alias != nil {
		return "an aliased field"
	}
	var name string
	switch l := d.Label.(type) {
	case *ast.Ident:
		name = l.Name
	case *ast.BasicLit:
		s, err := literal.Unquote(l.Value)
		if l.Kind != token.STRING || err != nil {
			return "the label " + l.Value
		}
		name = s
	case *ast.ListLit:
		if len(l.Elts) != 1 || d.Constraint != token.ILLEGAL {
			return "a label that is not a pattern [K]"
		}
		key := cp.expr(l.Elts[0], depth+1)
		if key.op == opUnknown {
			return "a pattern constraint: " + key.why
		}
		c.patterns = append(c.patterns, pattern{key: key, val: cp.expr(d.Value, depth+1)})
		return ""
	default:
		return syntaxName(l) + " label"
	}
	// A field labelled like a kind or a definition would be what that
	// identifier refers to inside the struct.
	if _, ok := typeIdents[name]; ok || strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_") {
		return "a field labelled " + name
	}
	if _, dup := c.fields[name]; dup || len(c.vals) == 64 {
		return fmt.Sprintf("field %s repeated or more than 64 fields", diag.QuoteFull(name))
	}
	idx := len(c.vals)
	c.fields[name] = idx
	c.names = append(c.names, name)
	c.vals = append(c.vals, cp.expr(d.Value, depth+1))
	if d.Constraint != token.OPTION {
		// Required, or regular: a regular field the data omits may still
		// be fine (a concrete value), but that is CUE's to decide.
		c.reqMask |= 1 << idx
	}
	return ""
}

// embedded is the syntax of the embedded definitions, parsed once.
var embedded = sync.OnceValue(func() *defSyntax {
	files, err := parseFiles(schemacue.FS)
	if err != nil {
		return &defSyntax{global: err.Error()}
	}
	return newDefSyntax(files)
})
