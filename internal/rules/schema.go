package rules

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/cue"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// validate reports every violation of a CUE definition at its data node.
// prefix names the validated subtree in messages ("resumption").
func validate(p *Pass, f *load.File, def string, root *yaml.Node, prefix string) {
	vs, err := schema.Validate(def, root, schema.Options{Prefix: prefix, Template: f.Template})
	if err != nil {
		p.Report(f, root, "internal: schema %s: %v", def, err)
		return
	}
	for _, v := range vs {
		n := v.Node
		if v.Key != nil {
			n = v.Key
		}
		fd := p.Report(f, n, "%s", v.Message)
		fd.NodePath = fmt.Sprint(prefix, v.Path)
	}
}

// requireMapping reports a document whose top level is not a mapping and
// returns false, so no rule works on the wrong shape.
func requireMapping(p *Pass, d *load.Document, what string) bool {
	if d == nil || d.Root == nil {
		return false
	}
	if !node.IsMap(d.Root) {
		p.Report(d.File, d.Root, "%s must be a mapping of keys to values, found %s", what, node.Kind(d.Root))
		return false
	}
	return true
}
