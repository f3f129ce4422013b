//go:build !linux

package gitcmd

import (
	"io/fs"
	"os"
)

// readDirIn lists the folder at path with os.ReadDir; no folder is held
// open (fd -1), so every one is opened by its path.
func readDirIn(_ *dirRef, _, path string, _ []byte) (fd int, ents []fs.DirEntry, err error) {
	ents, err = os.ReadDir(path)
	return -1, ents, err
}

// dirBuf is unused where os.ReadDir reads.
const dirBuf = 0

func closeDir(int) {}
