package fix

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/resumelint/resumelint/internal/load"
)

// ErrChanged means a file's bytes on disk are no longer those that were
// read and fixed: someone else wrote it in between, so it is not written.
var ErrChanged = errors.New("the file changed on disk since it was read; not written")

var bom = []byte{0xEF, 0xBB, 0xBF}

// maxRead bounds the re-read of a file before it is replaced.
const maxRead = 64 << 20

// WriteFile replaces the file at osPath with data, atomically (a temporary
// file in the same folder, fsync, rename), keeping its mode, and only if
// its bytes are still read (a byte-order mark the reader stripped is kept).
// newPath, when not "", is where the file goes instead (a rename); it must
// not exist.
//
// Every operation happens inside root (the repository root; "" means the
// folder of osPath) through an os.Root: a file that is a symbolic link is
// never written (the link would be replaced, or its target rewritten), and
// neither osPath nor newPath may lead outside root, so no fix moves a file
// across the repository's boundary.
func WriteFile(root, osPath, newPath string, read, data []byte) error {
	if root == "" {
		root = filepath.Dir(osPath)
	}
	rel, ok := contained(root, osPath)
	if !ok {
		return fmt.Errorf("lies outside the repository; not written")
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	fi, err := r.Lstat(rel)
	if err != nil {
		return rootErr(err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return errors.New(linkRefusal)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("not a regular file; not written")
	}
	if fi.Mode().Perm()&0o222 == 0 {
		// Replacing it would write a file its owner made read-only.
		return fmt.Errorf("is read-only (mode %04o); not written (make it writable to fix it)", fi.Mode().Perm())
	}
	keep := func(tmp *os.File) error { return keepAttributes(r, rel, fi, tmp) }
	cur, err := readIn(r, rel)
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
		return replace(r, rel, data, keepMode(fi), keep)
	}
	newRel, ok := contained(root, newPath)
	if !ok {
		return fmt.Errorf("%s lies outside the repository; not renamed", filepath.Base(newPath))
	}
	if _, err := r.Lstat(newRel); err == nil {
		return fmt.Errorf("%s already exists; not renamed", filepath.Base(newPath))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return rootErr(err)
	}
	if bytes.Equal(read, data) {
		return renameNoClobber(r, rel, newRel)
	}
	tmp, err := writeTemp(r, filepath.Dir(newRel), filepath.Base(newRel), data, keepMode(fi), keep)
	if err != nil {
		return err
	}
	if err := renameNoClobber(r, tmp, newRel); err != nil {
		r.Remove(tmp)
		return err
	}
	if err := r.Remove(rel); err != nil {
		return err
	}
	syncDir(r, filepath.Dir(newRel))
	return nil
}

// linkRefusal is why a file that is a symbolic link is not written.
const linkRefusal = "is a symbolic link; fix does not write through links (fix the file it points to)"

// isLink reports whether osPath is itself a symbolic link, looked up as
// WriteFile looks it up (inside root; "" means its folder), so that its
// fixes are not offered: WriteFile would refuse them. A path it cannot
// look up is left to WriteFile to report.
func isLink(root, osPath string) bool {
	if root == "" {
		root = filepath.Dir(osPath)
	}
	rel, ok := contained(root, osPath)
	if !ok {
		return false
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return false
	}
	defer r.Close()
	fi, err := r.Lstat(rel)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// readIn reads a regular file inside r without following a final link.
func readIn(r *os.Root, rel string) ([]byte, error) {
	f, err := r.OpenFile(rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, rootErr(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file; not written")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxRead+1))
	if err == nil && len(data) > maxRead {
		err = ErrChanged
	}
	return data, err
}

// replace writes data over rel through a temporary file and a rename,
// which replaces the directory entry itself.
func replace(r *os.Root, rel string, data []byte, mode fs.FileMode, keep func(*os.File) error) error {
	tmp, err := writeTemp(r, filepath.Dir(rel), filepath.Base(rel), data, mode, keep)
	if err != nil {
		return err
	}
	if err := r.Rename(tmp, rel); err != nil {
		r.Remove(tmp)
		return rootErr(err)
	}
	syncDir(r, filepath.Dir(rel))
	return nil
}

// keepMode is the mode the replacement of a file gets: its permissions
// and its setuid, setgid and sticky bits.
func keepMode(fi fs.FileInfo) fs.FileMode {
	return fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

// writeTemp writes data to a new temporary file in dir with mode; keep,
// when set, gives it what else the file it replaces had (owner, extended
// attributes), or fails the write.
func writeTemp(r *os.Root, dir, base string, data []byte, mode fs.FileMode, keep func(*os.File) error) (string, error) {
	var f *os.File
	var name string
	for try := 0; ; try++ {
		var rnd [6]byte
		rand.Read(rnd[:])
		name = filepath.Join(dir, "."+base+".resumelint-"+hex.EncodeToString(rnd[:]))
		var err error
		f, err = r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || try > 10 {
			return "", rootErr(err)
		}
	}
	fail := func(err error) (string, error) {
		f.Close()
		r.Remove(name)
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if keep != nil {
		// Before Chmod: a change of owner clears the setuid and setgid bits.
		if err := keep(f); err != nil {
			return fail(err)
		}
	}
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		r.Remove(name)
		return "", err
	}
	return name, nil
}

// renameNoClobber moves old to new and fails if new exists: a hard link
// is created (which cannot overwrite) and the old name removed; where
// links are not supported, a checked rename is used.
func renameNoClobber(r *os.Root, oldRel, newRel string) error {
	if err := r.Link(oldRel, newRel); err == nil {
		if err := r.Remove(oldRel); err != nil {
			return err
		}
		syncDir(r, filepath.Dir(newRel))
		return nil
	} else if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists; not renamed", filepath.Base(newRel))
	} else if errors.Is(rootErr(err), errOutside) {
		return fmt.Errorf("%s lies outside the repository; not renamed", filepath.Base(newRel))
	}
	if _, err := r.Lstat(newRel); err == nil {
		return fmt.Errorf("%s already exists; not renamed", filepath.Base(newRel))
	}
	if err := r.Rename(oldRel, newRel); err != nil {
		return rootErr(err)
	}
	syncDir(r, filepath.Dir(newRel))
	return nil
}

// syncDir makes a rename durable where the platform allows it.
func syncDir(r *os.Root, dir string) {
	if d, err := r.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// contained returns p relative to root when it lies lexically inside it.
func contained(root, p string) (string, bool) {
	rel, ok := load.Contained(root, p)
	return rel, ok && rel != "."
}

var errOutside = errors.New("leads outside the repository")

// rootErr names os.Root's escape error (unexported by package os).
func rootErr(err error) error {
	if err != nil && strings.Contains(err.Error(), "path escapes from parent") {
		return fmt.Errorf("%w (a symbolic link or \"..\"); not written", errOutside)
	}
	return err
}
