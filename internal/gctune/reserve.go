package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// tuned is set once Start has taken the collector over: only then is the
// heap this package's to arrange (the language server and tests keep the
// runtime's).
var tuned atomic.Bool

var reserveOnce sync.Once

// Reserved is how much heap Reserve maps at once: Limit less the
// runtime's own memory (stacks, span and mark structures, 8-10 MiB in a
// lint) and the 5% of the limit its scavenger keeps free, so that the
// scavenger leaves the reserved pages mapped (see Limit).
const Reserved = 48 << 20

// Reserve readies the heap of a run that will read many files, before it
// allocates: Reserved bytes of heap are mapped at once and, where the
// operating system can (hugeAdvise), backed by huge pages, then handed
// back for the run's own allocations to reuse. The runtime grows its heap
// 4 KiB page by page, and on a virtual machine each first touch of a page
// costs a fault of about 18 µs that two cores take barely faster than one
// (docs/performance.md, P6): a lint of ten thousand files faulted 8,000
// heap pages. It costs one collection of a heap that is still small (a
// few milliseconds), so it is for runs that walk folders, not for a hook
// linting one file. It does nothing unless Start tuned the collector, and
// nothing after its first call.
func Reserve() {
	if !tuned.Load() {
		return
	}
	reserveOnce.Do(func() {
		// The reservation must not start a collection of its own while
		// it is still held.
		limit := debug.SetMemoryLimit(math.MaxInt64)
		defer debug.SetMemoryLimit(limit)
		// Fresh pages, which the runtime neither clears nor touches; dead
		// once advised, so the collection frees them.
		hugeAdvise(make([]byte, Reserved))
		runtime.GC()
	})
}

// ReserveAside starts Reserve on a goroutine of its own and returns at
// once. The reservation's collection marks and sweeps a heap that is
// still small, but a caller waiting for it left every other core idle for
// its 2-4 ms at the start of a run (a serial part, P6); beside the walk
// it costs the run that much less. The walk's first allocations then come
// from pages outside the reservation: a few hundred more page faults.
func ReserveAside() {
	if !tuned.Load() {
		return
	}
	go Reserve()
}
