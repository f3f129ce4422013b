//go:build !linux

package gctune

// hugeAdvise asks for nothing where transparent huge pages are not known.
func hugeAdvise([]byte) {}
