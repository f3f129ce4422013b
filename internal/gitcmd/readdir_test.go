//go:build unix

package gitcmd

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// walkTestTree builds a tree with every kind of entry the walk meets: a
// folder too big for one read of the kernel's records, links to a folder
// and a file (not followed), a FIFO and a FIFO .gitignore, a .git folder
// (not walked) and empty folders.
func walkTestTree(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	mk := func(rel string) string { return mkParent(t, top, rel) }
	write := func(rel string) {
		if err := os.WriteFile(mk(rel), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 1200 {
		// 1,200 names of 100 bytes: several getdents64 calls.
		write(fmt.Sprintf("wide/%03d-%s.json", i, strings.Repeat("n", 95)))
	}
	for i := range 30 {
		write(fmt.Sprintf("projects/PROJ-%02d/.jerry/checkpoints/cx-001.json", i))
		write(fmt.Sprintf("projects/PROJ-%02d/ORCHESTRATION.yaml", i))
		if err := os.MkdirAll(mk(fmt.Sprintf("projects/PROJ-%02d/empty/deeper", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("deep/a/b/c/d/e/f/g/h/i/j/k/resume-context.md")
	write(".git/HEAD")
	write(".git/info/exclude")
	if err := os.Symlink(filepath.Join(top, "projects"), mk("links/to-folder")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../deep/a", mk("links/relative")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "projects/PROJ-00/ORCHESTRATION.yaml"), mk("links/to-file")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(mk("odd/pipe")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(mk("odd/.gitignore")); err != nil {
		t.Fatal(err)
	}
	return top
}

// entryList is what seen got of one folder: each entry's name and type.
func entryList(ents []fs.DirEntry) []string {
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.Name() + " " + e.Type().String()
		if e.IsDir() != e.Type().IsDir() {
			out[i] += " (IsDir disagrees)"
		}
	}
	return out
}

// walkWithReadDir is what the walk must give seen: every folder below top
// but .git folders, not through links, listed by os.ReadDir.
func walkWithReadDir(t *testing.T, top string) map[string][]string {
	t.Helper()
	want := map[string][]string{}
	var visit func(d string)
	visit = func(d string) {
		ents, err := os.ReadDir(d)
		if err != nil {
			return
		}
		want[d] = entryList(ents)
		for _, e := range ents {
			if e.IsDir() && e.Name() != ".git" {
				visit(filepath.Join(d, e.Name()))
			}
		}
	}
	visit(top)
	return want
}

// The walk's own folder reader, which opens each folder in its parent,
// gives seen what os.ReadDir gives, folder for folder, sorted alike, and
// finds the same special file; at most maxHeld folders are held open,
// and none once the walk returns.
func TestWalkReadsAsReadDir(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	top := walkTestTree(t)
	want := walkWithReadDir(t, top)
	for _, held := range []int64{256, 1, 0} {
		t.Run(fmt.Sprint("maxHeld=", held), func(t *testing.T) {
			defer func(old int64) { maxHeld = old }(maxHeld)
			maxHeld = held
			before := openFDs(t)
			var mu sync.Mutex
			got := map[string][]string{}
			err := walkTreeParallel(top, func(d string, ents []fs.DirEntry) {
				mu.Lock()
				defer mu.Unlock()
				if _, dup := got[d]; dup {
					t.Errorf("seen twice: %s", d)
				}
				got[d] = entryList(ents)
			})
			var sp *SpecialFileError
			if !asSpecial(err, &sp) || sp.Path != filepath.Join(top, "odd", ".gitignore") {
				t.Errorf("walk: %v, want the FIFO odd/.gitignore", err)
			}
			for d, w := range want {
				if !slices.Equal(got[d], w) {
					t.Errorf("%s:\n got  %q\n want %q", d, got[d], w)
				}
			}
			for d := range got {
				if _, ok := want[d]; !ok {
					t.Errorf("seen a folder os.ReadDir does not walk to: %s", d)
				}
			}
			if after := openFDs(t); after != before {
				t.Errorf("%d descriptors open after the walk, %d before", after, before)
			}
		})
	}
}

func asSpecial(err error, sp **SpecialFileError) bool {
	s, ok := err.(*SpecialFileError)
	*sp = s
	return ok
}

// openFDs counts the process's open descriptors; the test is skipped
// where /proc/self/fd does not list them.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// A folder the walk cannot read is left out, as os.ReadDir leaves it, and
// so is all below it.
func TestWalkSkipsUnreadableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any folder")
	}
	top := walkTestTree(t)
	locked := filepath.Join(top, "projects", "PROJ-03")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	want := walkWithReadDir(t, top)
	var mu sync.Mutex
	got := map[string][]string{}
	_ = walkTreeParallel(top, func(d string, ents []fs.DirEntry) {
		mu.Lock()
		defer mu.Unlock()
		got[d] = entryList(ents)
	})
	if _, ok := got[locked]; ok {
		t.Errorf("seen the unreadable folder %s", locked)
	}
	if len(got) != len(want) {
		t.Errorf("seen %d folders, os.ReadDir reads %d", len(got), len(want))
	}
}
