package load

import (
	"hash/maphash"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/resumelint/resumelint/internal/par"
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
// concurrent use: the walk adds folders on every core and every unit
// looks paths up, so the hashes are kept in shards, each with its own
// lock (one lock made walkers wait on each other), and once discovery
// freezes the listing, look-ups take none.
type Listing struct {
	seed   maphash.Seed
	shards [listingShards]listingShard
	n      atomic.Int64 // paths kept, over every shard
	// forgotten are the folders Forget dropped: nothing in them or below
	// is answered.
	fmu       sync.RWMutex
	forgotten map[uint64]bool
	anyForgot atomic.Bool
	// frozen is set once the walk is done (Freeze): nothing is added
	// from then on, so look-ups read the shards without their locks.
	// Even a read lock writes a word every core takes in turn, and the
	// units look up thousands of paths.
	frozen atomic.Bool
}

// listingShards is how many shards a Listing's hashes are spread over.
const listingShards = 64

// listingShard holds the hashes whose low bits select it.
type listingShard struct {
	mu sync.RWMutex
	// paths holds every entry of a folder read, and the folders walked
	// from (entryListed: a folder whose entries are all in paths).
	paths map[uint64]byte
	// folded holds entries whose names have upper-case letters, by the
	// lower-case spelling, for the case-insensitive check.
	folded map[uint64]bool
	// Once frozen, the same as sorted slices (the maps are dropped):
	// keys and their types, and the folded hashes.
	keys    []uint64
	types   []byte
	foldeds []uint64
}

func (l *Listing) shard(h uint64) *listingShard { return &l.shards[h%listingShards] }

// Freeze ends what the listing is told: Add changes nothing after it, and
// look-ups take no lock. Each shard's maps become sorted slices, searched
// by halves: a map of 8-byte keys took about 70 bytes a path (7 MiB at
// 80,000 paths, kept for the whole run), the slices take 9.
func (l *Listing) Freeze() {
	if l.frozen.Load() {
		return
	}
	par.Each(listingShards, 1, func(i int) {
		sh := &l.shards[i]
		sh.mu.Lock()
		defer sh.mu.Unlock()
		sh.keys = make([]uint64, 0, len(sh.paths))
		for h := range sh.paths {
			sh.keys = append(sh.keys, h)
		}
		slices.Sort(sh.keys)
		sh.types = make([]byte, len(sh.keys))
		for j, h := range sh.keys {
			sh.types[j] = sh.paths[h]
		}
		sh.foldeds = make([]uint64, 0, len(sh.folded))
		for h := range sh.folded {
			sh.foldeds = append(sh.foldeds, h)
		}
		slices.Sort(sh.foldeds)
		sh.paths, sh.folded = nil, nil
	})
	l.frozen.Store(true)
}

// get returns what the walk saw at the path hashed h.
func (l *Listing) get(h uint64) (byte, bool) {
	sh := l.shard(h)
	if l.frozen.Load() {
		if j, ok := slices.BinarySearch(sh.keys, h); ok {
			return sh.types[j], true
		}
		return entryNone, false
	}
	sh.mu.RLock()
	t, ok := sh.paths[h]
	sh.mu.RUnlock()
	return t, ok
}

// put records t at the path hashed h, unless a folder read (entryListed)
// would be taken back to one only seen (entryDir): read before its
// parent.
func (l *Listing) put(h uint64, t byte) {
	sh := l.shard(h)
	sh.mu.Lock()
	if sh.paths == nil { // frozen meanwhile
		sh.mu.Unlock()
		return
	}
	old, had := sh.paths[h]
	if !(t == entryDir && old == entryListed) {
		sh.paths[h] = t
	}
	sh.mu.Unlock()
	if !had {
		l.n.Add(1)
	}
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
	l := &Listing{seed: maphash.MakeSeed(), forgotten: map[uint64]bool{}}
	for i := range l.shards {
		l.shards[i].paths = map[uint64]byte{}
		l.shards[i].folded = map[uint64]bool{}
	}
	return l
}

func (l *Listing) hash(osPath string) uint64 { return maphash.String(l.seed, osPath) }

// entryHash is hash(filepath.Join(osDir, name)) for a name os.ReadDir
// returned in the clean folder osDir, without making the path: a walk
// hashes every entry of a tree.
func (l *Listing) entryHash(h *maphash.Hash, osDir, name string) uint64 {
	h.SetSeed(l.seed)
	h.WriteString(osDir)
	if !strings.HasSuffix(osDir, string(filepath.Separator)) {
		h.WriteByte(filepath.Separator)
	}
	h.WriteString(name)
	return h.Sum64()
}

// Add records the entries of the folder osDir (absolute and clean), as
// os.ReadDir returns them, and returns their hashes in the order of ents
// (for treeTally.seenHashed). After Freeze it records nothing.
func (l *Listing) Add(osDir string, ents []fs.DirEntry) []uint64 {
	hs := make([]uint64, len(ents))
	var lower []uint64
	var h maphash.Hash
	for i, e := range ents {
		hs[i] = l.entryHash(&h, osDir, e.Name())
		if lc := strings.ToLower(e.Name()); lc != e.Name() {
			lower = append(lower, l.entryHash(&h, osDir, lc))
		}
	}
	if l.frozen.Load() || l.n.Load()+int64(len(ents))+1 > maxListed {
		return hs
	}
	// The entries first: a folder marked read has all of them in.
	for i, e := range ents {
		l.put(hs[i], typeOf(e.Type()))
	}
	for _, h := range lower {
		sh := l.shard(h)
		sh.mu.Lock()
		if sh.folded != nil {
			sh.folded[h] = true
		}
		sh.mu.Unlock()
	}
	l.put(l.hash(osDir), entryListed)
	return hs
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
	l.fmu.Lock()
	l.forgotten[h] = true
	l.anyForgot.Store(true)
	l.fmu.Unlock()
}

// entry returns the type of what osPath names as the walk saw it
// (entryNone: nothing), without following a final symbolic link; known
// is false when the listing cannot tell.
func (l *Listing) entry(osPath string) (typ byte, known bool) {
	if l == nil || !cleanAbs(osPath) {
		return entryNone, false
	}
	if l.n.Load() == 0 || l.inForgotten(osPath) {
		return entryNone, false
	}
	// Up from osPath to the nearest path the walk saw; child is the name
	// below it on the way to osPath.
	child := ""
	for cur := osPath; ; {
		if t, ok := l.get(l.hash(cur)); ok {
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
		parent := parentOf(cur)
		if parent == cur {
			return entryNone, false
		}
		child, cur = cur, parent
	}
}

// inForgotten reports whether a folder above osPath was forgotten.
func (l *Listing) inForgotten(osPath string) bool {
	if !l.anyForgot.Load() {
		return false
	}
	l.fmu.RLock()
	defer l.fmu.RUnlock()
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
	// dir is clean and name one component: entryHash is the hash of
	// their join, without making it.
	var h maphash.Hash
	lh := l.entryHash(&h, dir, strings.ToLower(name))
	sh := l.shard(lh)
	var folded bool
	if l.frozen.Load() {
		_, folded = slices.BinarySearch(sh.foldeds, lh)
	} else {
		sh.mu.RLock()
		folded = sh.folded[lh]
		sh.mu.RUnlock()
	}
	if folded {
		return true
	}
	_, ok := l.get(lh)
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
// empty: then it need not run at all. The walk reads folders on every
// core, so once the tracked files are known a folder is tallied without
// a lock.
type treeTally struct {
	l         *Listing
	root, top string
	mu        sync.Mutex // guards files, and in while it is nil
	files     []uint64   // files seen before the tracked ones were known
	// in holds the tracked files (track), by hash; set once.
	in    atomic.Pointer[map[uint64]bool]
	found atomic.Int64 // folders found below the root
	read  atomic.Int64 // folders read whole, the root included
	// dirty: a file not tracked, or a nested repository (which git lists
	// as a folder), was seen.
	dirty atomic.Bool
}

// seenHashed tallies one folder the walk read, given the hashes of its
// entries (hs[i] is the hash of ents[i]'s path, as Listing.Add returns
// them), and reports whether the untracked listing is needed.
func (w *treeTally) seenHashed(osDir string, ents []fs.DirEntry, hs []uint64) (dirty bool) {
	var files []uint64
	dirs, nested := 0, false
	for i, e := range ents {
		switch {
		case e.Name() == ".git":
			nested = nested || osDir != w.top
		case e.IsDir():
			dirs++
		default:
			files = append(files, hs[i])
		}
	}
	w.found.Add(int64(dirs))
	w.read.Add(1)
	if nested {
		w.dirty.Store(true)
	}
	in := w.in.Load()
	if in == nil {
		w.mu.Lock()
		if in = w.in.Load(); in == nil {
			w.files = append(w.files, files...)
			w.mu.Unlock()
			return w.dirty.Load()
		}
		w.mu.Unlock()
	}
	for _, h := range files {
		if !(*in)[h] {
			w.dirty.Store(true)
			break
		}
	}
	return w.dirty.Load()
}

// track gives the tracked files (git ls-files -c of the root: relative,
// '/'-separated) and reports whether the untracked listing is needed for
// what the walk saw so far. The paths are hashed on every core: tracking
// ten thousand of them one at a time held up the discovery.
func (w *treeTally) track(tracked [][]byte) (dirty bool) {
	hs := make([]uint64, len(tracked))
	par.Each(len(tracked), 256, func(i int) {
		if rel := tracked[i]; len(rel) > 0 {
			hs[i] = w.l.hash(filepath.Join(w.root, filepath.FromSlash(string(rel))))
		}
	})
	in := make(map[uint64]bool, len(tracked))
	for i, rel := range tracked {
		if len(rel) > 0 {
			in[hs[i]] = true
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.in.Store(&in)
	for _, h := range w.files {
		if !in[h] {
			w.dirty.Store(true)
			break
		}
	}
	w.files = nil
	return w.dirty.Load()
}

// clean reports, once the walk is done and the tracked files are known,
// whether it read every folder and saw nothing git's untracked listing
// would hold.
func (w *treeTally) clean() bool {
	return w.in.Load() != nil && !w.dirty.Load() && w.read.Load() == w.found.Load()+1
}
