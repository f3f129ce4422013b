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
// once while its bytes are kept, within a budget; and an editor's unsaved
// buffers (the overlay) stand for the files rules read, so cross-file
// rules see what the editor shows. A command that writes a file says so
// (Wrote) before it reads it again. A nil *Files reads straight from
// disk, unshared. Safe for concurrent use.
type Files struct {
	overlay Overlay // by absolute, clean OS path; nil for none
	// listing is what discovery's walk saw (UseListing): Exists and
	// IsDir answer from it without a system call where it can tell.
	listing atomic.Pointer[Listing]

	// reads are the files read, spread over shards by path: every file
	// a run reads takes a lock twice, from every core, and with one lock
	// a worker whose core stalled while holding it held up all the others.
	seed  maphash.Seed
	reads [readShards]readShard
	held  atomic.Int64 // bytes kept by reads
	units atomic.Int64 // the part of held that units read
	// budget bounds held, and unitBudget the units' part of it.
	budget, unitBudget int64

	mu    sync.Mutex // guards dirs and dirsN
	dirs  map[lookKey]dirEntry
	dirsN int // folder entries kept in dirs, at most maxDirEntries
}

// readShards is how many shards Files spreads its reads over.
const readShards = 32

// readShard holds the reads whose path hashes to it.
type readShard struct {
	mu sync.Mutex
	m  map[lookKey]*readEntry
	_  [48]byte // a shard to a cache line
}

const (
	// readBudget bounds the bytes Files keeps for later readers: past it
	// a read is answered but not kept, so a command's memory stays
	// bounded (SPEC §9 P3).
	readBudget = 8 << 20
	// maxDirEntries bounds the folder entries ReadDir keeps: past it a
	// listing is answered but not kept.
	maxDirEntries = 1 << 14
	// unitBudget is the part of it units' bytes may take: a unit is read
	// again only by a dry run, which most lints never make, so its bytes
	// take a small share (the state files of most repositories whole).
	unitBudget = 2 << 20
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
	unit bool  // a unit's read: its bytes count in units
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
		budget: readBudget, unitBudget: unitBudget, overlay: overlay}
	for i := range x.reads {
		x.reads[i].m = map[lookKey]*readEntry{}
	}
	return x
}

// buffer returns the overlay's content for osPath.
func (x *Files) buffer(osPath string) ([]byte, bool) {
	if x == nil || x.overlay == nil {
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

// keep counts n more bytes kept by e, or drops e when the budget is
// spent (it was answered, and is kept for no one else).
func (x *Files) keep(k lookKey, e *readEntry, n int64) bool {
	if reserve(&x.held, n, x.budget) {
		if !e.unit || reserve(&x.units, n, x.unitBudget) {
			return true
		}
		x.held.Add(-n)
	}
	sh := x.shard(k)
	sh.mu.Lock()
	delete(sh.m, k)
	sh.mu.Unlock()
	return false
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
		x.keep(k, e, int64(cap(e.data))) // its own memory: the readers waiting share it either way
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
			return
		}
		e.unit = true
		if x.keep(k, e, int64(cap(f.Data))) {
			e.data = f.Data
			f.buf = nil // the memo keeps the bytes: Release must not recycle them
		}
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
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for k, e := range sh.m {
		if k.path != osPath {
			continue
		}
		delete(sh.m, k)
		if n := int64(cap(e.data)); e.data != nil {
			x.held.Add(-n)
			if e.unit {
				x.units.Add(-n)
			}
		}
	}
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
	if x.dirsN+len(e.ents) <= maxDirEntries {
		x.dirs[k] = e
		x.dirsN += len(e.ents)
	}
	x.mu.Unlock()
	return e.ents, e.err
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
