// Package model gives the documents resumelint checks typed views, read
// once per document: each field is a typed value together with the YAML
// node it was read from, so a rule reads a field and reports at its
// position without looking keys up by name.
package model

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
	Value int
	Node  *yaml.Node
	OK    bool
}

// IntOf reads m[key].
func IntOf(m *yaml.Node, key string) Int {
	v := node.Val(m, key)
	n, ok := node.Int(v)
	return Int{Value: int(n), Node: v, OK: ok}
}

// Bool is a boolean field, read like Str.
type Bool struct {
	Value bool
	Node  *yaml.Node
	OK    bool
}

// BoolOf reads m[key].
func BoolOf(m *yaml.Node, key string) Bool {
	v := node.Val(m, key)
	b, ok := node.Bool(v)
	return Bool{Value: b, Node: v, OK: ok}
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
