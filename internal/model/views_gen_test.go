package model

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	schemacue "github.com/resumelint/resumelint/cue"
)

// go generate (see model.go) runs this test with -update to write
// views_gen.go; without -update it checks that the committed file is what
// the generator makes of the .cue files now.
var updateViews = flag.Bool("update", false, "rewrite views_gen.go from the .cue files")

const viewsFile = "views_gen.go"

// viewSources are the files whose struct definitions rules read through
// views: the schema's, and those only views are generated from. A source
// with defs yields views of those definitions alone, each under the name
// given (a name another source also defines, such as agentrun.cue's #Task,
// is read under its own).
var viewSources = []struct {
	fsys fs.FS
	name string
	defs map[string]string
}{
	{schemacue.FS, "common.cue", nil}, {schemacue.FS, "resumption.cue", nil}, {schemacue.FS, "checkpoint.cue", nil},
	{schemacue.FS, "nexus.cue", nil},
	{schemacue.FS, "bundle.cue", map[string]string{"#Status": "#Status", "#StatusError": "#StatusError", "#OutputHashes": "#OutputHashes"}},
	{schemacue.FS, "agentrun.cue", map[string]string{"#Task": "#GraphTask"}},
	{schemacue.Views, "views/orchestration.cue", nil},
	{schemacue.Views, "views/aliases.cue", nil},
}

func TestViewsGenerated(t *testing.T) {
	want, err := generateViews()
	if err != nil {
		t.Fatal(err)
	}
	if *updateViews {
		if err := os.WriteFile(viewsFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(viewsFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go generate ./internal/model (the .cue files or the view generator changed)", viewsFile)
	}
}

// cueDefs holds the top-level definitions of the view sources.
type cueDefs struct {
	exprs map[string]ast.Expr
	order []string // struct definitions, in source order
	file  map[string]string
	cue   map[string]string // the definition's name in its file
	used  map[string]bool   // the constructors the views call
	// same maps a view's fields (names, kinds and whether required) to
	// the first definition that has them: a later one with the same
	// fields is an alias of its view.
	same map[string]string
	// regexps are the key expressions of the pattern fields, one
	// declaration each.
	regexps []string
}

func readDefs() (*cueDefs, error) {
	d := &cueDefs{exprs: map[string]ast.Expr{}, file: map[string]string{}, cue: map[string]string{}}
	for _, vs := range viewSources {
		name := vs.name
		src, err := fs.ReadFile(vs.fsys, name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.Field)
			if !ok {
				continue
			}
			id, ok := fd.Label.(*ast.Ident)
			if !ok || !strings.HasPrefix(id.Name, "#") {
				continue
			}
			def := id.Name
			if vs.defs != nil {
				if def = vs.defs[id.Name]; def == "" {
					continue
				}
			}
			d.exprs[def], d.file[def], d.cue[def] = fd.Value, name, id.Name
			if len(structFields(fd.Value)) > 0 {
				d.order = append(d.order, def)
			}
		}
	}
	return d, nil
}

// structFields returns the regular fields of a struct literal, nil for
// anything else.
func structFields(e ast.Expr) []*ast.Field {
	s, ok := e.(*ast.StructLit)
	if !ok {
		return nil
	}
	var out []*ast.Field
	for _, el := range s.Elts {
		if f, ok := el.(*ast.Field); ok {
			if _, ok := f.Label.(*ast.Ident); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

// generateViews writes a view type and its constructor for every struct
// definition of the view sources.
func generateViews() ([]byte, error) {
	d, err := readDefs()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	d.used, d.same = map[string]bool{}, map[string]string{}
	for _, name := range d.order {
		d.emit(&b, name)
	}
	for _, r := range d.regexps {
		b.WriteString(r)
	}
	for _, def := range d.order {
		name := goName(strings.TrimPrefix(def, "#"))
		if d.used[lowerFirst(name)+"At"] {
			fmt.Fprintf(&b, "\nfunc %sAt(m *yaml.Node, key string) *%s { return %sOf(node.Get(m, key)) }\n", lowerFirst(name), name, name)
		}
		if d.used[lowerFirst(name)+"CollAt"] {
			fmt.Fprintf(&b, "\nfunc %sCollAt(m *yaml.Node, key string) Coll[*%s] {\n\tk, v := node.Get(m, key)\n\treturn collKV(k, v, %sOf)\n}\n", lowerFirst(name), name, name)
		}
		if d.used[lowerFirst(name)+"ListAt"] {
			fmt.Fprintf(&b, "\nfunc %sListAt(m *yaml.Node, key string) List[*%s] {\n\tk, v := node.Get(m, key)\n\treturn listKV(k, v, %sOf)\n}\n", lowerFirst(name), name, name)
		}
	}
	imports := "\t\"go.yaml.in/yaml/v3\"\n\n"
	if len(d.regexps) > 0 {
		imports += "\t\"github.com/resumelint/resumelint/internal/lazyre\"\n"
	}
	imports += "\t\"github.com/resumelint/resumelint/internal/node\"\n"
	head := "// Code generated by go generate ./internal/model from the .cue files; DO NOT EDIT.\n\npackage model\n\nimport (\n" + imports + ")\n"
	return format.Source([]byte(head + b.String()))
}

func (d *cueDefs) emit(b *strings.Builder, def string) {
	name := goName(strings.TrimPrefix(def, "#"))
	var fields, cases, specs []string
	for _, f := range structFields(d.exprs[def]) {
		key := f.Label.(*ast.Ident).Name
		typ, ctor := d.goType(f.Value)
		d.used[ctor] = true
		fields = append(fields, fmt.Sprintf("\t%s %s // %s\n", goName(key), typ, key))
		cases = append(cases, fmt.Sprintf("case %q:\nx.%s = %s", key, goName(key), kvRead(ctor)))
		specs = append(specs, fmt.Sprintf("{Name: %q, Required: %t}", key, f.Constraint == token.NOT))
	}
	var patterns []string
	for _, pf := range d.patternFields(d.exprs[def]) {
		typ, ctor := d.goType(pf.value)
		if !strings.HasPrefix(typ, "*") {
			panic(fmt.Sprintf("%s: a pattern field's value must be a struct definition, not %s", def, typ))
		}
		re := fmt.Sprintf("%s%sKey", lowerFirst(name), pf.name)
		fields = append(fields, fmt.Sprintf("\t%s []%s // keys matching %s\n", pf.name, typ, pf.re))
		patterns = append(patterns, fmt.Sprintf("if %s.MatchString(key) {\nif y := %s; y != nil {\nx.%s = append(x.%s, y)\n}\n}", re, kvRead(ctor), pf.name, pf.name))
		d.regexps = append(d.regexps, fmt.Sprintf("\n// %s matches the keys of %s's %s.\nvar %s = lazyre.New(%s)\n", re, d.cue[def], pf.name, re, strconv.Quote(pf.re)))
	}
	if len(patterns) > 0 {
		cases = append(cases, "default:\n"+strings.Join(patterns, "\n"))
	}
	sig := strings.Join(fields, "") + strings.Join(specs, ",")
	if first, ok := d.same[sig]; ok {
		d.emitAlias(b, def, first)
		return
	}
	d.same[sig] = def
	fmt.Fprintf(b, "\n// %s is a mapping read as %s (cue/%s): each field's value and node.\ntype %s struct {\n\tKey, Node *yaml.Node\n%s", name, d.cue[def], d.file[def], name, strings.Join(fields, ""))
	fmt.Fprintf(b, "}\n\n// %sFields are %s's fields, in the order the definition lists them.\nvar %sFields = []FieldSpec{\n%s,\n}\n", name, d.cue[def], name, strings.Join(specs, ",\n"))
	fmt.Fprintf(b, "\n// %sOf reads v, whose key is k (nil for a root or a list item); nil when v is not a mapping.\n", name)
	fmt.Fprintf(b, "func %sOf(k, v *yaml.Node) *%s {\n\tif !node.IsMap(v) {\n\t\treturn nil\n\t}\n", name, name)
	fmt.Fprintf(b, "\tx := &%s{Key: k, Node: v}\n\teachField(v, func(key string, fk, fv *yaml.Node) {\n\t\tswitch key {\n%s\n\t\t}\n\t})\n\treturn x\n}\n", name, strings.Join(cases, "\n"))
}

// emitAlias writes the view of def as first's: a definition that lists
// the same fields with the same kinds (#ResumeContextV2 beside
// #ResumeContext, whose values' constraints differ) reads the same way.
func (d *cueDefs) emitAlias(b *strings.Builder, def, first string) {
	name, to := goName(strings.TrimPrefix(def, "#")), goName(strings.TrimPrefix(first, "#"))
	fmt.Fprintf(b, "\n// %s is a mapping read as %s (cue/%s), whose fields are %s's.\ntype %s = %s\n", name, d.cue[def], d.file[def], d.cue[first], name, to)
	fmt.Fprintf(b, "\n// %sFields are %s's fields, in the order the definition lists them.\nvar %sFields = %sFields\n", name, d.cue[def], name, to)
	fmt.Fprintf(b, "\n// %sOf reads v, whose key is k (nil for a root or a list item); nil when v is not a mapping.\nfunc %sOf(k, v *yaml.Node) *%s { return %sOf(k, v) }\n", name, name, name, to)
}

// patternField is a pattern constraint of a definition that views read:
// `[=~"_cycle$"]: #TaskCycle @view(Cycles)` gathers every key matching
// the expression into the field named by the attribute.
type patternField struct {
	name, re string
	value    ast.Expr
}

// patternFields returns the pattern constraints of a struct literal that
// carry a @view(Name) attribute; others stay constraints only.
func (d *cueDefs) patternFields(e ast.Expr) []patternField {
	s, ok := e.(*ast.StructLit)
	if !ok {
		return nil
	}
	var out []patternField
	for _, el := range s.Elts {
		f, ok := el.(*ast.Field)
		if !ok {
			continue
		}
		l, ok := f.Label.(*ast.ListLit)
		if !ok || len(l.Elts) != 1 {
			continue
		}
		u, ok := l.Elts[0].(*ast.UnaryExpr)
		if !ok || u.Op != token.MAT {
			continue
		}
		lit, ok := u.X.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue
		}
		re, err := strconv.Unquote(lit.Value)
		if err != nil {
			continue
		}
		for _, a := range f.Attrs {
			if k, body := a.Split(); k == "view" {
				out = append(out, patternField{name: body, re: re, value: f.Value})
			}
		}
	}
	return out
}

// kvRead is the reader of one key and its value (fk, fv) for the field
// whose reader by key is ctor: a view reads its mapping in one pass.
func kvRead(ctor string) string {
	switch ctor {
	case "StrOf", "IntOf", "BoolOf", "FloatOf", "FieldOf", "StrListOf":
		return lowerFirst(strings.TrimSuffix(ctor, "Of")) + "KV(fk, fv)"
	}
	for _, c := range []struct{ suffix, reader string }{{"CollAt", "collKV"}, {"ListAt", "listKV"}} {
		if n, ok := strings.CutSuffix(ctor, c.suffix); ok {
			return c.reader + "(fk, fv, " + upperFirst(n) + "Of)"
		}
	}
	return upperFirst(strings.TrimSuffix(ctor, "At")) + "Of(fk, fv)"
}

// goType returns the view type of a field's value and the function that
// reads it from its mapping.
func (d *cueDefs) goType(e ast.Expr) (typ, ctor string) {
	switch c := d.category(e, 0); {
	case c == "string", c == "int", c == "bool", c == "float":
		t := map[string]string{"string": "Str", "int": "Int", "bool": "Bool", "float": "Float"}[c]
		return t, t + "Of"
	case c == "[string]":
		return "StrListField", "StrListOf"
	case strings.HasPrefix(c, "<#"):
		n := goName(strings.TrimSuffix(strings.TrimPrefix(c, "<#"), ">"))
		return "Coll[*" + n + "]", lowerFirst(n) + "CollAt"
	case strings.HasPrefix(c, "[#"):
		n := goName(strings.TrimSuffix(strings.TrimPrefix(c, "[#"), "]"))
		return "List[*" + n + "]", lowerFirst(n) + "ListAt"
	case strings.HasPrefix(c, "#"):
		n := goName(strings.TrimPrefix(c, "#"))
		return "*" + n, lowerFirst(n) + "At"
	}
	return "Field", "FieldOf"
}

// category names what a value holds: a scalar kind, a list of one, a
// struct definition (#Name), a list of one ([#Name]), a mapping of any
// keys to one ({#Name}), either of the last two (<#Name>), or "" when it is
// none of these. null beside another alternative is ignored: the view's
// OK tells a null from a value.
func (d *cueDefs) category(e ast.Expr, depth int) string {
	if depth > 20 {
		return ""
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return d.category(e.X, depth+1)
	case *ast.Ident:
		if k, ok := map[string]string{"string": "string", "int": "int", "bool": "bool", "number": "float", "float": "float"}[e.Name]; ok {
			return k
		}
		if x, ok := d.exprs[e.Name]; ok {
			if len(structFields(x)) > 0 {
				return e.Name
			}
			return d.category(x, depth+1)
		}
	case *ast.BasicLit:
		switch e.Kind {
		case token.STRING:
			return "string"
		case token.INT:
			return "int"
		case token.TRUE, token.FALSE:
			return "bool"
		case token.NULL:
			return "null"
		}
	case *ast.UnaryExpr:
		if e.Op == token.MAT {
			return "string"
		}
		return "bound"
	case *ast.BinaryExpr:
		return d.binary(e, depth)
	case *ast.StructLit:
		if len(e.Elts) == 1 {
			if f, ok := e.Elts[0].(*ast.Field); ok {
				if _, ok := f.Label.(*ast.ListLit); ok {
					if c := d.category(f.Value, depth+1); strings.HasPrefix(c, "#") {
						return "{" + c + "}"
					}
				}
			}
		}
	case *ast.ListLit:
		if len(e.Elts) == 1 {
			if el, ok := e.Elts[0].(*ast.Ellipsis); ok && el.Type != nil {
				if c := d.category(el.Type, depth+1); c == "string" || strings.HasPrefix(c, "#") {
					return "[" + c + "]"
				}
			}
		}
	}
	return ""
}

func (d *cueDefs) binary(e *ast.BinaryExpr, depth int) string {
	x, y := d.category(e.X, depth+1), d.category(e.Y, depth+1)
	switch e.Op {
	case token.OR:
		switch {
		case x == "null":
			return y
		case y == "null", x == y:
			return x
		case strings.HasPrefix(x, "{#") && y == "["+x[1:len(x)-1]+"]":
			return "<" + x[1:len(x)-1] + ">"
		}
	case token.AND:
		switch {
		case x == "bound":
			return y
		case y == "bound", x == y:
			return x
		}
	}
	return ""
}

// goName spells a CUE label as a Go identifier: snake_case to CamelCase,
// "id" as ID.
func goName(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		if w == "id" {
			b.WriteString("ID")
			continue
		}
		r := []rune(w)
		if len(r) > 0 {
			r[0] = unicode.ToUpper(r[0])
		}
		b.WriteString(string(r))
	}
	return b.String()
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

func upperFirst(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
