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
	fts := FactTypes()
	if len(fts) == 0 {
		t.Fatal("no facts declared")
	}
	for _, ft := range fts {
		if where := pooledIn(ft.Type, ft.Type.String(), map[reflect.Type]bool{}); where != "" {
			t.Errorf("fact %s holds %s", ft.Name, where)
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
	if typ == nodeType || typ == fileType || typ == bytesType || typ.Kind() == reflect.Slice && typ.Elem().Kind() == reflect.Uint8 {
		return path + " (" + typ.String() + ")"
	}
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch typ.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return pooledIn(typ.Elem(), path+"[]", seen)
	case reflect.Map:
		if w := pooledIn(typ.Key(), path+"{key}", seen); w != "" {
			return w
		}
		return pooledIn(typ.Elem(), path+"{}", seen)
	case reflect.Struct:
		for i := range typ.NumField() {
			f := typ.Field(i)
			if w := pooledIn(f.Type, path+"."+f.Name, seen); w != "" {
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
	rts := ResultTypes()
	if len(rts) == 0 {
		t.Fatal("no results declared")
	}
	for _, rt := range rts {
		if where := passIn(rt.Type, rt.Type.String(), map[reflect.Type]bool{}); where != "" {
			t.Errorf("result %s holds %s", rt.Name, where)
		}
	}
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
	if typ == passType || typ.Kind() == reflect.Func {
		return path + " (" + typ.String() + ")"
	}
	if seen[typ] {
		return ""
	}
	seen[typ] = true
	switch typ.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
		return passIn(typ.Elem(), path+"[]", seen)
	case reflect.Map:
		if w := passIn(typ.Key(), path+"{key}", seen); w != "" {
			return w
		}
		return passIn(typ.Elem(), path+"{}", seen)
	case reflect.Struct:
		for i := range typ.NumField() {
			f := typ.Field(i)
			if w := passIn(f.Type, path+"."+f.Name, seen); w != "" {
				return w
			}
		}
	}
	return ""
}
