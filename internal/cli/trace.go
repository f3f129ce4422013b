package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/trace"
)

// TraceVar names a file to write a runtime execution trace of the whole
// command to (go tool trace FILE): how a run spends its cores, what waits
// on what, is seen only in a trace of the real process (docs/performance.md).
const TraceVar = "RESUMELINT_TRACE"

// startTrace starts the trace TraceVar asks for and returns what stops it;
// a trace that cannot start is reported on stderr and the command runs.
func startTrace(getenv func(string) string, stderr io.Writer) (stop func()) {
	path := getenv(TraceVar)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = trace.Start(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "resumelint: %s: %v\n", TraceVar, err)
		return func() {}
	}
	return func() {
		trace.Stop()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "resumelint: %s: %v\n", TraceVar, err)
		}
	}
}
