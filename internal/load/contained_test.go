package load

import (
	"path/filepath"
	"testing"
)

// Contained's shortcut for clean absolute paths answers as the general
// way (containedAbs) does, and isCleanAbs agrees with filepath.Clean.
func TestContainedShortcut(t *testing.T) {
	paths := []string{"/", "/r", "/r/", "/r/a", "/r/a/", "/r//a", "/r/./a", "/r/../a", "/r/a/..", "/r/a/.", "/r/..a", "/r/.a",
		"/r/a..", "/r/a/b.c", "/rr/a", "/r/a/../../x", "/r/...", "/r/a/.b/c", "//r/a", "/r/a//", "r/a", ""}
	for _, p := range paths {
		if got, want := isCleanAbs(p), len(p) > 1 && filepath.IsAbs(p) && filepath.Clean(p) == p; got != want {
			t.Errorf("isCleanAbs(%q) = %v, want %v", p, got, want)
		}
		for _, root := range []string{"/r", "/r/a", "/", "/r/"} {
			rel, ok := Contained(root, p)
			wantRel, wantOK := containedAbs(root, p)
			if rel != wantRel || ok != wantOK {
				t.Errorf("Contained(%q, %q) = %q, %v; want %q, %v", root, p, rel, ok, wantRel, wantOK)
			}
		}
	}
}
