package gitcmd

import (
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// openDirIn opens the folder name inside the open folder parent (by path
// when parent is nil) without following a symbolic link: the kernel
// looks up one name, not every folder from the root again (with os.File's
// own costs, a fifth of a walk of 8,000 folders: docs/performance.md).
// O_DIRECTORY makes a folder swapped for a FIFO fail rather than block.
func openDirIn(parent *dirRef, name, path string) (int, error) {
	at, target := unix.AT_FDCWD, path
	if parent != nil {
		at, target = parent.fd, name
	}
	for {
		fd, err := unix.Openat(at, target, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			if err != nil {
				return -1, &fs.PathError{Op: "open", Path: path, Err: err}
			}
			return fd, nil
		}
	}
}

// readDirIn opens and lists the folder name inside parent (path by
// itself when parent is nil). fd is the open folder, for its subfolders
// to be opened in, or -1 when it could not be opened.
func readDirIn(parent *dirRef, name, path string, buf []byte) (fd int, ents []fs.DirEntry, err error) {
	fd, err = openDirIn(parent, name, path)
	if err != nil {
		return -1, nil, err
	}
	ents, err = readDirFd(fd, path, buf)
	return fd, ents, err
}

// dirBuf is the size of a walker's buffer for getdents64 records: a
// folder of a thousand entries in two calls.
const dirBuf = 32 << 10

// readDirFd lists the open folder fd, named path, as os.ReadDir would:
// sorted by name, with the types the kernel gives and an lstat where it
// gives none; what was read before an error comes with the error. buf is
// the caller's buffer for the kernel's records.
func readDirFd(fd int, path string, buf []byte) ([]fs.DirEntry, error) {
	var ents []dirent
	var err error
	for {
		n, e := unix.Getdents(fd, buf)
		if e == unix.EINTR {
			continue
		}
		if e != nil {
			err = &fs.PathError{Op: "readdirent", Path: path, Err: e}
			break
		}
		if n <= 0 {
			break
		}
		if ents, e = appendDirents(ents, buf[:n], fd, path); e != nil {
			err = &fs.PathError{Op: "lstat", Path: path, Err: e}
			break
		}
	}
	slices.SortFunc(ents, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	out := make([]fs.DirEntry, len(ents))
	for i := range ents {
		out[i] = &ents[i]
	}
	return out, err
}

// The fields of a linux_dirent64 record that the walk reads.
const (
	direntReclen = 16 // uint16
	direntType   = 18 // uint8
	direntName   = 19 // NUL-terminated
)

// appendDirents adds the entries of the getdents64 records in b, but "."
// and "..", and an entry whose type takes an lstat that finds it gone.
func appendDirents(ents []dirent, b []byte, fd int, dir string) ([]dirent, error) {
	for len(b) > direntName {
		reclen := int(binary.NativeEndian.Uint16(b[direntReclen:]))
		if reclen <= direntName || reclen > len(b) {
			break // not a record the kernel writes
		}
		name := b[direntName:reclen]
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		if s := string(name); s != "." && s != ".." {
			typ, ok := dtType(b[direntType])
			var err error
			if !ok {
				typ, err = typeAt(fd, s)
			}
			switch {
			case err == unix.ENOENT:
			case err != nil:
				return ents, err
			default:
				ents = append(ents, dirent{name: s, typ: typ, dir: dir})
			}
		}
		b = b[reclen:]
	}
	return ents, nil
}

// dtType is the file type a record's d_type gives, as os.ReadDir reports
// it; false for DT_UNKNOWN, which some file systems give for every entry.
func dtType(t byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// typeAt is the type of name in the folder fd from an lstat, as
// os.Lstat's Mode().Type() gives it (none for a type it does not know).
func typeAt(fd int, name string) (fs.FileMode, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		break
	}
	// A mode's type bits shifted down are its d_type (IFTODT).
	typ, _ := dtType(byte(st.Mode & unix.S_IFMT >> 12))
	return typ, nil
}

func closeDir(fd int) { _ = unix.Close(fd) }

// dirent is a folder entry of the walk.
type dirent struct {
	name string
	typ  fs.FileMode
	dir  string
}

func (d *dirent) Name() string               { return d.name }
func (d *dirent) IsDir() bool                { return d.typ.IsDir() }
func (d *dirent) Type() fs.FileMode          { return d.typ }
func (d *dirent) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(d.dir, d.name)) }
