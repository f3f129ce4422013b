package gctune

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"
)

func collections() uint32 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.NumGC
}

func TestReserveNeedsStart(t *testing.T) {
	was := tuned.Swap(false) // as in a process that never called Start
	t.Cleanup(func() { tuned.Store(was) })
	before := collections()
	Reserve()
	if after := collections(); after != before {
		t.Errorf("Reserve without Start collected %d times", after-before)
	}
}

func TestReserveHandsTheHeapBack(t *testing.T) {
	freshTuned(t)
	before := collections()
	Reserve()
	if collections() == before {
		t.Fatal("Reserve did not collect its reservation")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc >= Limit/2 {
		t.Errorf("heap in use after Reserve: %d bytes; the reservation was kept", ms.HeapAlloc)
	}
	if _, limit := settings(); limit != Limit {
		t.Errorf("memory limit after Reserve: %d, want %d", limit, Limit)
	}
	again := collections()
	Reserve()
	if collections() != again {
		t.Error("a second Reserve collected again")
	}
}

// ReserveAside returns before the reservation is made, which then is.
func TestReserveAside(t *testing.T) {
	freshTuned(t)
	before := collections()
	ReserveAside()
	deadline := time.Now().Add(10 * time.Second)
	for collections() == before {
		if time.Now().After(deadline) {
			t.Fatal("ReserveAside made no reservation in 10 s")
		}
		time.Sleep(time.Millisecond)
	}
	reserveOnce.Do(func() {}) // waits for the reservation to finish
	if _, limit := settings(); limit != Limit {
		t.Errorf("memory limit after ReserveAside: %d, want %d", limit, Limit)
	}
}

// freshTuned sets up a process as Start leaves it, with no reservation made.
func freshTuned(t *testing.T) {
	restore(t)
	was := tuned.Swap(true)
	reserveOnce = sync.Once{}
	t.Cleanup(func() { tuned.Store(was) })
	debug.SetMemoryLimit(Limit)
}

// TestReservationUnderTheScavengersGoal: the runtime's scavenger returns
// free heap to the kernel while the memory it has mapped passes 95% of the
// limit; the reservation plus the runtime's own memory of a lint (about
// 10 MiB) must stay under it, or the run faults the reserved pages in
// again (see Limit).
func TestReservationUnderTheScavengersGoal(t *testing.T) {
	const runtimeOwn = 10 << 20
	if goal := Limit * 95 / 100; Reserved+runtimeOwn > goal {
		t.Errorf("Reserved %d MiB + the runtime's %d MiB > %d MiB, the scavenger's goal at Limit %d MiB",
			Reserved>>20, runtimeOwn>>20, goal>>20, Limit>>20)
	}
}
