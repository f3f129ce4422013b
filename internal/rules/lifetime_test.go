package rules

import (
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
)

// TestFactsHoldNoPooledData: a fact outlives the unit that published it,
// while parse nodes are recycled and file bytes released when the unit is
// done. No declared fact may hold a *yaml.Node, a []byte or a *load.File,
// directly or nested in structs, slices, arrays, maps or pointers.
func TestFactsHoldNoPooledData(t *testing.T) {
	holdNone(t, "fact", FactTypes(), pooledIn)
}

// holdNone fails for each declared type of what that in finds something
// inside, and when none is declared.
func holdNone(t *testing.T, what string, types []FactType, in func(reflect.Type, string, map[reflect.Type]bool) string) {
	t.Helper()
	if len(types) == 0 {
		t.Fatalf("no %s declared", what)
	}
	for _, ft := range types {
		if where := in(ft.Type, ft.Type.String(), map[reflect.Type]bool{}); where != "" {
			t.Errorf("%s %s holds %s", what, ft.Name, where)
		}
	}
}

// TestPooledInFinds checks the walk itself on types that do hold
// pooled data somewhere deep.
func TestPooledInFinds(t *testing.T) {
	type inner struct{ N *yaml.Node }
	type rec struct {
		Next *rec
		M    map[string][]inner
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[*yaml.Node](), reflect.TypeFor[[]byte](), reflect.TypeFor[*load.File](),
		reflect.TypeFor[rec](), reflect.TypeFor[map[*load.File]int](), reflect.TypeFor[[2]struct{ B []byte }](),
		reflect.TypeFor[load.File](),
	} {
		if pooledIn(typ, typ.String(), map[reflect.Type]bool{}) == "" {
			t.Errorf("%s: not found", typ)
		}
	}
	if w := pooledIn(reflect.TypeFor[struct{ S []string }](), "s", map[reflect.Type]bool{}); w != "" {
		t.Errorf("plain struct: found %s", w)
	}
}

var (
	nodeType  = reflect.TypeFor[yaml.Node]()
	fileType  = reflect.TypeFor[load.File]()
	bytesType = reflect.TypeFor[[]byte]()
)

// pooledIn returns the path to pooled data inside typ, or "".
func pooledIn(typ reflect.Type, path string, seen map[reflect.Type]bool) string {
	return typeIn(typ, path, seen, func(typ reflect.Type) bool {
		return typ == nodeType || typ == fileType || typ == bytesType || typ.Kind() == reflect.Slice && typ.Elem().Kind() == reflect.Uint8
	})
}

// typeIn returns the path to a type inside typ that is reports true for,
// or "", through pointers, slices, arrays, channels, maps and fields.
func typeIn(typ reflect.Type, path string, seen map[reflect.Type]bool, is func(reflect.Type) bool) string {
	if is(typ) {
		return path + " (" + typ.String() + ")"
	}
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch typ.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return typeIn(typ.Elem(), path+"[]", seen, is)
	case reflect.Map:
		if w := typeIn(typ.Key(), path+"{key}", seen, is); w != "" {
			return w
		}
		return typeIn(typ.Elem(), path+"{}", seen, is)
	case reflect.Struct:
		for i := range typ.NumField() {
			f := typ.Field(i)
			if w := typeIn(f.Type, path+"."+f.Name, seen, is); w != "" {
				return w
			}
		}
	}
	return ""
}

// TestResultsHoldNoPass: the engine runs a unit's rules on one Pass
// (Pass.Next), so a per-unit result that kept the Pass it was computed
// with would later report for another rule. No declared result may hold
// a Pass, nor a func, which could hold one unseen.
func TestResultsHoldNoPass(t *testing.T) {
	holdNone(t, "result", ResultTypes(), passIn)
	type inner struct{ F func() }
	for _, typ := range []reflect.Type{reflect.TypeFor[*Pass](), reflect.TypeFor[map[string][]inner](), reflect.TypeFor[struct{ P [1]*Pass }]()} {
		if passIn(typ, typ.String(), map[reflect.Type]bool{}) == "" {
			t.Errorf("%s: not found", typ)
		}
	}
}

var passType = reflect.TypeFor[Pass]()

// passIn returns the path to a Pass or a func inside typ, or "".
func passIn(typ reflect.Type, path string, seen map[reflect.Type]bool) string {
	return typeIn(typ, path, seen, func(typ reflect.Type) bool { return typ == passType || typ.Kind() == reflect.Func })
}
