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
	fmt.Fprintf(&sb, orchestrationHead, i, i, i, i)
	writePhases(&sb)
	orchPath, planPath, trackerPath, _ := toRead(i)
	strings.NewReplacer("{{status}}", status, "{{orchestration}}", orchPath, "{{plan}}", planPath, "{{tracker}}", trackerPath).
		WriteString(&sb, orchestrationTail)
	return sb.String()
}

// writePhases writes the main pipeline's four phases and their agents.
func writePhases(sb *strings.Builder) {
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
		fmt.Fprintf(sb, "      - id: %d\n        name: %q\n        path_id: \"phase-%d\"\n        description: \"%s the deliverables of phase %d and hand them to the next phase.\"\n        status: %q\n        started_at: %s\n        completed_at: %s\n        agents:\n", ph.id, ph.name, ph.id, ph.name, ph.id, ph.status, ph.start, ph.end)
		for _, a := range agents {
			st := "PENDING"
			summary := ""
			if ph.status == "COMPLETE" {
				st = "COMPLETE"
				summary = fmt.Sprintf("\n            summary: \"DONE. %s finished phase %d.\"", a, ph.id)
			}
			fmt.Fprintf(sb, "          - id: \"%s-%d\"\n            name: \"%s agent\"\n            status: %q%s\n            artifact: \"orchestration/main/phase-%d/%s-%d/output.md\"\n            inputs:\n              - \"ORCHESTRATION_PLAN.md\"\n              - \"WORKTRACKER.md\"\n", a, ph.id, a, st, summary, ph.id, a, ph.id)
		}
	}
}
