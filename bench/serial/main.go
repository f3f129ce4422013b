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
	stackOf        int
	inStack        bool
	picked, frames int // project frames kept of this stack, and at most
}

func main() {
	frames := flag.Int("frames", 1, "project frames to name a goroutine by: its innermost and then its callers")
	flag.Parse()
	if flag.NArg() != 1 || *frames < 1 {
		fmt.Fprintln(os.Stderr, "usage: serial [-frames N] TRACE")
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
	t := &tally{active: map[int]bool{}, where: map[int]string{}, byFunc: map[string]int64{}, procs: 1, t0: -1, frames: *frames}
	t.read(out)
	if err := cmd.Wait(); err != nil {
		log.Fatal(err)
	}
	t.print()
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

// advance counts the time since the last event as serial or parallel.
func (t *tally) advance(at int64) {
	if t.t0 < 0 {
		t.t0, t.last = at, at
	}
	if at <= t.last {
		return
	}
	d := at - t.last
	t.last = at
	if len(t.active) >= 2 {
		t.par += d
		return
	}
	t.serial += d
	name := "(none: waiting)"
	for id := range t.active {
		name = t.where[id]
		if name == "" {
			name = "(runtime)"
		}
	}
	t.byFunc[name] += d
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
