package load

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
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
	if x.Exists(filepath.Join(dir, "p", ".jerry"), filepath.Join(dir, "p", "ORCHESTRATION.yaml")) {
		t.Error("a path outside the root exists")
	}
	x.Wrote(later)
	if !x.Exists(dir, later) {
		t.Error("after Wrote, the folder is asked again")
	}
}

// tallyTree walks root, in the work tree at top, as discovery does.
func tallyTree(t *testing.T, root, top string) *treeTally {
	t.Helper()
	w := &treeTally{l: NewListing(), root: root, top: top}
	if err := gitcmd.CheckTreeSeen(top, root, w.seen); err != nil {
		t.Fatal(err)
	}
	return w
}

// onlyTracked vouches that git's untracked listing is empty only when
// the walk read every folder and saw nothing but tracked files.
func TestTreeTallyOnlyTracked(t *testing.T) {
	dir := tree(t, t.TempDir(), "ORCHESTRATION.yaml", "a/b/x.json", "a/c.md", ".git/HEAD")
	tracked := [][]byte{[]byte("ORCHESTRATION.yaml"), []byte("a/b/x.json"), []byte("a/c.md"), {}}
	if !tallyTree(t, dir, dir).onlyTracked(tracked) {
		t.Fatal("every file tracked")
	}
	if !tallyTree(t, filepath.Join(dir, "a"), dir).onlyTracked([][]byte{[]byte("c.md"), []byte("b/x.json")}) {
		t.Error("a subfolder, its tracked files in any order")
	}
	if tallyTree(t, dir, dir).onlyTracked(tracked[1:]) {
		t.Error("an untracked file")
	}
	w := tallyTree(t, dir, dir)
	w.found++
	if w.onlyTracked(tracked) {
		t.Error("a folder the walk could not read")
	}
	tree(t, dir, "a/nested/.git/HEAD")
	if tallyTree(t, dir, dir).onlyTracked(tracked) {
		t.Error("a nested repository, which git lists as a folder")
	}
}

// In a work tree whose files are all tracked, discovery finds the same
// units without waiting for git's untracked listing, and a file added
// afterwards, untracked, is found.
func TestDiscoverGitOnlyTracked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := tree(t, t.TempDir(), "ORCHESTRATION.yaml", ".jerry/checkpoints/cx-001-checkpoint.json", "docs/notes.md")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})
	want := []string{"checkpoint .jerry/checkpoints/cx-001-checkpoint.json", "orchestration ORCHESTRATION.yaml"}
	if got := discovered(d); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if ex, known := d.Listing.Exists(filepath.Join(dir, "docs", "notes.md")); !ex || !known {
		t.Error("the walk's listing is handed on")
	}
	tree(t, dir, "docs/ORCHESTRATION.yaml")
	d = discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})
	if got := discovered(d); !slices.Equal(got, append(want, "orchestration docs/ORCHESTRATION.yaml")) {
		t.Errorf("an untracked file: got %q", got)
	}
}
