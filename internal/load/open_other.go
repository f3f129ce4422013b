//go:build !unix

package load

const openFlags = 0
