package rules

import "testing"

// TestPlaceNames pins what RL107's messages say of each kind of
// transition: the names are made from their parts only when reported.
func TestPlaceNames(t *testing.T) {
	for _, c := range []struct {
		w           place
		label, what string
	}{
		{place{kind: placeWorkflow}, "workflow.updated_at", "the workflow was updated"},
		{place{kind: placeCheckpoint, i: 2, a: "cp-003"}, "checkpoints.entries[2].timestamp (cp-003)", "that checkpoint"},
		{place{kind: placePhaseStart, a: "pipelines.main.phases[1]", i: 2}, "pipelines.main.phases[1].started_at", "phase 2 started"},
		{place{kind: placePhaseDone, a: "phases[0]", i: 1}, "phases[0].completed_at", "phase 1 completed"},
		{place{kind: placeGateDone, a: "quality_gates.qg-1", b: "qg-1"}, "quality_gates.qg-1.completed_at", "gate qg-1 completed"},
		{place{kind: placeGateIteration, a: "quality_gates.qg-1", b: "iterations", i: 0, leaf: "scored_at"}, "quality_gates.qg-1.iterations[0].scored_at", "that quality-gate iteration"},
		{place{kind: placeCompaction, i: 4}, "compaction_events.events[4].timestamp", "that compaction event"},
		{place{kind: placeDecision, a: "decision_log", i: 1}, "decision_log[1].timestamp", "that decision"},
		{place{kind: placeLastCheckpoint}, "last_checkpoint", ""},
	} {
		if got := c.w.label(); got != c.label {
			t.Errorf("label of %+v = %q, want %q", c.w, got, c.label)
		}
		if got := c.w.what(); got != c.what {
			t.Errorf("what of %+v = %q, want %q", c.w, got, c.what)
		}
	}
}
