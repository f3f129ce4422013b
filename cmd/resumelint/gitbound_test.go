//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Nothing waits without a bound (docs/security.md): a FIFO that git would
// read is refused before git runs, and a git call that runs past its
// bound (RESUMELINT_GIT_TIMEOUT) is stopped with exit 2.

// gitRepo makes a repository with one committed workflow and returns it
// with a function that runs git in it.
func gitRepo(t *testing.T) (string, func(args ...string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo, _ := hostileRepo(t)
	git := gitIn(t, repo)
	write(t, repo, "w/ORCHESTRATION.yaml", orchestrationNaming(".jerry/checkpoints/cx-001.json", "README.md"))
	write(t, repo, "README.md", "# readme\n")
	write(t, repo, "w/sub/notes.md", "# notes\n")
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	return repo, git
}

func TestGitReadFIFORefused(t *testing.T) {
	for _, c := range []struct {
		fifo string
		args []string
	}{
		{".gitignore", []string{"lint"}},
		{"w/sub/.gitignore", []string{"lint", "w"}},
		{".gitignore", []string{"lint", "w"}}, // read for a folder below it
		{".git/info/exclude", []string{"lint"}},
		{".git/config", []string{"lint", "--base", "HEAD", "w/ORCHESTRATION.yaml"}},
		{"w/sub/.gitattributes", []string{"lint", "--base", "HEAD", "w/ORCHESTRATION.yaml"}},
		{".gitattributes", []string{"fix", "--diff", "--base", "HEAD"}},
	} {
		t.Run(c.fifo+" "+strings.Join(c.args, " "), func(t *testing.T) {
			repo, _ := gitRepo(t)
			p := filepath.Join(repo, filepath.FromSlash(c.fifo))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.Remove(p)
			if err := mkfifo(p); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			code, out := runIn(t, repo, c.args...)
			if code != 2 || !strings.Contains(out, "is a FIFO") {
				t.Errorf("exit %d, want 2 naming the FIFO\n%s", code, out)
			}
		})
	}
}

// fakeGit puts on PATH a git that runs the real one, except for the
// commands matching pattern (a shell case pattern of the arguments),
// which never answer.
func fakeGit(t *testing.T, pattern string) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	bin := t.TempDir()
	script := "#!/bin/sh\ncase \" $* \" in\n" + pattern + ") exec sleep 60;;\nesac\nexec " + real + " \"$@\"\n"
	write(t, bin, "git", script)
	os.Chmod(filepath.Join(bin, "git"), 0o755)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("RESUMELINT_GIT_TIMEOUT", "1s")
}

func TestGitCallTimeout(t *testing.T) {
	for _, c := range []struct {
		name, pattern, want string
		args                []string
	}{
		{"ls-files", "*' ls-files '*", "git ls-files did not finish within 1s", []string{"lint"}},
		{"rev-parse", "*' rev-parse '*", "git rev-parse did not finish within 1s", []string{"lint", "--base", "HEAD", "w/ORCHESTRATION.yaml"}},
		{"ls-tree", "*' ls-tree '*", "git ls-tree did not finish within 1s", []string{"lint", "--base", "HEAD", "w/ORCHESTRATION.yaml"}},
		{"cat-file", "*' cat-file --batch '*", "git cat-file did not finish within 1s", []string{"lint", "--base", "HEAD", "w/ORCHESTRATION.yaml"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo, _ := gitRepo(t)
			// A changed workflow, so its base version is read.
			data, _ := os.ReadFile(filepath.Join(repo, "w/ORCHESTRATION.yaml"))
			write(t, repo, "w/ORCHESTRATION.yaml", strings.Replace(string(data), "go on", "go on now", 1))
			// An untracked file, so the lint of the whole tree asks git
			// for the untracked files (the tracked ones come from the
			// index).
			write(t, repo, "scratch/notes.md", "not added yet\n")
			fakeGit(t, c.pattern)
			code, out := runIn(t, repo, c.args...)
			if code != 2 || !strings.Contains(out, c.want) || !strings.Contains(out, "RESUMELINT_GIT_TIMEOUT") {
				t.Errorf("exit %d, want 2 saying %q\n%s", code, c.want, out)
			}
		})
	}
}

// TestBaseTooLargeIsSaid: a base version past the read limit turns the
// --base checks off for that file, and the run says so (RL601), for a
// changed file and for a deleted one.
func TestBaseTooLargeIsSaid(t *testing.T) {
	repo, git := gitRepo(t)
	small := orchestrationNaming(".jerry/checkpoints/cx-001.json", "README.md")
	big := small + strings.Repeat("# padding written by an exporter that never trims its log\n", 9<<20/58)
	write(t, repo, "w/ORCHESTRATION.yaml", big)
	write(t, repo, "gone/ORCHESTRATION.yaml", big)
	git("add", "-A")
	git("commit", "-q", "-m", "big")
	write(t, repo, "w/ORCHESTRATION.yaml", small)
	os.Remove(filepath.Join(repo, "gone/ORCHESTRATION.yaml"))
	code, out := runIn(t, repo, "lint", "--base", "HEAD")
	for _, want := range []string{
		"w/ORCHESTRATION.yaml:1:1: error: this file at HEAD is larger than the read limit of 8 MiB, so this change was not checked against it [RL601 append-only]",
		"gone/ORCHESTRATION.yaml:1:1: error: workflow record deleted; its version at HEAD cannot be read",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s", code, out)
	}
}
