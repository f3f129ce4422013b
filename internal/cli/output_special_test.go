//go:build unix

package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A report path outside the repository and the working directory that is
// a device or a pipe someone reads (/dev/stdout in a CI log, /dev/null, a
// shell's >(jq …)) is written into, as a shell redirection would; it is
// not replaced by a regular file, which as root would put a file where
// /dev/null was and send the report nowhere.
func TestReportIntoAPipeOutsideTheRepository(t *testing.T) {
	repo, outside, _ := writeRepo(t)
	pipe := filepath.Join(outside, "report.pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// The reader, open before the run: the report waits in the pipe.
	r, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	code, _, stderr := run(t, repo, "", "lint", "--quiet", "-o", "json="+pipe)
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d; stderr %q", code, ExitFindings, stderr)
	}
	if fi, err := os.Lstat(pipe); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v, %v", fi.Mode(), err)
	}
	got, err := io.ReadAll(r)
	if err != nil && !strings.Contains(err.Error(), "resource temporarily unavailable") {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `"findings": [`) {
		t.Errorf("the reader got %q, want the JSON report", got)
	}
}

// A device is written into and stays a device; one that refuses the
// bytes (like /dev/full) fails the run with the reason.
func TestReportIntoADeviceOutsideTheRepository(t *testing.T) {
	repo, outside, _ := writeRepo(t)
	null, full := filepath.Join(outside, "null"), filepath.Join(outside, "full")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("mknod: %v (needs root)", err)
	}
	if err := syscall.Mknod(full, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		t.Skipf("mknod: %v", err)
	}
	code, _, stderr := run(t, repo, "", "lint", "--quiet", "--output-file", null)
	if code != ExitFindings {
		t.Errorf("--output-file %s: exit %d, stderr %q", null, code, stderr)
	}
	if fi, err := os.Lstat(null); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device was replaced: %v, %v", fi.Mode(), err)
	}
	code, _, stderr = run(t, repo, "", "lint", "--quiet", "-o", "sarif="+full)
	if code != ExitUsage || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("-o sarif=%s: exit %d, stderr %q; want %d and the write error", full, code, stderr, ExitUsage)
	}
	if fi, err := os.Lstat(full); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device was replaced: %v, %v", fi.Mode(), err)
	}
}
