package rules

import (
	"fmt"
	"testing"
	"time"
)

// workflowOwners answers, for any time written with its zone or not, the
// first file by path surely updated after it (surelyAfter), as a scan of
// every file would, zero updated_at never counting; and names the ids its
// unresolved events' checkpoint_file spells.
func TestWorkflowOwnersAnswersAsAScan(t *testing.T) {
	base := time.Date(2026, 2, 16, 12, 0, 0, 0, time.UTC)
	rng := uint64(7)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	for round := range 200 {
		w := &workflowOwners{named: map[string]bool{}}
		var facts []*OrchestrationFact
		for i := range 1 + next(12) {
			of := &OrchestrationFact{Path: fmt.Sprintf("projects/P-%03d/ORCHESTRATION.yaml", i)}
			if next(4) > 0 {
				of.UpdatedAt = base.Add(time.Duration(next(48)) * time.Hour)
				of.UpdatedAtZone = next(2) == 0
			}
			of.Events = []CompactionEventFact{{CheckpointFile: fmt.Sprintf(".jerry\\checkpoints\\CX-%03d-checkpoint.json", i)}}
			if next(2) == 0 {
				of.Events[0].Resolved = "/repo/.jerry/checkpoints/x.json"
			}
			facts = append(facts, of)
			w.add(of)
		}
		for h := -15; h <= 63; h++ {
			at := base.Add(time.Duration(h) * time.Hour)
			for _, zone := range []bool{true, false} {
				var want *OrchestrationFact
				for _, of := range facts {
					if !of.UpdatedAt.IsZero() && surelyAfter(of.UpdatedAt, of.UpdatedAtZone, at, zone) {
						want = of
						break
					}
				}
				if got := w.firstUpdatedAfter(at, zone); got != want {
					t.Fatalf("round %d, %v (zone %v): got %v, want %v", round, at, zone, got, want)
				}
			}
		}
		for i, of := range facts {
			id := fmt.Sprintf("cx-%03d", i)
			if got, want := w.namedByID(id), of.Events[0].Resolved == ""; got != want {
				t.Fatalf("round %d: namedByID(%s) = %v, want %v", round, id, got, want)
			}
		}
		if w.namedByID("") {
			t.Fatal("an empty id is named")
		}
	}
}
