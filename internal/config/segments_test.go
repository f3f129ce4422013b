package config

import (
	"strings"
	"testing"
)

// hasSegments answers as the string test it replaces, for every path
// and name made of a few pieces.
func TestHasSegmentsIsContains(t *testing.T) {
	// A match that fails at a boundary can overlap the one that holds.
	for _, c := range [][2]string{{"ba/a/a", "a/a"}, {"xa/a/a/y", "a/a"}, {"aa/a", "a"}, {"archivearchive/archive", "archive"}} {
		if !hasSegments(c[0], c[1]) {
			t.Fatalf("hasSegments(%q, %q) = false", c[0], c[1])
		}
	}
	pieces := []string{"", "/", "a", "archive", "_archive", "archived", "x/archive", "archive/", "/archive", "a/b", "b", "ba", "a/a"}
	for _, p1 := range pieces {
		for _, p2 := range pieces {
			for _, n1 := range pieces {
				for _, n2 := range pieces[:6] {
					p, name := p1+p2, n1+n2
					want := strings.Contains("/"+p+"/", "/"+name+"/")
					if got := hasSegments(p, name); got != want {
						t.Fatalf("hasSegments(%q, %q) = %v, want %v", p, name, got, want)
					}
				}
			}
		}
	}
}
