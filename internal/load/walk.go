package load

import (
	"io/fs"
	"path/filepath"
)

// WalkFiles calls fn with the path of each regular file under dir, in
// lexical order, leaving out the folders discovery skips (.git,
// node_modules, vendor) below dir and following no link; it stops after
// max entries and then reports true. For the walks made without git: a
// folder outside any repository, or what git's ignores would hide.
func WalkFiles(dir string, max int, fn func(path string)) (truncated bool) {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if n++; n > max {
			truncated = true
			return fs.SkipAll
		}
		if err != nil {
			return nil
		}
		if e.IsDir() && p != dir && skipDirs[e.Name()] {
			return fs.SkipDir
		}
		if e.Type().IsRegular() {
			fn(p)
		}
		return nil
	})
	return truncated
}
