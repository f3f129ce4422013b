package par

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// Each calls fn once for every index, and a goroutine held up in
// one call does not hold up the indices after it: the others take them
// (a share dealt out in advance waited for the held-up goroutine).
func TestEachTakesWhatIsLeft(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	for _, n := range []int{0, 1, 7, 64, 1000} {
		counts := make([]atomic.Int32, n)
		Each(n, 16, func(i int) { counts[i].Add(1) })
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
	const n = 200
	var done atomic.Int32
	rest := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		Each(n, 1, func(i int) {
			if i == 0 {
				select { // held up until every other index is done
				case <-rest:
				case <-time.After(10 * time.Second):
				}
				return
			}
			if done.Add(1) == n-1 {
				close(rest)
			}
		})
		close(finished)
	}()
	select {
	case <-rest:
	case <-time.After(5 * time.Second):
		t.Fatalf("with one goroutine held up, %d of %d other indices were done", done.Load(), n-1)
	}
	<-finished
}
