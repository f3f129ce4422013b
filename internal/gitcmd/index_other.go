//go:build !unix

package gitcmd

import (
	"errors"
	"io"
	"os"
)

// ownedDir reports false where the owner of a folder is not known the way
// git checks it: git lists the files.
func ownedDir(string) bool { return false }

// readRegular reads the regular file at p, of at most limit bytes, after
// checking with Lstat that it is one (no link, nothing to wait on); a
// missing file reads as nil with ok.
func readRegular(p string, limit int64) (data []byte, ok bool) {
	fi, err := os.Lstat(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, true
	}
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > limit {
		return nil, false
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil || int64(len(data)) > limit {
		return nil, false
	}
	return data, true
}
