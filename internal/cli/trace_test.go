package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RESUMELINT_TRACE writes a runtime trace of the command (go tool trace
// reads it); a trace that cannot be written is said on stderr and the
// command still runs, its output unchanged.
func TestTraceVar(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.trace")
	t.Setenv(TraceVar, path)
	var out, errb bytes.Buffer
	if code := Main([]string{"version"}, strings.NewReader(""), &out, &errb); code != ExitOK || errb.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("go 1.")) {
		t.Errorf("not a runtime trace: %q", data[:min(len(data), 16)])
	}
	want := out.String()

	t.Setenv(TraceVar, filepath.Join(t.TempDir(), "no", "such", "folder", "run.trace"))
	out.Reset()
	if code := Main([]string{"version"}, strings.NewReader(""), &out, &errb); code != ExitOK {
		t.Fatalf("unwritable trace: exit %d", code)
	}
	if !strings.Contains(errb.String(), "resumelint: "+TraceVar+": ") || out.String() != want {
		t.Errorf("unwritable trace: stdout %q, stderr %q", out.String(), errb.String())
	}
}
