package gitcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repo makes a git repository in a new folder, with files committed.
func repo(t *testing.T, files ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(t, dir, "add", "-A")
	run(t, dir, "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "files")
	return dir
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// lsFiles is what TrackedFiles stands in for.
func lsFiles(t *testing.T, dir string) []string {
	t.Helper()
	out := run(t, dir, "ls-files", "-z", "-c", "--", ".")
	return strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
}

func strs(b [][]byte) []string {
	out := make([]string, len(b))
	for i, p := range b {
		out[i] = string(p)
	}
	return out
}

var sampleFiles = []string{
	"ORCHESTRATION.yaml", "a b/c d.md", "docs/résumé.md", "docs/sub/deep/x.json",
	"projects/PROJ-001/.jerry/checkpoints/cx-001-checkpoint.json", "z.txt",
}

// longPath is longer than an entry's 12-bit name length holds (4,095
// bytes), and than the file system allows: it is only in the index.
var longPath = strings.Repeat("long-folder-name/", 250) + "f.md"

func TestTrackedFilesAsGitListsThem(t *testing.T) {
	dir := repo(t, sampleFiles...)
	// Version 3 (an intent-to-add entry's extended flags), a submodule's
	// gitlink, and then version 4's compressed paths.
	if err := os.WriteFile(filepath.Join(dir, "docs", "new.md"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "add", "-N", "docs/new.md")
	head := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD"))
	run(t, dir, "update-index", "--add", "--cacheinfo", "160000,"+head+",vendor/sub")
	blob := strings.TrimSpace(run(t, dir, "rev-parse", "HEAD:z.txt"))
	run(t, dir, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+longPath)
	for _, version := range []string{"3", "2", "4", "extensions", "skip-worktree"} {
		switch version {
		case "2", "4":
			run(t, dir, "update-index", "--index-version", version)
		case "extensions":
			// Optional extensions: the untracked cache, the end of the
			// entries and their offsets, beside the cache tree.
			run(t, dir, "update-index", "--index-version", "2", "--untracked-cache")
			run(t, dir, "-c", "core.untrackedCache=true", "status", "--porcelain")
			run(t, dir, "-c", "index.recordEndOfIndexEntries=true", "-c", "index.recordOffsetTable=true", "-c", "index.threads=2",
				"update-index", "--force-write-index")
		case "skip-worktree":
			run(t, dir, "sparse-checkout", "set", "--no-cone", "docs/")
		}
		for _, sub := range []string{".", "docs", "a b", "projects/PROJ-001", "missing"} {
			got, ok := TrackedFiles(dir, filepath.Join(dir, sub))
			want := lsFilesIn(t, dir, sub)
			if !ok {
				t.Fatalf("version %s, %s: not read", version, sub)
			}
			if g := strings.Join(strs(got), "\n"); g != strings.Join(want, "\n") {
				t.Errorf("version %s, %s:\ngot  %q\nwant %q", version, sub, strs(got), want)
			}
		}
	}
}

// lsFilesIn is lsFiles of the folder sub of the work tree at top, which
// need not exist in the work tree (a sparse checkout leaves folders out):
// git lists it from the top, and the folder's prefix is taken off.
func lsFilesIn(t *testing.T, top, sub string) []string {
	t.Helper()
	if sub == "." {
		return lsFiles(t, top)
	}
	out := strings.TrimSuffix(run(t, top, "ls-files", "-z", "-c", "--", sub+"/"), "\x00")
	paths := strings.Split(out, "\x00")
	for i, p := range paths {
		paths[i] = strings.TrimPrefix(p, sub+"/")
	}
	return paths
}

func TestTrackedFilesConflictStages(t *testing.T) {
	dir := repo(t, "ORCHESTRATION.yaml")
	id := []string{"-c", "user.name=t", "-c", "user.email=t@localhost"}
	run(t, dir, "checkout", "-qb", "other")
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, "ORCHESTRATION.yaml"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("other\n")
	run(t, dir, append(id, "commit", "-qam", "other")...)
	run(t, dir, "checkout", "-q", "main")
	write("main\n")
	run(t, dir, append(id, "commit", "-qam", "main")...)
	cmd := exec.Command("git", append([]string{"-C", dir}, append(id, "merge", "-q", "other")...)...)
	_ = cmd.Run() // conflicts
	for _, state := range []string{"conflicted", "resolved"} {
		if state == "resolved" {
			write("both\n")
			run(t, dir, "add", "ORCHESTRATION.yaml") // the index keeps the stages to undo (REUC)
		}
		got, ok := TrackedFiles(dir, dir)
		if want := lsFiles(t, dir); !ok || strings.Join(strs(got), "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: got %q (read %v), want %q", state, strs(got), ok, want)
		}
	}
}

// TestTrackedFilesLeavesToGit: whatever git would read or check
// differently is git's to list.
func TestTrackedFilesLeavesToGit(t *testing.T) {
	for name, setup := range map[string]func(t *testing.T, dir string){
		"split index": func(t *testing.T, dir string) { run(t, dir, "update-index", "--split-index") },
		"not a repository to git": func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, ".git", "refs")); err != nil {
				t.Fatal(err)
			}
		},
		"sparse index": func(t *testing.T, dir string) {
			run(t, dir, "sparse-checkout", "set", "--cone", "--sparse-index", "docs")
		},
		"index file named": func(t *testing.T, dir string) {
			t.Setenv("GIT_INDEX_FILE", filepath.Join(dir, ".git", "other-index"))
		},
		"search for the repository bounded": func(t *testing.T, dir string) {
			t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
		},
		"corrupt index": func(t *testing.T, dir string) {
			p := filepath.Join(dir, ".git", "index")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b[20] ^= 1
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"index through a link": func(t *testing.T, dir string) {
			p := filepath.Join(dir, ".git", "index")
			if err := os.Rename(p, p+".real"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(p+".real", p); err != nil {
				t.Fatal(err)
			}
		},
		"sha256": func(t *testing.T, dir string) {
			p := filepath.Join(dir, ".git", "config")
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("[extensions]\n\tobjectFormat = sha256\n"); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := repo(t, sampleFiles[:3]...)
			setup(t, dir)
			if got, ok := TrackedFiles(dir, dir); ok {
				t.Errorf("read %q; want it left to git", strs(got))
			}
		})
	}
}

func TestTrackedFilesLinkedWorkTree(t *testing.T) {
	dir := repo(t, "ORCHESTRATION.yaml")
	wt := filepath.Join(t.TempDir(), "wt")
	run(t, dir, "worktree", "add", "-q", wt)
	if got, ok := TrackedFiles(wt, wt); ok {
		t.Errorf("linked work tree read as %q; want it left to git", strs(got))
	}
	if _, ok := TrackedFiles(dir, dir); !ok {
		t.Error("the main work tree was not read")
	}
}

func TestTrackedFilesNoIndexYet(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q")
	got, ok := TrackedFiles(dir, dir)
	if !ok || len(got) != 0 {
		t.Errorf("fresh repository: %q, read %v; want nothing, read", strs(got), ok)
	}
}

func FuzzParseIndex(f *testing.F) {
	dir := t0Repo(f)
	for _, v := range []string{"2", "3", "4"} {
		cmd := exec.Command("git", "-C", dir, "update-index", "--index-version", v)
		if cmd.Run() == nil {
			if b, err := os.ReadFile(filepath.Join(dir, ".git", "index")); err == nil && len(b) > 20 {
				f.Add(b[:len(b)-20], []byte(""))
				f.Add(b[:len(b)-20], []byte("docs/"))
			}
		}
	}
	// The entries, past the checksum a fuzzer would never forge.
	f.Fuzz(func(t *testing.T, body, prefix []byte) {
		paths, ok := indexEntries(body, prefix)
		for _, p := range paths {
			if !ok || len(p) == 0 || slices.Contains(p, 0) {
				t.Fatalf("path %q (ok %v)", p, ok)
			}
		}
	})
}

// t0Repo is repo for a fuzz target's seeds.
func t0Repo(f *testing.F) string {
	dir := f.TempDir()
	if exec.Command("git", "-C", dir, "init", "-q").Run() != nil {
		return dir
	}
	for _, name := range sampleFiles[:5] {
		p := filepath.Join(dir, filepath.FromSlash(name))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, []byte(name), 0o644)
	}
	_ = exec.Command("git", "-C", dir, "add", "-A").Run()
	return dir
}

func TestGitVarint(t *testing.T) {
	// Values and bytes from git's encode_varint (varint.c).
	for _, tc := range []struct {
		b    []byte
		want uint64
		n    int
	}{
		{[]byte{0}, 0, 1},
		{[]byte{127}, 127, 1},
		{[]byte{0x80, 0x00}, 128, 2},
		{[]byte{0x80, 0x7f}, 255, 2},
		{[]byte{0xff, 0x7f}, 16511, 2},
		{[]byte{0x80, 0x80, 0x00}, 16512, 3},
		{[]byte{0x80}, 0, 0}, // cut short
		{[]byte(strings.Repeat("\xff", 12)), 0, 0},
	} {
		if v, n := gitVarint(tc.b); v != tc.want || n != tc.n {
			t.Errorf("gitVarint(% x) = %d, %d; want %d, %d", tc.b, v, n, tc.want, tc.n)
		}
	}
}
