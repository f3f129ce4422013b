//go:build unix

package gitcmd

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// ownedDir reports whether p is a folder, not a link, owned by this
// process's user: git refuses a repository another user owns.
func ownedDir(p string) bool {
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != os.Geteuid() {
		return false
	}
	_, sudo := os.LookupEnv("SUDO_UID") // git then compares with it
	return !sudo
}

// readRegular reads the regular file at p, not through a link and
// without waiting on it; a missing file reads as nil with ok.
func readRegular(p string, limit int64) (data []byte, ok bool) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > limit {
		return nil, false
	}
	data = make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, false
	}
	return data, true
}
