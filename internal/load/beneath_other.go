//go:build !linux

package load

import (
	"io/fs"
	"os"
)

// Elsewhere every look-up goes through os.Root (see beneath_linux.go).

func openDirFD(string) int { return -1 }

func closeDirFD(int) {}

func statBeneath(int, string) (fs.FileInfo, error, bool) { return nil, nil, false }

func fileBeneath(int, string, string) (*os.File, bool) { return nil, false }
