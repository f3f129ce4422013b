// Package arch checks the import graph against docs/architecture.md: each
// package imports only the project packages listed for it, so findings
// flow one way (discover → load → rules → filter → report).
package arch

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/resumelint/resumelint/"

// bench/ and test/ hold build-tagged tools and tests; they may import
// anything and are not listed.

// allowed lists, for every package of the module, the module packages it
// may import. A package missing here fails the test: adding one means
// deciding its place in the flow.
var allowed = map[string][]string{
	"cue":                       {},
	"docs":                      {},
	"internal/code":             {},
	"internal/lazyre":           {},
	"internal/par":              {},
	"internal/gitcmd":           {},
	"internal/gctune":           {"internal/gctune/heapstart"},
	"internal/gctune/heapstart": {},
	"internal/version":          {},
	"internal/secret":           {"internal/lazyre"},
	"internal/diag":             {"internal/lazyre", "internal/secret"},
	"internal/node":             {"internal/diag"},
	"internal/load":             {"internal/code", "internal/diag", "internal/gitcmd", "internal/lazyre", "internal/node", "internal/par"},
	"internal/schema":           {"cue", "internal/diag", "internal/lazyre", "internal/node"},
	"internal/model":            {"internal/diag", "internal/lazyre", "internal/load", "internal/node"},
	"internal/agentrun":         {"internal/code", "internal/diag", "internal/load", "internal/node"},
	"internal/bundle":           {"internal/code", "internal/diag", "internal/load", "internal/node"},
	// fix's migration writes recovery_state and the sub-sections from the
	// tables generated with model's views, not from a copy of the shape.
	"internal/fix":     {"internal/code", "internal/diag", "internal/lazyre", "internal/load", "internal/model", "internal/node"},
	"internal/gitbase": {"internal/gitcmd", "internal/load"},
	"internal/hook":    {"internal/diag", "internal/load"},
	"internal/rules": {"internal/agentrun", "internal/bundle", "internal/code", "internal/diag", "internal/fix",
		"internal/gitbase", "internal/lazyre", "internal/load", "internal/model", "internal/node", "internal/schema", "internal/secret"},
	"internal/engine": {"internal/code", "internal/diag", "internal/lazyre", "internal/load", "internal/rules"},
	// config reads .resumelint.yaml into plain data; it names rules (codes
	// and names in rules:, ignore: and directives) through the catalog,
	// but never runs or selects them: the engine is out of its reach.
	"internal/config": {"internal/code", "internal/diag", "internal/fix", "internal/lazyre", "internal/load",
		"internal/node", "internal/par", "internal/rules", "internal/schema"},
	// filter is the stage after the engine: it takes engine.Result and
	// asks the run's rules.Selection, the one answer to "does this rule
	// run?" that the engine asked too.
	"internal/filter": {"internal/code", "internal/config", "internal/diag", "internal/engine", "internal/load", "internal/par", "internal/rules"},
	// report renders findings; rule metadata comes in as data
	// (Input.Rules), the help text from the rule pages (docs).
	"internal/report": {"docs", "internal/agentrun", "internal/code", "internal/diag", "internal/load"},
	"internal/lsp":    {"docs", "internal/diag", "internal/fix", "internal/load", "internal/rules"},
	"internal/cli":    nil, // the command line wires everything
	"cmd/resumelint":  {"internal/cli", "internal/gctune", "internal/gctune/heapstart"},
}

// heavyImports are packages no file of the binary may import: their
// initialisers (and those of what they link) run before main in every
// process, a one-file lint included; tests may use them.
var heavyImports = map[string]string{
	"cuelang.org/go/cue/cuecontext": "it links every CUE builtin and encoding package; use schema.NewContext",
	"cuelang.org/go/pkg":            "CUE's builtin packages: the schemas import none",
	"cuelang.org/go/cue/load":       "it links cuecontext's dependencies; the schemas are embedded",
}

func TestImportGraph(t *testing.T) {
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	for _, top := range []string{"cue", "docs", "internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.IsDir() && (e.Name() == "testdata") {
				return filepath.SkipDir
			}
			if e.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			pkg := filepath.ToSlash(rel)
			seen[pkg] = true
			allow, known := allowed[pkg]
			if !known {
				t.Errorf("%s: package %s has no entry in the import table (docs/architecture.md)", p, pkg)
				return nil
			}
			f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if why, heavy := heavyImports[path]; heavy {
					t.Errorf("%s imports %s: %s", p, path, why)
				}
				dep, ok := strings.CutPrefix(path, module)
				if !ok || allow == nil {
					continue
				}
				if !slices.Contains(allow, dep) {
					t.Errorf("%s imports %s: %s may import only %v (docs/architecture.md)", p, dep, pkg, allow)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for pkg := range allowed {
		if !seen[pkg] {
			t.Errorf("the import table names %s, which has no Go files", pkg)
		}
	}
}
