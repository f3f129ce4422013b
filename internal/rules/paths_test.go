package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
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
	r := NewResolver(opts, nil, f)

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

// A declared base that leads out of the repository (paths.base of
// "../../outside/") adds a base, but nothing outside is ever found or
// looked at: the look-ups stay confined to the repository root.
func TestDeclaredBaseOutsideIsNotLookedAt(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	proj := filepath.Join(repo, "projects", "PROJ-001-x")
	for _, d := range []string{proj, filepath.Join(top, "outside"), filepath.Join(proj, "orchestration", "wf-1", "ps")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(top, "outside", "token.md"), filepath.Join(proj, "orchestration", "wf-1", "ps", "notes.md")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := &Options{Cwd: repo, RepoRoot: repo}
	f := &load.File{Path: "projects/PROJ-001-x/ORCHESTRATION.yaml", OSPath: filepath.Join(proj, "ORCHESTRATION.yaml")}
	for _, tc := range []struct{ yaml, ref string }{
		{"workflow:\n  id: wf-1\npaths:\n  base: \"../../../outside/\"\n", "token.md"},
		{"workflow:\n  id: wf-1\npaths:\n  base: \"{root}\"\n  root: \"../../../outside/\"\n", "token.md"},
	} {
		d := &load.Document{File: f}
		doc, _ := load.Parse(&load.File{Path: "ORCHESTRATION.yaml", Data: []byte(tc.yaml)}, load.FormatYAML, load.DefaultLimits)
		d.Root = doc.Root
		r := NewResolver(opts, nil, f)
		r.AddDeclared(model.OrchestrationOf(d.Root))
		if got, ok := r.Resolve(tc.ref); ok {
			t.Errorf("%q: Resolve(%q) = %q, want nothing", tc.yaml, tc.ref, got)
		}
		// The documented artifact folder orchestration/{workflow_id}/ is a base.
		if _, ok := r.Resolve("ps/notes.md"); !ok {
			t.Errorf("%q: ps/notes.md not found under orchestration/wf-1/", tc.yaml)
		}
	}
}

// paths.base is relative to the folder holding the workflow's
// orchestration/ folder: a feature's inside the project, not only the
// project's.
func TestDeclaredBaseUnderAFeature(t *testing.T) {
	repo := t.TempDir()
	feat := filepath.Join(repo, "projects", "PROJ-001-x", "work", "EPIC-1", "FEAT-002-y")
	out := filepath.Join(feat, "orchestration", "feat002-20260301-001", "ps", "phase-1")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "findings.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &load.File{Path: "projects/PROJ-001-x/work/EPIC-1/FEAT-002-y/ORCHESTRATION.yaml", OSPath: filepath.Join(feat, "ORCHESTRATION.yaml")}
	doc, _ := load.Parse(&load.File{Path: "ORCHESTRATION.yaml", Data: []byte("paths:\n  base: \"orchestration/feat002-20260301-001/\"\n")}, load.FormatYAML, load.DefaultLimits)
	r := NewResolver(&Options{Cwd: repo, RepoRoot: repo}, nil, f)
	r.AddDeclared(model.OrchestrationOf(doc.Root))
	if got, ok := r.Resolve("ps/phase-1/findings.md"); !ok || got != filepath.Join(out, "findings.md") {
		t.Errorf("Resolve = %q, %v; want the file under the feature's paths.base", got, ok)
	}
}

// A base list too long for one line names the first bases and counts the
// rest; every rendering stays within the message limit.
func TestNotFoundCountsWhatDoesNotFit(t *testing.T) {
	r := &Resolver{}
	for _, w := range []string{"the repository root", "this file's folder", "the folder holding orchestration/", "the project folder",
		"the folder holding .jerry/", "paths.base", "paths.*", "orchestration/<id>/"} {
		r.Bases = append(r.Bases, PathBase{What: w, Dir: "/" + w})
	}
	if got, want := r.Tried(), "repo root, this folder, work item, project folder, .jerry/'s parent, paths.* and orchestration/<id>/"; got != want {
		t.Errorf("Tried() = %s\nwant %s", got, want)
	}
	msg := r.NotFound("recovery_instructions.files_to_read[12]", "projects/PROJ-009-oss-release/work/EPIC-001/FEAT-001--DEC-003-phase-2-execution-strategy.md")
	if n := utf8.RuneCountInString(msg); n > diag.MaxMessage || !strings.Contains(msg, " more)") {
		t.Errorf("NotFound = %q (%d characters), want a count of the bases left out, within %d", msg, n, diag.MaxMessage)
	}
}

// A variable named k times in a value that names it k times again grows as
// k^5 when expanded: past maxExpanded the value is no path, at once.
func TestExpandVarsBounded(t *testing.T) {
	vars := map[string]string{"a": strings.Repeat("{a}", 30), "b": "docs/", "id": "wf-1"}
	if got := expandVars("{a}", vars, 0); got != "" {
		t.Errorf("expandVars of a self-multiplying value = %d bytes, want none", len(got))
	}
	if got := expandVars("{b}{id}/notes/", vars, 0); got != "docs/wf-1/notes/" {
		t.Errorf("expandVars = %q", got)
	}
	if got := expandVars("{unknown}/x", vars, 0); got != "{unknown}/x" {
		t.Errorf("an unknown name is kept: %q", got)
	}
}

// paths.* folders are tried at most maxDeclaredFolders, each once, and
// looked for at most maxDeclaredLevels folders above the file.
func TestDeclaredFoldersBounded(t *testing.T) {
	repo := t.TempDir()
	deep := repo
	for i := 0; i < 40; i++ {
		deep = filepath.Join(deep, "d")
	}
	wf := filepath.Join(deep, "orchestration")
	if err := os.MkdirAll(filepath.Join(repo, "design"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "design", "adr.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("paths:\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&sb, "  k%d: \"same/\"\n", i)
	}
	sb.WriteString("  design: \"design/\"\n")
	rel, _ := filepath.Rel(repo, filepath.Join(wf, "ORCHESTRATION.yaml"))
	f := &load.File{Path: filepath.ToSlash(rel), OSPath: filepath.Join(wf, "ORCHESTRATION.yaml")}
	doc, _ := load.Parse(&load.File{Path: "ORCHESTRATION.yaml", Data: []byte(sb.String())}, load.FormatYAML, load.DefaultLimits)
	r := NewResolver(&Options{Cwd: repo, RepoRoot: repo}, nil, f)
	r.AddDeclared(model.OrchestrationOf(doc.Root))
	if len(r.pending) != 2 {
		t.Errorf("%d paths.* folders pending, want the 2 distinct ones", len(r.pending))
	}
	// design/ is 41 folders above the file: past the levels looked at.
	if got, ok := r.Resolve("adr.md"); ok {
		t.Errorf("Resolve(adr.md) = %q, want nothing from 41 levels up", got)
	}
}
