//go:build unix

package load

import "syscall"

// openFlags let Read open a FIFO or a device without waiting for a writer,
// so its type can be checked on the open handle (one stat instead of two).
const openFlags = syscall.O_NONBLOCK
