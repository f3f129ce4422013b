//go:build bench

// Command spin is bench/run's control for P6: a fixed amount of pure
// computation (no memory, no system calls) split over GOMAXPROCS
// goroutines. On a machine whose cores are its own it runs twice as fast
// on two cores as on one; a shared virtual machine may give two CPUs the
// speed of one for minutes, and then no program scales. bench/run prints
// its ratio beside P6's, so a P6 figure can be read against what the
// machine gave at the time.
//
//	GOMAXPROCS=2 taskset -c 0-1 bench/timeit spin
package main

import (
	"fmt"
	"runtime"
	"sync"
)

// rounds is about half a second of one core's work.
const rounds = 400_000_000

func main() {
	n := runtime.GOMAXPROCS(0)
	sums := make([]uint64, n*8) // a cache line apart
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := uint64(w + 1)
			for range rounds / n {
				x = x*6364136223846793005 + 1442695040888963407
				x ^= x >> 29
			}
			sums[w*8] = x
		}()
	}
	wg.Wait()
	var all uint64
	for _, s := range sums {
		all ^= s
	}
	fmt.Println(all != 0)
}
