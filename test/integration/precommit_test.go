package integration_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
		"resumelint":            "resumelint lint --affected",
		"resumelint-fix":        "resumelint fix --affected",
		"resumelint-all":        "resumelint lint --no-files-ok",
		"resumelint-system":     "resumelint lint --affected",
		"resumelint-all-system": "resumelint lint --no-files-ok",
	}
	seen := map[string]bool{}
	for _, h := range hooks {
		seen[h.ID] = true
		language := "golang"
		if strings.HasSuffix(h.ID, "-system") {
			language = "system" // the resumelint on the PATH, nothing built
		}
		if h.Language != language || !h.RequireSerial {
			t.Errorf("hook %s: language %q, require_serial %v; want %s and true (cross-file rules need every file in one run)", h.ID, h.Language, h.RequireSerial, language)
		}
		if w, ok := want[h.ID]; !ok || h.Entry != w {
			t.Errorf("hook %s: entry %q, want %q", h.ID, h.Entry, w)
		}
		if h.Files != nil || len(h.Types) > 0 {
			t.Errorf("hook %s: a files or types filter would hide a bundle's outputs, which have no kind of their own", h.ID)
		}
		passes := h.PassFilenames == nil || *h.PassFilenames
		if strings.HasPrefix(h.ID, "resumelint-all") {
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

// TestPreCommitHooksWithoutStateFiles runs every hook's entry as
// pre-commit does, on a repository that holds no state file: the file
// hooks get the changed file, the whole-repository hooks no file name.
// Each passes (exit 0) rather than failing every commit of a repository
// that does not use these workflows; the whole-repository hooks say so.
func TestPreCommitHooksWithoutStateFiles(t *testing.T) {
	bin := resumelintBinary(t)
	data, err := os.ReadFile(filepath.Join(repoRoot, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string `yaml:"id"`
		Entry         string `yaml:"entry"`
		PassFilenames *bool  `yaml:"pass_filenames"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("# Payments service\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		words := strings.Fields(h.Entry)
		if len(words) < 2 || words[0] != "resumelint" {
			t.Fatalf("hook %s: entry %q does not run resumelint", h.ID, h.Entry)
		}
		args := words[1:]
		if h.PassFilenames == nil || *h.PassFilenames {
			args = append(args, "README.md")
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("hook %s (%s): %v\n%s", h.ID, strings.Join(args, " "), err, out)
			continue
		}
		if h.PassFilenames != nil && !*h.PassFilenames && !strings.Contains(string(out), "nothing to check") {
			t.Errorf("hook %s passed without a note:\n%s", h.ID, out)
		}
	}
}
