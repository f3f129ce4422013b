package diag

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"
)

// TestSortIsSliceStable: Sort orders as sort.SliceStable with Less does,
// ties (same path, place, code and message) kept in their order.
func TestSortIsSliceStable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 3, 20, 21, 500, 3000} {
		fs := make([]Finding, n)
		for i := range fs {
			fs[i] = Finding{
				Path:     fmt.Sprintf("p%d/ORCHESTRATION.yaml", r.IntN(7)),
				Start:    Pos{Line: r.IntN(9) + 1, Col: r.IntN(3) + 1},
				Code:     fmt.Sprintf("RL10%d", r.IntN(3)),
				Message:  fmt.Sprintf("m%d", r.IntN(2)),
				NodeHash: fmt.Sprint(i), // tells ties apart
			}
		}
		want := slices.Clone(fs)
		sort.SliceStable(want, func(i, j int) bool { return Less(&want[i], &want[j]) })
		Sort(fs)
		if !reflect.DeepEqual(fs, want) {
			t.Errorf("%d findings: Sort differs from sort.SliceStable", n)
		}
		Sort(fs) // sorted already
		if !reflect.DeepEqual(fs, want) {
			t.Errorf("%d findings: sorting again changed them", n)
		}
	}
}
