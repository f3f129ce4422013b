package report

import (
	"bytes"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// blockSize is how many items one goroutine renders at a time.
const blockSize = 256

var blockBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// inOrder writes what render makes of items 0..n-1 to w, in order. Writing
// the report is what is left of a run once every unit is checked, so
// many items are rendered on every core, a block of them at a time; at
// most two blocks per core are held, rendered and not yet written, so a
// report of any size streams. render must only read what it shares.
func inOrder(w io.Writer, n int, render func(buf *bytes.Buffer, i int)) error {
	blocks := (n + blockSize - 1) / blockSize
	workers := min(runtime.GOMAXPROCS(0), blocks)
	if workers < 2 {
		buf := blockBufs.Get().(*bytes.Buffer)
		defer blockBufs.Put(buf)
		for i := range n {
			render(buf, i)
			if buf.Len() >= 64<<10 || i == n-1 {
				if _, err := w.Write(buf.Bytes()); err != nil {
					return err
				}
				buf.Reset()
			}
		}
		return nil
	}
	made := make([]chan *bytes.Buffer, blocks)
	for b := range made {
		made[b] = make(chan *bytes.Buffer, 1)
	}
	// A worker takes a slot before it takes the next block, and blocks are
	// taken in order: the block the writer waits for is always being
	// rendered, by a worker that holds a slot.
	slots := make(chan struct{}, 2*workers)
	var next atomic.Int64
	for range workers {
		go func() {
			for {
				slots <- struct{}{}
				b := int(next.Add(1)) - 1
				if b >= blocks {
					<-slots
					return
				}
				buf := blockBufs.Get().(*bytes.Buffer)
				for i := b * blockSize; i < min(n, (b+1)*blockSize); i++ {
					render(buf, i)
				}
				made[b] <- buf
			}
		}()
	}
	var err error
	for b := range made {
		buf := <-made[b]
		if err == nil {
			_, err = w.Write(buf.Bytes())
		}
		buf.Reset()
		blockBufs.Put(buf)
		<-slots
	}
	return err
}
