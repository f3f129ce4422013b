package schema

import (
	"strings"
	"testing"
	"testing/fstest"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
)

// The files build as one package: a definition may use one from another
// file, and an error in the schema names the file and line it is in.
func TestBuildInstanceNamesFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"a.cue": {Data: []byte("package schema\n\n#A: {b?: #B}\n")},
		"b.cue": {Data: []byte("package schema\n\n#B: int\n")},
	}
	v, err := buildInstance(cuecontext.New(), fsys)
	if err != nil {
		t.Fatal(err)
	}
	if !v.LookupPath(cue.ParsePath("#A.b?")).Exists() {
		t.Fatal("#A.b does not resolve across files")
	}
	fsys["b.cue"] = &fstest.MapFile{Data: []byte("package schema\n\n#B: int\n#B: string\n")}
	_, err = buildInstance(cuecontext.New(), fsys)
	if err == nil {
		t.Fatal("conflicting definitions compiled")
	}
	var where []string
	for _, e := range cueerrors.Errors(err) {
		for _, p := range e.InputPositions() {
			where = append(where, p.String())
		}
	}
	if !strings.Contains(strings.Join(where, " "), "cue/b.cue:3:") {
		t.Errorf("error positions %v do not name cue/b.cue", where)
	}
}

// The embedded definitions compile.
func TestCompileEmbedded(t *testing.T) {
	if err := Compile(); err != nil {
		t.Fatal(err)
	}
}
