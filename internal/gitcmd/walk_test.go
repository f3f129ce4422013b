package gitcmd

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// The walk that reads folders on every core refuses the tree for the same
// special file as the walk on one goroutine: the first in walk order,
// wherever the workers find it first.
func TestCheckTreeParallelWalkOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	top := t.TempDir()
	mk := func(rel string) string { return mkParent(t, top, rel) }
	for i := range 40 {
		if err := os.WriteFile(mk(filepath.Join("projects", string(rune('a'+i%26))+"x", "p", ".gitignore")), []byte("*.tmp\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(mk("b/.gitattributes"), []byte("* text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := walkTreeParallel(top, nil); got != nil {
		t.Fatalf("regular files only: %v", got)
	}
	// .git folders of nested repositories are not walked.
	if err := mkfifo(mk("a/.git/info/.gitignore")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if got := walkTreeParallel(top, nil); got != nil {
		t.Fatalf("a FIFO under .git: %v", got)
	}
	for _, rel := range []string{"projects/zx/p/q/.gitignore", "projects/mx/.gitattributes", "projects/cx/p/r/.gitignore", "b/c/.gitignore"} {
		if err := mkfifo(mk(rel)); err != nil {
			t.Fatal(err)
		}
	}
	want := walkTree(top)
	if want == nil || want.(*SpecialFileError).Path != filepath.Join(top, "b", "c", ".gitignore") {
		t.Fatalf("walkTree: %v", want)
	}
	for range 20 {
		if got := walkTreeParallel(top, nil); got == nil || got.Error() != want.Error() {
			t.Fatalf("walkTreeParallel: %v, want %v", got, want)
		}
	}
	if got := CheckTree(top, top); got == nil || got.Error() != want.Error() {
		t.Fatalf("CheckTree: %v, want %v", got, want)
	}
}

// mkParent makes the folders of top/rel and returns that path.
func mkParent(t *testing.T, top, rel string) string {
	t.Helper()
	p := filepath.Join(top, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWalkOrder(t *testing.T) {
	sep := string(filepath.Separator)
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"a" + sep + "b", "a-b", -1}, // a folder's files before a sibling named after it plus '-'
		{"a", "a" + sep + "b", -1},
		{"b" + sep + "c", "a" + sep + "z", 1},
		{"x" + sep + "y", "x" + sep + "y", 0},
	} {
		if got := walkOrder(c.a, c.b); got != c.want {
			t.Errorf("walkOrder(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// The walk tells seen of every folder once, with all its entries, and
// hands a big folder's subfolders to the other workers before seen of the
// big folder returns: seen of the root below waits until a subfolder has
// been seen, which a walk that told seen first would wait for forever.
func TestWalkHandsOnBigFoldersFirst(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	top := t.TempDir()
	want := map[string]int{}
	for i := range earlyPush {
		d := filepath.Join(top, "projects", fmt.Sprintf("PROJ-%03d", i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "ORCHESTRATION.yaml"), []byte("workflow:\n  id: w\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want[d] = 1
	}
	want[filepath.Join(top, "projects")] = earlyPush
	want[top] = 1 // projects
	var mu sync.Mutex
	got := map[string]int{}
	subSeen := make(chan struct{})
	var once sync.Once
	seen := func(dir string, ents []fs.DirEntry) {
		mu.Lock()
		got[dir] += len(ents)
		mu.Unlock()
		if filepath.Dir(dir) == filepath.Join(top, "projects") {
			once.Do(func() { close(subSeen) })
		}
		if dir == filepath.Join(top, "projects") {
			select {
			case <-subSeen:
			case <-time.After(10 * time.Second):
				t.Error("seen of the big folder ran before any of its subfolders was read")
			}
		}
	}
	if err := walkTreeParallel(top, seen); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Errorf("seen %v\nwant %v", got, want)
	}
}
