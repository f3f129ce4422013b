package load

import (
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/node"
)

// yamlTagKinds are the tags YAML's safe loaders construct (PyYAML's
// safe_load, go-yaml, js-yaml's default schema), each with the kind of
// node it applies to. Any other tag (a local one such as !custom, or a
// language's, such as !!python/object/apply:…) is refused by safe loaders,
// and a full loader builds an object of the language from it, which can
// run code: no reader of a state file takes it as data.
var yamlTagKinds = map[string]yaml.Kind{
	"!!str": yaml.ScalarNode, "!!int": yaml.ScalarNode, "!!float": yaml.ScalarNode,
	"!!bool": yaml.ScalarNode, "!!null": yaml.ScalarNode, "!!timestamp": yaml.ScalarNode,
	"!!binary": yaml.ScalarNode, "!!merge": yaml.ScalarNode,
	"!!map": yaml.MappingNode, "!!set": yaml.MappingNode,
	"!!seq": yaml.SequenceNode, "!!omap": yaml.SequenceNode, "!!pairs": yaml.SequenceNode,
}

// tag checks a tag the file spells out on n (RL001): one no safe loader
// constructs, one of another kind of node (!!str on a mapping), a scalar
// its tag does not fit (!!int abc: readers raise an error), and !!merge on
// a key that is not <<, which PyYAML and js-yaml merge and go-yaml reads
// as a key of that name.
func (c *treeCheck) tag(n *yaml.Node) {
	if n.Kind != yaml.ScalarNode && n.Kind != yaml.MappingNode && n.Kind != yaml.SequenceNode {
		return
	}
	t := n.ShortTag()
	kind, ok := yamlTagKinds[t]
	switch {
	case !ok:
		c.refuse(n, "the tag %s is not a YAML type: safe loaders refuse the file, full loaders build an object from it (and may run code)", clipTag(t))
	case kind != n.Kind:
		c.refuse(n, "the tag %s does not apply to %s: readers refuse the file; remove the tag", t, node.Kind(n))
	case t == "!!merge":
		if n.Value != "<<" {
			c.refuse(n, "the tag !!merge on a key other than <<: some readers merge the value, others read a key of that name; write <<, or remove the tag")
		}
	case n.Kind == yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			c.refuse(n, "the value does not fit its tag %s: readers refuse the file; fix the value or remove the tag", t)
		}
	}
}

// clipTag shortens a tag for a message, its secrets masked first: a
// credential cut short may no longer match its pattern.
func clipTag(t string) string {
	t = diag.Mask(t)
	if r := []rune(t); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return t
}
