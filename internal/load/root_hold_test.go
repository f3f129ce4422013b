package load

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
	release()
	release() // a second call changes nothing
	if len(heldRoots.m) != 1 {
		t.Fatal("released while another hold lasts")
	}
	release2()
	if heldRoots.m != nil || heldRoots.holds != 0 {
		t.Fatal("roots kept after the last release")
	}
	if !IsDirIn(root, filepath.Join(root, "a")) {
		t.Fatal("unheld look-up")
	}
}
