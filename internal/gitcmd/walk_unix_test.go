//go:build unix

package gitcmd

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// The walk that reads folders on every core refuses the tree for the same
// special file as the walk on one goroutine: the first in walk order,
// wherever the workers find it first.
func TestCheckTreeParallelWalkOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	top := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(top, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
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
	if err := syscall.Mkfifo(mk("a/.git/info/.gitignore"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if got := walkTreeParallel(top, nil); got != nil {
		t.Fatalf("a FIFO under .git: %v", got)
	}
	for _, rel := range []string{"projects/zx/p/q/.gitignore", "projects/mx/.gitattributes", "projects/cx/p/r/.gitignore", "b/c/.gitignore"} {
		if err := syscall.Mkfifo(mk(rel), 0o644); err != nil {
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
