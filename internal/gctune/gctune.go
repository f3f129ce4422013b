// Package gctune sets the garbage collector up for a lint: a short-lived
// process whose live heap stays small while it allocates hundreds of MiB
// of parse trees.
package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Limit is the soft memory limit below which a lint does not collect.
const Limit = 64 << 20

// fallbackGOGC takes over when a run's live heap is too large for Limit.
const fallbackGOGC = 200

// Start sets the collector up unless the environment does (getenv is
// os.Getenv): no collection until the heap nears Limit, which saves most
// collections and bounds peak RSS. A run whose live heap passes half the
// limit would collect without pause near it, so the limit is then lifted
// and GOGC=200 takes over. A GOMEMLIMIT of the user's alone keeps
// collecting at GOGC=400, so the heap cannot grow unchecked below a far
// limit; a GOGC alone gets Limit.
func Start(getenv func(string) string) {
	ownGC, ownLimit := getenv("GOGC") == "", getenv("GOMEMLIMIT") == ""
	switch {
	case ownGC && ownLimit:
		debug.SetMemoryLimit(Limit)
		debug.SetGCPercent(-1)
		watch()
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
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > Limit/2 {
		debug.SetGCPercent(fallbackGOGC)
		debug.SetMemoryLimit(math.MaxInt64)
		return
	}
	watch()
}
