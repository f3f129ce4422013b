package gctune

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// settings reads the collector's settings without changing them.
func settings() (gogc int, limit int64) {
	gogc = debug.SetGCPercent(-1)
	debug.SetGCPercent(gogc)
	return gogc, debug.SetMemoryLimit(-1)
}

func restore(t *testing.T) {
	gogc, limit := settings()
	t.Cleanup(func() {
		debug.SetGCPercent(gogc)
		debug.SetMemoryLimit(limit)
	})
}

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestStartHonoursTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name  string
		vars  map[string]string
		gogc  int
		limit int64
	}{
		{"neither set", nil, -1, Limit},
		{"GOGC set", map[string]string{"GOGC": "123"}, 123, Limit},                      // the runtime read GOGC
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, 400, math.MaxInt64}, // and GOMEMLIMIT
	} {
		t.Run(tc.name, func(t *testing.T) {
			restore(t)
			debug.SetGCPercent(123)
			debug.SetMemoryLimit(math.MaxInt64)
			Start(env(tc.vars))
			if gogc, limit := settings(); gogc != tc.gogc || limit != tc.limit {
				t.Errorf("GOGC %d, limit %d; want %d, %d", gogc, limit, tc.gogc, tc.limit)
			}
		})
	}
}

// When the live heap passes Limit-Spare, the next collection raises the
// limit to keep Spare free above it (at 64 MiB live, past two thirds of
// Ceiling, Headroom times it less Bend); below it, the settings stay.
func TestLargeLiveHeapRaisesTheLimit(t *testing.T) {
	restore(t)
	Start(env(nil))
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if gogc, limit := settings(); gogc != -1 || limit != Limit {
		t.Fatalf("small heap: GOGC %d, limit %d; want off and %d", gogc, limit, Limit)
	}
	live := make([][]byte, 0, 64)
	for range 64 {
		live = append(live, make([]byte, 1<<20)) // 64 MiB: the limit must move
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		if gogc, limit := settings(); gogc == -1 && limit >= Headroom*64<<20-Bend && limit < 4*64<<20 {
			break
		}
		if time.Now().After(deadline) {
			gogc, limit := settings()
			t.Fatalf("large heap: GOGC %d, limit %d; want off and about %d", gogc, limit, Headroom*64<<20-Bend)
		}
	}
	runtime.KeepAlive(live)
}

func TestLimitFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, Limit}, {20 << 20, Limit}, {Limit - Spare, Limit}, {Limit - Spare + 1, Limit + 1},
		{Spare / 2, max(Limit, Spare/2+Spare)}, {35 << 20, 35<<20 + Spare},
		{Spare, Spare + Spare}, {Spare + 1, Ceiling}, {48 << 20, Ceiling}, {Ceiling * 2 / 3, Ceiling},
		{Ceiling*2/3 + 1, (Ceiling*2/3+1)*Headroom - Bend}, {1 << 30, Headroom<<30 - Bend}, {math.MaxUint64, math.MaxInt64},
	} {
		if got := limitFor(tc.live); got != tc.want {
			t.Errorf("limitFor(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

// TestBatchNotServer: the tuning is for batch commands; the language
// server keeps the runtime's collector settings.
func TestBatchNotServer(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"."}, true},
		{[]string{"lint", "--format", "json"}, true},
		{[]string{"fix", "--diff"}, true},
		{[]string{"status"}, true},
		{[]string{"server"}, false},
	} {
		if got := Batch(tc.args); got != tc.want {
			t.Errorf("Batch(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// The limit never falls as the live heap grows, and past Spare it steps
// by at most Headroom bytes a byte: no live heap a few MB larger than
// another finds its limit doubled.
func TestLimitForIsContinuous(t *testing.T) {
	prev := limitFor(Spare)
	for live := uint64(Spare) + 1; live < 4*Ceiling; live += 1 << 16 {
		got := limitFor(live)
		if got < prev || got-prev > Headroom<<16 {
			t.Fatalf("limitFor(%d) = %d after %d at %d", live, got, prev, live-1<<16)
		}
		prev = got
	}
}
