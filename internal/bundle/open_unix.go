//go:build unix

package bundle

import "syscall"

// openFlags make opening a path that turned into a FIFO after it was
// checked return at once instead of waiting for a writer.
const openFlags = syscall.O_NONBLOCK
