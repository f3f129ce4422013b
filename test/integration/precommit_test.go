package integration_test

import (
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

// repoRoot is the repository's root, seen from this package's folder.
const repoRoot = "../.."

// TestPreCommitHooks checks the hooks' contract (SPEC §8): the file hooks
// see every changed file and pass them with --affected, so a change to a
// bundle's output (a file of no kind) re-verifies the bundle
// (testdata/golden/precommit_affected.txtar shows the mapping); the
// whole-repository hook takes no file names; every hook runs as one
// process, so cross-file rules see every file.
func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string   `yaml:"id"`
		Entry         string   `yaml:"entry"`
		Language      string   `yaml:"language"`
		Files         *string  `yaml:"files"`
		Types         []string `yaml:"types"`
		PassFilenames *bool    `yaml:"pass_filenames"`
		AlwaysRun     bool     `yaml:"always_run"`
		RequireSerial bool     `yaml:"require_serial"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"resumelint":     "resumelint lint --affected",
		"resumelint-fix": "resumelint fix --affected",
		"resumelint-all": "resumelint lint",
	}
	seen := map[string]bool{}
	for _, h := range hooks {
		seen[h.ID] = true
		if h.Language != "golang" || !h.RequireSerial {
			t.Errorf("hook %s: language %q, require_serial %v; want golang and true (cross-file rules need every file in one run)", h.ID, h.Language, h.RequireSerial)
		}
		if w, ok := want[h.ID]; !ok || h.Entry != w {
			t.Errorf("hook %s: entry %q, want %q", h.ID, h.Entry, w)
		}
		if h.Files != nil || len(h.Types) > 0 {
			t.Errorf("hook %s: a files or types filter would hide a bundle's outputs, which have no kind of their own", h.ID)
		}
		passes := h.PassFilenames == nil || *h.PassFilenames
		if h.ID == "resumelint-all" {
			if passes || !h.AlwaysRun {
				t.Errorf("hook %s: pass_filenames %v, always_run %v; want false and true", h.ID, passes, h.AlwaysRun)
			}
		} else if !passes {
			t.Errorf("hook %s: takes no file names, but --affected maps them", h.ID)
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("no hook %s", id)
		}
	}
}
