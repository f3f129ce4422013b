package gitcmd

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// record is one linux_dirent64 record of name with the type t.
func record(name string, t byte) []byte {
	n := (direntName + len(name) + 1 + 7) &^ 7
	b := make([]byte, n)
	binary.NativeEndian.PutUint16(b[direntReclen:], uint16(n))
	b[direntType] = t
	copy(b[direntName:], name)
	return b
}

// A file system that gives no types (DT_UNKNOWN) gets them from an lstat
// in the folder, as os.ReadDir does; an entry gone by then is left out,
// and a record no kernel writes ends the reading instead of looping.
func TestDirentsWithoutTypes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(dir, "pipe")); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var b []byte
	for _, name := range []string{".", "..", "file", "sub", "link", "pipe", "gone"} {
		b = append(b, record(name, unix.DT_UNKNOWN)...)
	}
	b = append(b, make([]byte, 24)...) // a record of length 0
	ents, err := appendDirents(nil, b, fd, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{"file": 0, "sub": fs.ModeDir, "link": fs.ModeSymlink, "pipe": fs.ModeNamedPipe}
	if len(ents) != len(want) {
		t.Fatalf("entries %v, want %v", ents, want)
	}
	for _, e := range ents {
		if m, ok := want[e.name]; !ok || e.typ != m {
			t.Errorf("%s: type %v, want %v (listed: %v)", e.name, e.typ, m, ok)
		}
		info, err := e.Info()
		if err != nil || info.Mode().Type() != e.typ {
			t.Errorf("%s: Info %v, %v; want the type %v", e.name, info, err, e.typ)
		}
	}
}
