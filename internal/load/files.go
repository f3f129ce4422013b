package load

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Files is the file access a run gives its rules beyond their units: every
// look-up confined to a root through the same os.Root machinery as Read
// (OpenIn, StatIn), each file read at most once per run however many rules
// or units ask for it, and an editor's unsaved buffers (the overlay) in
// place of the files they stand for, so cross-file rules see what the
// editor shows. A nil *Files reads straight from disk, unshared.
type Files struct {
	overlay map[string][]byte // by absolute, clean OS path

	mu    sync.Mutex
	reads map[readKey]*readEntry
	stats map[lookKey]statEntry
	dirs  map[lookKey]dirEntry
	held  int64 // bytes kept by reads
}

// maxHeld bounds the bytes Files keeps for later readers: past it a read
// is answered but not kept, so a run's memory stays bounded.
const maxHeld = 64 << 20

// ErrNotRead is the error of a file that is no regular file or is larger
// than the size limit: it is not read.
var ErrNotRead = errors.New("not a regular file within the size limit; not read")

type readKey struct {
	root, path string
	max        int64
}

type readEntry struct {
	once sync.Once
	data []byte
	err  error
}

type lookKey struct{ root, path string }

type statEntry struct {
	fi  fs.FileInfo
	err error
}

type dirEntry struct {
	ents []fs.DirEntry
	err  error
}

// NewFiles returns a run's file access; overlay maps OS paths to the
// unsaved content that stands for them (nil for none).
func NewFiles(overlay map[string][]byte) *Files {
	x := &Files{reads: map[readKey]*readEntry{}, stats: map[lookKey]statEntry{}, dirs: map[lookKey]dirEntry{}}
	if len(overlay) > 0 {
		x.overlay = make(map[string][]byte, len(overlay))
		for p, data := range overlay {
			if abs, err := filepath.Abs(p); err == nil {
				x.overlay[abs] = data
			}
		}
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
	data, ok := x.overlay[abs]
	return data, ok
}

// ReadFile returns the bytes of the regular file at osPath inside root,
// of at most maxSize bytes (0: no limit). The bytes are shared with every
// other reader of the run and must not be modified.
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
	k := readKey{root, osPath, maxSize}
	x.mu.Lock()
	e := x.reads[k]
	if e == nil {
		e = &readEntry{}
		x.reads[k] = e
	}
	x.mu.Unlock()
	e.once.Do(func() {
		e.data, e.err = readShared(root, osPath, maxSize)
		x.mu.Lock()
		defer x.mu.Unlock()
		if x.held += int64(len(e.data)); x.held > maxHeld {
			delete(x.reads, k) // answered once, kept for no one else
		}
	})
	return e.data, e.err
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
// buffer is a regular file.
func (x *Files) Stat(root, osPath string) (fs.FileInfo, error) {
	if data, ok := x.buffer(osPath); ok && root != "" {
		if _, in := Contained(root, osPath); in {
			return bufferInfo{name: filepath.Base(osPath), size: int64(len(data))}, nil
		}
	}
	if x == nil {
		return StatIn(root, osPath)
	}
	e := memo(x, x.stats, lookKey{root, osPath}, func() (e statEntry) {
		e.fi, e.err = StatIn(root, osPath)
		return e
	})
	return e.fi, e.err
}

// memo returns m's answer for k, looking it up first (unlocked: two
// concurrent first look-ups both look, and agree).
func memo[T any](x *Files, m map[lookKey]T, k lookKey, look func() T) T {
	x.mu.Lock()
	e, ok := m[k]
	x.mu.Unlock()
	if !ok {
		e = look()
		x.mu.Lock()
		m[k] = e
		x.mu.Unlock()
	}
	return e
}

// Exists reports whether osPath names something inside root.
func (x *Files) Exists(root, osPath string) bool {
	if x == nil {
		return ExistsIn(root, osPath)
	}
	_, err := x.Stat(root, osPath)
	return err == nil
}

// IsDir reports whether osPath names a folder inside root.
func (x *Files) IsDir(root, osPath string) bool {
	if x == nil {
		return IsDirIn(root, osPath)
	}
	fi, err := x.Stat(root, osPath)
	return err == nil && fi.IsDir()
}

// ReadDir lists a folder inside root, like ReadDirIn. The entries are
// shared with every other reader of the run and must not be modified.
func (x *Files) ReadDir(root, osPath string) ([]fs.DirEntry, error) {
	if x == nil {
		return ReadDirIn(root, osPath)
	}
	e := memo(x, x.dirs, lookKey{root, osPath}, func() (e dirEntry) {
		e.ents, e.err = ReadDirIn(root, osPath)
		return e
	})
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
