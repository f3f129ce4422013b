//go:build bench

// Command twin is bench/run's in-process control for P6: two whole lints
// of one folder at once in one process, each with one worker, so neither
// ever waits for the other and no step of theirs is serial. Its time on
// one CPU over its time on two is what one Go process gets from a second
// CPU of this machine for this work (one heap, one collector, one address
// space shared by both CPUs), whatever the lint's own structure: the most
// P6 can read here. bench/spin gives the same for pure computation.
//
//	GOMAXPROCS=1 taskset -c 0 bench/timeit twin DIR
//	GOMAXPROCS=2 taskset -c 0-1 bench/timeit twin DIR
package main

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/resumelint/resumelint/internal/cli"
	"github.com/resumelint/resumelint/internal/gctune"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: twin DIR")
		os.Exit(2)
	}
	gctune.Start(os.Getenv) // the collector as the resumelint command sets it
	codes := make([]int, 2)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = cli.Main([]string{"lint", "--quiet", "--format", "json", "--jobs", "1", os.Args[1]}, os.Stdin, io.Discard, io.Discard)
		}()
	}
	wg.Wait()
	if codes[0] != codes[1] || codes[0] > 1 {
		fmt.Fprintf(os.Stderr, "twin: the lints exited %d and %d\n", codes[0], codes[1])
		os.Exit(2)
	}
}
