//go:build unix

package gitbase

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// --base on a repository whose branch ref or a loose object is a FIFO
// answers at once, naming it, instead of leaving git to wait on it until
// its timeout.
func TestOpenRefusesFIFOInStore(t *testing.T) {
	for _, which := range []string{"ref", "object"} {
		t.Run(which, func(t *testing.T) {
			dir := repo(t, map[string]string{"ORCHESTRATION.yaml": "workflow:\n  id: w\n"}, nil)
			var p string
			if which == "ref" {
				head, err := os.ReadFile(filepath.Join(dir, ".git", "HEAD"))
				if err != nil {
					t.Fatal(err)
				}
				p = filepath.Join(dir, ".git", filepath.FromSlash(strings.TrimSpace(strings.TrimPrefix(string(head), "ref: "))))
			} else {
				out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD:ORCHESTRATION.yaml").Output()
				if err != nil {
					t.Fatal(err)
				}
				id := strings.TrimSpace(string(out))
				p = filepath.Join(dir, ".git", "objects", id[:2], id[2:])
			}
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			// Were git run, it would wait until this timeout and
			// say so instead.
			t.Setenv("RESUMELINT_GIT_TIMEOUT", "20s")
			if _, err := Open(dir, "HEAD"); err == nil || !strings.Contains(err.Error(), "FIFO") {
				t.Fatalf("Open: %v, want the FIFO refused", err)
			}
		})
	}
}
