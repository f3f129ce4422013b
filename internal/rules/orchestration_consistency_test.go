package rules

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The vocabulary of RL118 (docs/rules/RL118.md): every phrase it reads, and
// text it must leave alone.
func TestClaimsIn(t *testing.T) {
	type c struct {
		kind  claimKind
		phase int
		text  string
	}
	cases := []struct {
		in   string
		want []c
	}{
		{"PHASE_2_READY", []c{{claimReady, 2, "PHASE_2_READY"}}},
		{"Phase 2 COMPLETE. Ready for Phase 3 execution.", []c{{claimPhaseDone, 2, "Phase 2 COMPLETE"}, {claimReady, 3, "Ready for Phase 3"}}},
		{"Workflow initialized. Phase 1 ready for execution. No phases started.", []c{
			{claimNotStarted, 0, "Workflow initialized"}, {claimReady, 1, "Phase 1 ready"}, {claimNotStarted, 0, "No phases started"}}},
		{"Execute Phase 1 agent research-inventory.", []c{{claimNext, 1, "Execute Phase 1"}}},
		{"BARRIER 3 COMPLETE. Next: Phase 3 Validation & Synthesis", []c{{claimNext, 3, "Next: Phase 3"}}},
		{"Phase 1 IN PROGRESS. TASK-002-005 executing.", []c{{claimRunning, 1, "Phase 1 IN PROGRESS"}, {claimTasksRunning, 0, "TASK-002-005 executing"}}},
		{"workflow-complete", []c{{claimWorkflowDone, 0, "workflow-complete"}}},
		{"WORKFLOW_COMPLETE", []c{{claimWorkflowDone, 0, "WORKFLOW_COMPLETE"}}},
		{"Workflow not started. All phases pending.", []c{{claimNotStarted, 0, "Workflow not started"}, {claimNotStarted, 0, "All phases pending"}}},
		{"No phase has been started yet", []c{{claimNotStarted, 0, "No phase has been started"}}},
		// Outside the vocabulary: never interpreted.
		{"ACTIVE -- Group 4 complete. 5/10 phases done (50%). Ready for Group 5", nil},
		{"Phase 3 tournament iteration 5 (FINAL); proceed to Phase 4 after PASS", nil},
		{"FEAT-010 COMPLETE. All 4 phases done.", nil},
		{"qg-2-iteration-1", nil},
		{"phase-3-agent-execution", nil},
		{"Multiphase 2 ready", nil},
	}
	for _, tc := range cases {
		got := claimsIn(tc.in)
		if len(got) != len(tc.want) {
			t.Errorf("claimsIn(%q) = %+v, want %+v", tc.in, got, tc.want)
			continue
		}
		for i, w := range tc.want {
			if got[i].kind != w.kind || got[i].phase != w.phase || got[i].text != w.text {
				t.Errorf("claimsIn(%q)[%d] = %+v, want %+v", tc.in, i, got[i], w)
			}
		}
	}
}

func TestIsOpenStatus(t *testing.T) {
	for s, want := range map[string]bool{
		"PENDING": true, "BLOCKED": true, "PLANNED": true, "IN_PROGRESS": true, "in progress": true,
		"READY": true, "pending": true, "PHASE_2_IN_PROGRESS": true, "PHASE_4_PENDING": true,
		"COMPLETE": false, "COMPLETED": false, "PASS": false, "SKIPPED": false, "ACCEPTED": false,
		"FAIL": false, "CONDITIONAL_PASS": false, "": false, "done, see notes": false,
	} {
		if got := isOpenStatus(s); got != want {
			t.Errorf("isOpenStatus(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestOpenDefects(t *testing.T) {
	cases := []struct {
		yaml  string
		count int64
		ids   int
	}{
		{"unresolved_defects: [D-1, D-2]\ntotal_defects_found: 5\ntotal_defects_resolved: 3", 2, 2},
		{"unresolved_defects: []\ntotal_defects_found: 5\ntotal_defects_resolved: 3", 0, 0},
		{"unresolved_defects: [{id: D-1, note: x}]", 1, 1},
		{"total_defects: 40\nresolved_defects: 0\nin_progress_defects: 37\nopen_defects: 3", 40, 0},
		{"total_defects: 0\ncritical_defects: 0\nresolved_defects: 0\nopen_defects: 0", 0, 0},
		{"total_defects_found: 9\ntotal_defects_resolved: 8", 1, 0},
		{"total_defects_found: 9\ntotal_defects_resolved: 9", 0, 0},
		{"critical_defects: 3", 0, 0},
	}
	for _, tc := range cases {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(tc.yaml), &doc); err != nil {
			t.Fatal(err)
		}
		n, _, ids := openDefects(doc.Content[0])
		if n != tc.count || len(ids) != tc.ids {
			t.Errorf("openDefects(%q) = %d, %v; want %d and %d ids", tc.yaml, n, ids, tc.count, tc.ids)
		}
	}
}

func TestCountBoxes(t *testing.T) {
	steps := "# Steps\n- [x] one\n- [ ] two\n  - [X] nested\n* [ ] star\n```\n- [ ] in a fence\n```\n"
	if got := countChecked([]byte(steps), true); got != 2 {
		t.Errorf("countChecked = %d, want 2", got)
	}
	if got := countBoxes([]byte(steps), true); got != 3 {
		t.Errorf("countBoxes(dash only) = %d, want 3", got)
	}
	for name, want := range map[string]bool{"04-steps.md": true, "05-steps.md": true, "steps.md": false, "4-steps.md": false, "05-steps.md.bak": false} {
		if got := numberedSteps.MatchString(name); got != want {
			t.Errorf("numberedSteps(%q) = %v, want %v", name, got, want)
		}
	}
}

// The task phrases of RL118 and the task numbers each names (none: the
// tasks as a whole).
func TestTaskClaims(t *testing.T) {
	cases := []struct {
		in    string
		text  string
		tasks []int
	}{
		{"TASK-002-005 executing in parallel", "TASK-002-005 executing", []int{2, 3, 4, 5}},
		{"TASK-002 and TASK-004 running", "TASK-002 and TASK-004 running", []int{2, 4}},
		{"Tasks 2, 3 and 4 are in progress", "Tasks 2, 3 and 4 are in progress", []int{2, 3, 4}},
		{"Awaiting TASK-003 critic", "Awaiting TASK-003", []int{3}},
		{"Await task completion, then run QG-1", "Await task completion", nil},
		{"All tasks executing", "tasks executing", nil},
	}
	for _, tc := range cases {
		var got []textClaim
		for _, c := range claimsIn(tc.in) {
			if c.kind == claimTasksRunning {
				got = append(got, c)
			}
		}
		if len(got) != 1 || got[0].text != tc.text || !equalInts(got[0].tasks, tc.tasks) {
			t.Errorf("claimsIn(%q) task claims = %+v, want one %q naming %v", tc.in, got, tc.text, tc.tasks)
		}
	}
	for _, in := range []string{"Awaiting critic.", "Group 14 IN_PROGRESS", "taskforce running", "3 tasks left"} {
		for _, c := range claimsIn(in) {
			if c.kind == claimTasksRunning {
				t.Errorf("claimsIn(%q) read a task claim %+v", in, c)
			}
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A claim pattern runs only on text holding its word: the word must be
// one the screen knows, and a literal of the pattern outside any
// optional part (here: the pattern's text holds it, and a phrase of the
// kind it reads, made to match, is still found).
func TestClaimPatternsNeedTheirWord(t *testing.T) {
	for _, cp := range claimPatterns {
		if cp.need != "phase" && cp.need != "workflow" {
			t.Errorf("%s: word %q is not screened for", cp.re, cp.need)
		}
		if !strings.Contains(cp.re.String(), cp.need) {
			t.Errorf("%s does not hold %q", cp.re, cp.need)
		}
	}
	for _, in := range []string{"Phase 3 is complete", "WORKFLOW_COMPLETE", "ready for phase 2", "No phases have been started", "tasks 2 and 3 are running"} {
		if len(claimsIn(in)) == 0 {
			t.Errorf("claimsIn(%q) found nothing", in)
		}
	}
}
