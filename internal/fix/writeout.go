package fix

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/resumelint/resumelint/internal/load"
)

// WriteOut writes a whole output file (a report, a schema, a baseline)
// that resumelint creates or replaces, inside root through an os.Root:
// missing folders are made there, a folder on the way that is a link
// leading out of root is refused, and the bytes go into a temporary file
// renamed over osPath, so what stood at osPath (a link, a FIFO) is
// replaced, never followed, opened or waited on. A file written again
// keeps its mode; a new one gets mode. root is the repository root when
// osPath lies inside it; outside it the caller names osPath's folder
// (load.RootFor).
func WriteOut(root, osPath string, mode fs.FileMode, write func(io.Writer) error) error {
	rel, ok := contained(root, osPath)
	if !ok {
		return fmt.Errorf("lies outside %s; not written", root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	dir := filepath.Dir(rel)
	if err := r.MkdirAll(dir, 0o755); err != nil {
		return rootErr(err)
	}
	if fi, err := r.Lstat(rel); err == nil {
		switch {
		case fi.IsDir():
			return fmt.Errorf("is a folder; not written")
		case fi.Mode().IsRegular():
			mode = fi.Mode().Perm()
		}
	}
	tmp, f, err := createTemp(r, dir, filepath.Base(rel))
	if err != nil {
		return rootErr(err)
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, rel)
	}
	if err != nil {
		r.Remove(tmp)
		return rootErr(err)
	}
	syncDir(r, dir)
	return nil
}

// createTemp creates a new temporary file next to base inside r.
func createTemp(r *os.Root, dir, base string) (string, *os.File, error) {
	for try := 0; ; try++ {
		var rnd [6]byte
		rand.Read(rnd[:])
		name := filepath.Join(dir, "."+base+".resumelint-"+hex.EncodeToString(rnd[:]))
		f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return name, f, nil
		}
		if !errors.Is(err, fs.ErrExist) || try > 10 {
			return "", nil, err
		}
	}
}

// OutputRoot is the folder WriteOut confines a write to osPath to: the
// repository root when osPath lies inside it, else osPath's own folder,
// made when missing (a path the user names outside the repository).
func OutputRoot(repoRoot, osPath string) (string, error) {
	root := load.RootFor(repoRoot, osPath)
	if _, ok := load.Contained(repoRoot, osPath); !ok || repoRoot == "" {
		if err := os.MkdirAll(root, 0o755); err != nil {
			return "", err
		}
	}
	return root, nil
}
