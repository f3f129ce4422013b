//go:build unix

package gitbase

import "syscall"

// openFlags keep a work-tree file that became a FIFO from blocking.
const openFlags = syscall.O_NONBLOCK
