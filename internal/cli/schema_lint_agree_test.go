package cli

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
)

// The exported schemas accept every file lint accepts (exit 0, or only
// warnings): an editor marking a file the CI gate passes is a client
// telling a different truth. Checked on whole repositories, so the
// verdicts cross-file rules and the lifecycle give are the ones compared.

// lintVerdicts lints the repository in dir and returns, per display path,
// whether lint reported an error there; nil when lint did not run (a
// usage error: a broken configuration, no state file).
func lintVerdicts(t *testing.T, dir string) map[string]bool {
	t.Helper()
	code, out, _ := run(t, dir, "", "lint", "--format", "json", "--now", "2026-02-21T00:00:00Z")
	if code != 0 && code != 1 {
		return nil
	}
	var res struct {
		Findings []struct{ Path, Severity string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("lint --format json: %v\n%s", err, out)
	}
	errs := map[string]bool{}
	for _, f := range res.Findings {
		if f.Severity == "error" {
			errs[f.Path] = true
		}
	}
	return errs
}

// writeRepo writes files (slash paths) under dir.
func writeRepo(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// lintedState reports whether lint checks the file at name as the state
// file its schema describes: not a template, not in a default-excluded
// archive, and for an ORCHESTRATION file one that is a workflow.
func lintedState(name string, data []byte) bool {
	kind := schemaKind(name)
	if kind == "" || strings.Contains("/"+name, "/archive/") || strings.Contains("/"+name, "/_archive/") {
		return false
	}
	if kind == "orchestration" {
		var n yaml.Node
		if yaml.Unmarshal(data, &n) != nil || len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
			return false
		}
		return load.NotWorkflow(n.Content[0]) == ""
	}
	// Bundle files and agent runs are folders lint tells apart by format;
	// their own cases cover them (TestExportedSchemasAcceptValidFiles).
	return kind == "checkpoint" || kind == "precompact-state" || kind == "resume-context"
}

// historyCheckpoint lists checkpoints lint accepts because the workflow
// that owns them is finished (SPEC §0 Lifecycle): which workflow owns a
// checkpoint is known across files only, and a one-file schema cannot
// see it (docs/editors.md says so).
var historyCheckpoint = map[string]bool{
	"lifecycle_finished_history.txtar:.jerry/checkpoints/cx-001-checkpoint.json":    true,
	"lifecycle_finished_history_ok.txtar:.jerry/checkpoints/cx-001-checkpoint.json": true,
}

var (
	compiledOnce sync.Once
	compiled     map[string]*jsonschema.Schema
)

// compiledSchemasOnce is compiledSchemas, compiled once for the tests
// that validate many repositories.
func compiledSchemasOnce(t *testing.T) map[string]*jsonschema.Schema {
	compiledOnce.Do(func() { compiled = compiledSchemas(t) })
	if compiled == nil {
		t.Fatal("the exported schemas did not compile")
	}
	return compiled
}

// acceptedByLint validates, against the exported schemas, every state
// file of the repository lint reports no error in, and returns the paths
// lint rejected.
func acceptedByLint(t *testing.T, label string, files map[string][]byte) (checked, rejected []string) {
	t.Helper()
	schemas := compiledSchemasOnce(t)
	dir := t.TempDir()
	writeRepo(t, dir, files)
	errs := lintVerdicts(t, dir)
	if errs == nil {
		return nil, nil
	}
	for name, data := range files {
		if !lintedState(name, data) {
			continue
		}
		if historyCheckpoint[label+":"+name] {
			continue
		}
		if errs[name] {
			rejected = append(rejected, name)
			continue
		}
		checked = append(checked, name)
		for _, in := range instances(t, label+":"+name, data) {
			if err := schemas[in.kind].Validate(in.value); err != nil {
				t.Errorf("%s: lint accepts it, the %s schema does not:\n%v", in.where, in.kind, err)
			}
		}
	}
	sort.Strings(checked)
	sort.Strings(rejected)
	return checked, rejected
}

// Every state file of every golden case that lint accepts there.
func TestExportedSchemasAcceptWhatLintAcceptsInGoldens(t *testing.T) {
	if testing.Short() {
		t.Skip("lints every golden repository")
	}
	goldens, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, g := range goldens {
		ar, err := txtar.ParseFile(g)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		state, configured := false, false
		for _, f := range ar.Files {
			if path.IsAbs(f.Name) || strings.Contains(f.Name, "..") {
				continue
			}
			// Configuration may turn rules off or exclude files.
			configured = configured || path.Base(f.Name) == ".resumelint.yaml"
			files[f.Name] = f.Data
			state = state || lintedState(f.Name, f.Data)
		}
		if !state || configured {
			continue
		}
		checked, _ := acceptedByLint(t, filepath.Base(g), files)
		total += len(checked)
	}
	if total < 100 {
		t.Errorf("only %d accepted state files in the goldens; the walk or the lint run changed", total)
	}
}
