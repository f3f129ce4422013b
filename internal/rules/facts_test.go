package rules

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"unsafe"

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

// The index is spread over shards: whatever shard a value lands in, All
// returns each value once and At the first value published under a key,
// with every worker publishing at once.
func TestIndexShards(t *testing.T) {
	ix := NewIndex()
	ids := NewFact[int]("shard-ids")
	const workers, perWorker = 8, 500
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWorker {
				v := w*perWorker + i
				ids.PublishAt(ix, fmt.Sprintf("k%d", v), v)
				ids.PublishAt(ix, fmt.Sprintf("k%d", v), -v-1) // a later value under the same key
				ids.Publish(ix, v)
				if got, ok := ids.At(ix, fmt.Sprintf("k%d", v)); !ok || got != v {
					t.Errorf("At(k%d) = %d, %v", v, got, ok)
				}
			}
		}()
	}
	wg.Wait()
	all := ids.All(ix)
	if len(all) != 3*workers*perWorker {
		t.Fatalf("All returned %d values, want %d", len(all), 3*workers*perWorker)
	}
	seen := map[int]int{}
	for _, v := range all {
		seen[v]++
	}
	for v := range workers * perWorker {
		if seen[v] != 2 || seen[-v-1] != 1 {
			t.Fatalf("value %d seen %d times, %d seen %d times", v, seen[v], -v-1, seen[-v-1])
		}
	}
	used := 0
	for i := range ix.shards {
		if len(ix.shards[i].all[ids]) > 0 {
			used++
		}
	}
	if used < indexShards/2 {
		t.Errorf("values landed in %d of %d shards", used, indexShards)
	}
	if n := unsafe.Sizeof(indexShard{}); n != 64 {
		t.Errorf("an index shard is %d bytes, not a cache line of 64", n)
	}
}

// A checkpoint of two finished workflows is history for the same reason
// on every run, whichever record the index hands out first.
func TestHistoryNamesOneOwner(t *testing.T) {
	for _, order := range [][]int{{0, 1, 2}, {1, 0, 2}, {2, 1, 0}} {
		ix := NewIndex()
		recs := []*RecordFact{
			{Path: "b/ORCHESTRATION.yaml", Finished: true, Why: "workflow.status COMPLETE", Owns: []string{"/r/cp-1.json"}},
			{Path: "a/ORCHESTRATION.yaml", Finished: true, Why: "workflow.status DONE", Owns: []string{"/r/cp-1.json"}},
			{Path: "c/ORCHESTRATION.yaml", Finished: true, Why: "workflow.status DONE", WorkflowID: "wf-1"},
		}
		for _, i := range order {
			Records.Publish(ix, recs[i])
		}
		Checkpoints.PublishAt(ix, "/r/cp-1.json", &CheckpointFact{Path: "cp-1.json", OSPath: "/r/cp-1.json", WorkflowID: "wf-1"})
		h, ok := HistoryFiles(ix)["cp-1.json"]
		if want := "a checkpoint of the finished workflow a/ORCHESTRATION.yaml"; !ok || h.Why != want {
			t.Errorf("published in order %v: %q, %v; want %q", order, h.Why, ok, want)
		}
	}
}

// HistoryFiles decides as a look at every owner of every checkpoint
// would: a checkpoint is history when it has owners (records naming its
// path, or of its workflow_id) and every one is finished.
func TestHistoryFilesAsEveryOwnerSays(t *testing.T) {
	rng := uint64(3)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	for round := range 300 {
		ix := NewIndex()
		var recs []*RecordFact
		for range next(8) {
			rf := &RecordFact{Path: fmt.Sprintf("p%d/ORCHESTRATION.yaml", next(20)), Finished: next(3) > 0, Why: "workflow.status DONE"}
			if next(2) == 0 {
				rf.WorkflowID = fmt.Sprintf("wf-%d", next(3))
			}
			for range next(3) {
				rf.Owns = append(rf.Owns, fmt.Sprintf("/r/cp-%d.json", next(4)))
			}
			recs = append(recs, rf)
			Records.Publish(ix, rf)
		}
		var cps []*CheckpointFact
		for i := range 4 {
			cf := &CheckpointFact{Path: fmt.Sprintf("cp-%d.json", i), OSPath: fmt.Sprintf("/r/cp-%d.json", i)}
			if next(3) > 0 {
				cf.WorkflowID = fmt.Sprintf("wf-%d", next(3))
			}
			cps = append(cps, cf)
			Checkpoints.PublishAt(ix, cf.OSPath, cf)
		}
		got := HistoryFiles(ix)
		for _, cf := range cps {
			var first *RecordFact
			done := true
			for _, rf := range recs {
				if slices.Contains(rf.Owns, cf.OSPath) || cf.WorkflowID != "" && rf.WorkflowID == cf.WorkflowID {
					done = done && rf.Finished
					if first == nil || rf.Path < first.Path {
						first = rf
					}
				}
			}
			h, ok := got[cf.Path]
			if want := first != nil && done; ok != want {
				t.Fatalf("round %d, %s: history %v, want %v", round, cf.Path, ok, want)
			}
			if ok && h.Why != "a checkpoint of the finished workflow "+first.Path {
				t.Fatalf("round %d, %s: %q names another owner than %s", round, cf.Path, h.Why, first.Path)
			}
		}
	}
}
