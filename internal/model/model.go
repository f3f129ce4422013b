// Package model gives the documents resumelint checks typed views, read
// once per document: each field is a typed value together with the YAML
// node it was read from, so a rule reads a field and reports at its
// position without looking keys up by name.
package model

//go:generate go test -run ^TestViewsGenerated$ -update .

import (
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/node"
)

// Scalar is a field holding one scalar read as a T. Key is the key as
// written (nil when absent), Node the value whatever its type; OK reports
// that it is a T.
type Scalar[T any] struct {
	Value     T
	Key, Node *yaml.Node
	OK        bool
}

// The scalar fields views hold.
type (
	Str   = Scalar[string]
	Int   = Scalar[int]
	Bool  = Scalar[bool]
	Float = Scalar[float64]
)

// scalarOf reads m[key] with read.
func scalarOf[T any](m *yaml.Node, key string, read func(*yaml.Node) (T, bool)) Scalar[T] {
	k, v := node.Get(m, key)
	return scalarKV(k, v, read)
}

// scalarKV reads the value v of key k with read.
func scalarKV[T any](k, v *yaml.Node, read func(*yaml.Node) (T, bool)) Scalar[T] {
	x, ok := read(v)
	return Scalar[T]{Value: x, Key: k, Node: v, OK: ok}
}

// The readers of one key and its value that the generated views' single
// pass over a mapping calls (eachField), one per kind of field.
func strKV(k, v *yaml.Node) Str     { return scalarKV(k, v, node.Str) }
func boolKV(k, v *yaml.Node) Bool   { return scalarKV(k, v, node.Bool) }
func floatKV(k, v *yaml.Node) Float { return scalarKV(k, v, node.Float) }
func fieldKV(k, v *yaml.Node) Field { return Field{Key: k, Node: v} }
func intKV(k, v *yaml.Node) Int {
	return scalarKV(k, v, func(v *yaml.Node) (int, bool) {
		n, ok := node.Int(v)
		return int(n), ok
	})
}

// eachField calls set with each key of the mapping v and its value
// (aliases resolved), in order: a view reads its fields in one pass, and
// a later key wins, as with node.Get.
func eachField(v *yaml.Node, set func(key string, k, v *yaml.Node)) {
	v = node.Resolve(v)
	for i := 0; i+1 < len(v.Content); i += 2 {
		if k := v.Content[i]; k.Kind == yaml.ScalarNode {
			set(k.Value, k, node.Resolve(v.Content[i+1]))
		}
	}
}

// StrOf reads m[key].
func StrOf(m *yaml.Node, key string) Str { return scalarOf(m, key, node.Str) }

// IntOf reads m[key].
func IntOf(m *yaml.Node, key string) Int {
	return scalarOf(m, key, func(v *yaml.Node) (int, bool) {
		n, ok := node.Int(v)
		return int(n), ok
	})
}

// BoolOf reads m[key].
func BoolOf(m *yaml.Node, key string) Bool { return scalarOf(m, key, node.Bool) }

// FloatOf reads m[key].
func FloatOf(m *yaml.Node, key string) Float { return scalarOf(m, key, node.Float) }

// StrList returns a list of strings and their nodes, and whether n is a
// list whose every item is a string.
func StrList(n *yaml.Node) ([]string, []*yaml.Node, bool) {
	if !node.IsSeq(n) {
		return nil, nil, false
	}
	var out []string
	var nodes []*yaml.Node
	for _, c := range n.Content {
		s, ok := node.Str(c)
		if !ok {
			return nil, nil, false
		}
		out = append(out, s)
		nodes = append(nodes, c)
	}
	return out, nodes, true
}

// Field is a field whose value has no view of its own: its key and value
// as written (nil when absent).
type Field struct {
	Key, Node *yaml.Node
}

// FieldOf reads m[key].
func FieldOf(m *yaml.Node, key string) Field {
	k, v := node.Get(m, key)
	return Field{Key: k, Node: v}
}

// List is a list field whose items have a view: Items holds one per item
// of the list, in order, nil where an item is not a mapping.
type List[T any] struct {
	Key, Node *yaml.Node // nil when absent; Node whatever its type
	Items     []T
}

// listKV reads the value v of key k as a list, each item through of.
func listKV[T any](k, v *yaml.Node, of func(k, v *yaml.Node) T) List[T] {
	l := List[T]{Key: k, Node: v}
	if node.IsSeq(v) {
		l.Items = make([]T, len(v.Content))
		for i, e := range v.Content {
			l.Items[i] = of(nil, e)
		}
	}
	return l
}

// Coll is a field holding a mapping of id to item or a list of items (real
// files write both), each item read through its view.
type Coll[T any] struct {
	Key, Node *yaml.Node // nil when absent; Node whatever its type
	// Keys are the items' keys when Node is a mapping (nil for a list),
	// Vals the items as written, Items their views (nil where an item is
	// not a mapping); all three in order.
	Keys, Vals []*yaml.Node
	Items      []T
}

// collKV reads the value v of key k as a mapping or a list, each item
// through of.
func collKV[T any](k, v *yaml.Node, of func(k, v *yaml.Node) T) Coll[T] {
	c := Coll[T]{Key: k, Node: v}
	switch {
	case node.IsSeq(v):
		c.Vals, c.Items = make([]*yaml.Node, 0, len(v.Content)), make([]T, 0, len(v.Content))
		for _, e := range v.Content {
			e = node.Resolve(e)
			c.Vals, c.Items = append(c.Vals, e), append(c.Items, of(nil, e))
		}
	case node.IsMap(v):
		n := len(v.Content) / 2 // more only with merge keys
		c.Keys, c.Vals, c.Items = make([]*yaml.Node, 0, n), make([]*yaml.Node, 0, n), make([]T, 0, n)
		node.Pairs(v, func(ik, iv *yaml.Node) {
			c.Keys, c.Vals, c.Items = append(c.Keys, ik), append(c.Vals, iv), append(c.Items, of(ik, iv))
		})
	}
	return c
}

// FieldSpec is one field of a definition, as the generated tables list
// them: its key and whether the definition requires it (key!).
type FieldSpec struct {
	Name     string
	Required bool
}

// FieldNames returns the names of fields, in order.
func FieldNames(fields []FieldSpec) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}
