package rules

import (
	"slices"
	"testing"

	"github.com/resumelint/resumelint/internal/load"
)

func TestPhasesFromRequires(t *testing.T) {
	for _, k := range Kinds {
		want := 0
		if k == load.KindOrchestration {
			want = 1 // RL112 reads the checkpoints' facts
		}
		if got := Phase(k); got != want {
			t.Errorf("Phase(%s) = %d, want %d", k, got, want)
		}
	}
	// A rule cannot read what units of its own kind publish: no order of
	// units gives it every value.
	self := &Rule{Code: "RL998", Kinds: []load.Kind{load.KindCheckpoint}, Requires: []FactKey{Checkpoints}}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a rule requiring facts of its own kind was accepted")
			}
		}()
		computePhases([]*Rule{self}, Indexers())
	}()
}

// Every fact a rule requires has an indexer producing it.
func TestRequiredFactsAreProduced(t *testing.T) {
	produced := map[string]bool{}
	for _, x := range Indexers() {
		for _, f := range x.Produces {
			produced[f.FactName()] = true
		}
	}
	for _, r := range All() {
		for _, f := range r.Requires {
			if !produced[f.FactName()] {
				t.Errorf("%s requires fact %q, which no indexer produces", r.Code, f.FactName())
			}
		}
	}
}

func TestFactHandles(t *testing.T) {
	ix := NewIndex()
	ints := NewFact[int]("ints")
	strs := NewFact[string]("strs")
	ints.Publish(ix, 1)
	ints.PublishAt(ix, "two", 2)
	ints.PublishAt(ix, "two", 3) // the first value under a key wins
	strs.PublishAt(ix, "two", "x")
	got := ints.All(ix)
	slices.Sort(got)
	if !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("All = %v", got)
	}
	if v, ok := ints.At(ix, "two"); !ok || v != 2 {
		t.Errorf("At(two) = %v, %v", v, ok)
	}
	if v, ok := strs.At(ix, "two"); !ok || v != "x" {
		t.Errorf("strs.At(two) = %q, %v", v, ok)
	}
	if _, ok := ints.At(nil, "two"); ok {
		t.Error("At on no index found a value")
	}
	calls := 0
	res := NewResult("count", func(*Pass) int { calls++; return 7 })
	p := &Pass{Results: NewResults()}
	first, second := res.Of(p), res.Of(p)
	if first != 7 || second != 7 || calls != 1 {
		t.Errorf("a result computed %d times", calls)
	}
}
