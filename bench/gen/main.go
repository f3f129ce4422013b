//go:build bench

// Command gen writes the benchmark repository of SPEC §9 P1: ORCHESTRATION.yaml
// files of about 300 lines (v2.0, 5% with one error), checkpoint files, and
// Nexus projects with resume-context.md. -scale multiplies every count (P3).
//
// -shape clean (the default) names only files that exist, relative to the
// file's own folder; -shape findings names files by repository-relative
// paths, two of every ORCHESTRATION.yaml's files_to_read and the one of
// every checkpoint's recovery_instructions resolving nowhere, so a lint
// reports thousands of findings (6,100 at scale 1).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	out := flag.String("out", "bench/out/repo", "folder to write (replaced)")
	orch := flag.Int("orchestration", 2000, "ORCHESTRATION.yaml files")
	cps := flag.Int("checkpoints", 2000, "checkpoint files")
	projects := flag.Int("projects", 500, "resume-context projects")
	scale := flag.Int("scale", 1, "multiply every count")
	shape := flag.String("shape", "clean", "clean, or findings (repository-relative paths that resolve nowhere)")
	flag.Parse()
	switch *shape {
	case "clean":
	case "findings":
		missing = true
	default:
		log.Fatalf("unknown -shape %q (clean, findings)", *shape)
	}
	if err := os.RemoveAll(*out); err != nil {
		log.Fatal(err)
	}
	n, c, p := *orch**scale, *cps**scale, *projects**scale
	var brokenList strings.Builder
	for i := 0; i < n; i++ {
		dir := filepath.Join(*out, "projects", fmt.Sprintf("PROJ-%05d", i))
		broken := i%20 == 7 // 5%
		write(filepath.Join(dir, "ORCHESTRATION.yaml"), orchestration(i, broken))
		if broken {
			fmt.Fprintf(&brokenList, "./projects/PROJ-%05d/ORCHESTRATION.yaml\n", i)
		}
		for _, f := range []string{"ORCHESTRATION_PLAN.md", "WORKTRACKER.md"} {
			write(filepath.Join(dir, f), "# "+f+"\n")
		}
		if i < c {
			write(filepath.Join(dir, ".jerry", "checkpoints", "cx-001-checkpoint.json"), checkpoint(i))
		}
	}
	for i := n; i < c; i++ { // more checkpoints than orchestration files
		write(filepath.Join(*out, "extra", fmt.Sprintf("w%05d", i), ".jerry", "checkpoints", "cx-001-checkpoint.json"), checkpoint(i))
	}
	for i := 0; i < p; i++ {
		root := filepath.Join(*out, "nexus", fmt.Sprintf("n%05d", i), "02-projects", "07-resume-bench")
		write(filepath.Join(root, "01-planning", "resume-context.md"), resumeContext(i))
		write(filepath.Join(root, "01-planning", "overview.md"), "# Overview\n\nWhy this project exists.\n")
		write(filepath.Join(root, "01-planning", "plan.md"), "# Plan\n\n1. Research\n2. Build\n")
		write(filepath.Join(root, "01-planning", "steps.md"), "# Steps\n\n- [x] 1.1 Read the seeds\n- [x] 1.2 Draft the schema\n- [ ] 2.1 Build the loader\n- [ ] 2.2 Write the rules\n")
	}
	// The seeded errors, for the benchmark script (cue vet stops at the
	// first invalid file, so it is given only the valid ones).
	write(filepath.Join(*out, ".broken"), brokenList.String())
	fmt.Printf("wrote %d orchestration, %d checkpoint, %d resume-context files to %s\n", n, c, p, *out)
}

// missing selects the findings shape.
var missing bool

// toRead returns the files_to_read paths of project i's ORCHESTRATION.yaml
// and the path of its checkpoint's recovery_instructions.files_to_read.
func toRead(i int) (orch, plan, tracker, cp string) {
	if !missing {
		return "ORCHESTRATION.yaml", "ORCHESTRATION_PLAN.md", "WORKTRACKER.md", "ORCHESTRATION.yaml"
	}
	p := fmt.Sprintf("projects/PROJ-%05d/", i)
	return p + "ORCHESTRATION.yaml", p + "docs/ORCHESTRATION_PLAN.md", p + "notes/WORKTRACKER.md",
		fmt.Sprintf("projects/PROJ-%05d/state/resume-%05d.yaml", i, i)
}

func write(path, content string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		log.Fatal(err)
	}
}

func resumeContext(i int) string {
	return fmt.Sprintf(`---
resume_schema_version: "1.0"
last_updated: "2026-02-20T15:30:00Z"
project_id: "07-resume-bench"
project_name: "Resume bench project %d"
current_phase: execution
next_action: execute-project
files_to_load:
  - 01-planning/overview.md
  - 01-planning/plan.md
  - 01-planning/steps.md
current_section: 2
current_task: 3
progress: "2/4 tasks complete"
---

# Validation Gate

Before continuing, verify you understand:

1. **Project Purpose** (from overview.md):
   - [ ] What problem are we solving?
2. **Current Location** (from steps.md):
   - [ ] What is the next task?
`, i)
}

func checkpoint(i int) string {
	_, _, _, cp := toRead(i)
	return fmt.Sprintf(`{
  "schema_version": "1.0.0",
  "event_type": "compaction",
  "event_id": "cx-001",
  "timestamp": "2026-02-20T11:45:00Z",
  "trigger": {"type": "auto", "source": "PreCompact hook"},
  "context_state": {
    "estimated_fill_before_compaction": 0.886,
    "estimated_tokens_used": 177200,
    "context_window_size": 200000,
    "source": "transcript_heuristic"
  },
  "orchestration_state": {
    "workflow_id": "bench-20260220-%05d",
    "workflow_status": "ACTIVE",
    "current_phase": 2,
    "current_phase_name": "Build",
    "current_activity": "qg-2-iteration-1",
    "last_completed_checkpoint": "CP-001",
    "phases_complete": [1],
    "phases_in_progress": [2],
    "phases_remaining": [3, 4],
    "current_gate": "qg-2",
    "current_gate_iteration": 1,
    "current_gate_score": 0.91
  },
  "accumulated_context": {
    "defect_patterns": ["Evidence quality gaps"],
    "decisions_since_last_checkpoint": [
      {"id": "RD-001", "summary": "Keep the loader streaming", "affects_phases": [3]}
    ],
    "agent_summaries": {"researcher": "DONE. Seeds read and summarised."}
  },
  "recovery_instructions": {
    "files_to_read": [
      {"path": %q, "sections": ["resumption"], "priority": 1}
    ],
    "next_action": "Read the resumption section, merge this checkpoint, continue qg-2 iteration 1.",
    "critical_context": "QG-2 was scoring the build deliverables when compaction occurred."
  },
  "metadata": {
    "written_by": "PreCompact hook",
    "acknowledged": true,
    "acknowledged_at": "2026-02-20T11:50:00Z"
  }
}
`, i, cp)
}

// orchestration writes a consistent v2.0 file; broken ones carry one error.
func orchestration(i int, broken bool) string {
	status := `"ACTIVE"`
	if broken {
		status = `"COMPLETED"`
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, `# ORCHESTRATION.yaml
# Machine-readable orchestration state for workflow bench-20260220-%05d
schema_version: "2.0.0"

workflow:
  id: "bench-20260220-%05d"
  name: "Benchmark workflow %d"
  project_id: "PROJ-%05d"
  version: "2.0"
  created_at: "2026-02-20T08:00:00Z"
  updated_at: "2026-02-20T12:00:00Z"
  status: "ACTIVE"
  patterns:
    - SEQUENTIAL
    - CONCURRENT
  constraints:
    max_agent_nesting: 1
    file_persistence: true
    user_authority: true
    max_concurrent_agents: 5
    checkpoint_frequency: "PHASE"

pipelines:
  main:
    id: "main"
    name: "Main pipeline"
    short_alias: "main"
    status: "PHASE_2_IN_PROGRESS"
    current_phase: 2
    total_phases: 4
    phases:
`, i, i, i, i)
	phases := []struct {
		id           int
		name, status string
		start, end   string
	}{
		{1, "Research", "COMPLETE", `"2026-02-20T08:00:00Z"`, `"2026-02-20T10:00:00Z"`},
		{2, "Build", "IN_PROGRESS", `"2026-02-20T10:05:00Z"`, "null"},
		{3, "Verify", "PENDING", "null", "null"},
		{4, "Release", "PENDING", "null", "null"},
	}
	agents := []string{"researcher", "analyst", "writer"}
	for _, ph := range phases {
		fmt.Fprintf(&sb, "      - id: %d\n        name: %q\n        path_id: \"phase-%d\"\n        description: \"%s the deliverables of phase %d and hand them to the next phase.\"\n        status: %q\n        started_at: %s\n        completed_at: %s\n        agents:\n", ph.id, ph.name, ph.id, ph.name, ph.id, ph.status, ph.start, ph.end)
		for _, a := range agents {
			st := "PENDING"
			summary := ""
			if ph.status == "COMPLETE" {
				st = "COMPLETE"
				summary = fmt.Sprintf("\n            summary: \"DONE. %s finished phase %d.\"", a, ph.id)
			}
			fmt.Fprintf(&sb, "          - id: \"%s-%d\"\n            name: \"%s agent\"\n            status: %q%s\n            artifact: \"orchestration/main/phase-%d/%s-%d/output.md\"\n            inputs:\n              - \"ORCHESTRATION_PLAN.md\"\n              - \"WORKTRACKER.md\"\n", a, ph.id, a, st, summary, ph.id, a, ph.id)
		}
	}
	orchPath, planPath, trackerPath, _ := toRead(i)
	sb.WriteString(`
quality_gates:
  qg-1:
    status: "PASSED"
    threshold: 0.92
    max_iterations: 3
    iteration_history:
      - iteration: 1
        score: 0.88
        status: "REVISE"
        primary_defect: "Evidence quality gaps"
        timestamp: "2026-02-20T09:30:00Z"
      - iteration: 2
        score: 0.94
        status: "PASS"
        primary_defect: null
        timestamp: "2026-02-20T09:55:00Z"
  qg-2:
    status: "IN_PROGRESS"
    threshold: 0.92
    max_iterations: 3
    iteration_history:
      - iteration: 1
        score: 0.91
        status: "REVISE"
        primary_defect: "Cross-artifact consistency"
        timestamp: "2026-02-20T11:30:00Z"
  qg-3:
    status: "PENDING"
    threshold: 0.92
    max_iterations: 3
    iteration_history: []

checkpoints:
  latest_id: "CP-001"
  entries:
    - id: "CP-001"
      timestamp: "2026-02-20T10:00:00Z"
      trigger: "PHASE_COMPLETE"
      description: "Phase 1 complete, qg-1 passed"
      recovery_point: "phase-2-start"

metrics:
  execution:
    phases_complete: 1
    phases_total: 4
    agents_executed: 3
    agents_total: 12

blockers:
  active: []

next_actions:
  immediate:
    - action: "Revise build deliverables for qg-2 iteration 2"
      agents: ["writer-2"]

# =============================================================================
# RESUMPTION CONTEXT (v2.0)
# =============================================================================
resumption:
  recovery_state:
    last_checkpoint: "CP-001"
    current_phase: 2
    current_phase_name: "Build"
    workflow_status: ` + status + `
    current_activity: "qg-2-iteration-1"
    next_step: "Revise build deliverables for qg-2 iteration 2"
    context_fill_at_update: 0.64
    updated_at: "2026-02-20T12:00:00Z"
    cross_session_portable: true
    ephemeral_references: false

  files_to_read:
    - path: "` + orchPath + `"
      priority: 1
      purpose: "Machine-readable workflow state. Read resumption section first."
      sections: ["resumption", "quality_gates.qg-2"]
    - path: "` + planPath + `"
      priority: 2
      purpose: "Strategic context."
    - path: "` + trackerPath + `"
      priority: 3
      purpose: "Tactical documentation."

  quality_trajectory:
    gates_completed: ["qg-1"]
    gates_remaining: ["qg-3"]
    current_gate: "qg-2"
    current_gate_iteration: 1
    score_history:
      qg-1: [0.88, 0.94]
      qg-2: [0.91]
    lowest_dimension: "evidence_quality"
    total_iterations_used: 3
    total_iterations_budget: 9

  defect_summary:
    total_defects_found: 3
    total_defects_resolved: 2
    unresolved_defects: ["DF-003"]
    recurring_patterns:
      - pattern: "Evidence quality gaps"
        gates_affected: ["qg-1"]
        resolution: "Added source links"
    last_gate_primary_defect: "Cross-artifact consistency"

  decision_log:
    - id: "RD-001"
      timestamp: "2026-02-20T09:40:00Z"
      gate: "qg-1"
      iteration: 1
      decision: "Keep the loader streaming"
      rationale: "Large inputs must not be read twice."
      affects_phases: [3]
      applied: false

  agent_summaries:
    researcher-1: "DONE. researcher finished phase 1."
    analyst-1: "DONE. analyst finished phase 1."
    writer-1: "DONE. writer finished phase 1."

  compaction_events:
    count: 1
    events:
      - id: "CX-001"
        timestamp: "2026-02-20T11:45:00Z"
        trigger: "auto"
        estimated_fill_before: 0.886
        active_phase: 2
        active_gate: "qg-2"
        active_gate_iteration: 1
        checkpoint_file: ".jerry/checkpoints/cx-001-checkpoint.json"
        acknowledged: true
`)
	return sb.String()
}
