//go:build !unix

package gitcmd

import "errors"

// mkfifo fails where there are no FIFOs: the tests that need one skip.
func mkfifo(string) error { return errors.ErrUnsupported }
