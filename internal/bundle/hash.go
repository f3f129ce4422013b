package bundle

import (
	"github.com/resumelint/resumelint/internal/load"

	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"
	"runtime"
	"sort"
	"sync"
)

// Hashing is the only work whose cost grows with output size (SPEC §3.5):
// each file is streamed through SHA-256 with one reused buffer per worker,
// so memory does not depend on output size, and files are handed out
// largest first so the workers finish together.

// bufSize is the read size of each worker.
const bufSize = 1 << 20

// bufPool reuses worker buffers across bundles: a lint of many small
// bundles would otherwise allocate a megabyte per bundle and worker.
var bufPool = sync.Pool{New: func() any { b := make([]byte, bufSize); return &b }}

// MaxJobs caps --jobs: more readers than 4 per CPU (at most 64) only
// spend memory (a megabyte buffer each) and file descriptors, so a
// --jobs 1000000 from a workflow file cannot exhaust either.
func MaxJobs() int { return min(64, 4*runtime.NumCPU()) }

type hashJob struct {
	rel  string // relative to the root, evaluated (no symbolic links)
	size int64
}

type hashResult struct {
	hex  string
	code Code // non-empty: the file could not be hashed
	why  string
}

// hashFiles hashes jobs on up to workers goroutines (0: all CPUs) and
// returns the results in job order.
func hashFiles(root *os.Root, jobs []hashJob, workers int, prog *Progress) []hashResult {
	results := make([]hashResult, len(jobs))
	if len(jobs) == 0 {
		return results
	}
	order := make([]int, len(jobs))
	var total int64
	for i := range order {
		order[i] = i
		total += jobs[i].size
	}
	sort.SliceStable(order, func(a, b int) bool { return jobs[order[a]].size > jobs[order[b]].size })
	if prog != nil {
		prog.TotalFiles.Add(int64(len(jobs)))
		prog.TotalBytes.Add(total)
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, MaxJobs(), len(jobs))
	next := make(chan int, len(order))
	for _, i := range order {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bp := bufPool.Get().(*[]byte)
			defer bufPool.Put(bp)
			buf := *bp
			h := sha256.New()
			for i := range next {
				results[i] = hashOne(root, jobs[i], buf, h, prog)
				if prog != nil {
					prog.DoneFiles.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return results
}

// hashOne opens one file inside root without following a final symbolic
// link and without blocking on a FIFO, checks on the open handle that it
// is still a regular file, and streams it.
func hashOne(root *os.Root, j hashJob, buf []byte, h hash.Hash, prog *Progress) hashResult {
	f, err := root.OpenFile(j.rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return hashResult{code: OutputMissing, why: "disappeared while it was being verified"}
		}
		return hashResult{code: OutputMissing, why: "cannot be opened inside the %BASE%: " + plainErr(err)}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return hashResult{code: OutputMissing, why: "cannot be read: " + plainErr(err)}
	}
	if !fi.Mode().IsRegular() {
		return hashResult{code: OutputMissing, why: "became " + load.ModeName(fi.Mode()) + " while it was being verified; it was not read"}
	}
	h.Reset()
	for {
		n, err := f.Read(buf)
		if n > 0 {
			h.Write(buf[:n])
			if prog != nil {
				prog.DoneBytes.Add(int64(n))
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return hashResult{code: OutputMissing, why: "could not be read to the end: " + plainErr(err)}
		}
	}
	var sum [sha256.Size]byte
	return hashResult{hex: hex.EncodeToString(h.Sum(sum[:0]))}
}
