//go:build unix

package fix

import "syscall"

// openFlags keep a file that became a FIFO from blocking the re-read.
const openFlags = syscall.O_NONBLOCK
