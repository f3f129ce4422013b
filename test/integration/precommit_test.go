package integration_test

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
)

// TestPreCommitFilesMatchTheKinds checks that the hooks' `files` pattern
// passes exactly the files resumelint checks by default (SPEC §1), so
// pre-commit neither skips a state file nor hands it unrelated ones.
func TestPreCommitFilesMatchTheKinds(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string `yaml:"id"`
		Entry         string `yaml:"entry"`
		Language      string `yaml:"language"`
		Files         string `yaml:"files"`
		RequireSerial bool   `yaml:"require_serial"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, h := range hooks {
		ids[h.ID] = h.Entry
		if h.Language != "golang" || !h.RequireSerial {
			t.Errorf("hook %s: language %q, require_serial %v; want golang and true (cross-file rules need every file in one run)", h.ID, h.Language, h.RequireSerial)
		}
		// pre-commit reads `files` as a Python verbose regex: drop the
		// (?x) flag and the layout whitespace for Go's regexp.
		src := strings.TrimPrefix(strings.TrimSpace(h.Files), "(?x)")
		src = strings.Join(strings.Fields(src), "")
		re, err := regexp.Compile(src)
		if err != nil {
			t.Fatalf("hook %s: files: %v", h.ID, err)
		}
		c := load.NewClassifier()
		for _, p := range []string{
			"ORCHESTRATION.yaml", "projects/app/ORCHESTRATION.yaml", "x/ORCHESTRATION_PLAN.yaml",
			"skills/templates/ORCHESTRATION.template.yaml", "ORCHESTRATION_PLAN.md", "ORCHESTRATION.yml",
			".jerry/checkpoints/cx-001.json", "p/.jerry/checkpoints/cx-001-checkpoint.json", ".jerry/checkpoints/old/cx-001.json",
			"00-system/.cache/precompact_state.json", "precompact_state.json.bak",
			"02-projects/07-demo/01-planning/resume-context.md", "02-projects/x/_resume.md", "resume-context.txt",
			"runs/b1/STATUS.json", "runs/b1/OUTPUT_HASHES.json", "MY_STATUS.json",
			".agent-memory/runs/r1/events/a/1.jsonl", ".agent-memory/runs/r1/task-graph.json", ".agent-memory/notes.md",
			"README.md", "go.mod",
		} {
			_, bundle := c.BundleDir(p)
			_, run := load.RunDir(p)
			want := c.FileKind(p) != load.KindUnknown || bundle || run
			if got := re.MatchString(p); got != want {
				t.Errorf("hook %s: files matches %s: %v, resumelint checks it: %v", h.ID, p, got, want)
			}
		}
		// TASK_SPEC.json belongs to the bundle folder it sits in.
		if !re.MatchString(path.Join("runs/b1", "TASK_SPEC.json")) {
			t.Errorf("hook %s: a changed TASK_SPEC.json does not run the hook", h.ID)
		}
	}
	if ids["resumelint"] != "resumelint lint" || ids["resumelint-fix"] != "resumelint fix" {
		t.Errorf("hooks: %v", ids)
	}
}
