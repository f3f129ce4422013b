package load

import "path/filepath"

// Abs resolves p against cwd: p itself when it is absolute, otherwise p
// (with / or the OS separator) joined to cwd and cleaned. Every command
// and rule that turns a user's path into an OS path goes through it.
func Abs(cwd, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(cwd, filepath.FromSlash(p))
}
