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

// A socket cannot be opened at all; it is reported as what it is, as a
// FIFO is, not as a file that could not be read.
func TestReadSocket(t *testing.T) {
	dir, err := os.MkdirTemp("", "rl") // a socket's path has a short limit
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "ORCHESTRATION.yaml")
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Skipf("socket: %v", err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrUnix{Name: p}); err != nil {
		t.Skipf("bind: %v", err)
	}
	probs, ok := Read(&File{Path: "ORCHESTRATION.yaml", OSPath: p, Root: dir}, DefaultLimits)
	if ok || len(probs) != 1 || probs[0].Code != "RL003" || !strings.Contains(probs[0].Message, "not a regular file: it is a socket") {
		t.Errorf("Read(socket): ok %v, %s", ok, codesOf(probs))
	}
}

// A command's Files refuses a FIFO, to a unit and to a rule, without
// blocking, and an over-size file without reading it.
func TestFilesRefuseFIFOAndOverSize(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "precompact_state.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	big := filepath.Join(dir, "steps.md")
	if err := os.WriteFile(big, []byte(strings.Repeat("- step\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	x := NewFiles(nil)
	done := make(chan error, 1)
	go func() {
		probs, ok := x.Read(&File{Path: "precompact_state.json", OSPath: fifo, Root: dir}, DefaultLimits)
		if ok || len(probs) != 1 || !strings.Contains(probs[0].Message, "a FIFO") {
			t.Errorf("Read(FIFO): %v", probs)
		}
		_, err := x.ReadFile(dir, fifo, 0)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("ReadFile(FIFO) read it")
		}
	case <-time.After(10 * time.Second):
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("Files blocked on a FIFO")
	}
	lim := DefaultLimits
	lim.MaxFileSize = 100
	probs, ok := x.Read(&File{Path: "steps.md", OSPath: big, Root: dir}, lim)
	if ok || len(probs) != 1 || probs[0].Code != "RL003" {
		t.Errorf("Read(over size): %s", codesOf(probs))
	}
	if data, err := x.ReadFile(dir, big, 100); err == nil || data != nil {
		t.Errorf("ReadFile(over size) = %d bytes, %v", len(data), err)
	}
	if data, err := x.ReadFile(dir, big, 0); err != nil || len(data) != 700 {
		t.Errorf("ReadFile without a limit = %d bytes, %v", len(data), err)
	}
}
