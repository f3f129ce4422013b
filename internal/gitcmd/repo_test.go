package gitcmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRun runs git in dir for a test, with a fixed identity and no user
// or system config.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// committedRepo makes a repository in dir holding one committed file.
func committedRepo(t *testing.T, dir, file string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, file), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, dir, "init", "-q")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "base")
}

// listed is what git ls-files lists in the work tree of r.
func listed(t *testing.T, r *Repo) string {
	t.Helper()
	c := r.Command(r.Top, "ls-files", "-z", "-c", "-o", "--exclude-standard")
	var out bytes.Buffer
	c.Stdout = &out
	if err := c.Run(); err != nil {
		t.Fatalf("ls-files: %v", err)
	}
	return strings.Join(strings.Split(strings.TrimRight(out.String(), "\x00"), "\x00"), ",")
}

func TestOpenRepoKeepsGitInTheFolder(t *testing.T) {
	top := t.TempDir()
	main, other := filepath.Join(top, "main"), filepath.Join(top, "other")
	committedRepo(t, main, "main.txt")
	committedRepo(t, other, "other.txt")
	gitRun(t, main, "worktree", "add", "-q", filepath.Join(top, "wt"))
	super := filepath.Join(top, "super")
	committedRepo(t, super, "super.txt")
	gitRun(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", main, "sub")

	write := func(p, s string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		top  string
		make func(dir string)
		want string // files git lists, or "" when it is refused
	}{
		{"a repository", main, nil, "main.txt"},
		{"a linked work tree", filepath.Join(top, "wt"), nil, "main.txt"},
		{"a submodule", filepath.Join(super, "sub"), nil, "main.txt"},
		{"a .git file naming another repository", filepath.Join(top, "a"), func(dir string) {
			write(filepath.Join(dir, ".git"), "gitdir: "+filepath.Join(other, ".git")+"\n")
		}, ""},
		{"a .git file naming another work tree's git folder", filepath.Join(top, "b"), func(dir string) {
			write(filepath.Join(dir, ".git"), "gitdir: "+filepath.Join(main, ".git", "worktrees", "wt")+"\n")
		}, ""},
		{"a .git file naming a submodule's git folder", filepath.Join(top, "c"), func(dir string) {
			write(filepath.Join(dir, ".git"), "gitdir: "+filepath.Join(super, ".git", "modules", "sub")+"\n")
		}, ""},
		{"a .git link", filepath.Join(top, "d"), func(dir string) {
			os.MkdirAll(dir, 0o755)
			os.Symlink(filepath.Join(other, ".git"), filepath.Join(dir, ".git"))
		}, ""},
		{"a commondir", filepath.Join(top, "e"), func(dir string) {
			committedRepo(t, dir, "e.txt")
			write(filepath.Join(dir, ".git", "commondir"), filepath.Join(other, ".git")+"\n")
		}, ""},
		{"core.worktree elsewhere", filepath.Join(top, "f"), func(dir string) {
			committedRepo(t, dir, "f.txt")
			gitRun(t, dir, "config", "core.worktree", other)
		}, ""},
		{"core.worktree above", filepath.Join(other, "g"), func(dir string) {
			committedRepo(t, dir, "g.txt")
			gitRun(t, dir, "config", "core.worktree", "../..")
		}, ""},
		{"core.worktree in an included config, which git does not take", filepath.Join(top, "h"), func(dir string) {
			committedRepo(t, dir, "h.txt")
			write(filepath.Join(top, "h.inc"), "[core]\n\tworktree = "+other+"\n")
			gitRun(t, dir, "config", "include.path", filepath.Join(top, "h.inc"))
		}, "h.txt"},
		{"core.worktree naming the folder itself", filepath.Join(top, "i"), func(dir string) {
			committedRepo(t, dir, "i.txt")
			gitRun(t, dir, "config", "core.worktree", "..")
		}, "i.txt"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.make != nil {
				c.make(c.top)
			}
			r, err := OpenRepo(c.top)
			if c.want == "" {
				if !IsRefused(err) {
					t.Fatalf("OpenRepo: %v, %v; want it refused", r, err)
				}
				if _, ok := TrackedFiles(c.top, c.top); ok {
					t.Errorf("TrackedFiles read the index of a repository git is not used for")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := listed(t, r); got != c.want {
				t.Errorf("git lists %q, want %q", got, c.want)
			}
		})
	}
}

// TestRepoCommandPinsTheRepository: git variables in the environment do
// not send a Repo's commands to another repository.
func TestRepoCommandPinsTheRepository(t *testing.T) {
	top := t.TempDir()
	main, other := filepath.Join(top, "main"), filepath.Join(top, "other")
	committedRepo(t, main, "main.txt")
	committedRepo(t, other, "other.txt")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_COMMON_DIR", filepath.Join(other, ".git"))
	r, err := OpenRepo(main)
	if err != nil {
		t.Fatal(err)
	}
	if got := listed(t, r); got != "main.txt" {
		t.Errorf("git lists %q, want main.txt", got)
	}
}

func TestCoreWorktree(t *testing.T) {
	for _, c := range []struct {
		cfg  string
		want string
		set  bool
	}{
		{"[core]\n\tbare = false\n", "", false},
		{"[core]\n\tworktree = /elsewhere\n", "/elsewhere", true},
		{"[CORE]\n\tWorkTree=../..  # a comment\n", "../..", true},
		{"[core] worktree = \"/a b\\\\c\" ; x\n", "/a b\\c", true},
		{"[core]\n\tworktree = /a\n[remote \"origin\"]\n\tworktree = /b\n", "/a", true},
		{"[core]\n\tworktree = /a\n\tworktree = /b\n", "/b", true},
		{"[core \"x\"]\n\tworktree = /a\n", "", false},
		{"# [core]\n\tworktree = /a\n", "", false},
	} {
		got, set := coreWorktree([]byte(c.cfg))
		if got != c.want || set != c.set {
			t.Errorf("%q: %q, %v; want %q, %v", c.cfg, got, set, c.want, c.set)
		}
	}
}
