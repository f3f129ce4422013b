package gitcmd

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A FIFO among the refs, the reflogs or the objects git reads to resolve
// --base (a loose ref, a loose object, one in an alternate object folder)
// refuses the repository before git runs; a store of regular files and a
// link to one passes.
func TestCheckStoreFIFORefused(t *testing.T) {
	cases := map[string]string{
		"loose ref":               ".git/refs/heads/main",
		"reflog":                  ".git/logs/HEAD",
		"loose object":            ".git/objects/d3/e5d9ab9dcea0b9f36539ac5e3af4e9c3b2a269",
		"pack":                    ".git/objects/pack/pack-1.pack",
		"alternate object folder": "../elsewhere/objects/ab/cdef",
		"common folder's ref":     "../common/refs/tags/v1",
	}
	for name, fifo := range cases {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			top := filepath.Join(base, "repo")
			write := func(rel, data string) {
				p := filepath.Join(top, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(".git/HEAD", "ref: refs/heads/main\n")
			write(".git/refs/heads/other", "d3e5d9ab9dcea0b9f36539ac5e3af4e9c3b2a269\n")
			write(".git/objects/info/alternates", "# shared\n../../../elsewhere/objects\n")
			write(".git/commondir", "../../common\n")
			p := filepath.Join(top, filepath.FromSlash(fifo))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			r := &Repo{Top: top, GitDir: filepath.Join(top, ".git")}
			if err := r.CheckStore(); err != nil {
				t.Fatalf("CheckStore before the FIFO: %v", err)
			}
			if err := mkfifo(p); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			var se *SpecialFileError
			if err := r.CheckStore(); !errors.As(err, &se) || se.Path != p {
				t.Fatalf("CheckStore: %v, want the FIFO %s refused", err, p)
			}
		})
	}
}

// A link in the store is judged by what it names: to a regular file it
// passes, to a FIFO it is refused.
func TestCheckStoreLinks(t *testing.T) {
	top := t.TempDir()
	refs := filepath.Join(top, ".git", "refs", "heads")
	if err := os.MkdirAll(refs, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(top, "ref.txt")
	if err := os.WriteFile(target, []byte("d3e5d9ab9dcea0b9f36539ac5e3af4e9c3b2a269\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(refs, "main")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	r := &Repo{Top: top, GitDir: filepath.Join(top, ".git")}
	if err := r.CheckStore(); err != nil {
		t.Fatalf("CheckStore: %v", err)
	}
	pipe := filepath.Join(top, "pipe")
	if err := mkfifo(pipe); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink(pipe, filepath.Join(refs, "feature")); err != nil {
		t.Fatal(err)
	}
	var se *SpecialFileError
	if err := r.CheckStore(); !errors.As(err, &se) {
		t.Fatalf("CheckStore: %v, want the link to a FIFO refused", err)
	}
}

// A FIFO behind a link to a folder in refs/ (or a linked refs/ itself),
// and one in an alternate's alternate, is refused too; a link loop ends.
func TestCheckStoreFollowsLinkedFoldersAndAlternates(t *testing.T) {
	base := t.TempDir()
	top := filepath.Join(base, "repo")
	git := filepath.Join(top, ".git")
	mk := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk(filepath.Join(git, "refs", "tags"))
	mk(filepath.Join(git, "objects", "info"))
	out := filepath.Join(base, "outrefs")
	mk(out)
	if err := os.Symlink(out, filepath.Join(git, "refs", "tags", "outrefs")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	if err := os.Symlink(filepath.Join(git, "refs"), filepath.Join(out, "loop")); err != nil {
		t.Fatal(err)
	}
	alt1, alt2 := filepath.Join(base, "alt1"), filepath.Join(base, "alt2")
	mk(filepath.Join(alt1, "info"))
	mk(filepath.Join(alt2, "11"))
	for p, data := range map[string]string{
		filepath.Join(git, "objects", "info", "alternates"): alt1 + "\n",
		filepath.Join(alt1, "info", "alternates"):           alt2 + "\n",
	} {
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &Repo{Top: top, GitDir: git}
	if err := r.CheckStore(); err != nil {
		t.Fatalf("CheckStore before the FIFOs: %v", err)
	}
	for _, fifo := range []string{filepath.Join(out, "v1"), filepath.Join(alt2, "11", "11111111")} {
		if err := mkfifo(fifo); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		var se *SpecialFileError
		if err := r.CheckStore(); !errors.As(err, &se) || se.Path != fifo {
			t.Fatalf("CheckStore: %v, want %s refused", err, fifo)
		}
		if err := os.Remove(fifo); err != nil {
			t.Fatal(err)
		}
	}
}
