//go:build !linux

// Package watch lets tests see which files a run opened, through inotify.
package watch

import "testing"

// Opens needs inotify; elsewhere tests rely on their verdicts alone.
func Opens(t testing.TB, dir string) (opened func() []string) {
	return func() []string { return nil }
}
