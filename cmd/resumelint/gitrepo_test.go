//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The repository is the folder holding the .git marker resumelint found
// (docs/security.md "git is used only for the repository's own folder"):
// neither a .git file, a .git link, a commondir file nor core.worktree in
// .git/config can make git read or list another repository. Where git is
// not used, --base says why (exit 2) and discovery walks the folder.

// otherMarker is in the names and the history of the other repository:
// nothing of it may be printed.
const otherMarker = "OTHER-REPO-7f3a"

// workflowDeciding is a workflow whose decision_log holds entries of the
// ids given: removing one at head is an RL601 finding that names it.
func workflowDeciding(ids ...string) string {
	s := orchestrationNaming(".jerry/checkpoints/cx-001.json", "README.md")
	if len(ids) == 0 {
		return s
	}
	var log strings.Builder
	for _, id := range ids {
		log.WriteString(`    - id: "` + id + `"
      timestamp: "2026-02-16T15:00:00Z"
      decision: "keep going"
      rationale: "it works"
`)
	}
	return strings.Replace(s, "  decision_log: []\n", "  decision_log:\n"+log.String(), 1)
}

// otherRepo makes, in top, a repository "other" whose committed workflow
// holds a decision otherMarker names, beside a workflow in a folder of
// that name, and returns its folder.
func otherRepo(t *testing.T, top string) string {
	t.Helper()
	other := filepath.Join(top, "other")
	write(t, other, "w/ORCHESTRATION.yaml", workflowDeciding("RD-"+otherMarker))
	write(t, other, otherMarker+"/ORCHESTRATION.yaml", workflowDeciding())
	write(t, other, "README.md", "# other\n")
	git := gitIn(t, other)
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "other")
	return other
}

// foreignGitCase is a repository whose git folder, or its configuration,
// points at another repository or folder.
type foreignGitCase struct {
	name string
	// make builds the hostile repository in top and returns the
	// folder resumelint runs in.
	make func(t *testing.T, top, other string) string
	why  string // what --base says
}

// foreignGitCases are the repositories of
// TestGitIsUsedOnlyForTheRepositoryItself, one for each way a .git marker
// can lead git elsewhere.
var foreignGitCases = []foreignGitCase{
	{"a .git file naming another repository", func(t *testing.T, top, other string) string {
		repo := filepath.Join(top, "repo")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding())
		write(t, repo, "README.md", "# repo\n")
		write(t, repo, ".git", "gitdir: "+filepath.Join(other, ".git")+"\n")
		return repo
	}, "does not link back"},
	{"a relative .git file naming another repository", func(t *testing.T, top, other string) string {
		repo := filepath.Join(top, "repo")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding())
		write(t, repo, "README.md", "# repo\n")
		write(t, repo, ".git", "gitdir: ../other/.git\n")
		return repo
	}, "does not link back"},
	{"a .git file naming another checkout's work-tree folder", func(t *testing.T, top, other string) string {
		gitIn(t, other)("worktree", "add", "-q", filepath.Join(top, "wt"))
		repo := filepath.Join(top, "repo")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding())
		write(t, repo, "README.md", "# repo\n")
		write(t, repo, ".git", "gitdir: "+filepath.Join(other, ".git", "worktrees", "wt")+"\n")
		return repo
	}, "does not link back"},
	{"a work-tree folder inside the repository whose commondir names another", func(t *testing.T, top, other string) string {
		repo := filepath.Join(top, "repo")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding())
		write(t, repo, "README.md", "# repo\n")
		write(t, repo, "fake/worktrees/x/gitdir", filepath.Join(repo, ".git")+"\n")
		write(t, repo, "fake/worktrees/x/commondir", filepath.Join(other, ".git")+"\n")
		write(t, repo, "fake/worktrees/x/HEAD", "ref: refs/heads/master\n")
		write(t, repo, ".git", "gitdir: fake/worktrees/x\n")
		return repo
	}, "does not link back"},
	{"a .git link to another repository", func(t *testing.T, top, other string) string {
		repo := filepath.Join(top, "repo")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding())
		write(t, repo, "README.md", "# repo\n")
		symlink(t, filepath.Join(other, ".git"), filepath.Join(repo, ".git"))
		return repo
	}, "symbolic link"},
	{"a commondir naming another repository", func(t *testing.T, top, other string) string {
		repo := filepath.Join(top, "repo")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding())
		write(t, repo, "README.md", "# repo\n")
		git := gitIn(t, repo)
		git("init", "-q")
		write(t, repo, ".git/commondir", filepath.Join(other, ".git")+"\n")
		return repo
	}, "commondir"},
	{"core.worktree naming another folder", func(t *testing.T, top, other string) string {
		repo := filepath.Join(top, "repo")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding("RD-1"))
		write(t, repo, "README.md", "# repo\n")
		git := gitIn(t, repo)
		git("init", "-q")
		git("add", "-A")
		git("commit", "-q", "-m", "base")
		git("config", "core.worktree", other)
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding())
		write(t, repo, "scratch.txt", "untracked\n")
		return repo
	}, "core.worktree"},
	{"core.worktree naming the repository around it", func(t *testing.T, top, other string) string {
		// The repository is a folder of other's work tree, its git
		// folder says the work tree is other.
		repo := filepath.Join(other, "sub", "repo")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding("RD-1"))
		git := gitIn(t, repo)
		git("init", "-q")
		git("add", "-A")
		git("commit", "-q", "-m", "base")
		git("config", "core.worktree", "../../..")
		write(t, repo, "w/ORCHESTRATION.yaml", workflowDeciding())
		return repo
	}, "core.worktree"},
}

// TestGitIsUsedOnlyForTheRepositoryItself builds each of foreignGitCases
// beside otherRepo's repository and checks that nothing of it is read.
func TestGitIsUsedOnlyForTheRepositoryItself(t *testing.T) {
	for _, c := range foreignGitCases {
		t.Run(c.name, func(t *testing.T) {
			top := t.TempDir()
			other := otherRepo(t, top)
			repo := c.make(t, top, other)
			checkGitNotUsed(t, repo, c.why)
		})
	}
}

// checkGitNotUsed runs the entry points of resumelint in repo, which
// otherRepo's repository must not leak into: --base says git is not used,
// and why, and discovery walks the folder.
func checkGitNotUsed(t *testing.T, repo, why string) {
	// The other repository's history would be an RL601 finding
	// naming its decision; its files would be listed by name.
	for _, args := range [][]string{{"lint", "--base", "HEAD"}, {"lint", "--base", "HEAD", "--changed-only"}, {"fix", "--diff", "--base", "HEAD"}} {
		code, out := runIn(t, repo, args...)
		if code != 2 || !strings.Contains(out, "git is not used for") || !strings.Contains(out, why) {
			t.Errorf("%v: exit %d, want 2 saying git is not used (%s)\n%s", args, code, why, out)
		}
		if strings.Contains(out, otherMarker) {
			t.Errorf("%v printed the other repository:\n%s", args, out)
		}
	}
	// Discovery walks the folder, as outside a repository.
	code, out := runIn(t, repo, "lint")
	if code > 1 || strings.Contains(out, otherMarker) || strings.Contains(out, "cannot read file") {
		t.Errorf("lint: exit %d, or it listed the other repository's files:\n%s", code, out)
	}
	if !strings.Contains(out, "in 1 file") && !strings.Contains(out, "of 1 file") {
		t.Errorf("lint did not lint the repository's one workflow:\n%s", out)
	}
	// Every entry point discovers the same way.
	for _, args := range [][]string{{"status"}, {"status", "--format", "json"}, {"lint", "--list-files"}} {
		code, out := runIn(t, repo, args...)
		if code > 1 || strings.Contains(out, otherMarker) {
			t.Errorf("%v: exit %d, or it listed the other repository's files:\n%s", args, code, out)
		}
	}
}

// TestLinkedWorkTreeAndSubmoduleUseGit: a checkout made by git worktree
// and a submodule keep their git folder elsewhere, which links back to
// them: git is used, so --base compares with their history and discovery
// leaves out what they ignore.
func TestLinkedWorkTreeAndSubmoduleUseGit(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(t *testing.T, top, main string) string
	}{
		{"git worktree", func(t *testing.T, top, main string) string {
			wt := filepath.Join(top, "checkouts", "wt")
			gitIn(t, main)("worktree", "add", "-q", wt)
			return wt
		}},
		{"submodule", func(t *testing.T, top, main string) string {
			super := filepath.Join(top, "super")
			write(t, super, "README.md", "# super\n")
			git := gitIn(t, super)
			git("init", "-q")
			git("-c", "protocol.file.allow=always", "submodule", "add", "-q", main, "deps/sub")
			git("commit", "-q", "-m", "sub")
			return filepath.Join(super, "deps", "sub")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			top := t.TempDir()
			main := filepath.Join(top, "main")
			write(t, main, "w/ORCHESTRATION.yaml", workflowDeciding("RD-001"))
			write(t, main, "README.md", "# main\n")
			write(t, main, ".gitignore", "ignored/\n")
			git := gitIn(t, main)
			git("init", "-q")
			git("add", "-A")
			git("commit", "-q", "-m", "base")
			checkout := c.make(t, top, main)
			if fi, err := os.Lstat(filepath.Join(checkout, ".git")); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("the checkout has no .git file: %v", err)
			}
			write(t, checkout, "w/ORCHESTRATION.yaml", workflowDeciding())
			write(t, checkout, "ignored/ORCHESTRATION.yaml", "workflow: [\n")
			code, out := runIn(t, checkout, "lint", "--base", "HEAD")
			if code != 1 || !strings.Contains(out, "decision_log entry RD-001 (line 17 at HEAD) was removed") {
				t.Errorf("lint --base HEAD: exit %d, want 1 and the removed decision (RL601)\n%s", code, out)
			}
			if strings.Contains(out, "ignored/") || strings.Contains(out, "git is not used") {
				t.Errorf("git was not used for the checkout:\n%s", out)
			}
			code, out = runIn(t, checkout, "lint", "--base", "HEAD", "--changed-only")
			if code != 1 || !strings.Contains(out, "was removed") || strings.Contains(out, "ignored/") {
				t.Errorf("--changed-only: exit %d, want 1 and the changed workflow alone\n%s", code, out)
			}
			// Without --base, git lists the files: what it ignores is left out.
			code, out = runIn(t, checkout, "lint")
			if code != 1 || strings.Contains(out, "ignored/") || !strings.Contains(out, "in 1 file") {
				t.Errorf("lint: exit %d, want 1 without the ignored workflow\n%s", code, out)
			}
		})
	}
}
