package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// quotingPackages build messages from file content: they show it only
// through diag (Quote, QuoteTo, QuotePath, QuoteFull, QuoteHead, Clip,
// ClipTo, ClipPath, ClipHead, Mask), which masks secrets before it clips or
// quotes. Quoting or cutting text any other way could print part of a
// credential the mask no longer recognises.
var quotingPackages = []string{"internal/rules", "internal/bundle", "internal/schema", "internal/agentrun"}

// cutsAllowed are the functions that may slice text, and why: none of
// them puts the piece in a message.
var cutsAllowed = map[string]string{
	"secretAllowed": "matches a located secret against secrets.allow",
	"posAt":         "counts characters for a position",
	"textSpan":      "counts characters for a position",
	"window":        "cuts text shortText has masked whole",
	"maskFile":      "takes a located credential's text, to mask it in another version of the file",
	"SpanTexts":     "takes a located credential's text, to mask it where a finding quotes it",
}

// quoteVerb is a %q verb, with any flags.
var quoteVerb = regexp.MustCompile(`%[-+# 0-9.*]*q`)

// TestFileContentQuotedThroughDiag fails on a strconv.Quote call, a %q
// verb or a string conversion of a slice (a hand-made clip) in the
// packages that build messages.
func TestFileContentQuotedThroughDiag(t *testing.T) {
	root := filepath.Join("..", "..")
	for _, pkg := range quotingPackages {
		files, err := filepath.Glob(filepath.Join(root, pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range files {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			checkQuoting(t, p)
		}
	}
}

func checkQuoting(t *testing.T, p string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(string(b), "// Code generated") {
		return
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, b, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			checkQuotingIn(t, fset, d, false)
			continue
		}
		_, cuts := cutsAllowed[fd.Name.Name]
		checkQuotingIn(t, fset, fd, cuts)
	}
}

func checkQuotingIn(t *testing.T, fset *token.FileSet, root ast.Node, cuts bool) {
	t.Helper()
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind == token.STRING && quoteVerb.MatchString(n.Value) {
				t.Errorf("%s: %%q quotes a value without masking it: use diag.Quote or diag.QuoteFull", fset.Position(n.Pos()))
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && x.Name == "strconv" && strings.HasPrefix(n.Sel.Name, "Quote") {
				t.Errorf("%s: strconv.%s quotes a value without masking it: use diag.Quote or diag.QuoteFull", fset.Position(n.Pos()), n.Sel.Name)
			}
		case *ast.CallExpr:
			if fn, ok := n.Fun.(*ast.Ident); ok && !cuts && fn.Name == "string" && len(n.Args) == 1 {
				if _, ok := n.Args[0].(*ast.SliceExpr); ok {
					t.Errorf("%s: string(x[a:b]) cuts text by hand: clip with diag.ClipTo or diag.ClipHead, which mask first", fset.Position(n.Pos()))
				}
			}
		}
		return true
	})
}
