package fix

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A fix replaces a file through a rename: what the file had besides its
// bytes is kept, or the file is not written.
func TestWriteFileKeepsWhatTheFileHad(t *testing.T) {
	old, fixed := []byte("a: 1\n"), []byte("a: 2\n")
	setup := func(t *testing.T, mode os.FileMode) string {
		p := filepath.Join(t.TempDir(), "ORCHESTRATION.yaml")
		if err := os.WriteFile(p, old, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("read-only refused", func(t *testing.T) {
		p := setup(t, 0o444)
		err := WriteFile("", p, "", old, fixed)
		if err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("err = %v, want a refusal naming the read-only file", err)
		}
		if got, _ := os.ReadFile(p); string(got) != string(old) {
			t.Errorf("a read-only file was replaced: %q", got)
		}
	})
	t.Run("setgid kept", func(t *testing.T) {
		p := setup(t, 0o664|os.ModeSetgid)
		if fi, _ := os.Stat(p); fi.Mode()&os.ModeSetgid == 0 {
			t.Skip("cannot set setgid here")
		}
		if err := WriteFile("", p, "", old, fixed); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(p); fi.Mode()&os.ModeSetgid == 0 || fi.Mode().Perm() != 0o664 {
			t.Errorf("mode %v, want setgid and 0664 kept", fi.Mode())
		}
	})
	t.Run("owner kept", func(t *testing.T) {
		p := setup(t, 0o644)
		if err := os.Chown(p, 4242, 4343); err != nil {
			t.Skipf("cannot give the file another owner here: %v", err)
		}
		if err := WriteFile("", p, "", old, fixed); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(p)
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != 4242 || st.Gid != 4343 {
			t.Errorf("owner %d:%d, want 4242:4343 kept", st.Uid, st.Gid)
		}
	})
	t.Run("extended attributes kept", func(t *testing.T) {
		p := setup(t, 0o644)
		if err := unix.Setxattr(p, "user.origin", []byte("planner"), 0); err != nil {
			t.Skipf("no user extended attributes here: %v", err)
		}
		if err := WriteFile("", p, "", old, fixed); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 64)
		n, err := unix.Getxattr(p, "user.origin", buf)
		if err != nil || string(buf[:n]) != "planner" {
			t.Errorf("user.origin = %q, %v; want it kept", buf[:max(n, 0)], err)
		}
	})
}
