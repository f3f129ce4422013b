// Package heapstart puts the pages the heap is filling when a batch
// command starts on a huge page, before the packages that allocate most at
// start initialise. Imported for its effect by main alone; it imports
// nothing but os, syscall and unsafe, so that Go initialises it among the
// first packages (the order is by import path among those whose imports
// are ready), ahead of the CUE packages' dependencies.
//
// A lint of one file (a pre-commit or agent hook, SPEC §9 P4) touched
// 2 MiB of heap page by page: 540 of its 880 page faults, and on a virtual
// machine about 6 ms of its 19 (docs/performance.md). The runtime no longer
// asks for huge pages, and a kernel whose transparent huge pages are
// "madvise", the common default, then uses none for the heap.
package heapstart

// Batch reports whether the command line args (without the program name)
// run a batch command: a lint, fix or status that allocates and exits.
// The language server is long-lived and its heap follows the open editor,
// so it keeps the runtime's defaults, for the heap's pages as for the
// collector (gctune).
func Batch(args []string) bool {
	return len(args) == 0 || args[0] != "server"
}
