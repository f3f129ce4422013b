package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ruleCodeLiteral is a rule code inside a Go string literal.
var ruleCodeLiteral = regexp.MustCompile(`RL[0-9]{3}`)

// codeOwners may spell a rule code as a literal: internal/code defines the
// constants and internal/rules the catalog. Everything else names a rule
// through internal/code, so renumbering or retiring a rule is one edit and
// a search for the constant finds every place that speaks of it.
var codeOwners = []string{"internal/code", "internal/rules"}

// TestNoRuleCodeLiterals fails on a string literal holding a rule code
// ("RL503", "see RL503", a format string) in a non-test Go file outside
// internal/code and internal/rules. Comments are not literals.
func TestNoRuleCodeLiterals(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if e.IsDir() {
			if e.Name() == "testdata" || (rel != "." && strings.HasPrefix(e.Name(), ".")) || ownsCodes(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		checkCodeLiterals(t, p, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func ownsCodes(rel string) bool {
	for _, o := range codeOwners {
		if rel == o {
			return true
		}
	}
	return false
}

func checkCodeLiterals(t *testing.T, p, rel string) {
	t.Helper()
	found, err := codeLiterals(p, nil)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	for _, f := range found {
		t.Errorf("%s:%s: use the constant of internal/code", rel, f)
	}
}

// codeLiterals lists, as "LINE: CODE", the rule codes in string literals
// of one Go file (read from path when src is nil).
func codeLiterals(path string, src any) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if ok && lit.Kind == token.STRING {
			if m := ruleCodeLiteral.FindString(lit.Value); m != "" {
				found = append(found, fmt.Sprintf("%d: string literal names rule %s", fset.Position(lit.Pos()).Line, m))
			}
		}
		return true
	})
	return found, nil
}

// TestCodeLiteralsSeen keeps the check honest: literals, format strings
// and raw strings count, comments and identifiers do not.
func TestCodeLiteralsSeen(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{`var x = "RL503"`, 1},
		{`var x = "see RL503"`, 1},
		{"var x = `RL601-RL604`", 1},
		{`var x = fmt.Sprintf("%d lines (RL503)", n)`, 1},
		{`var x = map[string]int{"RL005": 1}`, 1},
		{"// RL503 is the events rule\nvar x = code.EventCorrupt", 0},
		{`var x = "RL50"`, 0},
		{`var RL503 = 1`, 0},
	} {
		found, err := codeLiterals("x.go", []byte("package p\n"+c.src+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if len(found) != c.want {
			t.Errorf("%s: found %v, want %d", c.src, found, c.want)
		}
	}
}
