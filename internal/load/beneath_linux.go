//go:build linux

package load

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux a held root also keeps its folder's descriptor, and look-ups
// go through one openat2 call with RESOLVE_BENEATH: the kernel refuses
// any "..", absolute or symbolic link that leads outside the folder, so
// confinement is the same as os.Root's, in one system call where os.Root
// opens and closes every folder on the way (a quarter of a lint's CPU in
// a repository whose files name paths three folders deep). Anything but a
// plain answer (an escape, a loop, a kernel without openat2) goes to
// os.Root, which words the error as before.

// noOpenat2 is set once the kernel (or a seccomp filter) refuses openat2.
var noOpenat2 atomic.Bool

// openDir opens root's folder for openat2, or returns nil. It is an
// os.File so that a look-up holds it open (Control) while it runs: a
// descriptor closed by the end of a run, then reused for another file,
// would otherwise confine a look-up that was under way to that file.
func openDir(root string) *os.File {
	if noOpenat2.Load() {
		return nil
	}
	f, err := os.Open(root)
	if err != nil {
		return nil
	}
	return f
}

// openBeneath opens rel inside the folder dir. settled is false when the
// answer must come from os.Root instead.
func openBeneath(dir *os.File, rel string, flags uint64) (fd int, err error, settled bool) {
	if dir == nil || noOpenat2.Load() {
		return -1, nil, false
	}
	rc, err := dir.SyscallConn()
	if err != nil {
		return -1, nil, false
	}
	how := unix.OpenHow{Flags: flags | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
	if cerr := rc.Control(func(dirfd uintptr) {
		for {
			fd, err = unix.Openat2(int(dirfd), rel, &how)
			if err != unix.EINTR {
				break
			}
		}
	}); cerr != nil {
		return -1, nil, false // closed: the run ended
	}
	switch err {
	case nil:
		return fd, nil, true
	case unix.ENOENT, unix.ENOTDIR:
		return -1, err, true
	case unix.ENOSYS, unix.EPERM:
		// A kernel before 5.6, or a seccomp filter that refuses the call
		// (path permissions give EACCES, not EPERM): os.Root from now on.
		noOpenat2.Store(true)
	}
	return -1, err, false
}

// statBeneath is StatIn through openat2; settled as for openBeneath.
func statBeneath(dir *os.File, rel string) (fs.FileInfo, error, bool) {
	fd, err, settled := openBeneath(dir, rel, unix.O_PATH)
	if !settled {
		return nil, nil, false
	}
	if err != nil {
		return nil, &fs.PathError{Op: "statat", Path: rel, Err: err}, true
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, nil, false
	}
	return &statInfo{name: filepath.Base(rel), st: st}, nil, true
}

// fileBeneath is OpenIn through openat2; settled as for openBeneath. The
// handle is the bare descriptor: an os.File would ask the kernel twice
// more per file whether it can poll it.
func fileBeneath(dir *os.File, rel string) (handle, bool) {
	fd, err, settled := openBeneath(dir, rel, unix.O_RDONLY|openFlags)
	if !settled || err != nil {
		return nil, false // os.Root words the error
	}
	return &rawFile{fd: fd, name: filepath.Base(rel)}, true
}

// dirBeneath opens the folder rel inside dir, named name, for ReadDir;
// false for anything but a folder opened (ReadDirIn words the errors).
func dirBeneath(dir *os.File, rel, name string) (*os.File, bool) {
	fd, err, settled := openBeneath(dir, rel, unix.O_RDONLY|unix.O_DIRECTORY)
	if !settled || err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), name), true
}

// existsBeneath is ExistsIn (dir false) or IsDirIn (dir true) through
// openat2, without a stat: O_DIRECTORY makes the open itself the test.
func existsBeneath(dir *os.File, rel string, folder bool) (exists, settled bool) {
	flags := uint64(unix.O_PATH)
	if folder {
		flags |= unix.O_DIRECTORY
	}
	fd, err, settled := openBeneath(dir, rel, flags)
	if !settled {
		return false, false
	}
	if err != nil {
		return false, true
	}
	unix.Close(fd)
	return true, true
}

// rawFile reads a descriptor opened by fileBeneath.
type rawFile struct {
	fd   int
	name string
}

func (f *rawFile) Stat() (fs.FileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstat(f.fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: f.name, Err: err}
	}
	return &statInfo{name: f.name, st: st}, nil
}

func (f *rawFile) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	for {
		n, err := unix.Read(f.fd, b)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (f *rawFile) Close() error { return unix.Close(f.fd) }

// statInfo is the fs.FileInfo of an fstat, as os.Stat fills it.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }

func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.st.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.st.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.st.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}
