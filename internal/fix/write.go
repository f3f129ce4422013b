package fix

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrChanged means a file's bytes on disk are no longer those that were
// read and fixed: someone else wrote it in between, so it is not written.
var ErrChanged = errors.New("the file changed on disk since it was read; not written")

var bom = []byte{0xEF, 0xBB, 0xBF}

// WriteFile replaces the file at osPath with data, atomically (a temporary
// file in the same folder, fsync, rename), keeping its mode, and only if
// its bytes are still read (a byte-order mark the reader stripped is kept).
// newPath, when not "", is where the file goes instead (a rename); it must
// not exist.
func WriteFile(osPath, newPath string, read, data []byte) error {
	if p, err := filepath.EvalSymlinks(osPath); err == nil {
		osPath = p
	}
	fi, err := os.Stat(osPath)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("not a regular file; not written")
	}
	cur, err := os.ReadFile(osPath)
	if err != nil {
		return err
	}
	switch {
	case bytes.Equal(cur, read):
	case bytes.HasPrefix(cur, bom) && bytes.Equal(cur[len(bom):], read):
		data = append(append([]byte(nil), bom...), data...)
		read = cur
	default:
		return ErrChanged
	}
	if newPath == "" {
		return replace(osPath, data, fi.Mode().Perm())
	}
	if _, err := os.Lstat(newPath); err == nil {
		return fmt.Errorf("%s already exists; not renamed", filepath.Base(newPath))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if bytes.Equal(read, data) {
		return renameNoClobber(osPath, newPath)
	}
	tmp, err := writeTemp(filepath.Dir(newPath), filepath.Base(newPath), data, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if err := renameNoClobber(tmp, newPath); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Remove(osPath); err != nil {
		return err
	}
	syncDir(filepath.Dir(newPath))
	return nil
}

// replace writes data over path through a temporary file and a rename.
func replace(path string, data []byte, mode fs.FileMode) error {
	tmp, err := writeTemp(filepath.Dir(path), filepath.Base(path), data, mode)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

func writeTemp(dir, base string, data []byte, mode fs.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, "."+base+".resumelint-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(name)
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// renameNoClobber moves old to new and fails if new exists: a hard link
// is created (which cannot overwrite) and the old name removed; where
// links are not supported, a checked rename is used.
func renameNoClobber(oldPath, newPath string) error {
	if err := os.Link(oldPath, newPath); err == nil {
		if err := os.Remove(oldPath); err != nil {
			return err
		}
		syncDir(filepath.Dir(newPath))
		return nil
	} else if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists; not renamed", filepath.Base(newPath))
	}
	if _, err := os.Lstat(newPath); err == nil {
		return fmt.Errorf("%s already exists; not renamed", filepath.Base(newPath))
	}
	if err := os.Rename(oldPath, newPath); err != nil {
		return err
	}
	syncDir(filepath.Dir(newPath))
	return nil
}

// syncDir makes a rename durable where the platform allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
