package bundle_test

import (
	"testing"

	"github.com/resumelint/resumelint/test/watch"
)

// watchOpens reports which files directly inside dir were opened since
// (watch.Opens: inotify on Linux, nothing elsewhere).
func watchOpens(t *testing.T, dir string) (opened func() []string) { return watch.Opens(t, dir) }
