package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Text from a repository reaches output one way (docs/security.md,
// "Output cannot be forged from file content"): masked, then escaped. A
// path is such text; escaping it alone prints a credential in a folder
// name, and a path that starts a line needs SafeLine's guard against a
// workflow command. A finding's message is made safe where findings are
// made (diag.SafeText, called by the engine and the filter stage), so a
// finding made elsewhere would reach the reports raw.

// outputPackages write what a run found.
var outputPackages = []string{"internal/report", "internal/cli", "internal/lsp", "internal/hook"}

// escapeOnly are the functions that escape without masking.
var escapeOnly = map[string]bool{"diag.Escape": true, "hook.Clean": true, "Clean": true, "hook.CleanText": true, "CleanText": true}

// findingMakers may build a diag.Finding: their findings pass through
// diag.SafeText (the engine's units and cross-file rules, the loader's
// findings in a unit, the filter stage's RL007).
var findingMakers = map[string]bool{"internal/rules": true, "internal/load": true, "internal/engine": true, "internal/config": true, "internal/diag": true}

// TestPathsAreMaskedNotOnlyEscaped fails on diag.Escape (or the hook's
// Clean) applied to a Path field in an output package: use diag.Safe,
// diag.SafeLine or diag.SafePaths, which mask first.
func TestPathsAreMaskedNotOnlyEscaped(t *testing.T) {
	for _, pkg := range outputPackages {
		eachFile(t, pkg, func(fset *token.FileSet, f *ast.File) {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 1 || !escapeOnly[funcName(call.Fun)] {
					return true
				}
				if sel, ok := call.Args[0].(*ast.SelectorExpr); ok && (sel.Sel.Name == "Path" || sel.Sel.Name == "OSPath") {
					t.Errorf("%s: %s escapes a path without masking it: use diag.SafeLine, diag.Safe or diag.SafePaths", fset.Position(call.Pos()), funcName(call.Fun))
				}
				return true
			})
		})
	}
}

// TestFindingsAreMadeWhereTheirTextIsMadeSafe fails on a diag.Finding
// built outside findingMakers.
func TestFindingsAreMadeWhereTheirTextIsMadeSafe(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("..", "..", "internal"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []string{"cmd/resumelint"}
	for _, e := range entries {
		if e.IsDir() {
			pkgs = append(pkgs, "internal/"+e.Name())
		}
	}
	for _, pkg := range pkgs {
		if findingMakers[pkg] {
			continue
		}
		eachFile(t, pkg, func(fset *token.FileSet, f *ast.File) {
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				typ := lit.Type
				if arr, ok := typ.(*ast.ArrayType); ok && len(lit.Elts) > 0 {
					typ = arr.Elt
				}
				if funcName(typ) == "diag.Finding" {
					t.Errorf("%s: a finding made in %s skips diag.SafeText: report it from a rule, or make its text safe where the engine and the filter stage do", fset.Position(lit.Pos()), pkg)
				}
				return true
			})
		})
	}
}

// eachFile parses the non-test Go files of a package.
func eachFile(t *testing.T, pkg string, fn func(*token.FileSet, *ast.File)) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", pkg, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		fn(fset, f)
	}
}

// funcName is "pkg.Name" or "Name" for an identifier or a selector.
func funcName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
}
