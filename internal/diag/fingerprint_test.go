package diag

import "testing"

func TestListFree(t *testing.T) {
	for in, want := range map[string]string{
		"":                                     "",
		"workflow.status":                      "workflow.status",
		"resumption.decision_log[2].timestamp": "resumption.decision_log[].timestamp",
		"resumption.decision_log[=3f2a].gate":  "resumption.decision_log[].gate",
		"pipelines.a.phases[=9c#2].agents[0]":  "pipelines.a.phases[].agents[]",
		"[4]":                                  "[]",
		"odd[":                                 "odd[",
		"a[1]b[":                               "a[]b[",
	} {
		if got := listFree(in); got != want {
			t.Errorf("listFree(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEditKeyAcrossNumbering: a fix that gives list entries their id
// renames the items in the node path (their index, then their id); the
// findings inside them keep their edit key, so the fix adds none.
func TestEditKeyAcrossNumbering(t *testing.T) {
	before := Finding{Code: "RL006", NodePath: "resumption.decision_log[1].timestamp", Message: `timestamp "2026-02-22T09:00:00" has no time zone`}
	after := before
	after.NodePath = "resumption.decision_log[=5d1c0e7a9b2f].timestamp"
	if EditKey(&before, "o.yaml") != EditKey(&after, "o.yaml") {
		t.Errorf("edit keys differ across the numbering")
	}
	if Fingerprint(&before, "o.yaml") == Fingerprint(&after, "o.yaml") {
		t.Errorf("fingerprints should follow the node path")
	}
}
