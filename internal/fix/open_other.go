//go:build !unix

package fix

const openFlags = 0
