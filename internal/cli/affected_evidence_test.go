package cli

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/resumelint/resumelint/internal/load"
)

func TestEvidenceRestsOn(t *testing.T) {
	root := filepath.FromSlash("/repo")
	abs := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	wf := &load.File{OSPath: abs("projects/PROJ-010/ORCHESTRATION.yaml"), Kind: load.KindOrchestration}
	rootWF := &load.File{OSPath: abs("ORCHESTRATION.yaml"), Kind: load.KindOrchestration}
	resume := &load.File{OSPath: abs("02-projects/07-x/01-planning/resume-context.md"), Kind: load.KindResumeContext}
	cp := &load.File{OSPath: abs(".jerry/checkpoints/cx-004-checkpoint.json"), Kind: load.KindCheckpoint}
	cases := []struct {
		name    string
		changed []string
		learned string // text of the changed files of a known kind
		f       *load.File
		text    string
		want    bool
	}{
		{"named by path from the root", []string{"docs/design/PLAN.md"}, "", rootWF, "files_to_read:\n  - \"docs/design/PLAN.md#phase-2\"\n", true},
		{"a bare name beside it", []string{"PLAN.md"}, "", rootWF, "files_to_read: [PLAN.md]\n", true},
		{"a root file's bare name below the root", []string{"CLAUDE.md"}, "", cp, "{\"note\": \"CLAUDE.md and AGENTS.md updated\"}", false},
		{"a root file's bare name below the root, through a folder", []string{"CLAUDE.md"}, "", wf, "name: Update CLAUDE.md\n", false},
		{"a bare name of another folder", []string{"projects/PROJ-011/ORCHESTRATION_PLAN.md"}, "", wf, "files_to_read: [ORCHESTRATION_PLAN.md]\n", false},
		{"the end of the changed path", []string{"projects/P/orchestration/wf/phase-1/out.md"}, "", rootWF, "base: projects/P/\nartifact: orchestration/wf/phase-1/out.md\n", true},
		{"a folder named from the root", []string{"src/ast/parse.py"}, "", rootWF, "files_to_read: [./src/ast/]\n", true},
		{"a top folder is too common a word", []string{"docs/guide.md"}, "", rootWF, "see the docs\n", false},
		{"anything below its folder", []string{"projects/PROJ-010/work/notes/a.txt"}, "", wf, "", true},
		{"below a root workflow: only what it names", []string{"src/main.go"}, "", rootWF, "next: read main.c, src/other/\n", false},
		{"a short name is no word", []string{"docs/a"}, "", rootWF, "a b c docs a\n", false},
		{"a fixed name counts by its path only", []string{"02-projects/09-y/01-planning/resume-context.md"}, "", rootWF, "see resume-context.md\n", false},
		{"a fixed name by its path", []string{"02-projects/09-y/01-planning/resume-context.md"}, "", rootWF, "see 02-projects/09-y/01-planning/resume-context.md.\n", true},
		{"anything in the project folder", []string{"02-projects/07-x/02-resources/notes.md"}, "", resume, "", true},
		{"another project's folder", []string{"02-projects/08-y/01-planning/steps.md"}, "", resume, "files_to_load: [01-planning/plan.md]\n", false},
		{"a checkpoint a changed workflow names", []string{"projects/PROJ-010/ORCHESTRATION.yaml"}, "checkpoint_file: \".jerry/checkpoints/cx-004-checkpoint.json\"\n", cp, "{}", true},
		{"a checkpoint by its id", []string{"projects/PROJ-010/ORCHESTRATION.yaml"}, "latest_id: cx-004\n", cp, "{}", true},
		{"a checkpoint nothing names", []string{"projects/PROJ-010/ORCHESTRATION.yaml"}, "latest_id: cx-003\n", cp, "{}", false},
		{"the work item above the workflow", []string{"projects/P/work/FEAT-003-site/FEAT-003-site.md"}, "", &load.File{OSPath: abs("projects/P/work/FEAT-003-site/orchestration/wf/ORCHESTRATION.yaml"), Kind: load.KindOrchestration}, "", true},
		{"the work item by the id it declares", []string{"projects/P/work/EPIC-001-a/FEAT-012-rules/FEAT-012-rules.md"}, "", wf, "workflow:\n  feature_id: \"FEAT-012\"\n", true},
		{"another work item", []string{"projects/P/work/FEAT-013-b/FEAT-013-b.md"}, "", wf, "feature_id: FEAT-012\n", false},
		{"a legacy resume file in the project folder", []string{"02-projects/05-z/01-planning/steps.md"}, "", &load.File{OSPath: abs("02-projects/05-z/_resume.md"), Kind: load.KindResumeContext}, "progress: 3/9\n", true},
		{"a resume file in a build folder", []string{"02-builds/06-b/01-planning/steps.md"}, "", &load.File{OSPath: abs("02-builds/06-b/resume-context.md"), Kind: load.KindResumeContext}, "", true},
		{"a resume file in another folder", []string{"notes/01-planning/steps.md"}, "", &load.File{OSPath: abs("notes/x/resume-context.md"), Kind: load.KindResumeContext}, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			changed := map[string]bool{}
			for _, p := range tc.changed {
				changed[abs(p)] = true
			}
			ev := newEvidence(root, changed)
			ev.learn(&load.File{Kind: load.KindOrchestration}, []byte(tc.learned))
			if got := ev.restsOn(tc.f, []byte(tc.text)); got != tc.want {
				t.Errorf("restsOn = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCleanWord(t *testing.T) {
	for in, want := range map[string]string{
		"./docs/plan.md#goals": "docs/plan.md",
		"src/domain/":          "src/domain",
		"ORCHESTRATION.yaml:":  "ORCHESTRATION.yaml",
		"steps.md.":            "steps.md",
		"ab":                   "",
		"#anchor":              "",
	} {
		if got := cleanWord(in); got != want {
			t.Errorf("cleanWord(%q) = %q, want %q", in, got, want)
		}
	}
}

// A checkpoint added for a workflow is what its resumption section is to
// merge (RL603 T5): the workflow whose id the checkpoint names rests on it.
func TestEvidenceCheckpointWorkflow(t *testing.T) {
	root := filepath.FromSlash("/repo")
	cpPath := filepath.Join(root, ".jerry", "checkpoints", "cx-002-checkpoint.json")
	wf := &load.File{OSPath: filepath.Join(root, "projects", "PROJ-010", "ORCHESTRATION.yaml"), Kind: load.KindOrchestration}
	other := &load.File{OSPath: filepath.Join(root, "00-system", ".cache", "precompact_state.json"), Kind: load.KindPrecompact}
	cases := []struct {
		name, checkpoint, text string
		f                      *load.File
		want                   bool
	}{
		{"the workflow it names", `{"orchestration_state": {"workflow_id": "licmig-20260216-001"}}`, "workflow:\n  id: \"licmig-20260216-001\"\n", wf, true},
		{"the runtime form", `{"resumption_state": {"workflow_id" : "licmig-20260216-001"}}`, "workflow:\n  id: licmig-20260216-001\n", wf, true},
		{"another workflow", `{"orchestration_state": {"workflow_id": "licmig-20260216-001"}}`, "workflow:\n  id: \"docs-20260218-001\"\n", wf, false},
		{"a checkpoint naming none", `{"resumption_state": null}`, "workflow:\n  id: \"licmig-20260216-001\"\n", wf, false},
		{"not a workflow", `{"orchestration_state": {"workflow_id": "licmig-20260216-001"}}`, "{\"note\": \"licmig-20260216-001\"}", other, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ev := newEvidence(root, map[string]bool{cpPath: true})
			ev.learn(&load.File{OSPath: cpPath, Kind: load.KindCheckpoint}, []byte(tc.checkpoint))
			if got := ev.restsOn(tc.f, []byte(tc.text)); got != tc.want {
				t.Errorf("restsOn = %v, want %v", got, tc.want)
			}
		})
	}
}

// A commit of thousands of paths costs each file what a commit of one
// does: the look-ups are by key, not a pass over the changed paths (which
// made a large commit's check grow with paths × files).
func TestEvidenceLookupsByKey(t *testing.T) {
	root := filepath.FromSlash("/repo")
	changed := map[string]bool{}
	for i := 0; i < 2000; i++ {
		changed[filepath.Join(root, "src", fmt.Sprintf("pkg%04d", i), "util", "index.md")] = true
		changed[filepath.Join(root, "work", fmt.Sprintf("FEAT-%04d-x", i), fmt.Sprintf("FEAT-%04d-x.md", i))] = true
	}
	ev := newEvidence(root, changed)
	wf := &load.File{OSPath: filepath.Join(root, "projects", "PROJ-010", "orchestration", "wf", "ORCHESTRATION.yaml"), Kind: load.KindOrchestration}
	text := []byte("files_to_read:\n  - projects/PROJ-010/util/index.md\n  - orchestration/wf/util/index.md\n")
	if ev.restsOn(wf, text) {
		t.Fatal("restsOn = true for a workflow nothing changed rests on")
	}
	if n := testing.AllocsPerRun(20, func() { ev.placed(wf) }); n > 2 {
		t.Errorf("placed: %v allocations for one file, want at most 2 whatever the number of changed paths", n)
	}
	if n := testing.AllocsPerRun(20, func() { ev.restsOn(wf, text) }); n > 20 {
		t.Errorf("restsOn: %v allocations for one file, want at most 20 whatever the number of changed paths", n)
	}
}
