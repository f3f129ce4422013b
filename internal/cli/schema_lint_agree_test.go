package cli

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/test/golden"
)

// The exported schemas accept every file lint accepts (exit 0, or only
// warnings): an editor marking a file the CI gate passes is a client
// telling a different truth. Checked on whole repositories, so the
// verdicts cross-file rules and the lifecycle give are the ones compared.

// lintVerdicts lints the repository in dir and returns, per display path,
// whether lint reported an error there; nil when lint did not run (a
// usage error: a broken configuration, no state file).
func lintVerdicts(t *testing.T, dir string) map[string]bool {
	t.Helper()
	code, out, _ := run(t, dir, "", "lint", "--format", "json", "--now", "2026-02-21T00:00:00Z")
	if code != 0 && code != 1 {
		return nil
	}
	var res struct {
		Findings []struct{ Path, Severity string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("lint --format json: %v\n%s", err, out)
	}
	errs := map[string]bool{}
	for _, f := range res.Findings {
		if f.Severity == "error" {
			errs[f.Path] = true
		}
	}
	return errs
}

// writeFiles writes files (slash paths) under dir.
func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// lintedState reports whether lint checks the file at name as the state
// file its schema describes: not a template, not in a default-excluded
// archive, and for an ORCHESTRATION file one that is a workflow.
func lintedState(name string, data []byte) bool {
	kind := schemaKind(name)
	if kind == "" || strings.Contains("/"+name, "/archive/") || strings.Contains("/"+name, "/_archive/") {
		return false
	}
	if kind == "orchestration" {
		var n yaml.Node
		if yaml.Unmarshal(data, &n) != nil || len(n.Content) != 1 || n.Content[0].Kind != yaml.MappingNode {
			return false
		}
		return load.NotWorkflow(n.Content[0]) == ""
	}
	// A resume file outside nexus's places may be another system's page,
	// which lint skips (load.NotNexusResume).
	// A _resume.md memo (or note) is the legacy file's own form, which
	// RL313 judges; the exported schema is resume-context.md's.
	if kind == "resume-context" {
		return load.InNexusPlace(name) && !legacyMemo(name, data)
	}
	// Another hook's precompact_state.json, which lint skips
	// (load.NotNexusPrecompact).
	if kind == "precompact-state" {
		f := &load.File{Path: name, Kind: load.KindPrecompact, Data: data}
		doc, _ := load.Parse(f, load.FormatJSON, load.DefaultLimits)
		return load.NotNexusPrecompact(name, doc) == ""
	}
	// Bundle files and agent runs are folders lint tells apart by format;
	// their own cases cover them (TestExportedSchemasAcceptValidFiles).
	return kind == "checkpoint"
}

// legacyMemo reports a _resume.md without front matter or with a memo's
// (model.IsResumeMemo).
func legacyMemo(name string, data []byte) bool {
	if path.Base(name) != "_resume.md" {
		return false
	}
	f := &load.File{Path: name, Kind: load.KindResumeContext, Data: data}
	doc, _ := load.Parse(f, load.FormatMarkdown, load.DefaultLimits)
	return doc == nil || !doc.FrontMatter || model.IsResumeMemo(doc.Root)
}

// historyCheckpoint lists checkpoints lint accepts because the workflow
// that owns them is finished (SPEC §0 Lifecycle): which workflow owns a
// checkpoint is known across files only, and a one-file schema cannot
// see it (docs/editors.md says so).
var historyCheckpoint = map[string]bool{
	"lifecycle_finished_history.txtar:.jerry/checkpoints/cx-001-checkpoint.json":    true,
	"lifecycle_finished_history_ok.txtar:.jerry/checkpoints/cx-001-checkpoint.json": true,
}

var (
	compiledOnce sync.Once
	compiled     map[string]*jsonschema.Schema
)

// compiledSchemasOnce is compiledSchemas, compiled once for the tests
// that validate many repositories.
func compiledSchemasOnce(t *testing.T) map[string]*jsonschema.Schema {
	compiledOnce.Do(func() { compiled = compiledSchemas(t) })
	if compiled == nil {
		t.Fatal("the exported schemas did not compile")
	}
	return compiled
}

// acceptedByLint validates, against the exported schemas, every state
// file of the repository lint reports no error in, and returns the paths
// lint rejected.
func acceptedByLint(t *testing.T, label string, files map[string][]byte) (checked, rejected []string) {
	t.Helper()
	schemas := compiledSchemasOnce(t)
	dir := t.TempDir()
	writeFiles(t, dir, files)
	errs := lintVerdicts(t, dir)
	if errs == nil {
		return nil, nil
	}
	for name, data := range files {
		if !lintedState(name, data) {
			continue
		}
		if historyCheckpoint[label+":"+name] {
			continue
		}
		if errs[name] || errs[diag.Safe(name)] { // reports show a path masked and escaped
			rejected = append(rejected, name)
			continue
		}
		checked = append(checked, name)
		for _, in := range instances(t, label+":"+name, data) {
			if err := schemas[in.kind].Validate(in.value); err != nil {
				t.Errorf("%s: lint accepts it, the %s schema does not:\n%v", in.where, in.kind, err)
			}
		}
	}
	sort.Strings(checked)
	sort.Strings(rejected)
	return checked, rejected
}

// Every state file of every golden case that lint accepts there.
func TestExportedSchemasAcceptWhatLintAcceptsInGoldens(t *testing.T) {
	if testing.Short() {
		t.Skip("lints every golden repository")
	}
	goldens, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, g := range goldens {
		ar, err := golden.Archive(g)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		state, configured := false, false
		for _, f := range ar.Files {
			if path.IsAbs(f.Name) || strings.Contains(f.Name, "..") {
				continue
			}
			// Configuration may turn rules off or exclude files.
			configured = configured || path.Base(f.Name) == ".resumelint.yaml"
			files[f.Name] = f.Data
			state = state || lintedState(f.Name, f.Data)
		}
		if !state || configured {
			continue
		}
		checked, _ := acceptedByLint(t, filepath.Base(g), files)
		total += len(checked)
	}
	if total < 100 {
		t.Errorf("only %d accepted state files in the goldens; the walk or the lint run changed", total)
	}
}

// jerryShaped is a repository shaped like the reference system's: live
// and finished workflows side by side, finished ones written without a
// resumption section or with one only half filled, a v1.0 section, an
// unknown key, and a terminal status spelled outside the enum.
var jerryShaped = map[string]string{
	"projects/PROJ-001-oss-release/orchestration/en202-rewrite-20260201-001/ORCHESTRATION.yaml": `# ORCHESTRATION.yaml - EN-202 rewrite
workflow:
  id: "en202-rewrite-20260201-001"
  name: "EN-202 rewrite"
  status: COMPLETE
  created_at: "2026-02-01T22:30:00Z"
  completed_at: "2026-02-02T04:00:00Z"
pipelines:
  pipeline_a:
    short_alias: "ps"
phases:
  - id: 1
    name: "Draft"
    status: COMPLETE
quality_gates:
  qg-1: {status: PASSED, score: 0.94}
checkpoints:
  latest_id: "CP-003"
`,
	"projects/PROJ-004-context-resilience/orchestration/feat001-impl-20260220-001/ORCHESTRATION.yaml": `workflow:
  id: "feat001-impl-20260220-001"
  status: "COMPLETE"
phases:
  - {id: 1, name: "Implement", status: "COMPLETE"}
resumption:
  recovery_state:
    workflow_status: "COMPLETE"
    next_step: "None: workflow complete"
  compaction_events:
    count: 1
    events:
      - id: "CX-001"
        timestamp: "2026-02-20T18:00:00Z"
        trigger: "auto"
`,
	"docs/PROJ-006-worktracker-ontology/ORCHESTRATION.yaml": `workflow:
  id: "ontology-20260110-001"
  name: "Worktracker ontology"
status: DONE
phases:
  - {id: 1, status: COMPLETE}
`,
	"projects/PROJ-001-oss-release/work/FEAT-004-adversarial/ORCHESTRATION.yaml": `workflow:
  id: "feat004-adversarial-20260214-001"
  status: "ACTIVE"
pipelines:
  ps:
    current_phase: 1
    phases:
      - {id: 1, name: "Research", status: "IN_PROGRESS"}
resumption:
  last_checkpoint: null
  current_state: "Phase 1 research in progress."
  next_step: "Execute Phase 1: ps-researcher-001 researches adversarial strategies"
  files_to_read:
    - "ORCHESTRATION_PLAN.md"
    - path: "ORCHESTRATION.yaml"
      note: "the state itself"
  cross_session_portable: true
  ephemeral_references: false
`,
	"projects/PROJ-001-oss-release/work/FEAT-004-adversarial/ORCHESTRATION_PLAN.md": "# FEAT-004 plan\n",
	"docs/PROJ-007-agent-patterns/ORCHESTRATION.yaml": `workflow:
  id: "agent-patterns-20260115-001"
status: "✅ DONE - shipped in v0.4"
phases:
  - {id: 1, status: COMPLETE}
`,
	"projects/PROJ-009-llm-deception/ORCHESTRATION.yaml": `workflow:
  id: "llm-deception-20260222-001"
  status: "COMPLETED"
phases:
  - {id: 1, status: "COMPLETE"}
`,
}

// liveV2 is a live workflow with a complete v2.0 section and a key no
// reader knows (RL010, a warning).
const liveV2 = `workflow:
  id: "docs-refresh-20260220-001"
  status: "ACTIVE"
  created_at: "2026-02-20T09:00:00Z"
pipelines:
  docs:
    current_phase: 1
    phases:
      - {id: 1, name: "Research", status: "IN_PROGRESS", gate_after: "qg-1"}
quality_gates:
  qg-1: {id: "qg-1", after_phase: 1, status: "PENDING"}
resumption:
  recovery_state:
    last_checkpoint: null
    current_phase: 1
    current_phase_name: "Research"
    workflow_status: "ACTIVE"
    current_activity: "phase-1-agent-execution"
    next_step: "Run the researcher agent"
    context_fill_at_update: null
    updated_at: "2026-02-20T21:00:00Z"
    resumed_by: "session-7"
  files_to_read: []
  quality_trajectory: {gates_completed: [], gates_remaining: ["qg-1"], current_gate: null, current_gate_iteration: null, score_history: {}, lowest_dimension: null, total_iterations_used: 0}
  defect_summary: {total_defects_found: 0, total_defects_resolved: 0, unresolved_defects: [], recurring_patterns: [], last_gate_primary_defect: null}
  decision_log: []
  agent_summaries: {}
  compaction_events: {count: 0, events: []}
`

// buildShaped is a nexus build (02-builds/…, build_id/build_name/
// build_type), the later layout of the reference projects. Where lint
// accepts it, the resume-context schema must too: #ResumeContextExport is
// the place a build's definition joins.
var buildShaped = map[string]string{
	"02-builds/active/01-docs-site/01-planning/resume-context.md": `---
resume_schema_version: "2.0"
build_id: "01-docs-site"
build_name: "Docs site"
build_type: "build"
current_phase: "planning"
next_action: "plan-build"
files_to_load:
  - "02-builds/active/01-docs-site/01-planning/01-overview.md"
last_updated: "2026-02-20T21:00:00"
continue_at: "Plan the build"
blockers: []
---
# Resume context
`,
	"02-builds/active/01-docs-site/01-planning/01-overview.md": "# Docs site\n",
}

// Repositories of the reference system's shapes: what lint accepts, the
// exported schemas accept; what it rejects for the terminal spelling,
// they reject too.
func TestExportedSchemasAcceptWhatLintAcceptsJerryShaped(t *testing.T) {
	files := map[string][]byte{"ORCHESTRATION.yaml": []byte(liveV2)}
	for k, v := range jerryShaped {
		files[k] = []byte(v)
	}
	checked, rejected := acceptedByLint(t, "jerry-shaped", files)
	wantChecked := []string{
		"ORCHESTRATION.yaml",
		"docs/PROJ-006-worktracker-ontology/ORCHESTRATION.yaml",
		"docs/PROJ-007-agent-patterns/ORCHESTRATION.yaml",
		"projects/PROJ-001-oss-release/orchestration/en202-rewrite-20260201-001/ORCHESTRATION.yaml",
		"projects/PROJ-001-oss-release/work/FEAT-004-adversarial/ORCHESTRATION.yaml",
		"projects/PROJ-004-context-resilience/orchestration/feat001-impl-20260220-001/ORCHESTRATION.yaml",
	}
	if strings.Join(checked, "\n") != strings.Join(wantChecked, "\n") {
		t.Errorf("lint accepts\n%s\nwant\n%s", strings.Join(checked, "\n"), strings.Join(wantChecked, "\n"))
	}
	const completed = "projects/PROJ-009-llm-deception/ORCHESTRATION.yaml"
	if strings.Join(rejected, "\n") != completed {
		t.Errorf("lint rejects %v, want only %s (COMPLETED is outside the enum)", rejected, completed)
	}
	ins := instances(t, completed, files[completed])
	if err := compiledSchemasOnce(t)["orchestration"].Validate(ins[0].value); err == nil {
		t.Errorf("%s: the schema accepts COMPLETED, which lint reports", completed)
	}
	// A live workflow still needs its resumption section.
	live := instances(t, "ORCHESTRATION.yaml", []byte("workflow: {id: demo, status: ACTIVE}\n"))
	if err := compiledSchemasOnce(t)["orchestration"].Validate(live[0].value); err == nil {
		t.Error("the schema accepts a live workflow without resumption")
	}
}

func TestExportedSchemasAcceptWhatLintAcceptsBuildShaped(t *testing.T) {
	files := map[string][]byte{}
	for k, v := range buildShaped {
		files[k] = []byte(v)
	}
	checked, rejected := acceptedByLint(t, "build-shaped", files)
	if len(checked) == 0 {
		t.Logf("lint rejects the build's resume-context (%v): nothing to compare yet", rejected)
	}
}
