// Package gitbase reads a repository's files as they were at a base
// revision (--base REF, SPEC §3.7) and lists what changed since then.
//
// It runs only git, with fixed arguments, the repository's executable
// configuration turned off and the repository pinned to the folder holding
// the .git marker (package gitcmd, OpenRepo): REF is resolved once to a
// commit hash; the base tree comes from `git ls-tree`, staged renames from
// `git diff-index --cached`, untracked files from `git ls-files`, and file
// contents from one long-lived `git cat-file --batch` started on the first
// read. No git command looks at the work tree's content, because that is
// where git would run the repository's clean filters: the work-tree files
// are compared with the base blobs here, by hashing their bytes as git
// does without filters. Files found identical are never read from git.
package gitbase

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/resumelint/resumelint/internal/gitcmd"
)

// Status says how a path changed between base and the work tree.
type Status byte

const (
	Added     Status = 'A' // new in the index
	Modified  Status = 'M'
	Deleted   Status = 'D'
	Renamed   Status = 'R' // Path is the new name, OldPath the base name
	Copied    Status = 'C' // a new file copied from OldPath; it has no base
	TypeChg   Status = 'T'
	Untracked Status = '?' // not known to git: new at head
)

// Change is one path that differs between base and the work tree.
type Change struct {
	Status  Status
	Path    string // repository path at head ('/'-separated); the base path for Deleted
	OldPath string // Renamed and Copied: the path at base
}

// File is a work-tree file's version at base.
type File struct {
	// Exists is false when the file is new at head (no base version).
	Exists bool
	// Unchanged means the base version is byte-identical to the work-tree
	// file; Data is then not read.
	Unchanged bool
	// Path is the repository path at base (the old name after a rename).
	Path string
	Data []byte
}

// ErrTooLarge is returned for a base version larger than the read limit.
var ErrTooLarge = errors.New("base version larger than the read limit")

// Repo is a work tree and the commit it is compared against.
type Repo struct {
	Root   string // OS path of the top of the work tree
	Ref    string // REF as the user wrote it
	Commit string // the full hash REF resolved to
	// MaxSize bounds a base version read into memory (0: no bound).
	MaxSize int64

	git     *gitcmd.Repo // where git runs, pinned
	changes []Change
	byPath  map[string]*Change // head paths (and base paths of deletions)
	unsaved map[string]bool    // head files whose content is not the work tree's (stdin)
	ignored []string           // ignored files, and folders with a trailing '/'
	// wasRemoved are paths removed from the index whose work-tree file
	// git now lists as untracked.
	wasRemoved []string

	mu     sync.Mutex
	cat    *gitcmd.Cmd
	catIn  io.WriteCloser
	catOut *bufio.Reader
	catErr error

	timeoutOnce sync.Once
	timeout     error
}

// Open finds the work tree containing dir, resolves ref to a commit and
// reads the list of changes since it. A bad REF, a folder outside a work
// tree or a missing git are errors with a message for the user.
func Open(dir, ref string) (*Repo, error) {
	if ref == "" || strings.HasPrefix(ref, "-") || strings.ContainsAny(ref, "\x00\n") {
		return nil, fmt.Errorf("--base %q is not a revision", ref)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("--base needs git, which was not found: %v", err)
	}
	// The repository is the folder holding the .git marker, never one
	// git would be sent to by the marker or the config (gitcmd.OpenRepo).
	top := gitcmd.FindTop(dir)
	if top == "" {
		return nil, fmt.Errorf("--base needs a git work tree, and %s is not in one", dir)
	}
	// git would wait forever on a FIFO it reads: refuse before it runs.
	if err := gitcmd.CheckRepo(top); err != nil {
		return nil, fmt.Errorf("--base: %v", err)
	}
	if err := gitcmd.CheckTree(top, top); err != nil {
		return nil, fmt.Errorf("--base: %v", err)
	}
	g, err := gitcmd.OpenRepo(top)
	if gitcmd.IsTimeout(err) {
		return nil, fmt.Errorf("--base: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("--base needs git, and %v", err)
	}
	// Resolving REF and reading its trees reads refs and objects: a FIFO
	// among them would hold git until its timeout.
	if err := g.CheckStore(); err != nil {
		return nil, fmt.Errorf("--base: %v", err)
	}
	r := &Repo{Root: g.Top, Ref: ref, MaxSize: 8 << 20, git: g}
	commit, err := r.gitOut("rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
	if gitcmd.IsTimeout(err) {
		return nil, fmt.Errorf("--base: %w", err)
	}
	if err != nil || len(bytes.TrimSpace(commit)) == 0 {
		shallow, _ := r.gitOut("rev-parse", "--is-shallow-repository")
		hint := ""
		if strings.TrimSpace(string(shallow)) == "true" {
			hint = " (this clone is shallow: fetch the base first, e.g. actions/checkout with fetch-depth: 0)"
		}
		return nil, fmt.Errorf("--base %q does not name a commit in %s%s", ref, r.Root, hint)
	}
	r.Commit = strings.TrimSpace(string(commit))
	if err := r.readChanges(); err != nil {
		return nil, err
	}
	return r, nil
}

// gitOut runs git at the top of the work tree with fixed arguments and
// returns its stdout. The environment pins the repository and keeps git
// from taking optional locks or asking for anything.
func (r *Repo) gitOut(args ...string) ([]byte, error) {
	cmd := r.git.Command(r.Root, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" || gitcmd.IsTimeout(err) {
			return nil, err
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.Bytes(), nil
}

// readChanges lists the paths that differ between the commit and the work
// tree (staged renames followed), plus untracked files, which are new at
// head. No git command reads the work tree's files (diffing against the
// work tree runs the repository's clean filters): the base tree and the
// index are listed, and each work-tree file is compared with its base
// blob by hashing its bytes (worktreeDiffers).
func (r *Repo) readChanges() error {
	tree, err := r.baseTree()
	if err != nil {
		if m := err.Error(); strings.Contains(m, "promisor") || strings.Contains(m, "lazy fetching disabled") {
			// A partial clone (--filter): resumelint fetches nothing.
			return fmt.Errorf("the files at %s are not all in this partial clone, and resumelint fetches nothing: fetch that commit's files (or clone without --filter) to compare with --base", r.Ref)
		}
		return fmt.Errorf("listing files at %s: %v", r.Ref, err)
	}
	staged, renamedFrom, err := r.stagedChanges()
	if err != nil {
		return err
	}
	wt, err := os.OpenRoot(r.Root)
	if err != nil {
		return fmt.Errorf("opening the work tree: %v", err)
	}
	defer wt.Close()
	r.byPath = map[string]*Change{}
	for p, c := range staged {
		switch c.Status {
		case Renamed, Copied, Added:
			if _, err := wt.Lstat(filepath.FromSlash(p)); err == nil {
				r.changes = append(r.changes, c)
			} else if c.Status == Renamed {
				r.changes = append(r.changes, Change{Status: Deleted, Path: c.OldPath})
			}
		}
	}
	r.compareTree(wt, tree, staged, renamedFrom)
	if err := r.readUntracked(); err != nil {
		return err
	}
	removed := map[string]bool{}
	for _, p := range r.wasRemoved {
		removed[p] = true
	}
	kept := r.changes[:0]
	for _, c := range r.changes {
		// The untracked entry of a path removed from the index is its
		// head file, already recorded as modified.
		if c.Status == Untracked && removed[c.Path] {
			continue
		}
		kept = append(kept, c)
	}
	r.changes = kept
	sort.SliceStable(r.changes, func(i, j int) bool { return r.changes[i].Path < r.changes[j].Path })
	for i := range r.changes {
		r.byPath[r.changes[i].Path] = &r.changes[i]
	}
	return nil
}

// stagedChanges lists the base tree against the index, for renames,
// copies and additions (--cached never looks at the work tree): the
// changes by head path, and the old paths of renames.
func (r *Repo) stagedChanges() (map[string]Change, map[string]bool, error) {
	out, err := r.gitOut("diff-index", "--cached", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", "--ignore-submodules", r.Commit, "--")
	if err != nil {
		return nil, nil, fmt.Errorf("listing changes since %s: %v", r.Ref, err)
	}
	staged := map[string]Change{}
	renamedFrom := map[string]bool{}
	fields := bytes.Split(out, []byte{0})
	for i := 0; i < len(fields); {
		st := string(fields[i])
		i++
		if st == "" {
			continue
		}
		switch st[0] {
		case 'R', 'C':
			if i+1 >= len(fields) {
				return nil, nil, fmt.Errorf("listing changes since %s: truncated rename record", r.Ref)
			}
			c := Change{Status: Status(st[0]), OldPath: string(fields[i]), Path: string(fields[i+1])}
			staged[c.Path] = c
			if c.Status == Renamed {
				renamedFrom[c.OldPath] = true
			}
			i += 2
		default:
			if i >= len(fields) {
				return nil, nil, fmt.Errorf("listing changes since %s: truncated record", r.Ref)
			}
			staged[string(fields[i])] = Change{Status: Status(st[0]), Path: string(fields[i])}
			i++
		}
	}
	return staged, renamedFrom, nil
}

// compareTree records the files of the base tree that the work tree
// deleted or changed.
func (r *Repo) compareTree(wt *os.Root, tree map[string]treeEntry, staged map[string]Change, renamedFrom map[string]bool) {
	for p, b := range tree {
		if renamedFrom[p] {
			continue
		}
		c, isStaged := staged[p]
		if isStaged && c.Status == Renamed {
			continue
		}
		switch differs, gone := worktreeDiffers(wt, p, b); {
		case gone:
			r.changes = append(r.changes, Change{Status: Deleted, Path: p})
		case isStaged && c.Status == Deleted:
			// Removed from the index but still in the work tree (git rm
			// --cached): the head file, changed or not, is not the
			// tracked one; its base version is still compared.
			r.changes = append(r.changes, Change{Status: Modified, Path: p})
			r.wasRemoved = append(r.wasRemoved, p)
			r.changes = append(r.changes, Change{Status: Deleted, Path: p})
		case differs:
			r.changes = append(r.changes, Change{Status: Modified, Path: p})
		}
	}
}

// readUntracked records the untracked files, which are new at head, and
// the ignored ones, which are neither in the diff nor untracked and never
// existed at base (ignored folders come as one "dir/" entry each).
func (r *Repo) readUntracked() error {
	untracked, err := r.gitOut("ls-files", "--others", "--exclude-standard", "-z", "--full-name")
	if err != nil {
		return fmt.Errorf("listing untracked files: %v", err)
	}
	for _, p := range bytes.Split(untracked, []byte{0}) {
		if len(p) > 0 {
			r.changes = append(r.changes, Change{Status: Untracked, Path: string(p)})
		}
	}
	ignored, err := r.gitOut("ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z", "--full-name")
	if err != nil {
		return fmt.Errorf("listing ignored files: %v", err)
	}
	for _, p := range bytes.Split(ignored, []byte{0}) {
		if len(p) > 0 {
			r.ignored = append(r.ignored, string(p))
		}
	}
	return nil
}

// treeEntry is a blob of the base tree.
type treeEntry struct {
	mode string // "100644", "100755" or "120000"
	hash string // the blob's object name, hex
	size int64  // -1 when git cannot read the object
}

// baseTree lists every blob of the base commit.
func (r *Repo) baseTree() (map[string]treeEntry, error) {
	out, err := r.gitOut("ls-tree", "-r", "-z", "-l", "--full-tree", r.Commit)
	if err != nil {
		return nil, err
	}
	tree := map[string]treeEntry{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 4 || f[1] != "blob" {
			continue // a submodule
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			size = -1 // "BAD": git cannot read the object; it is there, changed
		}
		tree[string(path)] = treeEntry{mode: f[0], hash: f[2], size: size}
	}
	return tree, nil
}

// worktreeDiffers compares the work-tree file at rel with its base blob
// by content, hashed as git hashes a blob (no filter runs: the bytes are
// the repository's as checked out). gone is true when nothing is there;
// the work tree is looked at only inside its root.
func worktreeDiffers(wt *os.Root, rel string, b treeEntry) (differs, gone bool) {
	osRel := filepath.FromSlash(rel)
	fi, err := wt.Lstat(osRel)
	if err != nil {
		return false, true
	}
	var h hash.Hash
	switch len(b.hash) {
	case 40:
		h = sha1.New()
	case 64:
		h = sha256.New()
	default:
		return true, false
	}
	if b.mode == "120000" {
		if fi.Mode()&fs.ModeSymlink == 0 {
			return true, false
		}
		target, err := wt.Readlink(osRel)
		if err != nil {
			return true, false
		}
		fmt.Fprintf(h, "blob %d\x00%s", len(target), target)
		return hex.EncodeToString(h.Sum(nil)) != b.hash, false
	}
	if !fi.Mode().IsRegular() {
		return true, false
	}
	if fi.Size() != b.size {
		return true, false
	}
	f, err := wt.OpenFile(osRel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return true, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return true, false
	}
	fmt.Fprintf(h, "blob %d\x00", b.size)
	n, err := io.Copy(h, io.LimitReader(f, b.size+1))
	if err != nil || n != b.size {
		return true, false
	}
	return hex.EncodeToString(h.Sum(nil)) != b.hash, false
}

// Changes returns every change since base, ordered by path.
func (r *Repo) Changes() []Change { return r.changes }

// ChangeOf returns the change recorded for a repository path, or nil.
func (r *Repo) ChangeOf(rel string) *Change { return r.byPath[rel] }

// Rel converts an OS path to the repository path git uses ('/'-separated),
// or returns false when the path lies outside the work tree.
func (r *Repo) Rel(osPath string) (string, bool) {
	abs, err := filepath.Abs(osPath)
	if err != nil {
		return "", false
	}
	if rel, ok := relUnder(r.Root, abs); ok {
		return rel, true
	}
	// The work tree may have been reached through a symbolic link.
	if real, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return relUnder(r.Root, filepath.Join(real, filepath.Base(abs)))
	}
	return "", false
}

func relUnder(root, abs string) (string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// OSPath converts a repository path to an OS path in the work tree.
func (r *Repo) OSPath(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

// MarkUnsaved records that the head content of osPath is not the work
// tree's (it was read from stdin), so Lookup reads its base version even
// when the work-tree file equals it.
func (r *Repo) MarkUnsaved(osPath string) {
	if rel, ok := r.Rel(osPath); ok {
		if r.unsaved == nil {
			r.unsaved = map[string]bool{}
		}
		r.unsaved[rel] = true
	}
}

// Changed reports whether the work-tree file osPath differs from base
// (modified, renamed, added or untracked).
func (r *Repo) Changed(osPath string) bool {
	rel, ok := r.Rel(osPath)
	if !ok {
		return true
	}
	c := r.byPath[rel]
	return (c != nil && c.Status != Deleted) || r.unsaved[rel]
}

// Lookup returns the base version of the work-tree file osPath. Safe for
// concurrent use.
func (r *Repo) Lookup(osPath string) (File, error) {
	rel, ok := r.Rel(osPath)
	if !ok {
		return File{}, nil // outside the work tree: nothing at base
	}
	return r.LookupRel(rel)
}

// LookupRel is Lookup by repository path.
func (r *Repo) LookupRel(rel string) (File, error) {
	c := r.byPath[rel]
	base := rel
	switch {
	case c == nil && !r.unsaved[rel]:
		// Not named by the diff: identical at base, unless git ignores
		// it (then it was never committed).
		if r.isIgnored(rel) {
			return File{}, nil
		}
		return File{Exists: true, Unchanged: true, Path: rel}, nil
	case c == nil:
	case c.Status == Added || c.Status == Copied || c.Status == Untracked:
		return File{}, nil
	case c.Status == Renamed:
		base = c.OldPath
	}
	data, found, err := r.read(base)
	if err == nil && !found && c != nil && (c.Status == Modified || c.Status == Renamed) {
		// git lists it at base, changed: its blob is there, unless the
		// object store lacks it (a partial or damaged copy).
		return File{Path: base}, fmt.Errorf("git lists it at %s, but its object is missing from the repository", r.Ref)
	}
	if err != nil || !found {
		return File{Path: base}, err
	}
	return File{Exists: true, Path: base, Data: data}, nil
}

func (r *Repo) isIgnored(rel string) bool {
	for _, ig := range r.ignored {
		if rel == ig || strings.HasSuffix(ig, "/") && strings.HasPrefix(rel, ig) {
			return true
		}
	}
	return false
}

// read fetches a blob of the base commit through the batch process.
func (r *Repo) read(rel string) ([]byte, bool, error) {
	spec := r.Commit + ":" + rel
	if strings.ContainsAny(rel, "\n\r") {
		return r.readOnce(spec)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.startCat(); err != nil {
		return nil, false, err
	}
	// Each request is bounded: a git that stops answering is killed, and
	// the read fails with a timeout.
	stop := r.cat.Bound()
	defer stop()
	if _, err := io.WriteString(r.catIn, spec+"\n"); err != nil {
		return nil, false, r.catFailed(err)
	}
	header, err := r.catOut.ReadString('\n')
	if err != nil {
		return nil, false, r.catFailed(err)
	}
	if header == spec+" missing\n" || header == spec+" ambiguous\n" {
		return nil, false, nil
	}
	f := strings.Fields(header)
	if len(f) != 3 {
		return nil, false, r.catFailed(fmt.Errorf("unexpected reply %q", strings.TrimSpace(header)))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return nil, false, r.catFailed(fmt.Errorf("unexpected reply %q", strings.TrimSpace(header)))
	}
	isBlob := f[1] == "blob"
	tooLarge := r.MaxSize > 0 && size > r.MaxSize
	if !isBlob || tooLarge {
		if _, err := io.CopyN(io.Discard, r.catOut, size+1); err != nil {
			return nil, false, r.catFailed(err)
		}
		if !isBlob {
			return nil, false, nil // a folder (or submodule) at base
		}
		return nil, true, ErrTooLarge
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(r.catOut, data); err != nil {
		return nil, false, r.catFailed(err)
	}
	return data[:size], true, nil
}

// startCat starts `git cat-file --batch` once; later reads reuse it.
func (r *Repo) startCat() error {
	if r.catErr != nil {
		return r.catErr
	}
	if r.cat != nil {
		return nil
	}
	cmd := r.git.Batch(r.Root, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return r.catFailed(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return r.catFailed(err)
	}
	if err := cmd.Start(); err != nil {
		return r.catFailed(err)
	}
	r.cat, r.catIn, r.catOut = cmd, in, bufio.NewReaderSize(out, 64<<10)
	return nil
}

func (r *Repo) catFailed(err error) error {
	if r.cat != nil {
		err = r.cat.Err(err)
	}
	if r.catErr == nil {
		r.catErr = fmt.Errorf("reading files at %s with git cat-file: %w", r.Ref, err)
		r.noteTimeout(r.catErr)
	}
	return r.catErr
}

// noteTimeout keeps the first git call that ran past its bound.
func (r *Repo) noteTimeout(err error) {
	if gitcmd.IsTimeout(err) {
		r.timeoutOnce.Do(func() { r.timeout = err })
	}
}

// Failed returns the error of a git call that ran past its bound during
// the run, or nil: the run's result is then incomplete (exit 2).
func (r *Repo) Failed() error {
	r.timeoutOnce.Do(func() {})
	return r.timeout
}

// readOnce reads one blob with its own git process, for paths the batch
// protocol cannot carry (a line break in the name).
func (r *Repo) readOnce(spec string) ([]byte, bool, error) {
	if _, err := r.gitOut("cat-file", "-e", spec); err != nil {
		r.noteTimeout(err)
		return nil, false, timeoutOnly(err)
	}
	typ, err := r.gitOut("cat-file", "-t", spec)
	if err != nil || strings.TrimSpace(string(typ)) != "blob" {
		r.noteTimeout(err)
		return nil, false, timeoutOnly(err)
	}
	data, err := r.gitOut("cat-file", "blob", spec)
	if err != nil {
		r.noteTimeout(err)
		return nil, false, err
	}
	if r.MaxSize > 0 && int64(len(data)) > r.MaxSize {
		return nil, true, ErrTooLarge
	}
	return data, true, nil
}

// timeoutOnly keeps an error only when it is a timeout.
func timeoutOnly(err error) error {
	if gitcmd.IsTimeout(err) {
		return err
	}
	return nil
}

// Close stops the batch process.
func (r *Repo) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cat == nil {
		return nil
	}
	r.catIn.Close()
	err := r.cat.Wait()
	r.cat = nil
	if r.catErr == nil {
		r.catErr = errors.New("closed")
	}
	return err
}
