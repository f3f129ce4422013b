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

// Str is a string field. Key is the key as written (nil when absent), Node
// the value whatever its type; OK reports that it is a string.
type Str struct {
	Value     string
	Key, Node *yaml.Node
	OK        bool
}

// StrOf reads m[key].
func StrOf(m *yaml.Node, key string) Str {
	k, v := node.Get(m, key)
	s, ok := node.Str(v)
	return Str{Value: s, Key: k, Node: v, OK: ok}
}

// Int is an integer field, read like Str.
type Int struct {
	Value     int
	Key, Node *yaml.Node
	OK        bool
}

// IntOf reads m[key].
func IntOf(m *yaml.Node, key string) Int {
	k, v := node.Get(m, key)
	n, ok := node.Int(v)
	return Int{Value: int(n), Key: k, Node: v, OK: ok}
}

// Bool is a boolean field, read like Str.
type Bool struct {
	Value     bool
	Key, Node *yaml.Node
	OK        bool
}

// BoolOf reads m[key].
func BoolOf(m *yaml.Node, key string) Bool {
	k, v := node.Get(m, key)
	b, ok := node.Bool(v)
	return Bool{Value: b, Key: k, Node: v, OK: ok}
}

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

// Float is a number field, read like Str.
type Float struct {
	Value     float64
	Key, Node *yaml.Node
	OK        bool
}

// FloatOf reads m[key].
func FloatOf(m *yaml.Node, key string) Float {
	k, v := node.Get(m, key)
	f, ok := node.Float(v)
	return Float{Value: f, Key: k, Node: v, OK: ok}
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

// listAt reads m[key] as a list, each item through of.
func listAt[T any](m *yaml.Node, key string, of func(k, v *yaml.Node) T) List[T] {
	k, v := node.Get(m, key)
	l := List[T]{Key: k, Node: v}
	if node.IsSeq(v) {
		l.Items = make([]T, len(v.Content))
		for i, e := range v.Content {
			l.Items[i] = of(nil, e)
		}
	}
	return l
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
