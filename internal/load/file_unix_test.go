//go:build unix

package load

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
)

func TestReadFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "precompact_state.json")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Through a symlink too: the target's type counts.
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Base(p), link); err != nil {
		t.Fatal(err)
	}
	for _, osPath := range []string{p, link} {
		done := make(chan []diag.Finding, 1)
		go func() {
			probs, ok := Read(&File{Path: "precompact_state.json", OSPath: osPath, Root: filepath.Dir(osPath)}, DefaultLimits)
			if ok {
				probs = nil
			}
			done <- probs
		}()
		select {
		case probs := <-done:
			if len(probs) != 1 || probs[0].Code != "RL003" || !strings.Contains(probs[0].Message, "a FIFO") {
				t.Errorf("%s: %s", osPath, codesOf(probs))
			}
		case <-time.After(10 * time.Second):
			// Unblock the reader so the test can end.
			if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Fatalf("Read blocked on a FIFO (%s)", osPath)
		}
	}
}
