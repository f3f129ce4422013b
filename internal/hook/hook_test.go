package hook

import (
	"io"
	"strings"
	"testing"
	"time"
)

// An event is read when stdin closes; a stdin nobody closes ends the wait
// at EventWait with an error, not a hang.
func TestReadEventIsBounded(t *testing.T) {
	defer func(w time.Duration) { EventWait = w }(EventWait)
	EventWait = 100 * time.Millisecond

	ev, err := ReadEvent(strings.NewReader(`{"hook_event_name":"SessionStart","cwd":"/work/app"}`))
	if err != nil || ev.HookEventName != SessionStart {
		t.Fatalf("closed stdin: %+v, %v", ev, err)
	}

	r, w := io.Pipe()
	defer w.Close()
	go func() { _, _ = w.Write([]byte(`{"hook_event_name":`)) }()
	_, err = ReadEvent(r)
	if err == nil || !strings.Contains(err.Error(), "stdin was not closed") {
		t.Fatalf("open stdin: %v, want the bound's error", err)
	}
}
