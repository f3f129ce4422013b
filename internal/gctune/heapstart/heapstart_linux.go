package heapstart

import (
	"os"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the 4 KiB-page
// kernels of amd64 and arm64.
const hugePage = 2 << 20

// advised is how much heap from the huge page the runtime is filling
// is advised: the rest of the runtime's first mapping of heap. What it
// maps later is a new mapping, which the advice does not reach.
const advised = 8 << 20

// madvCollapse is MADV_COLLAPSE (Linux 6.1), which package syscall does
// not name.
const madvCollapse = 25

// probe is an object the runtime placed where it is allocating now.
var probe *[64]byte

// adviseErr and collapseErr are what init's two requests answered, for
// the tests.
var adviseErr, collapseErr syscall.Errno

func init() {
	if !Batch(os.Args[1:]) {
		return
	}
	probe = new([64]byte)
	base := uintptr(unsafe.Pointer(probe)) &^ (hugePage - 1)
	// From here on, an untouched huge page of the advised range is backed
	// by one huge page at its first touch. The one being filled has pages
	// already: collapsing it copies them into a huge page, so the rest of
	// it costs no faults either. A kernel without either answers an error
	// and keeps ordinary pages.
	adviseErr = madvise(base, advised, syscall.MADV_HUGEPAGE)
	collapseErr = madvise(base, hugePage, madvCollapse)
}

// madvise is syscall.Madvise over an address range rather than a slice:
// the range is the heap's, not one object's.
func madvise(base, n, advice uintptr) syscall.Errno {
	_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, base, n, advice)
	return errno
}
