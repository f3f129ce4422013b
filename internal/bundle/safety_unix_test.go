//go:build unix

package bundle_test

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/resumelint/resumelint/internal/bundle"
)

// Path safety: keys that leave the base, and outputs that are not regular
// files, fail without being opened, and nothing blocks.
func TestPathSafety(t *testing.T) {
	outside := t.TempDir()
	secret := "outside the bundle\n"
	write(t, filepath.Join(outside, "secret.txt"), secret)
	if err := syscall.Mkfifo(filepath.Join(outside, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	opened := watchOpens(t, outside)
	// The watch sees a read, so its silence below means something.
	if _, err := os.ReadFile(filepath.Join(outside, "secret.txt")); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && len(opened()) == 0 {
		t.Fatal("the watch on the outside folder does not see opens")
	}

	var inside func() []string // set by a case that watches a folder of its own
	cases := pathSafetyCases(t, outside, &inside)
	for _, c := range cases {
		inside = nil
		t.Run(c.key, func(t *testing.T) {
			dir, a := newBundle(t, reportOutputs)
			if c.setup != nil {
				c.setup(dir)
			}
			a.hashes["hashes"].(map[string]any)[c.key] = digest(secret)
			a.write(t, dir)
			v := verify(t, dir, opts())
			wantCodes(t, v, c.want)
			if p := problem(t, v, c.want, c.key); !strings.Contains(p.Message, c.says) {
				t.Errorf("message %q does not say %q", p.Message, c.says)
			}
			if got := opened(); len(got) > 0 {
				t.Fatalf("verification opened %v outside the bundle", got)
			}
			if inside != nil {
				// The folder itself is listed (forbidden artifacts); the
				// FIFO in it must never be opened.
				if got := inside(); slices.ContainsFunc(got, func(s string) bool { return s != "." }) {
					t.Fatalf("verification opened %v, which is not a regular file", got)
				}
			}
		})
	}
	// A symbolic link that stays inside the bundle is followed.
	t.Run("inside link", func(t *testing.T) {
		dir, a := newBundle(t, reportOutputs)
		symlink(t, "report.md", filepath.Join(dir, "out", "alias.md"))
		symlink(t, filepath.Join(dir, "out", "data.csv"), filepath.Join(dir, "out", "abs-alias.csv"))
		a.hashes["hashes"].(map[string]any)["out/alias.md"] = digest(reportOutputs["out/report.md"])
		a.hashes["hashes"].(map[string]any)["out/abs-alias.csv"] = digest(reportOutputs["out/data.csv"])
		a.write(t, dir)
		wantCodes(t, verify(t, dir, opts()))
	})
}

// pathSafetyCase is a key of the hashes file that verification must
// refuse without opening what it names, with the setup that makes it
// hostile, the problem code and what the message says.
type pathSafetyCase struct {
	key   string
	setup func(dir string)
	want  bundle.Code
	says  string
}

// pathSafetyCases are the cases of TestPathSafety: keys that leave the
// bundle by name or by link, and names that are not regular files. Their
// targets are in outside; the case of a FIFO inside the bundle sets
// *inside to a watch on the FIFO's folder.
func pathSafetyCases(t *testing.T, outside string, inside *func() []string) []pathSafetyCase {
	return []pathSafetyCase{
		{key: "../secret.txt", want: bundle.PathInvalid, says: `".."`},
		{key: "out/../../secret.txt", want: bundle.PathInvalid, says: `".."`},
		{key: filepath.ToSlash(filepath.Join(outside, "secret.txt")), want: bundle.PathInvalid, says: "absolute"},
		{key: `out\secret.txt`, want: bundle.PathInvalid, says: "backslash"},
		{key: "C:/secret.txt", want: bundle.PathInvalid, says: "drive letter"},
		{key: "out/link.txt", want: bundle.PathInvalid, says: "symbolic link",
			setup: func(dir string) {
				symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(dir, "out", "link.txt"))
			}},
		{key: "out/rel-link.txt", want: bundle.PathInvalid, says: "symbolic link",
			setup: func(dir string) {
				rel, _ := filepath.Rel(filepath.Join(dir, "out"), filepath.Join(outside, "secret.txt"))
				symlink(t, rel, filepath.Join(dir, "out", "rel-link.txt"))
			}},
		{key: "escape/secret.txt", want: bundle.PathInvalid, says: "symbolic link",
			setup: func(dir string) { symlink(t, outside, filepath.Join(dir, "escape")) }},
		{key: "escape/missing.txt", want: bundle.PathInvalid, says: "symbolic link",
			setup: func(dir string) { symlink(t, outside, filepath.Join(dir, "escape")) }},
		{key: "out/dangling", want: bundle.PathInvalid, says: "symbolic link",
			setup: func(dir string) {
				symlink(t, filepath.Join(outside, "nothing-here"), filepath.Join(dir, "out", "dangling"))
			}},
		{key: "out/pipe-link", want: bundle.PathInvalid, says: "symbolic link",
			setup: func(dir string) { symlink(t, filepath.Join(outside, "pipe"), filepath.Join(dir, "out", "pipe-link")) }},
		{key: "out/null", want: bundle.PathInvalid, says: "symbolic link",
			setup: func(dir string) { symlink(t, "/dev/null", filepath.Join(dir, "out", "null")) }},
		{key: "out/p/fifo", want: bundle.OutputMissing, says: "a FIFO (named pipe)",
			setup: func(dir string) {
				if err := os.MkdirAll(filepath.Join(dir, "out", "p"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Mkfifo(filepath.Join(dir, "out", "p", "fifo"), 0o644); err != nil {
					t.Fatal(err)
				}
				*inside = watchOpens(t, filepath.Join(dir, "out", "p"))
			}},
		{key: "out", want: bundle.OutputMissing, says: "a folder"},
		{key: "out/loop", want: bundle.OutputMissing, says: "cannot be resolved",
			setup: func(dir string) {
				symlink(t, "loop2", filepath.Join(dir, "out", "loop"))
				symlink(t, "loop", filepath.Join(dir, "out", "loop2"))
			}},
		{key: "out/report.md/x", want: bundle.OutputMissing, says: "does not exist"},
		// A trailing "/" or "/." names a folder: opening it as written
		// fails (ENOTDIR) where the name is a file, so it is not the file.
		{key: "out/report.md/", want: bundle.OutputMissing, says: "not a folder"},
		{key: "out/report.md/.", want: bundle.OutputMissing, says: "not a folder"},
		{key: "out/alias-dir/", want: bundle.OutputMissing, says: "not a folder",
			setup: func(dir string) { symlink(t, "report.md", filepath.Join(dir, "out", "alias-dir")) }},
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlink: %v", err)
	}
}
