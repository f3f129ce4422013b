//go:build bench

// Command profile runs one lint in process under the Go profilers, for
// finding what a benchmark figure is made of:
//
//	go run -tags bench ./bench/profile -cpu cpu.prof -mem mem.prof -- lint DIR
//	go tool pprof -top cpu.prof
//
// -peak writes the heap profile of the largest live heap instead, which
// is what decides a run's peak RSS:
//
//	go run -tags bench ./bench/profile -peak peak.prof -- lint DIR
//	go tool pprof -sample_index=inuse_space -top peak.prof
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"

	"github.com/resumelint/resumelint/internal/cli"
	"github.com/resumelint/resumelint/internal/gctune"
)

func main() {
	cpu := flag.String("cpu", "", "write a CPU profile here")
	mem := flag.String("mem", "", "write a heap profile (in use at the end of the run) here")
	peak := flag.String("peak", "", "write a heap profile of the largest live heap the run reached here")
	flag.Parse()
	gctune.Start(os.Getenv) // the collector as the resumelint command sets it
	var peaks *peakWatch
	switch {
	case *peak != "":
		// Finer: the peak's profile is read for what a run keeps.
		runtime.MemProfileRate = 32 << 10
		peaks = watchPeak()
	case *mem != "":
		runtime.MemProfileRate = 512 << 10 // gctune turns sampling off
	}
	if *cpu != "" {
		f, err := os.Create(*cpu)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	code := cli.Main(flag.Args(), os.Stdin, io.Discard, os.Stderr)
	if *cpu != "" {
		pprof.StopCPUProfile()
	}
	if peaks != nil {
		peaks.write(*peak)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	runtime.GC() // the heap profile shows what is still live, not garbage
	printCPUClasses()
	fmt.Fprintf(os.Stderr, "exit %d; heap in use %d MiB, total allocated %d MiB, GC cycles %d\n", code, ms.HeapInuse>>20, ms.TotalAlloc>>20, ms.NumGC)
	if *mem != "" {
		f, err := os.Create(*mem)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			log.Fatal(err)
		}
	}
}

// printCPUClasses prints where the run's CPU time went as the runtime
// counts it, the idle share above all: time a P had no goroutine to run
// is what keeps a run from scaling with cores.
func printCPUClasses() {
	names := []string{
		"/cpu/classes/user:cpu-seconds",
		"/cpu/classes/gc/mark/assist:cpu-seconds",
		"/cpu/classes/gc/mark/dedicated:cpu-seconds",
		"/cpu/classes/gc/mark/idle:cpu-seconds",
		"/cpu/classes/gc/pause:cpu-seconds",
		"/cpu/classes/scavenge/total:cpu-seconds",
		"/cpu/classes/idle:cpu-seconds",
		"/cpu/classes/total:cpu-seconds",
	}
	samples := make([]metrics.Sample, len(names))
	for i, n := range names {
		samples[i].Name = n
	}
	metrics.Read(samples)
	for _, s := range samples {
		if s.Value.Kind() == metrics.KindFloat64 {
			fmt.Fprintf(os.Stderr, "%-45s %8.3f s\n", s.Name, s.Value.Float64())
		}
	}
}
