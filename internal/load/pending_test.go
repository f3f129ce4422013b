package load

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A fix's pending rename and edit answer every look-up as if written, and
// only until done; the disk is not touched.
func TestFilesPending(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "01-planning")
	if err := os.MkdirAll(plan, 0o755); err != nil {
		t.Fatal(err)
	}
	old, renamed := filepath.Join(plan, "_resume.md"), filepath.Join(plan, "resume-context.md")
	if err := os.WriteFile(old, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := NewFiles(nil)
	if _, err := x.ReadDir(dir, plan); err != nil { // a listing kept before
		t.Fatal(err)
	}
	done := x.Pending(map[string][]byte{renamed: []byte("new\n")}, []string{old})
	if x.Exists(dir, old) || x.IsRegular(dir, old) {
		t.Error("the old name still answers")
	}
	if _, err := x.ReadFile(dir, old, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(old) = %v, want not exist", err)
	}
	if _, err := x.Stat(dir, old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(old) = %v, want not exist", err)
	}
	if !x.IsRegular(dir, renamed) {
		t.Error("the new name is not a regular file")
	}
	if data, err := x.ReadFile(dir, renamed, 0); err != nil || string(data) != "new\n" {
		t.Errorf("ReadFile(new) = %q, %v", data, err)
	}
	ents, err := x.ReadDir(dir, plan)
	if err != nil || len(ents) != 1 || ents[0].Name() != "resume-context.md" || ents[0].IsDir() {
		t.Errorf("ReadDir = %v, %v; want only resume-context.md", names(ents), err)
	}
	done()
	if !x.IsRegular(dir, old) || x.Exists(dir, renamed) {
		t.Error("done did not restore the files as on disk")
	}
	if ents, _ := x.ReadDir(dir, plan); len(ents) != 1 || ents[0].Name() != "_resume.md" {
		t.Errorf("ReadDir after done = %v", names(ents))
	}
	if _, err := os.Stat(renamed); err == nil {
		t.Error("Pending wrote to disk")
	}
}

func names(ents []fs.DirEntry) []string {
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestPendingListingCostsItsFolder: a fix of thousands of files lists a
// folder for each; a listing looks at its own folder's pending changes,
// which Pending indexes by folder. It went through every change of the fix
// for each listing (4,000 fixed workflows: 16 million path comparisons,
// a quarter of the run).
func TestPendingListingCostsItsFolder(t *testing.T) {
	dir := t.TempDir()
	const n = 3000
	put := map[string][]byte{}
	var dirs []string
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("p%d", i))
		dirs = append(dirs, d)
		put[filepath.Join(d, "ORCHESTRATION.yaml")] = []byte("x: 1\n")
	}
	gone := filepath.Join(dirs[7], "_resume.md")
	x := NewFiles(nil)
	done := x.Pending(put, []string{gone})
	defer done()
	p := x.pend.Load()
	for _, d := range dirs {
		if in := p.putIn[d]; len(in) != 1 || in[0] != filepath.Join(d, "ORCHESTRATION.yaml") {
			t.Fatalf("the changes indexed under %s: %v", d, in)
		}
		if ents, err := x.ReadDir(dir, d); err != nil || len(ents) != 1 || ents[0].Name() != "ORCHESTRATION.yaml" {
			t.Fatalf("ReadDir(%s) = %v, %v", d, names(ents), err)
		}
	}
	if len(p.goneIn) != 1 || !p.goneIn[dirs[7]] {
		t.Errorf("the folders of renamed-away files: %v", p.goneIn)
	}
}
