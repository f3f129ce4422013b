//go:build bench

// Command timeit runs a command once and prints its wall time in seconds
// and its peak resident set size in KiB (children included), so the
// benchmark script can interleave runs and take medians itself.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: timeit CMD [ARGS...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss
	}
	var self syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &self) == nil && self.Maxrss > rss {
		rss = self.Maxrss
	}
	fmt.Printf("%.6f %d\n", wall.Seconds(), rss)
}
