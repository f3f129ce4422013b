package load

import (
	"errors"
	"github.com/resumelint/resumelint/internal/gitcmd"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Containment: everything resumelint reads from a repository is read
// through an os.Root opened at the repository root (File.Root), so no
// symbolic link, "..", absolute path or race can make it read outside. A
// path that leads outside is answered as if it did not exist, so a message
// never says whether something outside the repository exists.

// ErrOutside is the error of a path that lies, or leads through a symbolic
// link, outside its root.
var ErrOutside = errors.New("leads outside the repository")

// ErrNoRoot is the error of a read with no confining folder: every entry
// point names the repository root (or RootFor's folder), so an empty root
// is a mistake, refused rather than read with a plain open.
var ErrNoRoot = errors.New("no repository root to confine the read; not read")

// RootFor is the folder that confines reads of osPath: the repository
// root when osPath lies (lexically) inside it; else, for a file named on
// the command line outside it, the work tree holding the file (another
// repository: its paths are written against its own root), or the folder
// holding it outside any.
func RootFor(repoRoot, osPath string) string {
	if repoRoot != "" {
		if _, ok := Contained(repoRoot, osPath); ok {
			return filepath.Clean(repoRoot)
		}
	}
	dir := filepath.Dir(filepath.Clean(osPath))
	if top := gitcmd.FindTop(dir); top != "" && (repoRoot == "" || !within(top, repoRoot)) {
		return top
	}
	return dir
}

// within reports whether dir is root or lies under it: a work tree found
// above a file outside the run's repository that holds that repository
// (a nested one) is not the file's own.
func within(root, dir string) bool {
	_, ok := Contained(root, dir)
	return ok || filepath.Clean(root) == filepath.Clean(dir)
}

// Contained returns osPath relative to root when it lies lexically inside
// it (both made absolute and cleaned, so "/repo/../etc" is outside).
func Contained(root, osPath string) (string, bool) {
	// The common case, a clean absolute path under a clean absolute root,
	// without the three cleanings of Abs and Rel (a look-up makes two).
	if n := len(root); n > 1 && len(osPath) > n+1 && osPath[n] == filepath.Separator && filepath.Separator == '/' &&
		strings.HasPrefix(osPath, root) && isCleanAbs(root) && isCleanAbs(osPath) {
		return osPath[n+1:], true
	}
	return containedAbs(root, osPath)
}

// containedAbs is Contained for any paths: both made absolute, cleaned,
// and compared.
func containedAbs(root, osPath string) (string, bool) {
	r, err := filepath.Abs(root)
	if err != nil {
		return "", false
	}
	p, err := filepath.Abs(osPath)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(r, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// isCleanAbs reports whether p, '/'-separated, is absolute and what
// filepath.Clean would return: no empty, "." or ".." element and no
// trailing slash.
func isCleanAbs(p string) bool {
	if len(p) < 2 || p[0] != '/' || p[len(p)-1] == '/' {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		// p[i+1:] starts an element: not empty, not "." or "..".
		j := i + 1
		if j < len(p) && p[j] == '/' {
			return false
		}
		if j < len(p) && p[j] == '.' && (j+1 == len(p) || p[j+1] == '/' || p[j+1] == '.' && (j+2 == len(p) || p[j+2] == '/')) {
			return false
		}
	}
	return true
}

// OpenIn opens osPath for reading inside root, following symbolic links
// only while they stay inside it, without blocking on a FIFO. A path that
// escapes gives ErrOutside; root "" gives ErrNoRoot.
func OpenIn(root, osPath string) (*os.File, error) {
	if root == "" {
		return nil, ErrNoRoot
	}
	rel, ok := Contained(root, osPath)
	if !ok {
		return nil, ErrOutside
	}
	fh, err := inRoot(root, func(r *os.Root) (*os.File, error) { return r.OpenFile(rel, os.O_RDONLY|openFlags, 0) })
	return fh, rootErr(err)
}

// inRoot runs look with root's os.Root: the one a run holds, else one
// opened for the look-up. A held root that a run closed while the
// look-up went on gives os.ErrClosed (runs overlap in the server, and
// commands run side by side in one test process): the look-up is made
// again through a root of its own.
func inRoot[T any](root string, look func(r *os.Root) (T, error)) (T, error) {
	r, _, done, err := openRoot(root)
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := look(r)
	done()
	if !errors.Is(err, os.ErrClosed) {
		return v, err
	}
	own, err := os.OpenRoot(root)
	if err != nil {
		var zero T
		return zero, err
	}
	defer own.Close()
	return look(own)
}

// handle is what reading a file needs of an open one.
type handle interface {
	Stat() (fs.FileInfo, error)
	Read([]byte) (int, error)
	Close() error
}

// openToRead is OpenIn for reading a file's bytes: while the root is held
// (a run), through one openat2 call and a bare descriptor.
func openToRead(root, osPath string) (handle, error) {
	if root != "" && rootsHeld() {
		if rel, ok := Contained(root, osPath); ok {
			_, dir, done, err := openRoot(root)
			if err != nil {
				return nil, err
			}
			h, ok := fileBeneath(dir, rel)
			done()
			if ok {
				return h, nil
			}
		}
	}
	fh, err := OpenIn(root, osPath)
	if err != nil {
		return nil, err // a nil *os.File must not become a non-nil handle
	}
	return fh, nil
}

// StatIn returns what osPath names inside root (symbolic links followed
// while they stay inside). A path outside gives fs.ErrNotExist, exactly
// like a missing one: nothing outside root is looked at. Root "" gives
// ErrNoRoot.
func StatIn(root, osPath string) (fs.FileInfo, error) {
	if root == "" {
		return nil, ErrNoRoot
	}
	rel, ok := Contained(root, osPath)
	if !ok {
		return nil, fs.ErrNotExist
	}
	if fi, err, ok := statHeld(root, rel); ok {
		return fi, err
	}
	fi, err := inRoot(root, func(r *os.Root) (fs.FileInfo, error) { return r.Stat(rel) })
	if errors.Is(rootErr(err), ErrOutside) {
		return nil, fs.ErrNotExist
	}
	return fi, err
}

// statHeld is StatIn through openat2 while the root is held; ok is false
// when os.Root must answer.
func statHeld(root, rel string) (fi fs.FileInfo, err error, ok bool) {
	if !rootsHeld() {
		return nil, nil, false
	}
	_, dir, done, oerr := openRoot(root)
	if oerr != nil {
		return nil, nil, false
	}
	defer done()
	return statBeneath(dir, rel)
}

// ExistsIn reports whether osPath names something inside root.
func ExistsIn(root, osPath string) bool {
	if ok, settled := existsHeld(root, osPath, false); settled {
		return ok
	}
	_, err := StatIn(root, osPath)
	return err == nil
}

// IsDirIn reports whether osPath names a folder inside root.
func IsDirIn(root, osPath string) bool {
	if ok, settled := existsHeld(root, osPath, true); settled {
		return ok
	}
	fi, err := StatIn(root, osPath)
	return err == nil && fi.IsDir()
}

// existsHeld answers ExistsIn or IsDirIn through openat2 while the root
// is held; settled is false when StatIn must.
func existsHeld(root, osPath string, dir bool) (ok, settled bool) {
	beneathHeld(root, osPath, func(d *os.File, rel string) { ok, settled = existsBeneath(d, rel, dir) })
	return ok, settled
}

// beneathHeld runs look with the held root's folder and osPath relative
// to it, while a run holds root and osPath lies inside it; false when it
// does not (the caller goes through os.Root).
func beneathHeld(root, osPath string, look func(dir *os.File, rel string)) bool {
	if root == "" || !rootsHeld() {
		return false
	}
	rel, inside := Contained(root, osPath)
	if !inside {
		return false
	}
	_, dir, done, err := openRoot(root)
	if err != nil {
		return false
	}
	defer done()
	look(dir, rel)
	return true
}

// ReadDirIn lists a folder inside root (entries are not followed).
func ReadDirIn(root, osPath string) ([]fs.DirEntry, error) {
	if root == "" {
		return nil, ErrNoRoot
	}
	if ents, ok := readDirHeld(root, osPath); ok {
		return ents, nil
	}
	d, err := OpenIn(root, osPath)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	fi, err := d.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: osPath, Err: errors.New("not a folder")}
	}
	ents, err := d.ReadDir(-1)
	sortEntries(ents)
	return ents, err
}

// readDirHeld is ReadDirIn through one openat2 call while the root is
// held (os.Root opens every folder on the way); ok is false when
// ReadDirIn must answer, errors included, so they read as before.
func readDirHeld(root, osPath string) (ents []fs.DirEntry, ok bool) {
	beneathHeld(root, osPath, func(dir *os.File, rel string) {
		d, opened := dirBeneath(dir, rel, joinName(root, rel))
		if !opened {
			return
		}
		defer d.Close()
		es, err := d.ReadDir(-1)
		if err != nil {
			return
		}
		sortEntries(es)
		ents, ok = es, true
	})
	return ents, ok
}

// joinName names a file opened inside root as os.Root names it.
func joinName(root, rel string) string {
	if os.IsPathSeparator(root[len(root)-1]) {
		return root + rel
	}
	return root + string(filepath.Separator) + rel
}

func sortEntries(ents []fs.DirEntry) {
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
}

// rootErr maps os.Root's escape error, which the os package does not
// export, to ErrOutside.
func rootErr(err error) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return ErrOutside
	}
	return err
}

// heldRoots keeps the roots a run reads through open while the run lasts:
// opening one costs an open, an fstat and a close, and a lint reads and
// resolves thousands of paths in the same root (a quarter of its CPU went
// there). Confinement is the same: every look-up still goes through
// os.Root, or on Linux through openat2 confined to the root's descriptor.
var heldRoots struct {
	sync.Mutex // guards holds and m, and publishes them in set
	holds      int
	m          map[string]heldRoot
	// set is what holds and m were when last changed, for look-ups to
	// read without a lock: every look-up of a run finds its root here,
	// from every core at once, and even a read lock is a write to one
	// memory word that every core takes in turn.
	set atomic.Pointer[rootSet]
}

// rootSet is a published state of heldRoots; never modified.
type rootSet struct {
	holds int
	m     map[string]heldRoot
}

// publishRoots makes heldRoots' state the one look-ups see; the caller
// holds its lock.
func publishRoots() {
	heldRoots.set.Store(&rootSet{holds: heldRoots.holds, m: maps.Clone(heldRoots.m)})
}

type heldRoot struct {
	r   *os.Root
	dir *os.File // the folder, for openat2; nil without
}

// maxHeldRoots bounds the open descriptors (each bundle folder is a root).
const maxHeldRoots = 32

// HoldRoots keeps the roots opened until release is called (engine.Run
// holds them for a run; runs may overlap, the last release closes them).
func HoldRoots() (release func()) {
	heldRoots.Lock()
	heldRoots.holds++
	publishRoots()
	heldRoots.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			heldRoots.Lock()
			defer heldRoots.Unlock()
			heldRoots.holds--
			if heldRoots.holds == 0 {
				for _, h := range heldRoots.m {
					h.r.Close()
					if h.dir != nil {
						h.dir.Close()
					}
				}
				heldRoots.m = nil
			}
			publishRoots()
		})
	}
}

// rootsHeld reports whether a run holds its roots (openat2 look-ups then
// pay off; a single look-up goes through os.Root).
func rootsHeld() bool {
	s := heldRoots.set.Load()
	return s != nil && s.holds > 0
}

// openRoot opens root, or returns the one a run holds; done releases it.
// dir is nil unless the root is held (a single look-up gains nothing).
func openRoot(root string) (r *os.Root, dir *os.File, done func(), err error) {
	if s := heldRoots.set.Load(); s != nil && s.holds > 0 {
		if h, ok := s.m[root]; ok {
			return h.r, h.dir, func() {}, nil
		}
	}
	heldRoots.Lock()
	defer heldRoots.Unlock()
	if heldRoots.holds > 0 {
		if h, ok := heldRoots.m[root]; ok {
			return h.r, h.dir, func() {}, nil
		}
	}
	r, err = os.OpenRoot(root)
	if err != nil {
		return nil, nil, nil, err
	}
	if heldRoots.holds > 0 && len(heldRoots.m) < maxHeldRoots {
		if heldRoots.m == nil {
			heldRoots.m = map[string]heldRoot{}
		}
		h := heldRoot{r: r, dir: openDir(root)}
		heldRoots.m[root] = h
		publishRoots()
		return r, h.dir, func() {}, nil
	}
	return r, nil, func() { r.Close() }, nil
}
