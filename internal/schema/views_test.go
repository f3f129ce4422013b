package schema

import (
	"io/fs"
	"path"
	"testing"
	"testing/fstest"

	"cuelang.org/go/cue"

	schemacue "github.com/resumelint/resumelint/cue"
)

// TestViewDefinitionsCompile builds cue/views/*.cue together with the
// schema: the view-only definitions stay out of the schema (cue.Views) but
// must still be valid CUE of the same package, referring to its helpers.
func TestViewDefinitionsCompile(t *testing.T) {
	all := fstest.MapFS{}
	for _, src := range []struct {
		fsys fs.FS
		glob string
	}{{schemacue.FS, "*.cue"}, {schemacue.Views, "views/*.cue"}} {
		names, err := fs.Glob(src.fsys, src.glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			data, err := fs.ReadFile(src.fsys, name)
			if err != nil {
				t.Fatal(err)
			}
			all[path.Base(name)] = &fstest.MapFile{Data: data}
		}
	}
	v, err := buildInstance(NewContext(), all)
	if err != nil {
		t.Fatal(err)
	}
	if d := v.LookupPath(cue.ParsePath("#OrchestrationDoc")); !d.Exists() || d.Err() != nil {
		t.Fatalf("#OrchestrationDoc: %v", d.Err())
	}
}
