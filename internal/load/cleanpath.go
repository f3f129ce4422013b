package load

import (
	"os"
	"path/filepath"
	"strings"
)

// cleanAbs reports whether p is an absolute path filepath.Clean leaves as
// it is, in one pass and without Clean's copy (isCleanAbs) where paths are
// '/'-separated: the listing checks every path the rules look up.
func cleanAbs(p string) bool {
	if os.PathSeparator != '/' {
		return filepath.IsAbs(p) && filepath.Clean(p) == p
	}
	return p == "/" || isCleanAbs(p)
}

// parentOf is filepath.Dir of a path cleanAbs accepts, without cleaning
// it again.
func parentOf(p string) string {
	if os.PathSeparator != '/' {
		return filepath.Dir(p)
	}
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
