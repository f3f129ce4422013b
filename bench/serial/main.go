//go:build bench

// Command serial reads a runtime trace of one run (RESUMELINT_TRACE) and
// measures its serial part: the time at most one goroutine had work
// (running, runnable or in a system call), with the code it was in. Go
// has no trace reader outside x/exp, so it reads what `go tool trace
// -d=parsed` prints.
//
//	RESUMELINT_TRACE=run.trace resumelint lint --quiet .
//	go run -tags bench ./bench/serial run.trace
//	go run -tags bench ./bench/serial -frames 3 run.trace   (callers too)
//
// It prints one line first, "SERIAL_MS PARALLEL_MS FRACTION", where
// FRACTION estimates the serial share of a run's single-core time as
// S / (S + n·P) for a trace taken with n = GOMAXPROCS (see
// docs/performance.md, P6), then the serial time by function.
//
// With -cores N it also projects the run to N cores from a trace taken
// with GOMAXPROCS=N on fewer CPUs (-cpus), so that the run starts the
// workers N cores get:
//
//	RESUMELINT_TRACE=run.trace GOMAXPROCS=8 resumelint lint --quiet .
//	go run -tags bench ./bench/serial -cores 8 -cpus 2 run.trace
//
// The projection counts only how many goroutines had work: it sees the
// phases a run cannot spread over N cores, not what N cores would lose to
// sharing memory, the collector or a lock (a goroutine descheduled by the
// OS while it holds a lock makes the others wait far longer than on N
// real cores, so the names it prints lean to locks). The engine starts at
// most four workers a CPU: project to at most 4 × -cpus.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var (
	event   = regexp.MustCompile(`^M=\S+ P=\S+ G=(\S+) \w+ Time=(\d+)(?: GoID=(\d+) (\w+)->(\w+))?`)
	procsRe = regexp.MustCompile(`Name="/sched/gomaxprocs:threads" Value=Value\{Uint64\((\d+)\)\}`)
)

// tally is the state of one pass over the events.
type tally struct {
	active         map[int]bool
	where          map[int]string // a goroutine's latest project frame
	last, t0       int64
	serial, par    int64
	procs          int
	byFunc         map[string]int64
	byWidth        map[int]int64    // time by how many goroutines had work
	narrow         map[string]int64 // time below cores goroutines, by where each last was
	cores, cpus    int
	stackOf        int
	inStack        bool
	picked, frames int // project frames kept of this stack, and at most
}

func main() {
	frames := flag.Int("frames", 1, "project frames to name a goroutine by: its innermost and then its callers")
	cores := flag.Int("cores", 0, "project the run to this many cores, and name what had fewer goroutines with work (trace taken with GOMAXPROCS at least that)")
	cpus := flag.Int("cpus", 0, "CPUs the traced run had (default: its GOMAXPROCS)")
	flag.Parse()
	if flag.NArg() != 1 || *frames < 1 {
		fmt.Fprintln(os.Stderr, "usage: serial [-frames N] [-cores N [-cpus C]] TRACE")
		os.Exit(2)
	}
	cmd := exec.Command("go", "tool", "trace", "-d=parsed", flag.Arg(0))
	out, err := cmd.StdoutPipe()
	if err != nil {
		log.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		log.Fatal(err)
	}
	t := &tally{active: map[int]bool{}, where: map[int]string{}, byFunc: map[string]int64{}, procs: 1, t0: -1, frames: *frames,
		byWidth: map[int]int64{}, narrow: map[string]int64{}, cores: *cores, cpus: *cpus}
	t.read(out)
	if err := cmd.Wait(); err != nil {
		log.Fatal(err)
	}
	t.print()
	if t.cores > 0 {
		t.project()
	}
}

func (t *tally) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if t.stackLine(line) {
			continue
		}
		if m := procsRe.FindStringSubmatch(line); m != nil {
			t.procs, _ = strconv.Atoi(m[1])
		}
		m := event.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		at, _ := strconv.ParseInt(m[2], 10, 64)
		t.advance(at)
		t.stackOf, _ = strconv.Atoi(m[1])
		if m[3] == "" {
			continue
		}
		id, _ := strconv.Atoi(m[3])
		if m[4] == "Running" || m[5] == "Running" {
			t.stackOf = id
		}
		switch m[5] {
		case "Running", "Runnable", "Syscall":
			t.active[id] = true
		default:
			delete(t.active, id)
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}

// stackLine follows the stack printed after an event, keeping the first
// frames of the project's own code as where its goroutine is.
func (t *tally) stackLine(line string) bool {
	switch {
	case strings.HasPrefix(line, "Stack="):
		t.inStack, t.picked = true, 0
		return true
	case !t.inStack:
		return false
	case strings.TrimSpace(line) == "":
		t.inStack = false
		return true
	}
	f := strings.TrimSpace(line)
	if t.picked < t.frames && !isFileLine(f) && (strings.Contains(f, "/resumelint/internal/") || strings.HasPrefix(f, "main.")) {
		name := strings.TrimPrefix(strings.SplitN(f, " @", 2)[0], "github.com/resumelint/resumelint/internal/")
		if t.picked > 0 {
			name = t.where[t.stackOf] + " < " + name
		}
		t.where[t.stackOf] = name
		t.picked++
	}
	return true
}

// advance counts the time since the last event as serial or parallel,
// and by how many goroutines had work.
func (t *tally) advance(at int64) {
	if t.t0 < 0 {
		t.t0, t.last = at, at
	}
	if at <= t.last {
		return
	}
	d := at - t.last
	t.last = at
	k := len(t.active)
	t.byWidth[k] += d
	if t.cores > 0 && k < t.cores {
		for id := range t.active {
			t.narrow[t.nameOf(id)] += d / int64(k)
		}
	}
	if k >= 2 {
		t.par += d
		return
	}
	t.serial += d
	name := "(none: waiting)"
	for id := range t.active {
		name = t.nameOf(id)
	}
	t.byFunc[name] += d
}

func (t *tally) nameOf(id int) string {
	if name := t.where[id]; name != "" {
		return name
	}
	return "(runtime)"
}

func (t *tally) print() {
	ms := func(ns int64) float64 { return float64(ns) / 1e6 }
	frac := float64(t.serial) / float64(t.serial+int64(t.procs)*t.par)
	fmt.Printf("%.1f %.1f %.4f\n", ms(t.serial), ms(t.par), frac)
	names := make([]string, 0, len(t.byFunc))
	for n := range t.byFunc {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return t.byFunc[names[i]] > t.byFunc[names[j]] })
	fmt.Printf("GOMAXPROCS %d, wall %.1f ms: serial %.1f ms, at least two goroutines with work %.1f ms\n", t.procs, ms(t.last-t.t0), ms(t.serial), ms(t.par))
	for i, n := range names {
		if i == 12 {
			break
		}
		fmt.Printf("%9.1f ms  %s\n", ms(t.byFunc[n]), n)
	}
}

// isFileLine reports whether a stack line is a frame's file and line
// (absolute, or module-relative in a -trimpath build), not its function.
func isFileLine(f string) bool {
	return strings.HasPrefix(f, "/") || strings.Contains(f, ".go:")
}

// project estimates the run's wall time at 1, 2 and t.cores cores from
// how many goroutines had work over time: an interval where k had work on
// c CPUs did min(k, c) CPUs' worth of it, which n cores do in that work
// over min(k, n); time when none had work (waiting on git, say) stays.
// A trace taken with GOMAXPROCS=8 on a 2-CPU machine so shows what 8
// cores would leave narrow, from the goroutines the run starts for 8.
func (t *tally) project() {
	cpus := t.cpus
	if cpus == 0 {
		cpus = t.procs
	}
	at := func(n int) float64 {
		var sum float64
		for k, d := range t.byWidth {
			if k == 0 {
				sum += float64(d)
				continue
			}
			sum += float64(d) * float64(min(k, cpus)) / float64(min(k, n))
		}
		return sum / 1e6
	}
	one, two, n := at(1), at(2), at(t.cores)
	fmt.Printf("projected: 1 core %.1f ms, 2 cores %.1f ms (%.2fx), %d cores %.1f ms (%.2fx; %.2fx of 2 cores)\n",
		one, two, one/two, t.cores, n, one/n, two/n)
	widths := make([]int, 0, len(t.byWidth))
	for k := range t.byWidth {
		widths = append(widths, k)
	}
	sort.Ints(widths)
	for _, k := range widths {
		fmt.Printf("%9.1f ms  with %d goroutines with work\n", float64(t.byWidth[k])/1e6, k)
	}
	names := make([]string, 0, len(t.narrow))
	for name := range t.narrow {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return t.narrow[names[i]] > t.narrow[names[j]] })
	fmt.Printf("fewer than %d goroutines with work, by where each last was:\n", t.cores)
	for i, name := range names {
		if i == 15 {
			break
		}
		fmt.Printf("%9.1f ms  %s\n", float64(t.narrow[name])/1e6, name)
	}
}
