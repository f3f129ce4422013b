package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the length, from the func keyword to the closing brace,
// that no hand-written function or function literal reaches: a longer one
// does several things, and each deserves a name and a doc comment.
const maxFuncLines = 100

// TestFunctionLength fails on a function of maxFuncLines lines or more in
// any Go file of the module, test files and generated ones included: the
// generators split long output into functions (internal/schema's
// checkerEmitter), and a long test keeps its table of cases or its setup
// apart. Folders named testdata and hidden folders are skipped, as the go
// command skips them: what they hold is not code of the module.
func TestFunctionLength(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if e.Name() == "testdata" || (p != root && strings.HasPrefix(e.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			name := "a function literal"
			switch x := n.(type) {
			case *ast.FuncDecl:
				body, name = x.Body, x.Name.Name
			case *ast.FuncLit:
				body = x.Body
			}
			if body == nil {
				return true
			}
			start, end := fset.Position(n.Pos()), fset.Position(body.End())
			if lines := end.Line - start.Line + 1; lines >= maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines long: split it below %d", p, start.Line, name, lines, maxFuncLines)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
