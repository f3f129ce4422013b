package cli

import (
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/node"
)

// The status words real workflow files use fold onto the five states the
// Mermaid classes colour.
func TestStatusStateOf(t *testing.T) {
	for in, want := range map[string]string{
		"COMPLETE": "done", "completed": "done", "PASS": "done", "approved": "done",
		"IN_PROGRESS": "in_progress", "in-progress": "in_progress", "PHASE_2_IN_PROGRESS": "in_progress", "ACTIVE": "in_progress",
		"BLOCKED": "blocked", "PAUSED": "blocked", "PHASE_2_BLOCKED": "blocked", "PHASE_5_COMPLETE": "done",
		"FAIL": "failed", "REJECTED": "failed", "CANCELLED": "failed",
		"PENDING": "pending", "PLANNED": "pending", "": "pending", "revise": "pending",
		// Lint's one reading of a finished status (node.FinishedWord): a
		// done word held back by its remark is work not over (lint reads
		// such a phase as open), a misspelled or other finished word is over.
		"COMPLETE (pending QA)": "in_progress", "COMPLETE_PENDING_GATE": "in_progress", "CANCELLED_PENDING_REVIEW": "in_progress", "Done - not verified": "in_progress",
		"COMPLETED_SUCCESSFULLY": "done", "COMPELTE": "done", "CLOSED": "done", "ARCHIVED": "done", "✅ Done": "done",
		"ABORTED": "failed", "ABANDONED": "failed", "SUPERSEDED": "failed", "CANCELED": "failed",
		"CLONED": "pending",
	} {
		if got := stateOf(in); got != want {
			t.Errorf("stateOf(%q) = %q, want %q", in, got, want)
		}
	}
	for w := range node.FinishedWords {
		if s := stateOf(w); s != "done" && s != "failed" {
			t.Errorf("stateOf(%q) = %q: a finished status is done or failed", w, s)
		}
	}
}

func TestStatusAgeOf(t *testing.T) {
	now := time.Date(2026, 2, 24, 9, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"2026-02-20T18:00:00Z":      "3 days ago",
		"2026-02-23T21:40:00Z":      "11 hours ago",
		"2026-02-24T08:30:00Z":      "30 minutes ago",
		"2026-02-24T08:30:00+01:00": "90 minutes ago",
		"2026-03-01T09:00:00Z":      "5 days after --now",
		"yesterday":                 "",
	} {
		if got := ageOf(in, now); got != want {
			t.Errorf("ageOf(%q) = %q, want %q", in, got, want)
		}
	}
}
