// Package gitcmd builds every git command resumelint runs. A repository
// under review is hostile input, and so is its .git/config (an extracted
// archive, a checkout whose config a previous step wrote): git must never
// run a program that config names. The commands used (ls-files, rev-parse,
// ls-tree, diff-index --cached, cat-file --batch) never touch the work
// tree's content, so no clean or smudge filter, textconv or external diff
// runs; the options below turn off the rest: the fsmonitor hook, hooks,
// pagers, the system config, prompts and optional locks. Every call is
// bounded in time (Timeout), and a repository whose files git would read
// include a FIFO is refused before git runs (CheckRepo, CheckTree). Git
// runs only in a repository OpenRepo checked, with that repository
// pinned (repo.go). The tracked files of a plain checkout are read from
// its index without git (TrackedFiles).
package gitcmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// safeConfig overrides every configuration key of the repository that
// names a program git could run for these commands.
var safeConfig = []string{
	"core.fsmonitor=false",
	"core.hooksPath=/dev/null",
	"core.pager=cat",
	"core.untrackedCache=false",
	"core.askPass=",
	"core.sshCommand=",
	"credential.helper=",
	"diff.external=",
	"protocol.allow=never",
	// A repository's protocol.<name>.allow wins over protocol.allow: each
	// is set here too (with extensions.partialClone, ext:: would run a
	// command to fetch a missing object).
	"protocol.ext.allow=never",
	"protocol.file.allow=never",
	"protocol.git.allow=never",
	"protocol.ssh.allow=never",
	"protocol.http.allow=never",
	"protocol.https.allow=never",
	"log.showSignature=false",
}

// Args returns the arguments that run git in dir with args, safely.
func Args(dir string, args ...string) []string {
	out := make([]string, 0, 3+2*len(safeConfig)+len(args))
	out = append(out, "--no-pager")
	if dir != "" {
		out = append(out, "-C", dir)
	}
	for _, c := range safeConfig {
		out = append(out, "-c", c)
	}
	return append(out, args...)
}

// Env is the environment of every git command: the caller's, without
// variables that would make git run a program or read another config, and
// with the system config, prompts, pagers and optional locks off.
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_SSH", "GIT_SSH_COMMAND",
			"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_EDITOR", "EDITOR", "VISUAL", "GIT_ALLOW_PROTOCOL":
			continue
		}
		if strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_NO_LAZY_FETCH=1",
		// No protocol at all, whatever any configuration allows.
		"GIT_ALLOW_PROTOCOL=none",
		"LC_ALL=C",
	)
}

// TimeoutVar names the environment variable that bounds each git call (a
// Go duration such as "90s" or "10m"); DefaultTimeout applies without it.
const TimeoutVar = "RESUMELINT_GIT_TIMEOUT"

// DefaultTimeout is generous: listing or reading a very large repository
// takes seconds, a call that waits on a FIFO or a hung mount never ends.
const DefaultTimeout = 5 * time.Minute

// Timeout returns the bound of one git call: TimeoutVar when it holds a
// positive duration, else DefaultTimeout.
func Timeout() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(TimeoutVar)); err == nil && d > 0 {
		return d
	}
	return DefaultTimeout
}

// TimeoutError says a git call ran past its bound and was stopped.
type TimeoutError struct {
	Command string // the git subcommand
	Limit   time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("git %s did not finish within %s and was stopped (is a file git reads a FIFO, or a filesystem hung?); %s=DURATION allows longer",
		e.Command, e.Limit, TimeoutVar)
}

// Cmd is a git command with its time bound.
type Cmd struct {
	*exec.Cmd
	name     string
	limit    time.Duration
	cancel   context.CancelFunc
	timedOut atomic.Bool
}

// command returns the git command for args in dir, with Args and the
// environment env; it is killed when it runs longer than Timeout, and
// Wait or Run then return a *TimeoutError. Commands are made through a
// Repo (OpenRepo), which pins the repository they run in.
func command(dir string, env []string, args ...string) *Cmd {
	c := newCmd(args)
	ctx, cancel := context.WithTimeout(context.Background(), c.limit)
	c.Cmd, c.cancel = exec.CommandContext(ctx, "git", Args(dir, args...)...), cancel
	c.Cmd.Cancel = c.kill
	c.init(env)
	return c
}

// batch returns a long-lived git command (cat-file --batch) with no bound
// on its life: the caller bounds each request with Bound.
func batch(dir string, env []string, args ...string) *Cmd {
	c := newCmd(args)
	c.Cmd = exec.Command("git", Args(dir, args...)...)
	c.init(env)
	return c
}

func newCmd(args []string) *Cmd {
	c := &Cmd{limit: Timeout()}
	if len(args) > 0 {
		c.name = args[0]
	}
	return c
}

func (c *Cmd) init(env []string) {
	c.Env = env
	// A child of git holding its pipes open must not make Wait wait.
	c.WaitDelay = time.Second
}

func (c *Cmd) kill() error {
	c.timedOut.Store(true)
	return c.Process.Kill()
}

// Run starts the command and waits for it.
func (c *Cmd) Run() error {
	if err := c.Start(); err != nil {
		return c.Err(err)
	}
	return c.Wait()
}

// Wait waits for the command; a *TimeoutError when it was stopped.
func (c *Cmd) Wait() error {
	err := c.Cmd.Wait()
	if c.cancel != nil {
		c.cancel()
	}
	return c.Err(err)
}

// Err returns err, or a *TimeoutError when the command was stopped for
// running past its bound.
func (c *Cmd) Err(err error) error {
	if err != nil && c.timedOut.Load() {
		return &TimeoutError{Command: c.name, Limit: c.limit}
	}
	return err
}

// Bound kills a started command unless the returned stop is called
// within Timeout: it bounds one request to a long-lived command.
func (c *Cmd) Bound() (stop func()) {
	t := time.AfterFunc(c.limit, func() { _ = c.kill() })
	return func() { t.Stop() }
}

// gitFiles are the files of a git folder that the commands resumelint
// runs may read.
var gitFiles = []string{"config", "config.worktree", "HEAD", "index", "packed-refs", "commondir", "shallow",
	"info/exclude", "info/attributes", "info/grafts", "objects/info/alternates"}

// SpecialFileError names a file git would read that is not a regular file
// (a FIFO, a socket, a device): git would wait on it, or read without end.
type SpecialFileError struct {
	Path string
	Mode os.FileMode
}

func (e *SpecialFileError) Error() string {
	what := "not a regular file"
	switch {
	case e.Mode&os.ModeNamedPipe != 0:
		what = "a FIFO"
	case e.Mode&os.ModeSocket != 0:
		what = "a socket"
	case e.Mode&os.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Sprintf("%q is %s, which git would read and wait on; git was not run (remove it)", e.Path, what)
}

// special returns a *SpecialFileError when p (followed through links)
// exists and is neither a regular file nor a folder. Stat opens nothing.
func special(p string) error {
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().IsRegular() || fi.IsDir() {
		return nil
	}
	return &SpecialFileError{Path: p, Mode: fi.Mode()}
}

// indexFileSpecial refuses an index the environment names (GIT_INDEX_FILE,
// as inside git commit) that is a FIFO, a socket or a device: git would
// wait on it. A relative name is looked up from top and from here.
func indexFileSpecial(top string) error {
	p := os.Getenv("GIT_INDEX_FILE")
	if p == "" {
		return nil
	}
	cands := []string{p}
	if !filepath.IsAbs(p) {
		cands = []string{filepath.Join(top, p)}
		if wd, err := os.Getwd(); err == nil {
			cands = append(cands, filepath.Join(wd, p))
		}
	}
	for _, c := range cands {
		if err := special(c); err != nil {
			return err
		}
	}
	return nil
}

// CheckRepo refuses the work tree at top when its .git marker, or a file
// of its .git folder that git reads, is a FIFO, a socket or a device. A
// marker that is a link is not followed: git is not used for it
// (OpenRepo).
func CheckRepo(top string) error {
	if err := indexFileSpecial(top); err != nil {
		return err
	}
	marker := filepath.Join(top, ".git")
	fi, err := os.Lstat(marker)
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		return nil
	}
	if err := special(marker); err != nil {
		return err
	}
	if err := checkGitFolder(marker); err != nil {
		return err
	}
	if fi, err := os.Stat(marker); err == nil && fi.IsDir() {
		return checkConfigs(top, marker)
	}
	return nil
}

// checkGitFolder refuses the git folder gitDir when a file of it that git
// reads is a FIFO, a socket or a device (nothing when it is no folder).
func checkGitFolder(gitDir string) error {
	for _, f := range gitFiles {
		if err := special(filepath.Join(gitDir, filepath.FromSlash(f))); err != nil {
			return err
		}
	}
	return nil
}

// CheckTree refuses the folder dir of the work tree at top when a
// .gitignore or .gitattributes that git reads while listing it — in dir,
// below it (except in .git), or in a folder between it and top — is not a
// regular file. Only names are read, no file is opened.
func CheckTree(top, dir string) error { return CheckTreeSeen(top, dir, nil) }

// CheckTreeSeen is CheckTree that also gives seen, when not nil, every
// folder the walk reads with its entries, from the walk's goroutines: the
// walk reads the whole tree, so what it saw answers later look-ups
// without asking the file system again.
func CheckTreeSeen(top, dir string, seen func(dir string, ents []fs.DirEntry)) error {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if err := checkGitFiles(d); err != nil {
			return err
		}
		if rel, err := filepath.Rel(top, d); err != nil || rel == "." || strings.HasPrefix(rel, "..") || d == filepath.Dir(d) {
			break
		}
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return walkTree(dir)
	}
	return walkTreeParallel(dir, seen)
}

// walkTree is CheckTree's walk of dir with filepath.WalkDir: the first
// special file in walk order (for a dir that is no folder, and as the
// reference the tests hold walkTreeParallel to).
func walkTree(dir string) error {
	var found error
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		switch {
		case found != nil:
			return fs.SkipAll
		case err != nil:
			return nil
		case e.IsDir() && e.Name() == ".git" && p != dir:
			return fs.SkipDir
		case e.Name() != ".gitignore" && e.Name() != ".gitattributes" || e.Type().IsRegular():
			return nil
		}
		found = special(p)
		return nil
	})
	return found
}

// walkTreeParallel is walkTree with the folders read on every core: the
// walk lists every folder of a repository before its files can be linted,
// and reading folders one at a time made it a serial part of a run
// (docs/performance.md, P6). Of several special files it returns the one
// walkTree would: the first in walk order.
func walkTreeParallel(dir string, seen func(string, []fs.DirEntry)) error {
	w := &treeWalk{stack: []walkDir{{path: dir}}, pending: 1, seen: seen}
	w.more = sync.NewCond(&w.mu)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work()
		}()
	}
	wg.Wait()
	if len(w.found) == 0 {
		return nil
	}
	return slices.MinFunc(w.found, func(a, b error) int {
		return walkOrder(a.(*SpecialFileError).Path, b.(*SpecialFileError).Path)
	})
}

// treeWalk is the state walkTreeParallel's workers share: the folders
// still to read, and how many are listed or being read.
type treeWalk struct {
	mu      sync.Mutex
	more    *sync.Cond
	stack   []walkDir
	pending int
	found   []error
	seen    func(string, []fs.DirEntry)
	held    atomic.Int64 // folders open for their subfolders
}

// walkDir is a folder still to read: its path, and its name in the open
// folder it is opened in (parent; nil when it is opened by its path).
type walkDir struct {
	path   string
	name   string
	parent *dirRef
}

// dirRef is a folder held open until its subfolders are opened in it:
// the kernel then looks up one name for each, not the whole path again
// (docs/performance.md).
type dirRef struct {
	fd   int
	left atomic.Int32 // subfolders not opened yet
}

// maxHeld bounds the folders held open at once: a tree wide deep down
// must not run a lint out of file descriptors. Past it a folder is closed
// once read and its subfolders are opened by their paths.
var maxHeld int64 = 256

// work reads folders until none is left to read or being read.
func (w *treeWalk) work() {
	buf := make([]byte, dirBuf)
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		for len(w.stack) == 0 && w.pending > 0 {
			w.more.Wait()
		}
		if len(w.stack) == 0 {
			return
		}
		d := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.mu.Unlock()
		fd, entries, err := readDirIn(d.parent, d.name, d.path, buf)
		w.release(d.parent)
		sub, found := treeDirEntries(d.path, entries)
		w.hold(fd, sub)
		early := len(sub) >= earlyPush
		if !early {
			w.see(d.path, entries, err)
		}
		w.mu.Lock()
		w.stack = append(w.stack, sub...)
		w.found = append(w.found, found...)
		w.pending += len(sub) - 1
		switch {
		case len(sub) == 1:
			w.more.Signal() // one folder for one walker: the others sleep on
		case len(sub) > 1 || w.pending == 0:
			w.more.Broadcast()
		}
		if early {
			w.mu.Unlock()
			w.see(d.path, entries, err)
			w.mu.Lock()
		}
	}
}

// hold keeps the folder just read open (fd, -1 where none is) for its
// subfolders sub to be opened in, or closes it.
func (w *treeWalk) hold(fd int, sub []walkDir) {
	switch {
	case fd < 0:
	case len(sub) == 0 || w.held.Load() >= maxHeld:
		closeDir(fd)
	default:
		w.held.Add(1)
		ref := &dirRef{fd: fd}
		ref.left.Store(int32(len(sub)))
		for i := range sub {
			sub[i].parent = ref
		}
	}
}

// release notes that a subfolder of r was opened (or failed to); the
// last closes r.
func (w *treeWalk) release(r *dirRef) {
	if r != nil && r.left.Add(-1) == 0 {
		closeDir(r.fd)
		w.held.Add(-1)
	}
}

// earlyPush is how many subfolders make a folder's worker hand them to
// the others before it tells seen of the folder: seen of a folder of
// thousands of entries (hashing each) was the start of a walk that one
// core spent alone.
const earlyPush = 64

// see tells w.seen of a folder read without error.
func (w *treeWalk) see(d string, entries []fs.DirEntry, err error) {
	if err == nil && w.seen != nil {
		w.seen(d, entries)
	}
}

// treeDirEntries sorts the entries of the folder d: its subfolders to
// walk (not .git) and the special files among its .gitignore and
// .gitattributes. What was read before an error is used, as WalkDir does.
func treeDirEntries(d string, entries []fs.DirEntry) (sub []walkDir, found []error) {
	for _, e := range entries {
		switch {
		case e.IsDir():
			if e.Name() != ".git" {
				sub = append(sub, walkDir{path: filepath.Join(d, e.Name()), name: e.Name()})
			}
		case e.Name() != ".gitignore" && e.Name() != ".gitattributes" || e.Type().IsRegular():
		default:
			if err := special(filepath.Join(d, e.Name())); err != nil {
				found = append(found, err)
			}
		}
	}
	return sub, found
}

// walkOrder compares two paths in the order filepath.WalkDir visits them:
// by their names, folder by folder.
func walkOrder(a, b string) int {
	return slices.Compare(strings.Split(a, string(filepath.Separator)), strings.Split(b, string(filepath.Separator)))
}

func checkGitFiles(dir string) error {
	for _, name := range []string{".gitignore", ".gitattributes"} {
		if err := special(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// FindTop returns the nearest folder from dir up that holds a .git entry,
// where git finds its repository; "" when there is none.
func FindTop(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// IsTimeout reports whether err is, or wraps, a *TimeoutError.
func IsTimeout(err error) bool {
	var te *TimeoutError
	return errors.As(err, &te)
}
