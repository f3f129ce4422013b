package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/rules"
	"github.com/resumelint/resumelint/internal/schema"
	"github.com/resumelint/resumelint/test/golden"
)

// The exported JSON Schemas are checked here with a JSON Schema validator
// that shares no code with CUE (santhosh-tekuri/jsonschema, used only by
// this test): every file resumelint accepts must validate, so an editor
// never marks a valid file, and a broken file must not.

// compiledSchemas exports every schema and compiles it with the
// independent validator.
func compiledSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	out := map[string]*jsonschema.Schema{}
	for _, e := range schemaExports {
		data, err := exportSchema(e)
		if err != nil {
			t.Fatalf("export %s: %v", e.name, err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: exported schema is not JSON: %v", e.name, err)
		}
		if err := c.AddResource(SchemaID(e.name), doc); err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
	}
	for _, e := range schemaExports {
		s, err := c.Compile(SchemaID(e.name))
		if err != nil {
			t.Fatalf("%s: the exported schema does not compile: %v", e.name, err)
		}
		out[e.name] = s
	}
	return out
}

// instance is one document to validate: where it comes from, its schema
// and its JSON value.
type instance struct {
	where, kind string
	value       any
}

// schemaKind names the exported schema of a file by its path, "" for a
// file no schema describes (Markdown bodies, bundle outputs).
func schemaKind(p string) string {
	base := path.Base(p)
	switch {
	case strings.HasSuffix(base, ".template.yaml"):
		return "" // template mode: {PLACEHOLDER} values stand for any type
	case regexp.MustCompile(`^ORCHESTRATION(_[^/]*)?\.yaml$`).MatchString(base):
		return "orchestration"
	case strings.Contains(p, ".jerry/checkpoints/") && strings.HasSuffix(base, ".json"):
		return "checkpoint"
	case base == "precompact_state.json":
		return "precompact-state"
	case base == "resume-context.md" || base == "_resume.md":
		return "resume-context"
	case base == "TASK_SPEC.json":
		return "bundle-task-spec"
	case base == "STATUS.json":
		return "bundle-status"
	case base == "OUTPUT_HASHES.json":
		return "bundle-output-hashes"
	case strings.Contains(p, ".agent-memory/runs/") && base == "task-graph.json":
		return "task-graph"
	case strings.Contains(p, ".agent-memory/runs/") && strings.Contains(p, "/events/") && strings.HasSuffix(base, ".jsonl"):
		return "event"
	case base == ".resumelint.yaml":
		return "config"
	}
	return ""
}

// instances converts a file to the JSON documents its schema describes:
// YAML through the same node conversion resumelint gives CUE, Markdown's
// front matter, each line of an events file.
func instances(t *testing.T, where string, data []byte) []instance {
	kind := schemaKind(where)
	if kind == "" {
		return nil
	}
	switch {
	case kind == "event":
		var out []instance
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for i := 1; sc.Scan(); i++ {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(sc.Text()))
			if err != nil {
				continue // a corrupt line is RL503's, not the schema's
			}
			out = append(out, instance{fmt.Sprintf("%s line %d", where, i), kind, v})
		}
		return out
	case strings.HasSuffix(where, ".json"):
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		return []instance{{where, kind, v}}
	case strings.HasSuffix(where, ".md"):
		s := strings.ReplaceAll(string(data), "\r\n", "\n")
		if !strings.HasPrefix(s, "---\n") {
			t.Fatalf("%s: no front matter", where)
		}
		end := strings.Index(s[4:], "\n---")
		if end < 0 {
			t.Fatalf("%s: front matter not closed", where)
		}
		data = []byte(s[4 : 4+end+1])
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	root := &n
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		root = n.Content[0]
	}
	// Through JSON, as an editor's language server sees the document.
	js, err := json.Marshal(schema.ToValue(root))
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	return []instance{{where, kind, v}}
}

// passingInputs returns the documents of examples/clean and of the input
// files of the golden cases that pass (rlNNN_pass_*).
func passingInputs(t *testing.T) []instance {
	t.Helper()
	root := filepath.Join("..", "..")
	var out []instance
	clean := filepath.Join(root, "examples", "clean")
	err := filepath.WalkDir(clean, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out = append(out, instances(t, filepath.ToSlash(rel), data)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	goldens, err := filepath.Glob(filepath.Join(root, "testdata", "golden", "*pass*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	passing := regexp.MustCompile(`^rl[0-9]+_pass`)
	n := 0
	for _, g := range goldens {
		if !passing.MatchString(filepath.Base(g)) {
			continue // bundle_verify_cmp01_not_pass, fix_passes_and_refusals
		}
		n++
		ar, err := golden.Archive(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if skipGoldenFile[path.Base(g)+":"+f.Name] {
				continue
			}
			out = append(out, instances(t, filepath.Base(g)+":"+f.Name, f.Data)...)
		}
	}
	if n < 30 {
		t.Fatalf("found %d passing golden cases; the glob or the naming changed", n)
	}
	return out
}

// skipGoldenFile lists input files of passing cases that resumelint
// reports (a passing case of one rule may hold a file another rule
// flags), each with the reason.
var skipGoldenFile = map[string]bool{
	// The case shows RL304 staying quiet where RL301 reports the id.
	"rl304_pass_malformed_id.txtar:00-system/.cache/precompact_state.json": true,
}

func TestExportedSchemasAcceptValidFiles(t *testing.T) {
	schemas := compiledSchemas(t)
	ins := passingInputs(t)
	kinds := map[string]int{}
	for _, in := range ins {
		kinds[in.kind]++
		if err := schemas[in.kind].Validate(in.value); err != nil {
			t.Errorf("%s: the %s schema rejects a file resumelint accepts:\n%v", in.where, in.kind, err)
		}
	}
	var missing []string
	for _, e := range schemaExports {
		if e.name != "config" && kinds[e.name] == 0 {
			missing = append(missing, e.name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no valid file checked against %v", missing)
	}
}

// A broken file is rejected: the schemas are not so open that they accept
// anything. examples/broken plants one problem in each file.
func TestExportedSchemasRejectBrokenExamples(t *testing.T) {
	schemas := compiledSchemas(t)
	for _, rel := range []string{
		"examples/broken/ORCHESTRATION.yaml",
		"examples/broken/.jerry/checkpoints/cx-001-checkpoint.json",
		"examples/broken/00-system/.cache/precompact_state.json",
		"examples/broken/02-projects/07-example-project/01-planning/resume-context.md",
		"examples/broken/bundles/site-build-0142/STATUS.json",
		"examples/broken/.agent-memory/runs/2026-02-20-001/task-graph.json",
	} {
		data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		ins := instances(t, rel, data)
		if len(ins) != 1 {
			t.Fatalf("%s: %d documents", rel, len(ins))
		}
		if err := schemas[ins[0].kind].Validate(ins[0].value); err == nil {
			t.Errorf("%s: the %s schema accepts the broken example", rel, ins[0].kind)
		}
	}
	// And an empty object where the config's ignore entries need a path.
	if err := schemas["config"].Validate(map[string]any{"ignore": []any{map[string]any{}}}); err == nil {
		t.Error("config schema accepts an ignore entry without a path")
	}
}

// TestConfigSchemaKnowsTheRules: the configuration's schema accepts under
// rules: every code and name resumelint reads (a code in lower case too)
// and refuses what the loader refuses: a name or code of no rule.
func TestConfigSchemaKnowsTheRules(t *testing.T) {
	cfg := compiledSchemas(t)["config"]
	good := map[string]any{}
	for _, r := range rules.All() {
		good[r.Code], good[r.Name], good[strings.ToLower(r.Code)] = "warning", "off", "on"
	}
	if err := cfg.Validate(map[string]any{"rules": good}); err != nil {
		t.Errorf("a rule resumelint knows is refused: %v", err)
	}
	for _, key := range []string{"stale-resumptoin", "RL999", "rl999", "Stale-Resumption"} {
		if err := cfg.Validate(map[string]any{"rules": map[string]any{key: "off"}}); err == nil {
			t.Errorf("rules: %s is accepted", key)
		}
	}
}

// Editors evaluate "pattern" as ECMA-262 regular expressions, which have
// no inline flags such as (?i).
func TestExportedSchemaPatternsAreECMA(t *testing.T) {
	for _, e := range schemaExports {
		data, err := exportSchema(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`"pattern": "((?:[^"\\]|\\.)*)"`).FindAllSubmatch(data, -1) {
			if bytes.Contains(m[1], []byte("(?")) {
				t.Errorf("%s: pattern %s uses a Go-only group", e.name, m[1])
			}
		}
		if bytes.Contains(data, []byte(`"const": {}`)) {
			t.Errorf("%s: an open struct exported as the empty object", e.name)
		}
	}
}
