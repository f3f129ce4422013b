//go:build !unix

package gitcmd

// ownedDir reports false where the owner of a folder is not known the way
// git checks it: git lists the files.
func ownedDir(string) bool { return false }

// readRegular reads nothing where a file cannot be opened without
// following a link or waiting on it.
func readRegular(string, int64) ([]byte, bool) { return nil, false }
