package schema

import (
	"fmt"
	"io/fs"
	"path"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/parser"

	schemacue "github.com/resumelint/resumelint/cue"
)

// sourceDir is where the embedded files live in the repository; positions
// in CUE's errors name a file as sourceDir/name.cue.
const sourceDir = "cue"

// parseFiles parses every embedded .cue file, in name order, each into a
// syntax tree of its own (building an instance resolves identifiers in
// place, so callers never share trees).
func parseFiles(fsys fs.FS) ([]*ast.File, error) {
	names, err := fs.Glob(fsys, "*.cue")
	if err != nil {
		return nil, err
	}
	files := make([]*ast.File, 0, len(names))
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(path.Join(sourceDir, name), src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// buildInstance builds the embedded files as one CUE package instance.
func buildInstance(ctx *cue.Context, fsys fs.FS) (cue.Value, error) {
	files, err := parseFiles(fsys)
	if err != nil {
		return cue.Value{}, err
	}
	inst := build.NewContext().NewInstance(sourceDir, nil)
	for _, f := range files {
		if err := inst.AddSyntax(f); err != nil {
			return cue.Value{}, err
		}
	}
	v := ctx.BuildInstance(inst)
	if err := v.Err(); err != nil {
		return cue.Value{}, fmt.Errorf("compiling embedded schema: %w", err)
	}
	return v, nil
}

// compileEmbedded builds the embedded definitions in a context of their own.
func compileEmbedded() (cue.Value, error) { return buildInstance(NewContext(), schemacue.FS) }
