package load

import (
	"bytes"
	"cmp"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Listing is what a walk of a tree saw: the names and types of each
// folder's entries. Discovery walks the whole tree before git lists it
// (gitcmd.CheckTreeSeen), so whether a path exists is known without a
// system call: in a repository whose state files name many paths, those
// look-ups were a third of a lint's system calls, and the calls that
// take the process's descriptor table lock do not get faster with a
// second core (docs/performance.md, P6).
//
// A Listing answers only what it saw for certain: a path through a
// symbolic link, a folder it did not read (.git, an unreadable one), a
// name that is not clean, or one a case-insensitive file system could
// match in another spelling is left to the file system. Safe for
// concurrent use; Add must not run alongside look-ups.
type Listing struct {
	mu   sync.RWMutex
	dirs map[string]*listedDir
	n    int // entries kept, at most maxListed
}

// listedDir is one folder's entries, sorted by name, with their types;
// lower holds the names in lower case, sorted, when any has an upper-case
// letter (for the case-insensitive check).
type listedDir struct {
	names []string
	types []byte
	lower []string
}

// The types a Listing keeps.
const (
	entryNone    byte = 0 // no such entry
	entryFile    byte = 'f'
	entryDir     byte = 'd'
	entryLink    byte = 'l'
	entryOther   byte = 'o' // a FIFO, a socket, a device
	maxListedLen      = 1 << 20
	// maxListed bounds the entries a Listing keeps (a few MiB): past it
	// a folder is not kept, and look-ups in it ask the file system.
	maxListed = 1 << 17
)

// NewListing returns an empty listing.
func NewListing() *Listing { return &Listing{dirs: map[string]*listedDir{}} }

// Add records the entries of the folder osDir (absolute and clean), as
// os.ReadDir returns them.
func (l *Listing) Add(osDir string, ents []fs.DirEntry) {
	d := &listedDir{names: make([]string, len(ents)), types: make([]byte, len(ents))}
	upper := false
	for i, e := range ents {
		d.names[i] = e.Name()
		d.types[i] = typeOf(e.Type())
		upper = upper || strings.ToLower(e.Name()) != e.Name()
	}
	if !slices.IsSorted(d.names) {
		slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		for i, e := range ents {
			d.names[i], d.types[i] = e.Name(), typeOf(e.Type())
		}
	}
	if upper {
		d.lower = make([]string, len(d.names))
		for i, n := range d.names {
			d.lower[i] = strings.ToLower(n)
		}
		slices.Sort(d.lower)
	}
	l.mu.Lock()
	if l.n+len(ents) <= maxListed {
		l.dirs[osDir] = d
		l.n += len(ents)
	}
	l.mu.Unlock()
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
	l.mu.Lock()
	delete(l.dirs, filepath.Dir(filepath.Clean(osPath)))
	l.mu.Unlock()
}

// entry returns the type of what osPath names as the folder listings
// saw it (entryNone: nothing), without following a final symbolic link;
// known is false when the listings cannot tell.
func (l *Listing) entry(osPath string) (typ byte, known bool) {
	if l == nil || len(osPath) > maxListedLen || !filepath.IsAbs(osPath) || filepath.Clean(osPath) != osPath {
		return entryNone, false
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if len(l.dirs) == 0 {
		return entryNone, false
	}
	// The nearest folder up from osPath that was listed, and the name in
	// it that leads to osPath.
	child, last := filepath.Base(osPath), true
	for dir := filepath.Dir(osPath); ; child, last, dir = filepath.Base(dir), false, filepath.Dir(dir) {
		if d := l.dirs[dir]; d != nil {
			return d.find(child, last)
		}
		if filepath.Dir(dir) == dir {
			return entryNone, false
		}
	}
}

// find is entry's answer inside a listed folder for its entry name:
// osPath itself when last, else a folder on the way to it.
func (d *listedDir) find(name string, last bool) (typ byte, known bool) {
	i, ok := slices.BinarySearch(d.names, name)
	if !ok {
		if d.foldsTo(name) {
			return entryNone, false
		}
		return entryNone, true
	}
	t := d.types[i]
	switch {
	case last:
		return t, true
	case t == entryFile || t == entryOther:
		return entryNone, true // a file on the way: not a folder (ENOTDIR)
	}
	// A folder that was not listed (.git, unreadable) or a link.
	return entryNone, false
}

// foldsTo reports whether a case-insensitive file system could find name
// under another spelling among the entries (or name is not ASCII, whose
// folding differs between file systems).
func (d *listedDir) foldsTo(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return true
		}
	}
	lc := strings.ToLower(name)
	if d.lower != nil {
		_, ok := slices.BinarySearch(d.lower, lc)
		return ok
	}
	if lc == name {
		return false // every entry and name are lower case: an exact miss is a miss
	}
	_, ok := slices.BinarySearch(d.names, lc)
	return ok
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

// OnlyTracked reports whether the walk of osDir, in the work tree at
// top, saw no file that tracked (git ls-files -c of osDir: relative,
// '/'-separated, as git sorts them) does not hold: then git's untracked
// listing of osDir can only be empty. Anything the listing cannot vouch
// for (a folder it did not keep, a nested repository's .git) answers
// false, and git is asked.
func (l *Listing) OnlyTracked(osDir, top string, tracked [][]byte) bool {
	if l == nil || !filepath.IsAbs(osDir) || filepath.Clean(osDir) != osDir {
		return false
	}
	for len(tracked) > 0 && len(tracked[len(tracked)-1]) == 0 {
		tracked = tracked[:len(tracked)-1] // git ends the list with a NUL
	}
	if !slices.IsSortedFunc(tracked, bytes.Compare) {
		tracked = slices.Clone(tracked)
		slices.SortFunc(tracked, bytes.Compare)
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	for dir, d := range l.dirs {
		rel, ok := relUnder(osDir, dir)
		if !ok {
			continue
		}
		for i, name := range d.names {
			switch {
			case name == ".git" && dir == top:
				// The work tree's own repository.
			case name == ".git":
				return false // a nested repository git lists as a folder
			case d.types[i] == entryDir:
				if l.dirs[filepath.Join(dir, name)] == nil {
					return false // not read, or not kept
				}
			default:
				if _, ok := slices.BinarySearchFunc(tracked, path.Join(rel, name), compareRel); !ok {
					return false
				}
			}
		}
	}
	return l.dirs[osDir] != nil
}

// relUnder returns dir relative to root, '/'-separated ("" for root).
func relUnder(root, dir string) (string, bool) {
	if dir == root {
		return "", true
	}
	if !strings.HasPrefix(dir, root) || len(dir) <= len(root) || !os.IsPathSeparator(dir[len(root)]) && !strings.HasSuffix(root, string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(strings.TrimPrefix(dir[len(root):], string(filepath.Separator))), true
}

// compareRel is bytes.Compare of a and b, without converting either.
func compareRel(a []byte, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return cmp.Compare(a[i], b[i])
		}
	}
	return cmp.Compare(len(a), len(b))
}
