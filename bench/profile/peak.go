//go:build bench

package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// peakWatch keeps the heap profile taken when the live heap was largest:
// what a run holds at its peak, where RSS is decided, not at its end.
type peakWatch struct {
	live uint64 // written by the watching goroutine, read once it is done
	prof []byte
	stop chan struct{}
	done chan struct{}
}

// watchPeak samples the live heap (as of the last collection) every few
// milliseconds and takes a heap profile each time it is larger than any
// before.
func watchPeak() *peakWatch {
	w := &peakWatch{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
			metrics.Read(s)
			if live := s[0].Value.Uint64(); live > w.live {
				var b bytes.Buffer
				if err := pprof.Lookup("heap").WriteTo(&b, 0); err == nil {
					w.live, w.prof = live, b.Bytes()
				}
			}
		}
	}()
	return w
}

// write stops the watch and writes the profile of the peak to name.
func (w *peakWatch) write(name string) {
	close(w.stop)
	<-w.done
	if err := os.WriteFile(name, w.prof, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "peak live heap %d MiB\n", w.live>>20)
}
