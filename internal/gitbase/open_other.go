//go:build !unix

package gitbase

const openFlags = 0
