// Package gctune sets the garbage collector up for a lint: a short-lived
// process whose live heap stays small while it allocates hundreds of MiB
// of parse trees.
package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"github.com/resumelint/resumelint/internal/gctune/heapstart"
)

// Limit is the soft memory limit below which a lint does not collect.
// 72 MiB: above what the heap Reserve puts on huge pages plus the
// runtime's own memory, with the 5% the runtime's scavenger keeps free of
// the limit to spare. At a limit of exactly the reservation (56 MiB) the
// scavenger handed 10-20 MiB of it back to the kernel at the first
// collections, eagerly in the allocating goroutine, which then faulted
// it in again; on two cores each hand-back interrupts the other CPU to
// flush its TLB. At 72 MiB it returns next to nothing, a 1x lint collects
// four times instead of six, and on two cores it is 4% faster (15
// interleaved runs: 0.464 -> 0.443 s; one core unchanged), for about
// 12 MiB more RSS at 1x (66 -> 78 MiB) and none at 4x, whose limit the
// live heap sets (docs/performance.md).
const Limit = 72 << 20

// Spare is the room kept free above the live heap: once live+Spare is
// above Limit, the limit follows it at live+Spare. A run whose findings
// pile up then still collects once per Spare allocated, not ever more
// often as it nears a fixed limit (at 4x the findings benchmark the live
// heap reaches 30 MB: about 87 MiB of RSS instead of 74, and 4% less
// CPU). 41 MiB, not 48: at 4x the findings
// benchmark a run keeps about 40 MiB by its end, P3 bounds its peak RSS at
// 100 MiB, and a heap on huge pages (Reserve) keeps 2-3 MiB more of it;
// the extra collections cost no CPU that five runs could tell apart.
const Spare = 41 << 20

// Ceiling is the least limit once the live heap passes Spare: SPEC P3
// bounds a lint's peak RSS at 100 MiB at any file count, and RSS is the
// limit plus the 12-15 MiB the runtime keeps outside the heap. Twice
// Spare, where live+Spare reaches it. Past two thirds of it the limit
// rises as Headroom times the live heap less Bend, which meets Ceiling
// there: a run whose live heap ends near that point (8x the benchmark's
// clean repository, about 55 MB) must not find its limit doubled by a
// few MB more. That lint took 121 MiB of RSS with Headroom alone, 96 MiB
// with the ceiling, for 5% more time (55 -> 83 collections).
const Ceiling = 2 * Spare

// Headroom is how fast the limit grows with the live heap past two
// thirds of Ceiling (the work GOGC=100 does, less Bend).
const Headroom = 2

// Bend makes the limit continuous where it leaves Ceiling.
const Bend = Headroom*Ceiling*2/3 - Ceiling

// Start sets the collector up unless the environment does (getenv is
// os.Getenv): no collection until the heap nears Limit, which saves most
// collections and bounds peak RSS. A run whose live heap nears the limit
// would collect without pause, so after each collection the limit keeps
// Spare free above the live heap, then holds at Ceiling, and past two
// thirds of it follows Headroom times it: the heap grows with what the
// run keeps, never to a multiple of it that a fixed GOGC would allow on
// top of the limit (GOGC=200 took a run keeping 33 MiB to 166 MiB of
// RSS). A GOMEMLIMIT of the user's alone keeps collecting at GOGC=400,
// so the heap cannot grow unchecked below a far limit; a GOGC alone gets
// Limit.
func Start(getenv func(string) string) {
	// Nothing reads a lint's heap profile; sampling it costs a table of
	// call stacks (1.5 MiB at 4x the benchmark) inside the limit.
	runtime.MemProfileRate = 0
	ownGC, ownLimit := getenv("GOGC") == "", getenv("GOMEMLIMIT") == ""
	switch {
	case ownGC && ownLimit:
		debug.SetMemoryLimit(Limit)
		debug.SetGCPercent(-1)
		watch()
		tuned.Store(true)
	case ownGC:
		debug.SetGCPercent(400)
	case ownLimit:
		debug.SetMemoryLimit(Limit)
	}
}

// watch runs check after the next collection: the cleanup of an object
// nothing references runs once the collector has found it unreachable.
func watch() {
	runtime.AddCleanup(new([16]uint64), func(struct{}) { check() }, struct{}{})
}

func check() {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		debug.SetMemoryLimit(limitFor(s[0].Value.Uint64()))
	}
	watch()
}

// limitFor is the memory limit after a collection that left live bytes.
func limitFor(live uint64) int64 {
	switch {
	case live <= Spare:
		return max(Limit, int64(live)+Spare)
	case live <= Ceiling*2/3:
		return Ceiling
	case live > math.MaxInt64/Headroom:
		return math.MaxInt64
	}
	return int64(live)*Headroom - Bend
}

// Batch reports whether the command line args (without the program name)
// run a batch command, for which Start's tuning is made (heapstart.Batch,
// whose advice is for them too).
func Batch(args []string) bool { return heapstart.Batch(args) }
