package gitcmd

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Which repository git uses is not git's to decide. Left to itself, git
// takes its repository from the .git marker (a .git file may name any git
// folder on the machine), from the environment, and its work tree from
// core.worktree in the repository's own config: an extracted archive
// could point it at another repository, whose files and history would be
// listed and quoted as this one's. The repository is the folder holding
// the .git marker resumelint found (FindTop); OpenRepo checks that the
// marker belongs to that folder and that git agrees, and every command
// then runs with GIT_DIR and GIT_WORK_TREE pinned to what was checked.

// Repo is a work tree git may be run in: Top, the folder holding the .git
// marker, and GitDir, the git folder the marker names, both real paths.
type Repo struct {
	Top    string
	GitDir string
}

// RefusedError says why git is not used for the folder at Top.
type RefusedError struct {
	Top string
	Why string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("git is not used for %s: %s", e.Top, e.Why)
}

// IsRefused reports whether err is, or wraps, a *RefusedError.
func IsRefused(err error) bool {
	var re *RefusedError
	return errors.As(err, &re)
}

// OpenRepo checks the work tree whose .git marker is in top and returns
// it, or a *RefusedError saying why git must not be used for it, or the
// *TimeoutError of the one git call it makes:
//
//   - a .git folder: neither its config (core.worktree) nor a commondir
//     file may send git elsewhere;
//   - a .git file: the git folder it names must link back to it, as git
//     writes it for a linked work tree (the folder's gitdir file names
//     this .git file, and its commondir the repository holding
//     worktrees/<name>) or for a submodule or a separate git folder (its
//     config's core.worktree names this folder);
//   - a .git that is a link, or anything else, is refused;
//
// then git, finding its repository from top as it does, must name top as
// its work tree and the same git folder (git's own checks, such as
// safe.directory for a folder another user owns, apply here).
func OpenRepo(top string) (*Repo, error) {
	gitDir, err := gitDirOf(top)
	if err != nil {
		return nil, err
	}
	// Every git command reads the user's config; listing untracked files
	// reads the default excludes too: checked here, before git first runs
	// (a clean checkout runs none).
	if err := checkUserConfigs(top); err != nil {
		return nil, err
	}
	// The git folder of a linked work tree or a submodule lies elsewhere,
	// where CheckRepo did not look: git would wait on a FIFO there too.
	if err := checkGitFolder(gitDir); err != nil {
		return nil, err
	}
	if err := checkConfigs(top, gitDir); err != nil {
		return nil, err
	}
	if common, ok := readRegular(filepath.Join(gitDir, "commondir"), 4096); ok && common != nil {
		commonDir := resolveFrom(gitDir, firstLine(common))
		if err := checkGitFolder(commonDir); err != nil {
			return nil, err
		}
		if err := checkConfigs(top, commonDir); err != nil {
			return nil, err
		}
	}
	realTop, err := filepath.EvalSymlinks(top)
	if err != nil {
		return nil, &RefusedError{Top: top, Why: "the folder cannot be resolved"}
	}
	realGit, err := filepath.EvalSymlinks(gitDir)
	if err != nil {
		return nil, &RefusedError{Top: top, Why: "its git folder cannot be resolved"}
	}
	c := command(top, discoveryEnv(), "rev-parse", "--show-toplevel", "--absolute-git-dir")
	var stdout bytes.Buffer
	c.Stdout = &stdout
	if err := c.Run(); err != nil {
		if IsTimeout(err) {
			return nil, err
		}
		return nil, &RefusedError{Top: top, Why: "git does not take it for a work tree it may use"}
	}
	lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
	if len(lines) != 2 || !samePath(lines[0], realTop) {
		return nil, &RefusedError{Top: top, Why: "git takes another folder for its work tree (core.worktree)"}
	}
	if !samePath(lines[1], realGit) {
		return nil, &RefusedError{Top: top, Why: "git takes another git folder for it"}
	}
	return &Repo{Top: realTop, GitDir: realGit}, nil
}

// Command returns the git command for args run in dir (inside the work
// tree), with GIT_DIR and GIT_WORK_TREE pinned. It is killed when it runs
// longer than Timeout, and Wait or Run then return a *TimeoutError.
func (r *Repo) Command(dir string, args ...string) *Cmd {
	return command(dir, r.env(), args...)
}

// Batch returns a long-lived git command (cat-file --batch) run in dir,
// with GIT_DIR and GIT_WORK_TREE pinned and no bound on its life: the
// caller bounds each request with Bound.
func (r *Repo) Batch(dir string, args ...string) *Cmd {
	return batch(dir, r.env(), args...)
}

// env is Env with the repository and work tree pinned to r.
func (r *Repo) env() []string {
	return append(discoveryEnv(), "GIT_DIR="+r.GitDir, "GIT_WORK_TREE="+r.Top)
}

// locationVars are the environment variables that choose git's
// repository, work tree or common folder, or where its search for them
// stops: OpenRepo lets git find the repository from the .git marker, and
// Repo's commands pin it.
var locationVars = map[string]bool{"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_COMMON_DIR": true,
	"GIT_CEILING_DIRECTORIES": true, "GIT_DISCOVERY_ACROSS_FILESYSTEM": true}

// discoveryEnv is Env without locationVars.
func discoveryEnv() []string {
	env := Env()
	out := env[:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !locationVars[k] {
			out = append(out, kv)
		}
	}
	return out
}

// gitDirOf returns the git folder the .git marker in top names, when it
// belongs to top (see OpenRepo); it runs no git, and reads only the
// marker, the files of the git folder that tell where it belongs, and
// its config.
func gitDirOf(top string) (string, error) {
	refuse := func(why string) (string, error) { return "", &RefusedError{Top: top, Why: why} }
	marker := filepath.Join(top, ".git")
	fi, err := os.Lstat(marker)
	switch {
	case err != nil:
		return refuse("it holds no .git")
	case fi.Mode()&fs.ModeSymlink != 0:
		return refuse(".git is a symbolic link, which could lead git to any repository")
	case fi.IsDir():
		if why := plainGitDirProblem(top, marker); why != "" {
			return refuse(why)
		}
		return marker, nil
	case !fi.Mode().IsRegular():
		return refuse(".git is neither a folder nor a file")
	}
	gitDir, ok := gitFileTarget(top, marker)
	if !ok {
		return refuse("its .git file names a git folder that does not link back to it (only a linked work tree, made by git worktree, or a submodule keeps its git folder elsewhere)")
	}
	return gitDir, nil
}

// plainGitDirProblem says what in the .git folder gitDir of top would
// send git to another work tree or repository, or returns "".
func plainGitDirProblem(top, gitDir string) string {
	if _, err := os.Lstat(filepath.Join(gitDir, "commondir")); err == nil {
		return ".git/commondir would make git use another repository's history"
	}
	cfg, ok := readRegular(filepath.Join(gitDir, "config"), 1<<20)
	if !ok {
		return "" // not a plain file: git's own answer decides (OpenRepo)
	}
	if wt, set := coreWorktree(cfg); set && !samePath(resolveFrom(gitDir, wt), top) {
		return "core.worktree in .git/config puts git's work tree in another folder"
	}
	return ""
}

// gitFileTarget reads the .git file marker of top and returns the git
// folder it names when that folder links back to top.
func gitFileTarget(top, marker string) (string, bool) {
	data, ok := readRegular(marker, 4096)
	if !ok || data == nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	target, ok := strings.CutPrefix(strings.TrimRight(line, "\r \t"), "gitdir: ")
	if !ok || target == "" || strings.ContainsRune(target, 0) {
		return "", false
	}
	gitDir := resolveFrom(top, target)
	if _, err := os.Lstat(filepath.Join(gitDir, "gitdir")); err == nil {
		return gitDir, linkedWorkTree(marker, gitDir)
	}
	// A submodule's git folder (or one made with --separate-git-dir): a
	// repository of its own whose config names this folder as its work
	// tree.
	if _, err := os.Lstat(filepath.Join(gitDir, "commondir")); err == nil {
		return "", false
	}
	cfg, ok := readRegular(filepath.Join(gitDir, "config"), 1<<20)
	if !ok || cfg == nil {
		return "", false
	}
	wt, set := coreWorktree(cfg)
	return gitDir, set && samePath(resolveFrom(gitDir, wt), top)
}

// linkedWorkTree reports whether gitDir is the git folder git worktree
// made for the work tree whose .git file is marker: its gitdir file names
// marker, and its commondir the repository that holds it in worktrees/.
func linkedWorkTree(marker, gitDir string) bool {
	back, ok := readRegular(filepath.Join(gitDir, "gitdir"), 4096)
	if !ok || back == nil || !samePath(resolveFrom(gitDir, firstLine(back)), marker) {
		return false
	}
	common, ok := readRegular(filepath.Join(gitDir, "commondir"), 4096)
	if !ok || common == nil {
		return false
	}
	real, err := filepath.EvalSymlinks(gitDir)
	if err != nil || filepath.Base(filepath.Dir(real)) != "worktrees" {
		return false
	}
	return samePath(resolveFrom(gitDir, firstLine(common)), filepath.Dir(filepath.Dir(real)))
}

func firstLine(b []byte) string {
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimRight(line, "\r")
}

// resolveFrom is p, relative to dir unless absolute.
func resolveFrom(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// samePath reports whether a and b name the same existing file.
func samePath(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// coreWorktree returns the last core.worktree a git config file sets.
func coreWorktree(cfg []byte) (value string, set bool) {
	configEntries(cfg, func(section, key, val string, hasVal bool) {
		if section == "core" && key == "worktree" {
			value, set = val, true
			if !hasVal {
				value = "" // a key without a value is true, not a path
			}
		}
	})
	return value, set
}

// maxStoreEntries bounds the entries CheckStore reads; past it the rest
// is left to git's timeout.
const maxStoreEntries = 1 << 20

// CheckStore refuses the repository when a file of the ref and object
// stores git reads to resolve a revision and read its trees (refs/,
// logs/, objects/ and the object folders the alternates name, an
// alternate's alternates too, of the git folder and its common folder) is
// a FIFO, a socket or a device: git would wait on it. Only names are read;
// a link is followed to see what it names, into a folder too. For
// commands that read objects (--base).
func (r *Repo) CheckStore() error {
	gitDirs := []string{r.GitDir}
	if common, ok := readRegular(filepath.Join(r.GitDir, "commondir"), 4096); ok && common != nil {
		gitDirs = append(gitDirs, resolveFrom(r.GitDir, firstLine(common)))
	}
	var roots []string
	for _, g := range gitDirs {
		roots = append(roots, filepath.Join(g, "refs"), filepath.Join(g, "logs"))
	}
	// The object folders, alternates followed (git stops at a depth of 5).
	objects := []string{}
	for _, g := range gitDirs {
		objects = append(objects, filepath.Join(g, "objects"))
	}
	seenObj := map[string]bool{}
	for depth := 0; depth <= 5 && len(objects) > 0; depth++ {
		var next []string
		for _, o := range objects {
			if seenObj[o] {
				continue
			}
			seenObj[o] = true
			roots = append(roots, o)
			next = append(next, alternatesOf(o)...)
		}
		objects = next
	}
	w := &storeWalk{seen: map[string]bool{}}
	for len(roots) > 0 && w.n <= maxStoreEntries {
		root := roots[0]
		roots = roots[1:]
		if err := w.walk(root); err != nil {
			return err
		}
		roots = append(roots, w.linked...)
		w.linked = nil
	}
	return nil
}

// alternatesOf reads the object folders objects/info/alternates names.
func alternatesOf(objects string) []string {
	alt, ok := readRegular(filepath.Join(objects, "info", "alternates"), 64<<10)
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(alt), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, resolveFrom(objects, l))
		}
	}
	return out
}

// storeWalk walks the folders of a ref or object store: n counts the
// entries read; a link to a folder is queued (linked), once.
type storeWalk struct {
	n      int
	seen   map[string]bool
	linked []string
}

func (w *storeWalk) walk(root string) error {
	// Walked by its real path: a link to a folder is walked as the folder.
	real, err := filepath.EvalSymlinks(root)
	if err != nil || w.seen[real] {
		return nil // absent, or walked already
	}
	w.seen[real] = true
	return filepath.WalkDir(real, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: git cannot read it either
		}
		if w.n++; w.n > maxStoreEntries {
			return fs.SkipAll
		}
		t := e.Type()
		if t&fs.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			switch {
			case err != nil:
				return nil
			case fi.IsDir():
				w.linked = append(w.linked, p)
				return nil
			}
			return special(p)
		}
		if !t.IsRegular() && !t.IsDir() {
			return &SpecialFileError{Path: p, Mode: t}
		}
		return nil
	})
}
