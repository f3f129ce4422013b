package load

import (
	"path/filepath"
	"sync"
)

// ReadMemo keeps the bytes of a run's reads, so that a file a run needs
// again (the steps file two rules of one project read, every file of the
// dry run that settles safe fixes) is read from disk once. It holds at
// most its budget of bytes: past that, files are read again, so its
// memory does not grow with the repository. Set it as Limits.Reads for
// one run of files that do not change under it (never across an edit or
// a write). Safe for concurrent use.
type ReadMemo struct {
	mu     sync.Mutex
	budget int64
	used   int64
	m      map[memoKey][]byte
}

type memoKey struct{ root, path string }

// DefaultReadBudget is what a lint's memo holds: the state files of most
// repositories whole, and a small share of SPEC §9 P3's memory bound.
const DefaultReadBudget = 8 << 20

// NewReadMemo returns an empty memo that holds at most budget bytes.
func NewReadMemo(budget int64) *ReadMemo {
	return &ReadMemo{budget: budget, m: map[memoKey][]byte{}}
}

func keyOf(f *File) memoKey { return memoKey{f.Root, filepath.Clean(f.OSPath)} }

// get returns a copy of the bytes of f's earlier read, in a buffer of f's
// own that Release hands back to the pool.
func (rm *ReadMemo) get(f *File) bool {
	rm.mu.Lock()
	data, ok := rm.m[keyOf(f)]
	rm.mu.Unlock()
	if !ok {
		return false
	}
	buf, pooled := getBuf(len(data) + 1)
	f.Data = append(buf, data...)
	if pooled {
		f.buf = f.Data
	}
	return true
}

// put keeps data, the bytes of f as read, when the budget allows; the
// memo then owns them (nothing writes into a file's bytes).
func (rm *ReadMemo) put(f *File, data []byte) bool {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	k := keyOf(f)
	if _, ok := rm.m[k]; ok || rm.used+int64(cap(data)) > rm.budget {
		return false
	}
	rm.m[k] = data
	rm.used += int64(cap(data))
	return true
}
