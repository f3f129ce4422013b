package load

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Held roots confine reads exactly as fresh ones, and the last release
// closes them.
func TestHoldRoots(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	if err := os.MkdirAll(filepath.Join(root, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret"), filepath.Join(root, "a", "out")); err != nil {
		t.Skip(err)
	}
	release := HoldRoots()
	release2 := HoldRoots()
	for i := 0; i < 2; i++ {
		if !IsDirIn(root, filepath.Join(root, "a")) {
			t.Fatal("a is a folder")
		}
		if _, err := StatIn(root, filepath.Join(root, "a", "out")); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("a link out of the root: %v", err)
		}
		if _, err := OpenIn(root, filepath.Join(root, "a", "out")); err == nil {
			t.Fatal("opened a link out of the root")
		}
	}
	if len(heldRoots.m) != 1 {
		t.Fatalf("%d roots held, want 1", len(heldRoots.m))
	}
	if s := heldRoots.set.Load(); s.holds != 2 || len(s.m) != 1 {
		t.Fatalf("look-ups see %d holds of %d roots, want 2 of 1", s.holds, len(s.m))
	}
	release()
	release() // a second call changes nothing
	if len(heldRoots.m) != 1 {
		t.Fatal("released while another hold lasts")
	}
	release2()
	if heldRoots.m != nil || heldRoots.holds != 0 {
		t.Fatal("roots kept after the last release")
	}
	if s := heldRoots.set.Load(); s.holds != 0 || s.m != nil {
		t.Fatal("look-ups still see the released roots")
	}
	if !IsDirIn(root, filepath.Join(root, "a")) {
		t.Fatal("unheld look-up")
	}
}

// A held root answers every look-up as a fresh os.Root does (on Linux it
// goes through openat2 confined to the root's descriptor): links inside
// are followed, links and ".." leading out are missing, whatever the form.
func TestHeldRootsAnswerAsOSRoot(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	for _, d := range []string{"a/b", "c"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range map[string]string{"secret": "outside", "repo/a/b/plan.md": "# plan\n", "repo/c/notes.md": "notes\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"a/abs-out":    filepath.Join(dir, "secret"),
		"a/rel-out":    "../../secret",
		"a/rel-in":     "b/plan.md",
		"a/abs-in":     filepath.Join(root, "c", "notes.md"),
		"a/up-in":      "../c/notes.md",
		"a/dir-in":     "../c",
		"a/dir-out":    dir,
		"a/dangling":   "missing.md",
		"a/chain":      "rel-in",
		"a/loop":       "loop",
		"c/via-dirout": "../a/dir-out/secret",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skip(err)
		}
	}
	paths := []string{"a/b/plan.md", "a/b", "a", ".", "a/../c/notes.md", "a/b/../../c/notes.md", "a/b/missing.md", "a/b/plan.md/x",
		"a/dir-in/notes.md", "a/dir-out/secret", "c/via-dirout", "../secret", "a/../../secret"}
	for name := range links {
		paths = append(paths, name)
	}
	type answer struct {
		statErr, openErr bool
		exists, isDir    bool
		mode             fs.FileMode
		size             int64
		name, text, read string
	}
	ask := func(p string) answer {
		full := filepath.Join(root, p)
		var a answer
		fi, err := StatIn(root, full)
		a.statErr = err != nil
		if err == nil {
			a.mode, a.size, a.name = fi.Mode(), fi.Size(), fi.Name()
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrOutside) {
			a.name = "unexpected error" // a loop: as long as both agree
		}
		a.exists, a.isDir = ExistsIn(root, full), IsDirIn(root, full)
		if h, err := openToRead(root, full); err == nil {
			if fi, _ := h.Stat(); fi.Mode().IsRegular() {
				b, _ := io.ReadAll(h)
				a.read = string(b)
			}
			h.Close()
		}
		fh, err := OpenIn(root, full)
		a.openErr = err != nil
		if err == nil {
			if fi, _ := fh.Stat(); fi.Mode().IsRegular() {
				b, _ := io.ReadAll(fh)
				a.text = string(b)
			}
			fh.Close()
		}
		return a
	}
	want := map[string]answer{}
	for _, p := range paths {
		want[p] = ask(p)
	}
	release := HoldRoots()
	defer release()
	for _, p := range paths {
		if got := ask(p); got != want[p] {
			t.Errorf("%s: held root answers %+v, os.Root %+v", p, got, want[p])
		}
		if got := want[p]; strings.Contains(got.text+got.read, "outside") {
			t.Errorf("%s: read outside the root", p)
		}
	}
	if !want["a/chain"].statErr && want["a/chain"].text != "# plan\n" {
		t.Errorf("a link inside was not followed: %+v", want["a/chain"])
	}
}

// A look-up that got a held root's folder just before the run ended does
// not use it once it is closed: its descriptor may by then name another
// file.
func TestReleasedRootIsNotUsed(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	release := HoldRoots()
	_, dir, done, err := openRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	done()
	if ok, settled := existsBeneath(dir, "x", false); dir != nil && (!ok || !settled) {
		t.Fatalf("held: exists %v, settled %v", ok, settled)
	}
	release()
	if _, settled := existsBeneath(dir, "x", false); settled {
		t.Fatal("a released root's folder was still used")
	}
}

// A look-up whose held root another run closed meanwhile (runs overlap
// in the server, and commands run side by side in one test process)
// answers from the file system, not "file already closed": discovery
// took an existing folder for a missing one.
func TestHeldRootClosedUnderALookUp(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "projects", "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "projects", "p", "ORCHESTRATION.yaml")
	if err := os.WriteFile(file, []byte("workflow:\n  id: w\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	release := HoldRoots()
	defer release()
	if !IsDirIn(root, filepath.Join(root, "projects")) {
		t.Fatal("projects is a folder")
	}
	// What the last release of another run does to the roots it closes,
	// while this run's look-ups still find them.
	heldRoots.Lock()
	h := heldRoots.m[root]
	heldRoots.Unlock()
	h.r.Close()
	if h.dir != nil {
		h.dir.Close()
	}
	if !IsDirIn(root, filepath.Join(root, "projects")) {
		t.Error("IsDirIn: projects is a folder")
	}
	if !ExistsIn(root, file) {
		t.Error("ExistsIn: the file exists")
	}
	if fi, err := StatIn(root, file); err != nil || fi.IsDir() {
		t.Errorf("StatIn: %v, %v", fi, err)
	}
	f, err := OpenIn(root, file)
	if err != nil {
		t.Fatalf("OpenIn: %v", err)
	}
	f.Close()
	ents, err := ReadDirIn(root, filepath.Join(root, "projects"))
	if err != nil || len(ents) != 1 {
		t.Errorf("ReadDirIn: %v, %v", ents, err)
	}
	if _, err := StatIn(root, filepath.Join(root, "..", "x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("outside the root: %v, want not exist", err)
	}
}
