package heapstart

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsOnlySyscall keeps the package among the first Go
// initialises: an import such as os or fmt would start it after the
// packages whose allocations it is for.
func TestImportsOnlySyscall(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path != "syscall" && path != "unsafe" {
				t.Errorf("%s imports %s: heapstart may import only syscall and unsafe", name, path)
			}
		}
	}
}
