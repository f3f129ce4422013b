//go:build !linux

package cli

import "testing"

// watchOpens needs inotify; elsewhere the tests rely on the verdicts alone.
func watchOpens(t *testing.T, dir string) (opened func() []string) {
	return func() []string { return nil }
}
