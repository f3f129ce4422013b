package schema

import (
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"go.yaml.in/yaml/v3"
)

// Thinning changes nothing CUE reports: every invalid mutation of the
// corpus, validated with each collection thinned (from one entry on), gets
// the violations it gets whole, at the same places.
func TestThinnedValidationAgreesWithWhole(t *testing.T) {
	rounds := 6
	if testing.Short() {
		rounds = 2
	}
	compared, smaller := 0, 0
	eachInvalidMutation(t, rounds, func(name string, r int, d cue.Value, fast *checker, root *yaml.Node) {
		whole, err1 := validateNarrowed(d, fast, root, Options{Prefix: "p"})
		th := &thinner{min: 1}
		tr := th.thin(fast, root, 0)
		if countNodes(tr, 0) < countNodes(root, 0) {
			smaller++
		}
		parts, err2 := validateNarrowed(d, fast, tr, Options{Prefix: "p", thinned: &thinned{before: root, after: tr, items: th.items}})
		if (err1 == nil) != (err2 == nil) || !samePlaces(whole, parts) {
			t.Errorf("%s, mutation %d: thinned %v (%v), whole %v (%v):\n%s", name, r, parts, err2, whole, err1, marshal(root))
		}
		compared++
	})
	if smaller == 0 {
		t.Fatal("no document was thinned")
	}
	t.Logf("%d invalid documents compared, %d thinned", compared, smaller)
}

// samePlaces is sameViolations with the offending nodes compared by
// position: a collection on the way to a thinned one is a copy.
func samePlaces(a, b []Violation) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Node.Line != y.Node.Line || x.Node.Column != y.Node.Column || x.Node.Kind != y.Node.Kind || x.Key != y.Key || x.Message != y.Message || strings.Join(x.Path, "\x00") != strings.Join(y.Path, "\x00") {
			return false
		}
	}
	return true
}
