package fix

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// migrated parses data and applies its migration.
func migrated(t *testing.T, name string, data []byte) ([]byte, *Migration) {
	t.Helper()
	doc, probs := load.Parse(&load.File{Path: name, Data: data}, load.FormatYAML, load.DefaultLimits)
	if doc.Root == nil {
		t.Fatalf("%s does not parse: %v", name, probs)
	}
	m := Migrate(doc)
	if m.Fix == nil {
		return data, m
	}
	out, err := Apply(data, m.Fix.Edits)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out, m
}

// migratedValues holds, for each file in testdata/migrate, values its
// migrated resumption must hold: a path below resumption and the value as
// render prints it. TestMigrateFiles checks them.
var migratedValues = map[string]map[string]string{
	"v1_active_two_pipelines.yaml": {
		"recovery_state.last_checkpoint":            "CP-004",
		"recovery_state.current_phase":              "2",
		"recovery_state.current_phase_name":         "Streaming writer",
		"recovery_state.workflow_status":            "ACTIVE",
		"recovery_state.current_activity":           "null",
		"recovery_state.updated_at":                 "null",
		"recovery_state.next_step":                  "Rework writer-impl to stream rows (io.Pipe) and re-run QG-2 iteration 2",
		"recovery_state.cross_session_portable":     "true",
		"quality_trajectory.gates_completed":        "[qg-1]",
		"quality_trajectory.gates_remaining":        "[qg-3]",
		"quality_trajectory.current_gate":           "qg-2",
		"quality_trajectory.current_gate_iteration": "1",
		"quality_trajectory.score_history.qg-1":     "[0.84 0.93]",
		"quality_trajectory.score_history.qg-2":     "[0.78]",
		"quality_trajectory.total_iterations_used":  "3",
		"defect_summary.total_defects_found":        "null",
		"agent_summaries.survey-runner":             "DONE. 14 export columns mapped; 2 need currency rounding.",
		"agent_summaries.fixture-builder":           "DONE. 40 fixture ledgers, 3 with multi-currency rows.",
		"agent_summaries.threat-reviewer":           "PASS. No PII leaves the export boundary.",
		"compaction_events.count":                   "0",
		"decision_log":                              "[]",
		"agent_count":                               "4",
	},
	"v1_complete_plain_indent4.yaml": {
		"recovery_state.last_checkpoint":           "cp-final",
		"recovery_state.current_phase":             "2",
		"recovery_state.current_phase_name":        "Draft and publish",
		"recovery_state.workflow_status":           "null", // COMPLETED is not a v2.0 value
		"recovery_state.next_step":                 "Nothing left; archive the workflow folder.",
		"quality_trajectory.gates_completed":       "[QG-A QG-B]",
		"quality_trajectory.score_history.QG-B":    "[0.88 0.95]",
		"quality_trajectory.total_iterations_used": "3",
		"agent_summaries":                          "{}",
		"phase_summaries.docs-phase-2":             "38 pages drafted, reviewed and published",
	},
	"v1_single_quoted_crlf.yaml": {
		"recovery_state.last_checkpoint":     "CP-007",
		"recovery_state.current_phase":       "2",
		"recovery_state.current_phase_name":  "Normalize",
		"recovery_state.workflow_status":     "PAUSED",
		"quality_trajectory.gates_completed": "null", // phases started, no quality_gates
		"defect_summary.total_defects_found": "null",
	},
	"v1_flat_all_derive.yaml": {
		"recovery_state.last_checkpoint":           "CP-001",
		"recovery_state.current_phase":             "1",
		"recovery_state.current_phase_name":        "Schema survey",
		"recovery_state.workflow_status":           "ACTIVE",
		"recovery_state.current_activity":          "phase-1-agent-execution",
		"recovery_state.updated_at":                "2026-03-06T09:40:00Z",
		"recovery_state.next_step":                 "Map the remaining 8 ledger tables",
		"quality_trajectory.gates_remaining":       "[qg-1]",
		"quality_trajectory.total_iterations_used": "0",
		"defect_summary.total_defects_found":       "0",
		"defect_summary.unresolved_defects":        "[]",
		"agent_summaries":                          "{}",
	},
	"v1_minimal_null_checkpoint.yaml": {
		"recovery_state.last_checkpoint":    "null",
		"recovery_state.current_phase":      "null",
		"recovery_state.workflow_status":    "ACTIVE",
		"recovery_state.next_step":          "Pick a parser library and write the comparison note",
		"files_to_read":                     "[]",
		"compaction_events.events":          "[]",
		"quality_trajectory.current_gate":   "null",
		"defect_summary.unresolved_defects": "[]",
	},
	"mixed_recovery_state.yaml": {
		"recovery_state.last_checkpoint":           "CP-002",
		"recovery_state.next_step":                 "Rotate the remaining 13 service tokens, then re-run the audit",
		"recovery_state.context_fill_at_update":    "0.41",
		"quality_trajectory.gates_remaining":       "[qg-1]",
		"defect_summary.total_defects_found":       "null", // phases started, no quality_gates
		"compaction_events.count":                  "0",
		"quality_trajectory.total_iterations_used": "0",
	},
}

// migratedFill holds, for each file in testdata/migrate, the fields its
// migration leaves to fill by hand; an empty list is a safe fix.
// TestMigrateFiles checks them.
var migratedFill = map[string]string{
	"v1_active_two_pipelines.yaml":    "recovery_state.current_activity, recovery_state.updated_at, defect_summary.total_defects_found, defect_summary.total_defects_resolved, defect_summary.unresolved_defects",
	"v1_complete_plain_indent4.yaml":  "recovery_state.workflow_status, recovery_state.current_activity, recovery_state.updated_at, defect_summary.total_defects_found, defect_summary.total_defects_resolved, defect_summary.unresolved_defects",
	"v1_single_quoted_crlf.yaml":      "recovery_state.current_activity, recovery_state.updated_at, quality_trajectory.gates_completed, quality_trajectory.gates_remaining, quality_trajectory.current_gate, quality_trajectory.current_gate_iteration, quality_trajectory.score_history, quality_trajectory.total_iterations_used, defect_summary.total_defects_found, defect_summary.total_defects_resolved, defect_summary.unresolved_defects",
	"v1_minimal_null_checkpoint.yaml": "recovery_state.current_phase, recovery_state.current_phase_name, recovery_state.current_activity, recovery_state.updated_at",
	"mixed_recovery_state.yaml":       "defect_summary.total_defects_found, defect_summary.total_defects_resolved, defect_summary.unresolved_defects",
	"v1_flat_all_derive.yaml":         "",
}

// The migration over realistic v1.0 files: the result parses, keeps every
// value and comment, changes nothing outside resumption, derives what the
// file's data says, and a second migration has nothing to do.
func TestMigrateFiles(t *testing.T) {
	paths, _ := filepath.Glob("testdata/migrate/*.yaml")
	if len(paths) < 5 {
		t.Fatalf("found %d test files", len(paths))
	}
	for _, p := range paths {
		name := filepath.Base(p)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out, m := migrated(t, name, data)
			if m.Fix == nil {
				t.Fatalf("no migration: %s", m.Reason)
			}
			if got := strings.Join(m.Fill, ", "); got != migratedFill[name] {
				t.Errorf("fields to fill by hand:\n got %s\nwant %s", got, migratedFill[name])
			}
			switch {
			case len(m.Fill) == 0 && (m.Fix.Applicability != diag.FixSafe || m.Fix.Reason != ""):
				t.Errorf("every field derives, but the fix is %s (%s)", m.Fix.Applicability, m.Fix.Reason)
			case len(m.Fill) > 0 && (m.Fix.Applicability != diag.FixUnsafe || m.Fix.Reason != "fill by hand: "+migratedFill[name]):
				t.Errorf("fields are left to fill, but the fix is %s (%q)", m.Fix.Applicability, m.Fix.Reason)
			}
			if bytes.Contains(out, []byte("\n\n\n")) || bytes.Contains(out, []byte("\r\n\r\n\r\n")) {
				t.Errorf("doubled blank lines:\n%s", out)
			}
			if err := Verify(name, load.FormatYAML, data, out, m.Fix.Drops); err != nil {
				t.Errorf("nothing-lost check: %v\n%s", err, out)
			}
			if lost := lostValues(t, data, out, m.Fix.Drops); len(lost) > 0 {
				t.Errorf("values not in the result: %q", lost)
			}
			if lost := lostComments(data, out); len(lost) > 0 {
				t.Errorf("comments not in the result: %q", lost)
			}
			pre, post := outside(t, data)
			if !bytes.HasPrefix(out, pre) {
				t.Errorf("the text before resumption changed")
			}
			if !bytes.HasSuffix(out, post) {
				t.Errorf("the text after resumption changed:\n%q\nwant suffix\n%q", tail(out, len(post)+40), post)
			}
			if bytes.Contains(data, []byte("\r\n")) && bytes.Contains(bytes.ReplaceAll(out, []byte("\r\n"), nil), []byte("\n")) {
				t.Errorf("a CRLF file got LF lines")
			}
			again, m2 := migrated(t, name, out)
			if m2.Fix != nil || !bytes.Equal(again, out) {
				t.Errorf("a second migration changes the file again")
			}
			doc, _ := load.ParseWithComments(&load.File{Path: name, Data: out}, load.FormatYAML, load.DefaultLimits)
			res := node.Val(doc.Root, "resumption")
			for _, k := range []string{"last_checkpoint", "current_state", "next_step", "cross_session_portable", "ephemeral_references", "current_activity", "updated_at"} {
				if node.Has(res, k) {
					t.Errorf("%s is still at the top of resumption", k)
				}
			}
			for path, v := range migratedValues[name] {
				n, _, matched := node.Lookup(res, strings.Split(path, "."))
				if matched != len(strings.Split(path, ".")) {
					t.Errorf("resumption.%s is missing", path)
					continue
				}
				if got := render(n); got != v {
					t.Errorf("resumption.%s = %s, want %s", path, got, v)
				}
			}
			if cs := currentStateOf(t, data); cs != "" && !strings.Contains(squash(commentText(doc.Root)), squash(cs)) {
				t.Errorf("current_state prose is not kept as a comment")
			}
		})
	}
}

// render prints a node compactly: scalars as their value, lists as [a b].
func render(n *yaml.Node) string {
	n = node.Resolve(n)
	switch {
	case n == nil:
		return "<nil>"
	case n.Kind == yaml.SequenceNode:
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			parts[i] = render(c)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case n.Kind == yaml.MappingNode:
		if len(n.Content) == 0 {
			return "{}"
		}
		return "{...}"
	}
	return n.Value
}

func currentStateOf(t *testing.T, data []byte) string {
	doc, _ := load.ParseWithComments(&load.File{Path: "x.yaml", Data: data}, load.FormatYAML, load.DefaultLimits)
	s, _ := node.Str(node.Val(node.Val(doc.Root, "resumption"), "current_state"))
	return s
}

// lostValues is an independent multiset check of every scalar value
// (less what the fix declares it drops).
func lostValues(t *testing.T, before, after []byte, drops []string) []string {
	count := func(data []byte) map[string]int {
		doc, _ := load.ParseWithComments(&load.File{Path: "x.yaml", Data: data}, load.FormatYAML, load.DefaultLimits)
		out := map[string]int{}
		node.Walk(doc.Root, func(n, _ *yaml.Node) {
			if n.Kind == yaml.ScalarNode {
				out[n.Value]++
			}
		})
		return out
	}
	b, a := count(before), count(after)
	for _, d := range drops {
		a[d]++
	}
	doc, _ := load.ParseWithComments(&load.File{Path: "x.yaml", Data: after}, load.FormatYAML, load.DefaultLimits)
	comments := squash(commentText(doc.Root))
	var lost []string
	for v, n := range b {
		if a[v] < n && !strings.Contains(comments, squash(v)) {
			lost = append(lost, v)
		}
	}
	return lost
}

var commentRe = regexp.MustCompile(`(^|\s)(#.*)$`)

// lostComments is every comment of before (a line's text from its '#')
// that after lacks.
func lostComments(before, after []byte) []string {
	text := string(after)
	var lost []string
	for _, ln := range strings.Split(strings.ReplaceAll(string(before), "\r\n", "\n"), "\n") {
		if m := commentRe.FindStringSubmatch(ln); m != nil && !strings.Contains(text, strings.TrimSpace(m[2])) {
			lost = append(lost, m[2])
		}
	}
	return lost
}

// outside returns the text before the `resumption:` line and the text
// from the line after its last content line (trailing blank and comment
// lines included) to the end.
func outside(t *testing.T, data []byte) (pre, post []byte) {
	lines := strings.SplitAfter(string(data), "\n")
	start := -1
	for i, ln := range lines {
		if strings.HasPrefix(ln, "resumption:") {
			start = i
		}
	}
	if start < 0 {
		t.Fatal("no resumption line")
	}
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		ln := strings.TrimRight(lines[i], "\r\n")
		if ln != "" && ln[0] != ' ' && ln[0] != '#' {
			end = i
			break
		}
	}
	last := end - 1
	for last > start {
		ln := strings.TrimRight(lines[last], "\r\n")
		trim := strings.TrimLeft(ln, " ")
		if trim == "" || (strings.HasPrefix(trim, "#") && len(ln)-len(trim) <= 2) {
			last--
			continue
		}
		break
	}
	pre = []byte(strings.Join(lines[:start], ""))
	post = []byte(strings.Join(lines[last+1:], ""))
	return pre, post
}

func tail(b []byte, n int) []byte {
	if len(b) < n {
		return b
	}
	return b[len(b)-n:]
}

// Shapes the migration handles, and those it leaves alone with a reason.
func TestMigrateEdges(t *testing.T) {
	tests := []struct {
		name, in string
		fixed    bool
		folded   []string // RL115: keys the fix takes care of
	}{
		{"document end marker", "---\nresumption:\n  next_step: \"x y\"\n  last_checkpoint: null\n...\n", true, nil},
		{"no final line break", "resumption:\n  last_checkpoint: null", true, nil},
		{"block value moves whole", "resumption:\n  next_step: |\n    one\n    # not a comment\n  cross_session_portable: true\n", true, nil},
		{"flow resumption", "resumption: {last_checkpoint: null, next_step: x}\n", false, nil},
		{"current_state is not text", "resumption:\n  current_state: {phase: 2}\n", false, nil},
		{"lone carriage return", "resumption:\n  last_checkpoint: null\r  next_step: x\n", false, nil},
		{"v2 already", "resumption:\n  recovery_state:\n    next_step: x\n", false, nil},
		{"mixed: differing non-text values stay", "resumption:\n  last_checkpoint: 7\n  next_step: \"a b\"\n  recovery_state:\n    last_checkpoint: \"CP-001\"\n", true, []string{"next_step"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.in)
			out, m := migrated(t, "o.yaml", data)
			if (m.Fix != nil) != tc.fixed {
				t.Fatalf("fix = %v (reason %q), want %v", m.Fix != nil, m.Reason, tc.fixed)
			}
			if m.Fix == nil {
				if m.Reason == "" {
					t.Error("no fix and no reason")
				}
				return
			}
			if err := Verify("o.yaml", load.FormatYAML, data, out, m.Fix.Drops); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if tc.folded != nil {
				var got []string
				for k := range m.Folded {
					got = append(got, k.Value)
				}
				if strings.Join(got, ",") != strings.Join(tc.folded, ",") {
					t.Errorf("folded %v, want %v", got, tc.folded)
				}
			}
			if _, m2 := migrated(t, "o.yaml", out); m2.Fix != nil {
				t.Errorf("not final:\n%s", out)
			}
		})
	}
}

// TestMigrateNoFinalLineBreak checks that a section whose last line (moved
// into recovery_state) has no line break migrates as it does with one: the
// blank line before it stays the only one before the added sub-sections.
func TestMigrateNoFinalLineBreak(t *testing.T) {
	const in = "resumption:\r\n  last_checkpoint: null\r\n  next_step: \"Pick the tokenizer\"\r\n\r\n" +
		"  files_to_read:\r\n    - \"notes.md\"\r\n\r\n  ephemeral_references: false"
	with, _ := migrated(t, "o.yaml", []byte(in+"\r\n"))
	without, m := migrated(t, "o.yaml", []byte(in))
	if m.Fix == nil {
		t.Fatalf("no fix: %s", m.Reason)
	}
	if !bytes.Equal(without, with) {
		t.Errorf("without a final line break:\n%s\nwith one:\n%s", without, with)
	}
	if bytes.Contains(without, []byte("\r\n\r\n\r\n")) {
		t.Errorf("two blank lines in a row:\n%q", without)
	}
}

// TestMigrationShapesFromCUE checks the fields the migration moves and
// writes, now read from the generated tables, against seed 000's mapping.
func TestMigrationShapesFromCUE(t *testing.T) {
	wantRecovery := []string{"last_checkpoint", "current_phase", "current_phase_name", "workflow_status", "current_activity", "next_step", "context_fill_at_update", "updated_at", "cross_session_portable", "ephemeral_references"}
	if !slices.Equal(recoveryFields, wantRecovery) {
		t.Errorf("recovery fields %v, want %v", recoveryFields, wantRecovery)
	}
	if got := slices.Sorted(maps.Keys(optionalRecovery)); !slices.Equal(got, []string{"context_fill_at_update", "cross_session_portable", "ephemeral_references"}) {
		t.Errorf("optional recovery fields %v", got)
	}
	wantMovable := append([]string{"current_state"}, wantRecovery...)
	if got := slices.Sorted(maps.Keys(v1Movable)); !slices.Equal(got, slices.Sorted(slices.Values(wantMovable))) {
		t.Errorf("movable v1.0 fields %v", got)
	}
	if want := []string{"files_to_read", "quality_trajectory", "defect_summary", "decision_log", "agent_summaries", "compaction_events"}; !slices.Equal(subsections, want) {
		t.Errorf("sub-sections %v, want %v", subsections, want)
	}
}

// An empty quality trajectory is written as a safe fix only while no
// phase has started, wherever the file keeps its phases: under pipelines,
// under pipeline:, or at the top level. A started workflow's gates may be
// recorded in forms the migration does not read, so they are left to
// fill by hand.
func TestMigrateTrajectoryOnlyBeforeAnyPhase(t *testing.T) {
	const section = `resumption:
  last_checkpoint: null
  current_state: "Phase 2 in progress"
  next_step: "Run phase 2"
  current_phase: 2
  current_phase_name: "Build"
  workflow_status: "ACTIVE"
  current_activity: "phase-2-agent-execution"
  updated_at: "2026-02-20T10:00:00Z"
`
	for name, phases := range map[string]string{
		"top-level phases":   "phases:\n  - {id: 1, status: COMPLETE}\n  - {id: 2, status: IN_PROGRESS}\n",
		"pipeline: phases":   "pipeline:\n  phases:\n    - {id: 1, status: COMPLETE}\n",
		"pipelines' phases":  "pipelines:\n  main:\n    phases:\n      - {id: 1, status: DONE}\n",
		"a phase, blocked":   "phases:\n  - {id: 1, status: BLOCKED}\n",
		"a phase, no status": "phases:\n  - {id: 1, name: Build}\n",
	} {
		_, m := migrated(t, "o.yaml", []byte("workflow: {id: wf-1, status: ACTIVE}\n"+phases+section))
		if m.Fix == nil || !slices.Contains(m.Fill, "quality_trajectory.gates_completed") || m.Fix.Applicability != diag.FixUnsafe {
			t.Errorf("%s: the trajectory is not left to fill by hand (fill %v)", name, m.Fill)
		}
	}
	_, m := migrated(t, "o.yaml", []byte("workflow: {id: wf-1, status: ACTIVE}\nphases:\n  - {id: 1, status: PENDING}\n  - {id: 2, status: PLANNED}\n"+section))
	if m.Fix == nil || slices.Contains(m.Fill, "quality_trajectory.gates_completed") {
		t.Errorf("no phase started: the empty trajectory is known (fill %v)", m.Fill)
	}
}

// A passed gate that records its score as a plain value (score: 0.93,
// iterations: 2), not as iterations the migration reads, leaves the score
// history and the iteration count to fill by hand; the gate lists are
// still derived.
func TestMigrateScoreHistoryNotGuessed(t *testing.T) {
	in := `workflow: {id: wf-1, status: ACTIVE}
pipelines:
  main:
    phases:
      - {id: 1, status: COMPLETE}
      - {id: 2, status: IN_PROGRESS}
quality_gates:
  qg-1: {status: PASS, score: 0.93, iterations: 2}
  qg-2: {status: PENDING}
resumption:
  last_checkpoint: null
  current_state: "Phase 2 in progress"
  next_step: "Run phase 2"
`
	_, m := migrated(t, "o.yaml", []byte(in))
	if m.Fix == nil {
		t.Fatalf("no migration: %s", m.Reason)
	}
	for _, f := range []string{"quality_trajectory.score_history", "quality_trajectory.total_iterations_used"} {
		if !slices.Contains(m.Fill, f) {
			t.Errorf("%s is not left to fill by hand (fill %v)", f, m.Fill)
		}
	}
	if slices.Contains(m.Fill, "quality_trajectory.gates_completed") {
		t.Errorf("gates_completed is derived from quality_gates, not left to fill (fill %v)", m.Fill)
	}
}

// A phase run by one `agent:` is an agent RL111 asks a summary for, so the
// migration lists it to fill, as it does an entry of an agents list; an id
// that has a summary in another case is not listed.
func TestMigrateFillsSingleAgentSummaries(t *testing.T) {
	in := `workflow: {id: wf-2, status: ACTIVE}
pipelines:
  research:
    phases:
      - id: 1
        status: COMPLETE
        agent: ps-researcher-001
      - id: 2
        status: COMPLETE
        agents:
          - {id: PS-Analyst, status: DONE, summary: "Ranked 12 sources."}
          - {id: ps-critic, status: DONE}
      - id: 3
        status: IN_PROGRESS
        agent: ps-synthesizer
resumption:
  last_checkpoint: null
  current_state: "Phase 3 in progress"
  next_step: "Finish the synthesis"
`
	_, m := migrated(t, "o.yaml", []byte(in))
	if m.Fix == nil {
		t.Fatalf("no migration: %s", m.Reason)
	}
	var got []string
	for _, f := range m.Fill {
		if strings.HasPrefix(f, "agent_summaries.") {
			got = append(got, f)
		}
	}
	if want := []string{"agent_summaries.ps-researcher-001", "agent_summaries.ps-critic"}; !slices.Equal(got, want) {
		t.Errorf("agent summaries to fill = %v, want %v", got, want)
	}
}
