package load

import (
	"path/filepath"
	"testing"
)

// Contained's shortcut for clean absolute paths answers as the general
// way does, and isCleanAbs agrees with filepath.Clean.
func TestContainedShortcut(t *testing.T) {
	paths := []string{"/", "/r", "/r/", "/r/a", "/r/a/", "/r//a", "/r/./a", "/r/../a", "/r/a/..", "/r/a/.", "/r/..a", "/r/.a",
		"/r/a..", "/r/a/b.c", "/rr/a", "/r/a/../../x", "/r/...", "/r/a/.b/c", "//r/a", "/r/a//", "r/a", ""}
	for _, p := range paths {
		if got, want := isCleanAbs(p), len(p) > 1 && filepath.IsAbs(p) && filepath.Clean(p) == p; got != want {
			t.Errorf("isCleanAbs(%q) = %v, want %v", p, got, want)
		}
		for _, root := range []string{"/r", "/r/a", "/", "/r/"} {
			rel, ok := Contained(root, p)
			wantRel, wantOK := containedSlow(root, p)
			if rel != wantRel || ok != wantOK {
				t.Errorf("Contained(%q, %q) = %q, %v; want %q, %v", root, p, rel, ok, wantRel, wantOK)
			}
		}
	}
}

// containedSlow is Contained without its shortcut.
func containedSlow(root, osPath string) (string, bool) {
	r, err := filepath.Abs(root)
	if err != nil {
		return "", false
	}
	p, err := filepath.Abs(osPath)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(r, p)
	if err != nil || rel == ".." || len(rel) > 2 && rel[:3] == "../" || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}
