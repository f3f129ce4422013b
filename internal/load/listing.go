package load

import (
	"hash/maphash"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
)

// Listing is what a walk of a tree saw: whether each path exists and
// what it is. Discovery walks the whole tree before git lists it
// (gitcmd.CheckTreeSeen), so whether a path exists is known without a
// system call: in a repository whose state files name many paths, those
// look-ups were a third of a lint's system calls, and the calls that
// take the process's descriptor table lock do not get faster with a
// second core (docs/performance.md, P6).
//
// It keeps one 64-bit hash per path (seeded per process, so no file can
// be named to collide with another), not the names: 2 MiB for 70,000
// paths. A Listing answers only what it saw for certain: a path through a
// symbolic link, a folder it did not read (.git, an unreadable one), a
// name that is not clean, or one a case-insensitive file system could
// match in another spelling is left to the file system. Safe for
// concurrent use.
type Listing struct {
	seed maphash.Seed
	mu   sync.RWMutex
	// paths holds every entry of a folder read, and the folders walked
	// from (entryListed: a folder whose entries are all in paths).
	paths map[uint64]byte
	// folded holds entries whose names have upper-case letters, by the
	// lower-case spelling, for the case-insensitive check.
	folded map[uint64]bool
	// forgotten are the folders Forget dropped: nothing in them or below
	// is answered.
	forgotten map[uint64]bool
}

// The types a Listing keeps.
const (
	entryNone   byte = 0 // no such entry
	entryFile   byte = 'f'
	entryDir    byte = 'd' // a folder that was not read
	entryListed byte = 'D' // a folder that was read
	entryLink   byte = 'l'
	entryOther  byte = 'o' // a FIFO, a socket, a device
	// maxListed bounds the paths a Listing keeps (a few MiB): past it a
	// folder is not kept, and look-ups in it ask the file system.
	maxListed = 1 << 18
)

// NewListing returns an empty listing.
func NewListing() *Listing {
	return &Listing{seed: maphash.MakeSeed(), paths: map[uint64]byte{}, folded: map[uint64]bool{}, forgotten: map[uint64]bool{}}
}

func (l *Listing) hash(osPath string) uint64 { return maphash.String(l.seed, osPath) }

// Add records the entries of the folder osDir (absolute and clean), as
// os.ReadDir returns them.
func (l *Listing) Add(osDir string, ents []fs.DirEntry) {
	hs := make([]uint64, len(ents))
	var lower []uint64
	for i, e := range ents {
		p := filepath.Join(osDir, e.Name())
		hs[i] = l.hash(p)
		if lc := strings.ToLower(e.Name()); lc != e.Name() {
			lower = append(lower, l.hash(filepath.Join(osDir, lc)))
		}
	}
	dh := l.hash(osDir)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.paths)+len(ents)+1 > maxListed {
		return
	}
	l.paths[dh] = entryListed
	for i, e := range ents {
		t := typeOf(e.Type())
		if old := l.paths[hs[i]]; t == entryDir && old == entryListed {
			continue // read before its parent
		}
		l.paths[hs[i]] = t
	}
	for _, h := range lower {
		l.folded[h] = true
	}
}

func typeOf(m fs.FileMode) byte {
	switch {
	case m.IsRegular():
		return entryFile
	case m.IsDir():
		return entryDir
	case m&fs.ModeSymlink != 0:
		return entryLink
	}
	return entryOther
}

// Forget drops what the listing saw of osPath's folder: a command that
// writes there must not be answered from before it wrote.
func (l *Listing) Forget(osPath string) {
	if l == nil {
		return
	}
	h := l.hash(filepath.Dir(filepath.Clean(osPath)))
	l.mu.Lock()
	l.forgotten[h] = true
	l.mu.Unlock()
}

// entry returns the type of what osPath names as the walk saw it
// (entryNone: nothing), without following a final symbolic link; known
// is false when the listing cannot tell.
func (l *Listing) entry(osPath string) (typ byte, known bool) {
	if l == nil || !filepath.IsAbs(osPath) || filepath.Clean(osPath) != osPath {
		return entryNone, false
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if len(l.paths) == 0 || l.inForgotten(osPath) {
		return entryNone, false
	}
	// Up from osPath to the nearest path the walk saw; child is the name
	// below it on the way to osPath.
	child := ""
	for cur := osPath; ; {
		if t, ok := l.paths[l.hash(cur)]; ok {
			switch {
			case cur == osPath && t == entryListed:
				return entryDir, true
			case cur == osPath:
				return t, true
			case t == entryListed:
				// Read, and child is not among its entries.
				if l.foldsTo(cur, filepath.Base(child)) {
					return entryNone, false
				}
				return entryNone, true
			case t == entryFile || t == entryOther:
				return entryNone, true // a file on the way: not a folder (ENOTDIR)
			}
			return entryNone, false // a folder not read, or a link
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return entryNone, false
		}
		child, cur = cur, parent
	}
}

// inForgotten reports whether a folder above osPath was forgotten.
func (l *Listing) inForgotten(osPath string) bool {
	if len(l.forgotten) == 0 {
		return false
	}
	for d := filepath.Dir(osPath); ; d = filepath.Dir(d) {
		if l.forgotten[l.hash(d)] {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// foldsTo reports whether a case-insensitive file system could find
// name in the folder dir under another spelling (or name is not ASCII,
// whose folding differs between file systems).
func (l *Listing) foldsTo(dir, name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return true
		}
	}
	lh := l.hash(filepath.Join(dir, strings.ToLower(name)))
	if l.folded[lh] {
		return true
	}
	_, ok := l.paths[lh]
	return ok && strings.ToLower(name) != name
}

// Exists reports, for certain, whether osPath names an entry (a symbolic
// link counts, dangling or not, as os.Lstat sees it); known is false
// when the listing cannot tell.
func (l *Listing) Exists(osPath string) (exists, known bool) {
	t, known := l.entry(osPath)
	return t != entryNone, known
}

// follows is entry following a final symbolic link, as a file system
// look-up does: a link is left to the file system.
func (l *Listing) follows(osPath string) (typ byte, known bool) {
	t, known := l.entry(osPath)
	if t == entryLink {
		return entryNone, false
	}
	return t, known
}

// treeTally is what one walk of a work tree's folder saw, to tell as
// early as it can whether git's untracked listing of it can only be
// empty: then it need not run at all.
type treeTally struct {
	l         *Listing
	root, top string
	mu        sync.Mutex
	files     []uint64        // files seen before the tracked ones were known
	in        map[uint64]bool // the tracked files (track), by hash
	found     int             // folders found below the root
	read      int             // folders read whole, the root included
	// dirty: a file not tracked, or a nested repository (which git lists
	// as a folder), was seen.
	dirty bool
}

// seen tallies one folder the walk read, and reports whether the
// untracked listing is needed.
func (w *treeTally) seen(osDir string, ents []fs.DirEntry) (dirty bool) {
	var files []uint64
	dirs, nested := 0, false
	for _, e := range ents {
		switch {
		case e.Name() == ".git":
			nested = nested || osDir != w.top
		case e.IsDir():
			dirs++
		default:
			files = append(files, w.l.hash(filepath.Join(osDir, e.Name())))
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.found += dirs
	w.read++
	w.dirty = w.dirty || nested
	if w.in == nil {
		w.files = append(w.files, files...)
		return w.dirty
	}
	for _, h := range files {
		w.dirty = w.dirty || !w.in[h]
	}
	return w.dirty
}

// track gives the tracked files (git ls-files -c of the root: relative,
// '/'-separated) and reports whether the untracked listing is needed for
// what the walk saw so far.
func (w *treeTally) track(tracked [][]byte) (dirty bool) {
	in := make(map[uint64]bool, len(tracked))
	for _, rel := range tracked {
		if len(rel) > 0 {
			in[w.l.hash(filepath.Join(w.root, filepath.FromSlash(string(rel))))] = true
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.in = in
	for _, h := range w.files {
		w.dirty = w.dirty || !in[h]
	}
	w.files = nil
	return w.dirty
}

// clean reports, once the walk is done and the tracked files are known,
// whether it read every folder and saw nothing git's untracked listing
// would hold.
func (w *treeTally) clean() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.in != nil && !w.dirty && w.read == w.found+1
}
