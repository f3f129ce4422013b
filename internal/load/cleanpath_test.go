package load

import (
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// TestCleanAbsIsClean: cleanAbs and parentOf agree with filepath's
// IsAbs, Clean and Dir on every path built from the pieces that make a
// path unclean.
func TestCleanAbsIsClean(t *testing.T) {
	if os.PathSeparator != '/' {
		t.Skip("cleanAbs asks filepath.Clean here")
	}
	paths := []string{"", "/", "//", "/a", "/a/", "a", "a/b", "/a//b", "/a/./b", "/a/../b", "/.", "/..", "/a/.", "/a/..",
		"/.a", "/a.", "/..a", "/a/.b/c", "/a/b..", "/a/b/c", "./a", "../a"}
	r := rand.New(rand.NewSource(1))
	pieces := []string{"/", "a", "b", ".", "..", "/", "x.yaml", ".git", "//"}
	for range 20000 {
		p := ""
		for range 1 + r.Intn(6) {
			p += pieces[r.Intn(len(pieces))]
		}
		paths = append(paths, p)
	}
	for _, p := range paths {
		want := filepath.IsAbs(p) && filepath.Clean(p) == p
		if got := cleanAbs(p); got != want {
			t.Errorf("cleanAbs(%q) = %v, want %v", p, got, want)
		}
		if want {
			if got, want := parentOf(p), filepath.Dir(p); got != want {
				t.Errorf("parentOf(%q) = %q, want %q", p, got, want)
			}
		}
	}
}
