package load

import (
	"hash/maphash"
	"sync/atomic"
)

// The keys of a kind's documents are the same few hundred in every file,
// and a string of its own for each was a fiftieth of a lint's allocation.
// internKey returns a shared string for a short key from a fixed table of
// slots, each holding the last key that hashed there: no lock, nothing
// that grows, and a miss only costs the string it would have made anyway
// (and its slot's cell).
var (
	keySlots [4096]atomic.Pointer[string]
	keySeed  = maphash.MakeSeed()
)

// maxInterned bounds the keys interned: longer ones are rarely repeated.
const maxInterned = 48

func internKey(b []byte) string {
	if len(b) > maxInterned {
		return string(b)
	}
	slot := &keySlots[maphash.Bytes(keySeed, b)%uint64(len(keySlots))]
	if s := slot.Load(); s != nil && *s == string(b) {
		return *s
	}
	s := string(b)
	slot.Store(&s)
	return s
}
