//go:build !unix

package bundle

// openFlags: no non-blocking open outside Unix; the type is checked before
// and after opening.
const openFlags = 0
