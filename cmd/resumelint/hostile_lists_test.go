package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/cli"
)

// Long lists of wrong items: a list of one wrong kind is one finding
// naming how many, and n distinct problems cost O(n), not O(n²), however
// they are laid out (one item per line, or a minified JSON line holding
// them all). Each case ran for minutes before; runBounded's deadline of
// 10 s is a generous bound, not a timing.

// longListCase is one hostile file, the code its findings carry, a text
// one of them holds, and how many findings of that code there must be.
type longListCase struct {
	name, path, content string
	code, message       string
	count               int
}

func longListCases() []longListCase {
	ftr := func(item string, n int) string {
		return strings.Replace(validOrchestration, "  files_to_read:\n", "  files_to_read:\n"+strings.Repeat(item, n), 1)
	}
	seedCheckpoint := `{"schema_version": "1.0.0", "event_type": "compaction", "event_id": "cx-001", "timestamp": "2026-02-20T15:10:00Z", "trigger": {"type": "auto", "source": "PreCompact hook"}, ` +
		`"context_state": {"estimated_fill_before_compaction": 0.884, "estimated_tokens_used": 176800, "context_window_size": 200000, "source": "transcript_heuristic"}, ` +
		`"orchestration_state": {"workflow_id": "docs-refresh-20260220-001", "workflow_status": "ACTIVE", "current_phase": 2, "current_phase_name": "Content Rewrite", "current_activity": "phase-2-agent-execution", "last_completed_checkpoint": "CP-001", "phases_complete": [1], "phases_in_progress": [2], "phases_remaining": [3], "current_gate": null, "current_gate_iteration": null, "current_gate_score": null}, ` +
		`"accumulated_context": {"defect_patterns": [], "decisions_since_last_checkpoint": [], "agent_summaries": {}}, ` +
		`"recovery_instructions": {"files_to_read": [` + strings.TrimSuffix(strings.Repeat("42, ", 100000), ", ") + `], "next_action": "Merge this checkpoint."}, ` +
		`"metadata": {"written_by": "PreCompact hook", "acknowledged": false, "acknowledged_at": null}}` + "\n"
	var tasks, deps []string
	for i := range 20000 {
		tasks = append(tasks, fmt.Sprintf(`{"id": %d, "title": "Page %d"}`, i+1, i+1))
		deps = append(deps, fmt.Sprintf(`{"id": "T%d", "depends_on": ["X%d"]}`, i+1, i+1))
	}
	var noID strings.Builder
	for range 20000 {
		noID.WriteString("    - {decision: \"Keep the redirects\", rationale: \"External links\"}\n")
	}
	var sections []string
	for i := range 20000 {
		sections = append(sections, fmt.Sprintf(`"{SECTION_%d}"`, i))
	}
	// GitHub tokens, each a credential of its own, in one block scalar
	// and in one quoted line: one node that n findings are placed on.
	var block, line, assigned strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&block, "      ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca%04d\n", i%10000)
		fmt.Fprintf(&line, " ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca%04d", i%10000)
		fmt.Fprintf(&assigned, " password=Qm7vT2xK9pL4wR8n%04d", i%10000)
	}
	// RL205: phases listed complete and remaining, 150,000 each, one in
	// both; one item per line (a JSON line is at most 1 MiB).
	var done, left []string
	for i := range 150000 {
		done = append(done, fmt.Sprint(i+1))
		left = append(left, fmt.Sprint(i+150002))
	}
	left[len(left)-1] = "7"
	phaseLists := strings.Replace(strings.Replace(seedCheckpoint, `"phases_complete": [1]`, "\"phases_complete\": [\n"+strings.Join(done, ",\n")+"\n]", 1),
		`"phases_remaining": [3]`, "\"phases_remaining\": [\n"+strings.Join(left, ",\n")+"\n]", 1)
	phaseLists = strings.Replace(phaseLists, `"phases_in_progress": [2]`, `"phases_in_progress": [150001]`, 1)
	phaseLists = strings.Replace(phaseLists, `"current_phase": 2`, `"current_phase": 150001`, 1)
	// RL110: 20,000 pipelines defining phase 1, one decision naming it
	// 20,000 times (and phase 99, which none defines).
	var pipes strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&pipes, "  extra_%d: {current_phase: 1, phases: [{id: 1, name: \"Review\", status: \"IN_PROGRESS\"}]}\n", i)
	}
	manyPipelines := strings.Replace(validOrchestration, "pipelines:\n", "pipelines:\n"+pipes.String(), 1)
	manyPipelines = strings.Replace(manyPipelines, "      affects_phases: [2]\n", "      affects_phases: [99, "+strings.TrimSuffix(strings.Repeat("1, ", 20000), ", ")+"]\n", 1)
	// CUE: a resumption section lacking a required sub-section is
	// validated whole, with its 100,000 valid unresolved defects.
	var defects strings.Builder
	for i := range 100000 {
		fmt.Fprintf(&defects, "      - \"DEF-%06d\"\n", i+1)
	}
	// CUE: two wrong items with 200,000 valid ones between them.
	var between strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&between, "      - \"DEF-%06d\"\n", i+1)
	}
	twoWrong := strings.Replace(validOrchestration, "    unresolved_defects: []\n", "    unresolved_defects:\n      - 1\n"+between.String()+"      - 2\n", 1)
	validEntries := strings.Replace(strings.Replace(validOrchestration, "    unresolved_defects: []\n", "    unresolved_defects:\n"+defects.String(), 1), "  compaction_events:\n", "  compaction_events_v1:\n", 1)
	activity := `    current_activity: "phase-2-agent-execution"` + "\n"
	tokenBlock := strings.Replace(validOrchestration, activity, "    current_activity: |\n"+block.String(), 1)
	tokenLine := strings.Replace(validOrchestration, activity, `    current_activity: "`+line.String()+`"`+"\n", 1)
	assignedLine := strings.Replace(validOrchestration, activity, `    current_activity: "`+assigned.String()+`"`+"\n", 1)
	placeholders := strings.Replace(validOrchestration, `      sections: ["phase-2"]`, "      sections: ["+strings.Join(sections, ", ")+"]", 1)
	return []longListCase{
		{"100,000 integers in files_to_read", "ORCHESTRATION.yaml", ftr("    - 42\n", 100000), "RL102", "files_to_read: 100000 items: expected a string or a mapping, found an integer", 1},
		{"100,000 lists in files_to_read", "ORCHESTRATION.yaml", ftr("    - [a]\n", 100000), "RL102", "files_to_read: 100000 items: expected a string or a mapping, found a list", 1},
		{"100,000 integers in a minified checkpoint's files_to_read", ".jerry/checkpoints/cx-001-checkpoint.json", seedCheckpoint, "RL201", "files_to_read: 100000 items: expected a string or a mapping, found an integer", 1},
		{"20,000 decisions without an id", "ORCHESTRATION.yaml", strings.Replace(validOrchestration, "  decision_log:\n", "  decision_log:\n"+noID.String(), 1), "RL110", "", 20001}, // and RD-001 now last
		{"20,000 tokens in one block scalar", "ORCHESTRATION.yaml", tokenBlock, "RL005", "a GitHub token is stored here", 20000},
		{"20,000 tokens in one quoted value", "ORCHESTRATION.yaml", tokenLine, "RL005", "a GitHub token is stored here", 20000},
		{"20,000 passwords written in one value", "ORCHESTRATION.yaml", assignedLine, "RL005", `a credential written after "password" is stored here`, 20000},
		{"20,000 placeholders on one line", "ORCHESTRATION.yaml", placeholders, "RL114", "was never filled in", 20000},
		// CUE sees 100 of them, one finding; one more says how many more.
		{"20,000 tasks with integer ids on one JSON line", ".agent-memory/runs/2026-02-20-001/task-graph.json", `{"tasks": [` + strings.Join(tasks, ", ") + "]}\n", "RL501", "", 2},
		{"150,000 phases both complete and remaining", ".jerry/checkpoints/cx-001-checkpoint.json", phaseLists, "RL205", "phase 7 is in both phases_complete", 1},
		{"20,000 pipelines and a decision naming their phase 20,000 times", "ORCHESTRATION.yaml", manyPipelines, "RL110", "affects phase 99", 1},
		{"100,000 valid entries beside a missing sub-section", "ORCHESTRATION.yaml", validEntries, "RL102", "missing required key compaction_events", 1},
		{"two wrong items 200,000 valid ones apart", "ORCHESTRATION.yaml", twoWrong, "RL102", "unresolved_defects: 2 items: expected a string, found an integer", 1},
		{"20,000 tasks on one JSON line depending on none that exists", ".agent-memory/runs/2026-02-20-001/task-graph.json", `{"tasks": [` + strings.Join(deps, ", ") + "]}\n", "RL502", "", 20000},
	}
}

func TestHostileLongLists(t *testing.T) {
	for _, tc := range longListCases() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "ORCHESTRATION_PLAN.md", "# Plan\n")
			p := write(t, dir, tc.path, tc.content)
			code, fs := lintJSON(t, dir, p)
			got := findingsWith(fs, tc.code, tc.message)
			if code != 1 || len(got) != tc.count || len(findingsWith(fs, tc.code, "")) != tc.count {
				if len(fs) > 3 {
					fs = fs[:3]
				}
				t.Fatalf("exit %d, %d %s findings holding %q, want exit 1 and %d of %d; first findings: %v", code, len(got), tc.code, tc.message, tc.count, len(findingsWith(fs, tc.code, "")), fs)
			}
		})
	}
}

// BenchmarkHostileLongLists times a lint of each long list: with the cost
// linear in the items, ns/op stays near that of a file of the same size
// with no findings (go test -bench HostileLongLists ./cmd/resumelint).
func BenchmarkHostileLongLists(b *testing.B) {
	for _, tc := range longListCases() {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			p := filepath.Join(dir, filepath.FromSlash(tc.path))
			for name, content := range map[string]string{filepath.Join(dir, "ORCHESTRATION_PLAN.md"): "# Plan\n", p: tc.content} {
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				c := &cli.Command{Stdout: io.Discard, Stderr: io.Discard, Cwd: dir, Getenv: func(string) string { return "" }}
				if code := c.Main([]string{"lint", "--format", "json", p}); code != 1 {
					b.Fatalf("exit %d, want 1", code)
				}
			}
		})
	}
}
