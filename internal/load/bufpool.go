package load

import (
	"math/bits"
	"sync"
)

// A lint reads every file once, parses it and drops its bytes when the
// unit ends (Release): the read buffers are recycled, by size class, so
// a run allocates them about once per worker instead of once per file
// (a tenth of what a lint allocated).

const (
	minBufShift = 12 // 4 KiB
	maxBufShift = 20 // 1 MiB: larger files get a buffer of their own
)

var bufPools [maxBufShift - minBufShift + 1]sync.Pool

// getBuf returns an empty buffer of capacity at least n, and whether it
// is pooled (putBuf takes it back).
func getBuf(n int) ([]byte, bool) {
	shift := max(bits.Len(uint(n-1)), minBufShift)
	if n <= 0 || shift > maxBufShift {
		return make([]byte, 0, max(n, 0)), false
	}
	if b, ok := bufPools[shift-minBufShift].Get().(*[]byte); ok {
		return (*b)[:0], true
	}
	return make([]byte, 0, 1<<shift), true
}

// putBuf hands a buffer from getBuf back. Its bytes are overwritten
// first, so a slice of it kept by mistake shows 0xFF bytes (invalid
// UTF-8) in every test rather than another file's text.
func putBuf(b []byte) {
	b = b[:cap(b)]
	shift := bits.Len(uint(len(b) - 1))
	if len(b) != 1<<shift || shift < minBufShift || shift > maxBufShift {
		return
	}
	b[0] = 0xFF
	for i := 1; i < len(b); i *= 2 {
		copy(b[i:], b[:i])
	}
	bufPools[shift-minBufShift].Put(&b)
}
