package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/load"
)

// A tree shaped like a checkout linted from a folder above it: the
// repository root (the working directory) is not the folder holding
// .jerry/, and the orchestration file sits below its project folder.
func TestResolverBases(t *testing.T) {
	cwd := t.TempDir()
	repo := filepath.Join(cwd, "jerry")
	wf := filepath.Join(repo, "projects", "PROJ-007-bugs", "orchestration", "persona-20260114")
	for _, d := range []string{filepath.Join(repo, ".jerry", "checkpoints"), filepath.Join(wf, "synthesis")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{
		filepath.Join(repo, ".jerry", "checkpoints", "cx-001.json"),
		filepath.Join(repo, "projects", "PROJ-007-bugs", "PLAN.md"),
		filepath.Join(wf, "synthesis", "final.md"),
		filepath.Join(wf, "ORCHESTRATION.yaml"),
	} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := &Options{Cwd: cwd, RepoRoot: cwd}
	f := &load.File{Path: "jerry/projects/PROJ-007-bugs/orchestration/persona-20260114/ORCHESTRATION.yaml",
		OSPath: filepath.Join(wf, "ORCHESTRATION.yaml")}
	r := NewResolver(opts, f)

	var whats []string
	for _, b := range r.Bases {
		whats = append(whats, b.What)
	}
	if got, want := strings.Join(whats, "; "), "the repository root; this file's folder; the project folder; the folder holding .jerry/"; got != want {
		t.Errorf("bases = %s, want %s", got, want)
	}
	for ref, want := range map[string]string{
		"synthesis/final.md": filepath.Join(wf, "synthesis", "final.md"),
		"orchestration/persona-20260114/synthesis/final.md": filepath.Join(wf, "synthesis", "final.md"),
		"PLAN.md":                          filepath.Join(repo, "projects", "PROJ-007-bugs", "PLAN.md"),
		".jerry/checkpoints/cx-001.json":   filepath.Join(repo, ".jerry", "checkpoints", "cx-001.json"),
		"./projects/PROJ-007-bugs/PLAN.md": filepath.Join(repo, "projects", "PROJ-007-bugs", "PLAN.md"),
	} {
		got, ok := r.Resolve(ref)
		if !ok || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", ref, got, ok, want)
		}
	}
	for _, ref := range []string{"missing.md", "/no/such/file", ""} {
		if got, ok := r.Resolve(ref); ok {
			t.Errorf("Resolve(%q) = %q, want nothing", ref, got)
		}
	}
	if got, want := r.Tried(), "repo root, this folder, project folder and .jerry/'s parent"; got != want {
		t.Errorf("Tried() = %s\nwant %s", got, want)
	}
}

func TestIsHomeOrAbsolute(t *testing.T) {
	for s, want := range map[string]bool{
		"/tmp/notes.md": true, "~/notes.md": true, `C:\work\a.md`: true, "c:/work/a.md": true,
		"notes.md": false, "./a/b.md": false, "projects/P/ORCHESTRATION.yaml": false, "a:b": false,
	} {
		if got := IsHomeOrAbsolute(s); got != want {
			t.Errorf("IsHomeOrAbsolute(%q) = %v, want %v", s, got, want)
		}
	}
}
