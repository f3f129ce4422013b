package gctune

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the 4 KiB-page
// kernels of amd64 and arm64; on others the advice covers no whole page
// and changes nothing.
const hugePage = 2 << 20

// hugeAdvise asks the kernel to back the whole huge pages inside b with
// huge pages when they are first touched (MADV_HUGEPAGE: the runtime
// itself no longer does, and a kernel whose transparent huge pages are
// "madvise", the common default, then uses them only where asked). An
// error, such as a kernel without them, leaves ordinary pages.
func hugeAdvise(b []byte) {
	base := unsafe.Pointer(unsafe.SliceData(b))
	skip := -uintptr(base) & (hugePage - 1)
	if uintptr(len(b)) < skip+hugePage {
		return
	}
	n := (uintptr(len(b)) - skip) &^ (hugePage - 1)
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, skip)), n), syscall.MADV_HUGEPAGE)
}
