package load

import (
	"errors"
	"hash/maphash"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
)

// Files is the file access of one command, shared by every run of the
// engine it makes (the lint and the dry run that settles its safe fixes):
// the units' reads (Read, LoadBundle, LoadAgentRun) and the rules' (ReadFile,
// Stat, ReadDir). Every look-up is confined to a root through the same
// os.Root machinery as Read (OpenIn, StatIn); each file is read at most
// once while its bytes are kept (the latest reads, within a budget); and an editor's unsaved
// buffers (the overlay) stand for the files rules read, so cross-file
// rules see what the editor shows. A command that writes a file says so
// (Wrote) before it reads it again. A nil *Files reads straight from
// disk, unshared. Safe for concurrent use.
type Files struct {
	overlay Overlay // by absolute, clean OS path; nil for none
	// pend is a fix's changes not written yet (Pending); nil for none.
	pend atomic.Pointer[pending]
	// listing is what discovery's walk saw (UseListing): Exists and
	// IsDir answer from it without a system call where it can tell.
	listing atomic.Pointer[Listing]

	// reads are the files read, spread over shards by path: every file
	// a run reads takes a lock twice, from every core, and with one lock
	// a worker whose core stalled while holding it held up all the others.
	seed  maphash.Seed
	reads [readShards]readShard
	// kept are the rules' reads kept (and the reads that failed), oldest
	// first, and held what they cost (keepCost), at most budget: a new
	// read drops the oldest. The readers of a file mostly come one after
	// another (the rules of one unit, the units of one folder), so the
	// latest reads are the ones read again; keeping the first ones a run
	// made until the budget was spent held 8 MiB for the whole of a large
	// run and served none.
	kmu    sync.Mutex
	kept   []keptRead
	head   int // kept[:head] are gone
	held   atomic.Int64
	budget int64
	// units is what the units' reads kept cost, at most unitBudget
	// (keepUnit): a unit is read again only by a dry run, which most
	// lints never make.
	units      atomic.Int64
	unitBudget int64

	mu    sync.Mutex // guards dirs, dirsN and dirOrder
	dirs  map[lookKey]dirEntry
	dirsN int // folder entries kept in dirs, at most dirBudget
	// dirBudget is maxDirEntries (tests set less).
	dirBudget int
	// dirOrder are the listings kept, oldest first: a new one past
	// maxDirEntries drops the oldest, as kept does reads.
	dirOrder []lookKey

	// listed memoises Listed by repository top.
	tmu         sync.Mutex
	listedNames map[string][][]byte
}

// Listed lists the files a lint of the work tree at top lists, relative
// to it (load.Listed), once per run: for the rules that weigh what a
// repository writes beyond the files a run was given.
func (fs *Files) Listed(top string) [][]byte {
	if fs == nil {
		return Listed(top)
	}
	fs.tmu.Lock()
	defer fs.tmu.Unlock()
	if names, ok := fs.listedNames[top]; ok {
		return names
	}
	names := Listed(top)
	if fs.listedNames == nil {
		fs.listedNames = map[string][][]byte{}
	}
	fs.listedNames[top] = names
	return names
}

// readShards is how many shards Files spreads its reads over.
const readShards = 32

// keptRead is a read in Files.kept.
type keptRead struct {
	k lookKey
	e *readEntry
}

// readShard holds the reads whose path hashes to it.
type readShard struct {
	mu sync.Mutex
	m  map[lookKey]*readEntry
	_  [48]byte // a shard to a cache line
}

const (
	// readBudget bounds what Files keeps of the rules' reads for later
	// readers (keepCost): past it the oldest reads are dropped, so a
	// command's memory stays bounded (SPEC §9 P3). Some hundred files.
	readBudget = 2 << 20
	// unitBudget bounds the units' bytes kept, the first units': the
	// state files of most repositories whole (a dry run then reads none
	// again).
	unitBudget = 2 << 20
	// maxDirEntries bounds the folder entries ReadDir keeps (about 150
	// bytes each): past it the oldest listings are dropped, and a larger
	// one is answered but not kept.
	maxDirEntries = 1 << 12
	// entryCost is what an entry costs beside its bytes and path (the
	// entry, its slot in a shard's map and in kept): a read that failed
	// is kept too, and counts.
	entryCost = 200
)

// ErrNotRead is the error of a file that is no regular file or is larger
// than the size limit: it is not read.
var ErrNotRead = errors.New("not a regular file within the size limit; not read")

// readEntry is one file's read: its bytes, or why it was not read. An
// entry with neither was answered but not kept.
type readEntry struct {
	once sync.Once
	data []byte
	err  error
	max  int64 // the size limit the read was made with
	// cost is what the entry counts in held while it is in kept; 0 once
	// dropped or forgotten. Guarded by Files.kmu, as unit (a unit's read:
	// its cost counts in units too).
	cost int64
	unit bool
}

type lookKey struct{ root, path string }

type dirEntry struct {
	ents []fs.DirEntry
	err  error
}

// Overlay holds an editor's unsaved buffers, which stand for the files
// at their paths.
type Overlay interface {
	// Buffer returns the content standing for the file at an absolute,
	// clean OS path, if there is one.
	Buffer(abs string) ([]byte, bool)
}

// mapOverlay is an Overlay of a map by absolute path.
type mapOverlay map[string][]byte

func (m mapOverlay) Buffer(abs string) ([]byte, bool) {
	data, ok := m[abs]
	return data, ok
}

// NewFiles returns a command's file access; overlay maps OS paths to the
// unsaved content that stands for them (nil for none).
func NewFiles(overlay map[string][]byte) *Files {
	var ov Overlay
	if len(overlay) > 0 {
		m := make(mapOverlay, len(overlay))
		for p, data := range overlay {
			if abs, err := filepath.Abs(p); err == nil {
				m[abs] = data
			}
		}
		ov = m
	}
	return NewFilesOver(ov)
}

// NewFilesOver returns a command's file access with an overlay kept by
// its owner (the language server's open documents): it is consulted on
// each read, not copied, so a lint costs nothing per open document.
func NewFilesOver(overlay Overlay) *Files {
	x := &Files{seed: maphash.MakeSeed(), dirs: map[lookKey]dirEntry{},
		budget: readBudget, unitBudget: unitBudget, dirBudget: maxDirEntries, overlay: overlay}
	for i := range x.reads {
		x.reads[i].m = map[lookKey]*readEntry{}
	}
	return x
}

// Buffer returns the editor's unsaved buffer of the file at osPath, when
// the command has one (the language server's open documents).
func (x *Files) Buffer(osPath string) ([]byte, bool) { return x.buffer(osPath) }

// buffer returns the overlay's content for osPath.
func (x *Files) buffer(osPath string) ([]byte, bool) {
	if x == nil {
		return nil, false
	}
	if data, ok := x.pendingText(osPath); ok {
		return data, true
	}
	if x.overlay == nil {
		return nil, false
	}
	abs, err := filepath.Abs(osPath)
	if err != nil {
		return nil, false
	}
	return x.overlay.Buffer(abs)
}

// entry returns the read entry of osPath inside root, made on first use.
func (x *Files) entry(root, osPath string) (lookKey, *readEntry) {
	k := lookKey{root, filepath.Clean(osPath)}
	sh := x.shard(k)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	e := sh.m[k]
	if e == nil {
		e = &readEntry{}
		sh.m[k] = e
	}
	return k, e
}

func (x *Files) shard(k lookKey) *readShard {
	return &x.reads[maphash.String(x.seed, k.path)%readShards]
}

// keepCost is what keeping e, the read of k, counts against the budget.
func keepCost(k lookKey, e *readEntry) int64 {
	return int64(cap(e.data)) + int64(len(k.root)+len(k.path)) + entryCost
}

// keep adds e, the read of k a rule just made (or a read that failed),
// to the kept reads, dropping the oldest to make room. A read larger than
// the whole budget is not kept (it was answered, and is kept for no one
// else).
func (x *Files) keep(k lookKey, e *readEntry) bool {
	n := keepCost(k, e)
	if n > x.budget {
		x.unmap(k, e)
		return false
	}
	x.kmu.Lock()
	defer x.kmu.Unlock()
	for x.held.Load()+n > x.budget && x.head < len(x.kept) {
		old := x.kept[x.head]
		x.kept[x.head] = keptRead{}
		x.head++
		if old.e.cost > 0 {
			x.uncount(old.e)
			x.unmap(old.k, old.e)
		}
	}
	if x.head > len(x.kept)/2 { // reuse the front
		x.kept = x.kept[:copy(x.kept, x.kept[x.head:])]
		x.head = 0
	}
	e.cost = n
	x.held.Add(n)
	x.kept = append(x.kept, keptRead{k, e})
	return true
}

// keepUnit keeps a copy of data, the bytes of a unit's file just read
// into e, while the units' part has room: the first units' bytes, never
// dropped for a later read. A unit is read again by a dry run, which reads
// every unit in the same order, so keeping the latest would miss every
// time; and a copy of exactly their size, not the unit's pooled buffer,
// which goes back to the pool. Lock-free: most units find the part spent.
func (x *Files) keepUnit(k lookKey, e *readEntry, data []byte) bool {
	n := int64(len(data)+len(k.root)+len(k.path)) + entryCost
	if !reserve(&x.units, n, x.unitBudget) {
		x.unmap(k, e)
		return false
	}
	e.data = append(make([]byte, 0, len(data)), data...)
	x.kmu.Lock()
	e.cost, e.unit = n, true
	x.kmu.Unlock()
	return true
}

// reserve adds n to c unless that takes it past limit.
func reserve(c *atomic.Int64, n, limit int64) bool {
	for {
		had := c.Load()
		if had+n > limit {
			return false
		}
		if c.CompareAndSwap(had, had+n) {
			return true
		}
	}
}

// uncount takes what e cost out of held, or out of units for a unit's
// read; the caller holds kmu.
func (x *Files) uncount(e *readEntry) {
	if e.unit {
		x.units.Add(-e.cost)
	} else {
		x.held.Add(-e.cost)
	}
	e.cost = 0
}

// unmap removes the entry e of k, unless another has taken its place.
func (x *Files) unmap(k lookKey, e *readEntry) {
	sh := x.shard(k)
	sh.mu.Lock()
	if sh.m[k] == e {
		delete(sh.m, k)
	}
	sh.mu.Unlock()
}

// ReadFile returns the bytes of the regular file at osPath inside root,
// of at most maxSize bytes (0: no limit). The bytes are shared with every
// other reader of the command and must not be modified.
func (x *Files) ReadFile(root, osPath string, maxSize int64) ([]byte, error) {
	if root == "" {
		return nil, ErrNoRoot
	}
	if _, ok := Contained(root, osPath); !ok {
		return nil, ErrOutside
	}
	if x.isGone(osPath) {
		return nil, &fs.PathError{Op: "open", Path: osPath, Err: fs.ErrNotExist}
	}
	if data, ok := x.buffer(osPath); ok {
		if maxSize > 0 && int64(len(data)) > maxSize {
			return nil, ErrNotRead
		}
		return data, nil
	}
	if x == nil {
		return readShared(root, osPath, maxSize)
	}
	k, e := x.entry(root, osPath)
	e.once.Do(func() {
		e.data, e.err = readShared(root, osPath, maxSize)
		e.max = maxSize
		x.keep(k, e) // its own memory: the readers waiting share it either way
	})
	switch {
	case e.data != nil && (maxSize <= 0 || int64(len(e.data)) <= maxSize):
		return e.data, nil
	case e.data != nil:
		return nil, ErrNotRead
	case e.err != nil && e.max == maxSize:
		return nil, e.err
	}
	return readShared(root, osPath, maxSize) // not kept, or refused under another limit
}

// readRaw is the package's readRaw of a unit's file, served from the
// bytes of an earlier read when they are kept, and kept for later readers
// when the budget allows. A read that failed is made again: its findings
// are the unit's own.
func (x *Files) readRaw(f *File, lim Limits, open func() (handle, error)) ([]diag.Finding, bool, error) {
	if x == nil || f.Root == "" {
		return readRaw(f, lim, open)
	}
	k, e := x.entry(f.Root, f.OSPath)
	var probs []diag.Finding
	ok, ran := false, false
	var err error
	e.once.Do(func() {
		ran = true
		if probs, ok, err = readRaw(f, lim, open); !ok {
			e.err, e.max = err, lim.MaxFileSize
			if e.err == nil {
				e.err = ErrNotRead
			}
			x.keep(k, e)
			return
		}
		x.keepUnit(k, e, f.Data)
	})
	if ran {
		return probs, ok, err
	}
	if e.data == nil || lim.MaxFileSize > 0 && int64(len(e.data)) > lim.MaxFileSize {
		return readRaw(f, lim, open)
	}
	// A copy in a buffer of f's own, which Release hands back to the pool.
	buf, pooled := getBuf(len(e.data) + 1)
	f.Data = append(buf, e.data...)
	if pooled {
		f.buf = f.Data
	}
	return nil, true, nil
}

// Wrote says the command wrote (or renamed, or removed) the files at
// osPaths: what it kept of them, and the listings of their folders, are
// dropped, so every later look-up sees the disk as it is now.
func (x *Files) Wrote(osPaths ...string) {
	if x == nil || len(osPaths) == 0 {
		return
	}
	files, folders := map[string]bool{}, map[string]bool{}
	for _, p := range osPaths {
		p = filepath.Clean(p)
		files[p], folders[filepath.Dir(p)] = true, true
	}
	for p := range files {
		x.listing.Load().Forget(p)
		x.forget(p)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for k, e := range x.dirs {
		if folders[filepath.Clean(k.path)] {
			delete(x.dirs, k)
			x.dirsN -= len(e.ents)
		}
	}
}

// forget drops the reads of osPath (under every root) and what they kept.
func (x *Files) forget(osPath string) {
	sh := x.shard(lookKey{path: osPath})
	var gone []*readEntry
	sh.mu.Lock()
	for k, e := range sh.m {
		if k.path == osPath {
			delete(sh.m, k)
			gone = append(gone, e)
		}
	}
	sh.mu.Unlock()
	// kmu is never taken while a shard's lock is held (keep takes them in
	// the other order).
	x.kmu.Lock()
	for _, e := range gone {
		x.uncount(e)
	}
	x.kmu.Unlock()
}

// readShared reads a file's bytes into memory of its own (never a pooled
// buffer: readers share it).
func readShared(root, osPath string, maxSize int64) ([]byte, error) {
	f := &File{OSPath: osPath, Root: root}
	probs, ok, err := readRaw(f, Limits{MaxFileSize: maxSize}, func() (handle, error) { return openToRead(root, osPath) })
	if !ok {
		if err == nil && len(probs) > 0 {
			err = ErrNotRead
		}
		return nil, err
	}
	data := slices.Clone(f.Data)
	if data == nil {
		data = []byte{}
	}
	f.Release()
	return data, nil
}

// Stat returns what osPath names inside root, like StatIn; an overlay's
// buffer is a regular file. Answers are not kept: a stat reads no
// content, and keeping one per path would grow with the repository.
func (x *Files) Stat(root, osPath string) (fs.FileInfo, error) {
	if x.isGone(osPath) {
		return nil, &fs.PathError{Op: "stat", Path: osPath, Err: fs.ErrNotExist}
	}
	if data, ok := x.buffer(osPath); ok && root != "" {
		if _, in := Contained(root, osPath); in {
			return bufferInfo{name: filepath.Base(osPath), size: int64(len(data))}, nil
		}
	}
	return StatIn(root, osPath)
}

// UseListing makes Exists and IsDir answer from what discovery's walk
// saw (nil: from the file system alone). Call it before the look-ups.
func (x *Files) UseListing(l *Listing) {
	if x != nil {
		x.listing.Store(l)
	}
}

// listed answers Exists and IsDir from the listing for a path inside
// root; known is false when the file system must.
func (x *Files) listed(root, osPath string) (typ byte, known bool) {
	l := x.listing.Load()
	if l == nil || root == "" {
		return entryNone, false
	}
	if _, in := Contained(root, osPath); !in {
		return entryNone, false
	}
	return l.follows(osPath)
}

// Exists reports whether osPath names something inside root.
func (x *Files) Exists(root, osPath string) bool {
	return x.lookUp(root, osPath, true, func(t byte) bool { return t != entryNone }, ExistsIn)
}

// IsDir reports whether osPath names a folder inside root.
func (x *Files) IsDir(root, osPath string) bool {
	return x.lookUp(root, osPath, false, func(t byte) bool { return t == entryDir }, IsDirIn)
}

// IsRegular reports whether osPath names a regular file inside root
// (symbolic links followed while they stay inside); an overlay's buffer
// is one.
func (x *Files) IsRegular(root, osPath string) bool {
	return x.lookUp(root, osPath, true, func(t byte) bool { return t == entryFile }, func(root, osPath string) bool {
		fi, err := StatIn(root, osPath)
		return err == nil && fi.Mode().IsRegular()
	})
}

// lookUp answers a question about osPath inside root: buffered for an
// overlay's buffer (a regular file), else from the walk's listing where
// it can tell (listed of the type it saw), else from disk.
func (x *Files) lookUp(root, osPath string, buffered bool, listed func(typ byte) bool, disk func(root, osPath string) bool) bool {
	if x == nil {
		return disk(root, osPath)
	}
	if x.isGone(osPath) {
		return false
	}
	if _, ok := x.buffer(osPath); ok && root != "" {
		if _, in := Contained(root, osPath); in {
			return buffered
		}
	}
	if t, known := x.listed(root, osPath); known {
		return listed(t)
	}
	return disk(root, osPath)
}

// ReadDir lists a folder inside root, like ReadDirIn. The entries are
// shared with every other reader of the run and must not be modified.
func (x *Files) ReadDir(root, osPath string) ([]fs.DirEntry, error) {
	if x == nil {
		return ReadDirIn(root, osPath)
	}
	ents, err := x.readDir(root, osPath)
	return x.pendingDir(osPath, ents, err)
}

func (x *Files) readDir(root, osPath string) ([]fs.DirEntry, error) {
	if t, known := x.listed(root, osPath); known && t != entryDir {
		// Nothing there, or no folder: the walk saw it (rules look for
		// folders that most projects do not have).
		return nil, &fs.PathError{Op: "readdir", Path: osPath, Err: fs.ErrNotExist}
	}
	k := lookKey{root, osPath}
	x.mu.Lock()
	e, ok := x.dirs[k]
	x.mu.Unlock()
	if ok {
		return e.ents, e.err
	}
	// Unlocked: two concurrent first listings both list, and agree.
	e.ents, e.err = ReadDirIn(root, osPath)
	x.mu.Lock()
	x.keepDir(k, e)
	x.mu.Unlock()
	return e.ents, e.err
}

// keepDir keeps the listing e of k, dropping the oldest listings to make
// room; the caller holds mu.
func (x *Files) keepDir(k lookKey, e dirEntry) {
	if len(e.ents) > x.dirBudget {
		return
	}
	if old, ok := x.dirs[k]; ok { // listed twice at once
		delete(x.dirs, k)
		x.dirsN -= len(old.ents)
	}
	n := 0
	for x.dirsN+len(e.ents) > x.dirBudget && n < len(x.dirOrder) {
		if old, ok := x.dirs[x.dirOrder[n]]; ok {
			delete(x.dirs, x.dirOrder[n])
			x.dirsN -= len(old.ents)
		}
		n++
	}
	x.dirOrder = x.dirOrder[:copy(x.dirOrder, x.dirOrder[n:])]
	if x.dirsN+len(e.ents) > x.dirBudget {
		return
	}
	x.dirOrder = append(x.dirOrder, k)
	x.dirs[k] = e
	x.dirsN += len(e.ents)
}

// bufferInfo describes an overlay's buffer: a regular file.
type bufferInfo struct {
	name string
	size int64
}

func (b bufferInfo) Name() string       { return b.name }
func (b bufferInfo) Size() int64        { return b.size }
func (b bufferInfo) Mode() fs.FileMode  { return 0o644 }
func (b bufferInfo) ModTime() time.Time { return time.Time{} }
func (b bufferInfo) IsDir() bool        { return false }
func (b bufferInfo) Sys() any           { return nil }
