package load

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// Listed gives what a lint of the repository lists: tracked files and
// untracked ones git does not ignore; outside a work tree, a walk's files
// (.git, node_modules and vendor left out).
func TestListed(t *testing.T) {
	top := t.TempDir()
	for _, p := range []string{"a/ORCHESTRATION.yaml", "b/ORCHESTRATION.yaml", "ignored/ORCHESTRATION.yaml", "node_modules/x/ORCHESTRATION.yaml"} {
		full := filepath.Join(top, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("workflow: {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func() []string {
		var out []string
		for _, n := range Listed(top) {
			out = append(out, string(n))
		}
		slices.Sort(out)
		return out
	}
	want := []string{"a/ORCHESTRATION.yaml", "b/ORCHESTRATION.yaml", "ignored/ORCHESTRATION.yaml"}
	if got := names(); !slices.Equal(got, want) {
		t.Errorf("outside a work tree: %q, want %q", got, want)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	if err := os.WriteFile(filepath.Join(top, ".gitignore"), []byte("ignored/\nnode_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "a/ORCHESTRATION.yaml"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = top
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	want = []string{".gitignore", "a/ORCHESTRATION.yaml", "b/ORCHESTRATION.yaml"}
	if got := names(); !slices.Equal(got, want) {
		t.Errorf("in a work tree with b untracked: %q, want %q", got, want)
	}
}
