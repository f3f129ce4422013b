package load

import (
	"errors"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/resumelint/resumelint/internal/gitcmd"
)

// listTree adds every folder under dir to a new listing, as discovery's
// walk does.
func listTree(t *testing.T, dir string) *Listing {
	t.Helper()
	l := NewListing()
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if e.Name() == ".git" && p != dir {
				return filepath.SkipDir
			}
			ents, err := os.ReadDir(p)
			if err != nil {
				return err
			}
			l.Add(p, ents)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A listing answers only what it saw for certain; links, folders it did
// not read, unclean names and other spellings go to the file system.
func TestListingEntries(t *testing.T) {
	dir := tree(t, t.TempDir(), "a/file.yaml", "a/Notes.md", "a/sub/x.json", ".git/config")
	if runtime.GOOS != "windows" {
		if err := os.Symlink("file.yaml", filepath.Join(dir, "a", "link")); err != nil {
			t.Fatal(err)
		}
	}
	l := listTree(t, dir)
	a := filepath.Join(dir, "a")
	for _, c := range []struct {
		rel    string
		typ    byte
		known  bool
		exists bool // Exists, as os.Lstat sees it
	}{
		{"a/file.yaml", entryFile, true, true},
		{"a/sub", entryDir, true, true},
		{"a/missing.yaml", entryNone, true, false},
		{"a/missing/deeper/x.yaml", entryNone, true, false}, // the first name settles it
		{"a/file.yaml/x", entryNone, true, false},           // a file on the way (ENOTDIR)
		{"a/FILE.yaml", entryNone, false, false},            // another spelling of file.yaml
		{"a/notes.md", entryNone, false, false},             // another spelling of Notes.md
		{"a/other.md", entryNone, true, false},
		{"a/résumé.md", entryNone, false, false}, // folding differs between file systems
		{".git/config", entryNone, false, false}, // .git is not read
		{"a/link/x", entryNone, false, false},
	} {
		p := filepath.Join(dir, filepath.FromSlash(c.rel))
		typ, known := l.follows(p)
		if typ != c.typ || known != c.known {
			t.Errorf("%s: follows = %q, %v; want %q, %v", c.rel, typ, known, c.typ, c.known)
		}
		if ex, known := l.Exists(p); ex != c.exists || known != c.known {
			t.Errorf("%s: Exists = %v, %v; want %v, %v", c.rel, ex, known, c.exists, c.known)
		}
	}
	if runtime.GOOS != "windows" {
		link := filepath.Join(a, "link")
		if _, known := l.follows(link); known {
			t.Error("a link is followed by the file system, not the listing")
		}
		if ex, known := l.Exists(link); !ex || !known {
			t.Errorf("a link exists as os.Lstat sees it: %v, %v", ex, known)
		}
	}
	for _, p := range []string{"a/file.yaml", dir + "/a/../a/file.yaml", filepath.Join(filepath.Dir(dir), "elsewhere", "x")} {
		if _, known := l.follows(p); known {
			t.Errorf("%s: a relative, unclean or unlisted path is answered", p)
		}
	}
	l.Forget(filepath.Join(a, "file.yaml"))
	if _, known := l.follows(filepath.Join(a, "file.yaml")); known {
		t.Error("after Forget, the folder is asked again")
	}
	var nilListing *Listing
	if _, known := nilListing.follows(filepath.Join(a, "file.yaml")); known {
		t.Error("a nil listing answers")
	}
}

// Files answers Exists and IsDir from the listing where it can: a file
// made after the walk is unknown to it, as the run's view of the tree is
// the walk's. Overlay buffers still exist, and nothing outside the root
// is answered.
func TestFilesExistsFromListing(t *testing.T) {
	dir := tree(t, t.TempDir(), "p/ORCHESTRATION.yaml", "p/.jerry/checkpoints/cx-001-checkpoint.json")
	l := listTree(t, dir)
	later := filepath.Join(dir, "p", "later.md")
	writeFile(t, later, "x\n")
	writeFile(t, filepath.Join(dir, "p", "checkpoints", "cx-002-checkpoint.json"), "{}\n")
	buffered := filepath.Join(dir, "p", "unsaved.md")
	x := NewFiles(map[string][]byte{buffered: []byte("draft\n")})
	if !x.Exists(dir, later) {
		t.Fatal("without a listing, the disk answers")
	}
	x.UseListing(l)
	for _, c := range []struct {
		path          string
		exists, isDir bool
	}{
		{filepath.Join(dir, "p", "ORCHESTRATION.yaml"), true, false},
		{filepath.Join(dir, "p", ".jerry"), true, true},
		{later, false, false},
		{buffered, true, false},
		{filepath.Join(dir, "p", "missing", "x.md"), false, false},
	} {
		if got := x.Exists(dir, c.path); got != c.exists {
			t.Errorf("Exists(%s) = %v, want %v", c.path, got, c.exists)
		}
		if got := x.IsDir(dir, c.path); got != c.isDir {
			t.Errorf("IsDir(%s) = %v, want %v", c.path, got, c.isDir)
		}
	}
	if _, err := x.ReadDir(dir, filepath.Join(dir, "p", "checkpoints")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir of a folder made after the walk: %v", err)
	}
	if ents, err := x.ReadDir(dir, filepath.Join(dir, "p", ".jerry")); err != nil || len(ents) != 1 {
		t.Errorf("ReadDir of a folder the walk saw: %v, %v", ents, err)
	}
	if x.Exists(filepath.Join(dir, "p", ".jerry"), filepath.Join(dir, "p", "ORCHESTRATION.yaml")) {
		t.Error("a path outside the root exists")
	}
	x.Wrote(later)
	if !x.Exists(dir, later) {
		t.Error("after Wrote, the folder is asked again")
	}
}

// tallyTree walks root, in the work tree at top, as discovery does,
// and gives the tracked files before the walk or after it.
func tallyTree(t *testing.T, root, top string, tracked [][]byte, before bool) *treeTally {
	t.Helper()
	w := &treeTally{l: NewListing(), root: root, top: top}
	if before {
		w.track(tracked)
	}
	if err := gitcmd.CheckTreeSeen(top, root, func(d string, ents []fs.DirEntry) { w.seenHashed(d, ents, w.l.Add(d, ents)) }); err != nil {
		t.Fatal(err)
	}
	if !before {
		w.track(tracked)
	}
	return w
}

// The untracked listing is skipped only when the walk read every folder
// and saw nothing but tracked files, whether the tracked files are known
// before the walk or after it.
func TestTreeTallyClean(t *testing.T) {
	dir := tree(t, t.TempDir(), "ORCHESTRATION.yaml", "a/b/x.json", "a/c.md", ".git/HEAD")
	tracked := [][]byte{[]byte("ORCHESTRATION.yaml"), []byte("a/b/x.json"), []byte("a/c.md"), {}}
	for _, before := range []bool{false, true} {
		if !tallyTree(t, dir, dir, tracked, before).clean() {
			t.Fatalf("before=%v: every file tracked", before)
		}
		if !tallyTree(t, filepath.Join(dir, "a"), dir, [][]byte{[]byte("c.md"), []byte("b/x.json")}, before).clean() {
			t.Errorf("before=%v: a subfolder, its tracked files in any order", before)
		}
		w := tallyTree(t, dir, dir, tracked[1:], before)
		if w.clean() || !w.seenHashed(dir, nil, nil) {
			t.Errorf("before=%v: an untracked file", before)
		}
		w = tallyTree(t, dir, dir, tracked, before)
		w.found.Add(1)
		if w.clean() {
			t.Errorf("before=%v: a folder the walk could not read", before)
		}
	}
	if (&treeTally{l: NewListing()}).clean() {
		t.Error("no tracked files known")
	}
	tree(t, dir, "a/nested/.git/HEAD")
	for _, before := range []bool{false, true} {
		if tallyTree(t, dir, dir, tracked, before).clean() {
			t.Errorf("before=%v: a nested repository, which git lists as a folder", before)
		}
	}
}

// A walk hashes each entry without joining its path: the hash must be
// the joined path's, which look-ups and the tracked files hash.
func TestEntryHashIsThePathHash(t *testing.T) {
	l := NewListing()
	var h maphash.Hash
	for _, c := range []struct{ dir, name string }{
		{"/", "a"}, {"/repo", "ORCHESTRATION.yaml"}, {"/repo/projects/PROJ-1/.jerry", "checkpoints"}, {"/r", "Ä.md"},
	} {
		if got, want := l.entryHash(&h, c.dir, c.name), l.hash(filepath.Join(c.dir, c.name)); got != want {
			t.Errorf("entryHash(%q, %q) = %x, want the hash of %q, %x", c.dir, c.name, got, filepath.Join(c.dir, c.name), want)
		}
	}
}

// A frozen listing answers as before, from every core without a lock
// (run with -race), and records nothing more.
func TestListingFrozen(t *testing.T) {
	dir := tree(t, t.TempDir(), "a/file.yaml", "a/Notes.md", "a/sub/x.json", "b/y.md")
	l := listTree(t, dir)
	var paths []string
	for _, rel := range []string{"a/file.yaml", "a/sub", "a/missing.yaml", "a/FILE.yaml", "a/notes.md", "b/y.md", "b/z.md", "c/new.md"} {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(rel)))
	}
	type answer struct {
		typ          byte
		known, isDir bool
	}
	ask := func(p string) answer {
		typ, known := l.follows(p)
		return answer{typ, known, typ == entryDir}
	}
	before := map[string]answer{}
	for _, p := range paths {
		before[p] = ask(p)
	}
	l.Freeze()
	c := filepath.Join(dir, "c")
	if err := os.MkdirAll(c, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c, "new.md"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(c)
	if err != nil {
		t.Fatal(err)
	}
	l.Add(c, ents)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, p := range paths {
				if got := ask(p); got != before[p] {
					t.Errorf("%s: frozen %+v, before %+v", p, got, before[p])
				}
			}
		}()
	}
	wg.Wait()
}
