package schema

import (
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"go.yaml.in/yaml/v3"
)

// Each recognised shape of CUE error, produced by real CUE from a tiny
// schema and document: the shape is recognised, and the violation reads as
// written. A CUE upgrade that rewords a message fails its case here.
func TestErrorShapes(t *testing.T) {
	tests := []struct {
		shape        shape
		schema, data string
		want         string // the violation's message
	}{
		{shapeRequired, `#D: {a!: int}`, `{}`, `missing required key a`},
		{shapeIncomplete, `#D: {a: int}`, `{}`, `missing required key a`},
		{shapeNotAllowed, `#D: {a?: int}`, `{b: 1}`, `unknown key "b" at the top level`},
		{shapeEmptyDisjunction, `#D: {a?: "x" | "y"}`, `{a: z}`, `a: "z" is not one of x, y`},
		{shapeMismatchedTypes, `#D: {a?: int}`, `{a: x}`, `a: expected an integer, found a string "x"`},
		{shapeConflict, `#D: {a?: "x"}`, `{a: y}`, `a: "y" is not one of x`},
		{shapeInvalidValue, `#D: {a?: int & >=1}`, `{a: 0}`, `a: 0 is out of range (must be >=1)`},
		{shapeInvalidValue, `#D: {a?: =~"^x"}`, `{a: y}`, `a: "y" does not match the pattern "^x"`},
	}
	covered := map[shape]bool{}
	for _, tc := range tests {
		name := shapeName(tc.shape)
		covered[tc.shape] = true
		t.Run(name, func(t *testing.T) {
			d := cuecontext.New().CompileString(tc.schema).LookupPath(cue.ParsePath("#D"))
			if d.Err() != nil {
				t.Fatal(d.Err())
			}
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.data), &doc); err != nil {
				t.Fatal(err)
			}
			root := doc.Content[0]
			err := d.Unify(cuecontext.New().Encode(ToValue(root))).Validate(cue.Concrete(true))
			var seen []string
			found := false
			for _, e := range cueerrors.Errors(err) {
				f, args := e.Msg()
				sh := shapeOf(f, args)
				seen = append(seen, sh.name+": "+f)
				found = found || sh.shape == tc.shape
			}
			if !found {
				t.Fatalf("CUE's errors %q do not include the shape %q", seen, name)
			}
			vs, verr := validateCUE(d, nil, root, Options{})
			if verr != nil || len(vs) != 1 || vs[0].Message != tc.want {
				var got []string
				for _, v := range vs {
					got = append(got, v.Message)
				}
				t.Errorf("violations %q (%v), want %q", got, verr, tc.want)
			}
		})
	}
	for _, sh := range errShapes {
		if !covered[sh.shape] {
			t.Errorf("shape %q has no case", sh.name)
		}
	}
}

func shapeName(s shape) string {
	for _, sh := range errShapes {
		if sh.shape == s {
			return sh.name
		}
	}
	return other.name
}
