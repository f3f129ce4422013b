//go:build unix

package main

import "syscall"

// mkfifo makes a named pipe at p (the hostile-input cases that need one
// skip where there is none).
func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
