//go:build !linux

package load

import "io/fs"

// Elsewhere every look-up goes through os.Root (see beneath_linux.go).

func openDirFD(string) int { return -1 }

func closeDirFD(int) {}

func statBeneath(int, string) (fs.FileInfo, error, bool) { return nil, nil, false }

func fileBeneath(int, string) (handle, bool) { return nil, false }

func existsBeneath(int, string, bool) (bool, bool) { return false, false }
