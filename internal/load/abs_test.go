package load

import (
	"path/filepath"
	"testing"
)

func TestAbs(t *testing.T) {
	cwd := filepath.FromSlash("/repo/sub")
	if filepath.VolumeName(cwd) == "" && !filepath.IsAbs(cwd) {
		cwd = filepath.Join(t.TempDir(), "sub")
	}
	abs := filepath.Join(cwd, "x")
	for _, tc := range []struct{ in, want string }{
		{"a/b.yaml", filepath.Join(cwd, "a", "b.yaml")},
		{"./a/../b", filepath.Join(cwd, "b")},
		{"", cwd},
		{abs, abs},
	} {
		if got := Abs(cwd, tc.in); got != tc.want {
			t.Errorf("Abs(%q, %q) = %q, want %q", cwd, tc.in, got, tc.want)
		}
	}
}
