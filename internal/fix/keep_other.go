//go:build !unix

package fix

import (
	"io/fs"
	"os"
)

// keepAttributes has nothing to keep beyond the mode here.
func keepAttributes(*os.Root, string, fs.FileInfo, *os.File) error { return nil }
