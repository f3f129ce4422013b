package rules

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/schema"
)

// UnknownKey reports keys no reader of a kind knows (SPEC §0, §3.1): a
// warning once per mapping, never a schema error.
var UnknownKey = &Rule{Code: code.UnknownKey, Name: "unknown-key", Severity: diag.SevWarning, Family: "common",
	Summary: "keys no reader of that kind knows, one finding per mapping", Run: runUnknownKey}

func init() { Register(UnknownKey) }

// CompileSchemaAside starts compiling the CUE schema on a goroutine of its
// own. The rules compile it on the first document the generated checker
// cannot prove valid (about 10 ms), and every worker that meets such a
// document meanwhile waits: on many cores, all of them. A run of many
// units, which will almost surely meet one, compiles it while the first
// units are checked instead.
func CompileSchemaAside() {
	go func() { _ = schema.Compile() }() // an error is the rules' to report, when they need it
}

// schemaCheck is one validated subtree and its result.
type schemaCheck struct {
	file   *load.File
	def    string
	root   *yaml.Node
	prefix string
	res    schema.Result
	err    error
}

// schemaTarget is one subtree of a unit its kind's schema rule validates.
type schemaTarget struct {
	file   *load.File
	def    string
	root   *yaml.Node
	prefix string
}

// schemaTargets are, per kind, the subtrees of a unit its schema rule
// (RL102, RL201, RL301, RL311, RL403, RL501) validates, decided from the
// unit alone; one whose shape is wrong has none (its rule says so).
var schemaTargets = map[load.Kind]func(p *Pass) []schemaTarget{
	load.KindOrchestration: func(p *Pass) []schemaTarget {
		if t := resumptionTarget.Of(p); t != nil {
			return []schemaTarget{*t}
		}
		return nil
	},
	load.KindCheckpoint: func(p *Pass) []schemaTarget {
		if p.Doc == nil || !node.IsMap(p.Doc.Root) {
			return nil
		}
		def := "#Checkpoint"
		if checkpointOf(p).Runtime.CheckpointID.Key != nil {
			def = "#RuntimeCheckpoint"
		}
		return []schemaTarget{{p.Doc.File, def, p.Doc.Root, ""}}
	},
	load.KindPrecompact: func(p *Pass) []schemaTarget {
		if p.Doc == nil || !node.IsMap(p.Doc.Root) {
			return nil
		}
		return []schemaTarget{{p.Doc.File, "#PrecompactState", PrecompactOf(p).View, ""}}
	},
	load.KindResumeContext: func(p *Pass) []schemaTarget {
		if r := ResumeOf(p); r != nil {
			return []schemaTarget{{p.Doc.File, r.Def, r.View, ""}}
		}
		return nil
	},
	load.KindBundle: func(p *Pass) []schemaTarget {
		var out []schemaTarget
		for _, name := range load.BundleArtifacts {
			d := p.Bundle.Artifacts[name]
			if d == nil || !node.IsMap(d.Root) || name == "OUTPUT_HASHES.json" && !seedShaped(d.Root) {
				continue
			}
			out = append(out, schemaTarget{d.File, bundleDefs[name], d.Root, ""})
		}
		return out
	},
	load.KindAgentRun: func(p *Pass) []schemaTarget {
		if d := p.Run.TaskGraph; d != nil && node.IsMap(d.Root) {
			return []schemaTarget{{d.File, "#TaskGraph", d.Root, ""}}
		}
		return nil
	},
}

// schemaChecks are the unit's schema results: each of its kind's targets
// checked once, on first use. The schema rule reports their violations
// and RL010 their unknown keys, neither running the other.
var schemaChecks = NewResult("schema-checks", func(p *Pass) *[]*schemaCheck {
	checks := []*schemaCheck{}
	if targets := schemaTargets[unitKind(p)]; targets != nil {
		for _, t := range targets(p) {
			c := &schemaCheck{file: t.file, def: t.def, root: t.root, prefix: t.prefix}
			c.res, c.err = schema.Check(t.def, t.root, schemaOptions(p, t.prefix, t.file))
			checks = append(checks, c)
		}
	}
	return &checks
})

// schemaOptions are the options the unit's files are checked with: the
// keys schema.allow_keys allows for its kind are RL010's to leave out,
// never folded into a violation.
func schemaOptions(p *Pass, prefix string, f *load.File) schema.Options {
	opt := schema.Options{Prefix: prefix, Template: f.Template}
	if allow := p.Opts.AllowKeys[unitKind(p)]; len(allow) > 0 {
		opt.Allowed = func(name, full string) bool { return allowed(allow, name, full) }
	}
	return opt
}

// checkSchema validates root against def once per unit: the kind's schema
// rule reports the violations, RL010 the unknown keys.
func checkSchema(p *Pass, f *load.File, def string, root *yaml.Node, prefix string) *schemaCheck {
	checks := schemaChecks.Of(p)
	for _, c := range *checks {
		if c.def == def && c.root == root && c.prefix == prefix && c.file.Path == f.Path {
			return c
		}
	}
	c := &schemaCheck{file: f, def: def, root: root, prefix: prefix}
	c.res, c.err = schema.Check(def, root, schemaOptions(p, prefix, f))
	*checks = append(*checks, c)
	return c
}

// validate reports every violation of a CUE definition at its data node.
// prefix names the validated subtree in messages ("resumption").
func validate(p *Pass, f *load.File, def string, root *yaml.Node, prefix string, opts ...Option) {
	c := checkSchema(p, f, def, root, prefix)
	if c.err != nil {
		p.Report(f, root, fmt.Sprintf("internal: schema %s: %v", def, c.err), opts...)
		return
	}
	reportViolations(p, f, prefix, c.res.Violations, opts...)
}

// reportViolations reports schema violations at their data nodes.
func reportViolations(p *Pass, f *load.File, prefix string, vs []schema.Violation, opts ...Option) {
	for _, v := range vs {
		n := v.Node
		if v.Key != nil {
			n = v.Key
		}
		p.Report(f, n, v.Message, append([]Option{WithNodePath(fmt.Sprint(prefix, v.Path))}, opts...)...)
	}
}

// runUnknownKey reports the unknown keys the unit's schema results hold
// (their rules report the violations).
func runUnknownKey(p *Pass) {
	kind := unitKind(p)
	allow := p.Opts.AllowKeys[kind]
	for _, c := range *schemaChecks.Of(p) {
		for _, g := range groupUnknown(c.res.Unknown) {
			reportUnknown(p, c, g, allow)
		}
	}
}

// unknownGroup is the unknown keys of one mapping, or the same unknown
// keys of several items of one list (one cause: how the list's entries are
// written), reported once.
type unknownGroup struct {
	first schema.UnknownKeys
	items int
	list  []string
}

func groupUnknown(us []schema.UnknownKeys) []unknownGroup {
	var out []unknownGroup
	at := map[string]int{}
	for _, u := range us {
		names := make([]string, len(u.Keys))
		for i, k := range u.Keys {
			names[i] = k.Value
		}
		var list []string
		key := strings.Join(u.Path, "\x00")
		if n := len(u.Path); n > 0 && isIndexLabel(u.Path[n-1]) {
			list = u.Path[:n-1]
			key = strings.Join(list, "\x00") + "\x01[]\x01" + strings.Join(names, "\x00")
		}
		if i, ok := at[key]; ok && list != nil {
			out[i].items++
			continue
		}
		at[key] = len(out)
		out = append(out, unknownGroup{first: u, items: 1, list: list})
	}
	return out
}

func isIndexLabel(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// unitKind is the kind of the unit a pass checks.
func unitKind(p *Pass) load.Kind {
	if p.Unit == nil {
		return load.KindUnknown
	}
	return p.Unit.UnitKind()
}

func reportUnknown(p *Pass, c *schemaCheck, g unknownGroup, allow []string) {
	u := g.first
	where := schema.DisplayPath(c.prefix, u.Path)
	var names []string
	var at *yaml.Node
	hint := ""
	var candidates []string // the known keys the mapping lacks, looked up once
	if len(u.Keys) > 0 {
		candidates = absent(u.Mapping, u.Known)
	}
	for i, k := range u.Keys {
		full := k.Value
		if where != "" {
			full = where + "." + k.Value
		}
		if allowed(allow, k.Value, full) {
			continue
		}
		if at == nil {
			at = k
		}
		names = append(names, k.Value)
		if hint == "" && i < maxSuggest {
			if s := schema.Suggest(k.Value, candidates); s != "" {
				hint = fmt.Sprintf(" (did you mean %s for %s?)", s, k.Value)
			}
		}
	}
	if len(names) == 0 {
		return
	}
	if len(names) == 1 && hint != "" {
		hint = hint[:strings.Index(hint, " for ")] + "?)"
	}
	in := "in " + where
	switch {
	case g.items > 1:
		in = fmt.Sprintf("in %d items of %s", g.items, schema.DisplayPath(c.prefix, g.list))
	case where == "":
		in = "at the top level"
	}
	noun := "key"
	if len(names) > 1 {
		noun = "keys"
	}
	msg := diag.Fit(4, func(n int) string {
		return fmt.Sprintf("unknown %s %s %s%s; remove or rename, or allow in schema.allow_keys", noun, diag.List(names, n), in, hint)
	})
	p.Report(c.file, at, msg, WithNodePath(fmt.Sprint(c.prefix, u.Path)))
}

// maxSuggest bounds the keys of one mapping looked at for a misspelling:
// a mapping of 100,000 unknown keys is not a typo.
const maxSuggest = 1000

// allowed reports whether schema.allow_keys accepts a key, by name or path.
func allowed(allow []string, name, full string) bool {
	for _, a := range allow {
		if a == name || a == full {
			return true
		}
	}
	return false
}

// absent returns the names the mapping does not already hold.
func absent(m *yaml.Node, names []string) []string {
	var out []string
	for _, n := range names {
		// names are any definition's fields, chosen at run time.
		if !node.Has(m, n) {
			out = append(out, n)
		}
	}
	return out
}

// requireMapping reports a document whose top level is not a mapping and
// returns false, so no rule works on the wrong shape.
func requireMapping(p *Pass, d *load.Document, what string) bool {
	if d == nil || d.Root == nil {
		return false
	}
	if !node.IsMap(d.Root) {
		p.Report(d.File, d.Root, fmt.Sprintf("%s must be a mapping of keys to values, found %s", what, node.Kind(d.Root)))
		return false
	}
	return true
}
