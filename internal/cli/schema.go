package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/encoding/jsonschema"

	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/schema"
)

func init() { subcommands["schema"] = (*Command).schema }

// schemaExport is one JSON Schema `resumelint schema export` writes.
type schemaExport struct {
	name  string // KIND argument and file name
	def   string // CUE definition
	title string
}

// schemaExports lists every exported schema, one per kind (a bundle has
// three artifacts, an agent run a task graph and event lines).
var schemaExports = []schemaExport{
	{"orchestration", "#OrchestrationFile", "ORCHESTRATION.yaml (the resumption section; other keys are open)"},
	{"checkpoint", "#CheckpointFile", "checkpoint file (.jerry/checkpoints/*.json), seed or runtime form"},
	{"precompact-state", "#PrecompactState", "precompact_state.json"},
	{"resume-context", "#ResumeContextExport", "resume-context.md front matter (either version, or a finished project's)"},
	{"bundle-task-spec", "#TaskSpec", "SPECTRUM-02 bundle TASK_SPEC.json"},
	{"bundle-status", "#Status", "SPECTRUM-02 bundle STATUS.json"},
	{"bundle-output-hashes", "#OutputHashes", "SPECTRUM-02 bundle OUTPUT_HASHES.json"},
	{"task-graph", "#TaskGraph", "agent run task-graph.json"},
	{"event", "#Event", "one line of an agent run's events/<actor>/*.jsonl"},
	{"config", "#Config", ".resumelint.yaml"},
}

// SchemaID is the $id of an exported schema.
func SchemaID(name string) string {
	return "https://github.com/resumelint/resumelint/schemas/" + name + ".schema.json"
}

func (c *Command) schema(args []string) (int, error) {
	names := make([]string, len(schemaExports))
	for i, e := range schemaExports {
		names[i] = e.name
	}
	usageText := "usage: resumelint schema export [--out DIR] [KIND]\nKIND: " + strings.Join(names, ", ") + ", or bundle (its three artifacts)"
	fs := newFlagSet("schema export")
	out := fs.String("out", "", "write KIND.schema.json files into DIR (every kind when KIND is not given)")
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		return ExitUsage, schemaHelp(fs, names)
	}
	if len(args) == 0 || args[0] != "export" {
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") && suggest(args[0], []string{"export"}) != "" {
			return ExitUsage, usagef("unknown command \"schema %s\"; did you mean \"schema export\"? (run 'resumelint schema export -h')", args[0])
		}
		return ExitUsage, usagef("%s", usageText)
	}
	rest, err := c.parseArgs(fs, args[1:])
	var help *helpRequest
	if errors.As(err, &help) {
		return ExitUsage, schemaHelp(fs, names)
	}
	if err != nil {
		return ExitUsage, err
	}
	var sel []schemaExport
	switch {
	case len(rest) > 1:
		return ExitUsage, usagef("%s", usageText)
	case len(rest) == 0:
		sel = schemaExports
	default:
		for _, e := range schemaExports {
			if e.name == rest[0] || rest[0] == "bundle" && strings.HasPrefix(e.name, "bundle-") {
				sel = append(sel, e)
			}
		}
		if len(sel) == 0 {
			return ExitUsage, usagef("unknown schema %q\n%s", rest[0], usageText)
		}
	}
	if *out == "" && len(sel) != 1 {
		return ExitUsage, usagef("several schemas: name one KIND to print it, or write them all with --out DIR\n%s", usageText)
	}
	for _, e := range sel {
		data, err := exportSchema(e)
		if err != nil {
			return ExitInternal, err
		}
		if *out == "" {
			_, err = c.Stdout.Write(data)
			return ExitOK, err
		}
		p := filepath.Join(load.Abs(c.Cwd, *out), e.name+".schema.json")
		if err := writeReport(repoRoot(c.Cwd), c.Cwd, p, func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return ExitUsage, usagef("writing %s: %v", load.Display(c.Cwd, p), err)
		}
		fmt.Fprintln(c.Stdout, filepath.ToSlash(filepath.Join(*out, e.name+".schema.json")))
	}
	return ExitOK, nil
}

// openStructs corrects what CUE's JSON Schema generator makes of an open
// struct with no fields, `{...}`: it writes `"const": {}` ("must be the
// empty object"), where CUE means any object.
func openStructs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if c, ok := x["const"].(map[string]any); ok && len(c) == 0 {
			delete(x, "const")
			x["type"] = "object"
		}
		for k, e := range x {
			x[k] = openStructs(e)
		}
	case []any:
		for i, e := range x {
			x[i] = openStructs(e)
		}
	}
	return v
}

// forbiddenFields are optional fields a definition declares as _|_ (must
// not be there), which CUE's generator exports as `true` (anything).
var forbiddenFields = map[string][]string{
	"ResumptionV1Export": {"recovery_state"},
}

// forbidFields writes the fields of forbiddenFields as `false`.
func forbidFields(doc any) {
	m, _ := doc.(map[string]any)
	defs, _ := m["$defs"].(map[string]any)
	for def, fields := range forbiddenFields {
		d, _ := defs[def].(map[string]any)
		props, _ := d["properties"].(map[string]any)
		for _, f := range fields {
			if props != nil {
				props[f] = false
			}
		}
	}
}

// schemaHelp is the usage of schema export, with the kinds it knows.
func schemaHelp(fs *flag.FlagSet, names []string) *helpRequest {
	h := helpOf(fs)
	h.text += "\nKIND: " + strings.Join(names, ", ") + ", or bundle (its three artifacts)\n"
	return h
}

// exportSchema generates the JSON Schema (draft 2020-12) of one CUE
// definition, with an $id and a title.
func exportSchema(e schemaExport) ([]byte, error) {
	v, err := schema.Def(e.def)
	if err != nil {
		return nil, err
	}
	expr, err := jsonschema.Generate(v, &jsonschema.GenerateConfig{})
	if err != nil {
		return nil, fmt.Errorf("generating the %s schema: %w", e.name, err)
	}
	if st, ok := expr.(*ast.StructLit); ok {
		head := []ast.Decl{
			&ast.Field{Label: ast.NewString("$id"), Value: ast.NewString(SchemaID(e.name))},
			&ast.Field{Label: ast.NewString("title"), Value: ast.NewString("resumelint: " + e.title)},
		}
		at := 0
		if len(st.Elts) > 0 {
			at = 1 // after $schema
		}
		st.Elts = append(st.Elts[:at], append(head, st.Elts[at:]...)...)
	}
	jv := schema.NewContext().BuildExpr(expr) // the generated schema stands alone
	if jv.Err() != nil {
		return nil, fmt.Errorf("generating the %s schema: %w", e.name, jv.Err())
	}
	raw, err := json.Marshal(jv)
	if err != nil {
		return nil, fmt.Errorf("generating the %s schema: %w", e.name, err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("generating the %s schema: %w", e.name, err)
	}
	forbidFields(doc)
	if e.name != "config" {
		openUnknownKeys(doc)
	} else {
		configRuleKeys(doc)
	}
	if e.name == "orchestration" {
		orchestrationLifecycle(doc)
	}
	data, err := json.MarshalIndent(openStructs(doc), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("generating the %s schema: %w", e.name, err)
	}
	return append(data, '\n'), nil
}
