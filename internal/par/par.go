// Package par runs the iterations of a loop on every core, for the stages
// of a run that would otherwise leave all cores but one idle (discovery's
// classification, the filter).
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls fn(i) for i in [0, n), on as many goroutines as there
// are cores, each for at least per calls. The goroutines take chunks of
// the range as they go, not a fixed share: with shares dealt out in
// advance, a goroutine whose core the system takes away, or whose calls
// cost more, finishes its share alone while the others idle.
func Each(n, per int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/per+1)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	chunk := max(1, min(per, n/(8*workers)))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				end := int(next.Add(int64(chunk)))
				start := end - chunk
				if start >= n {
					return
				}
				for i := start; i < min(end, n); i++ {
					fn(i)
				}
			}
		}()
	}
	wg.Wait()
}
