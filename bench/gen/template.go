//go:build bench

package main

// The text of every generated ORCHESTRATION.yaml around its phases:
// orchestrationHead is a format (the workflow's number, four times),
// orchestrationTail has {{status}}, {{orchestration}}, {{plan}} and
// {{tracker}} replaced.

const orchestrationHead = `# ORCHESTRATION.yaml
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
`

const orchestrationTail = `
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
    workflow_status: {{status}}
    current_activity: "qg-2-iteration-1"
    next_step: "Revise build deliverables for qg-2 iteration 2"
    context_fill_at_update: 0.64
    updated_at: "2026-02-20T12:00:00Z"
    cross_session_portable: true
    ephemeral_references: false

  files_to_read:
    - path: "{{orchestration}}"
      priority: 1
      purpose: "Machine-readable workflow state. Read resumption section first."
      sections: ["resumption", "quality_gates.qg-2"]
    - path: "{{plan}}"
      priority: 2
      purpose: "Strategic context."
    - path: "{{tracker}}"
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
`
