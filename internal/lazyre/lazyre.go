// Package lazyre holds regular expressions compiled on first use, so a
// package-level pattern costs nothing at process start (SPEC §9 P4: a
// one-file lint must not pay for every rule's patterns before main).
package lazyre

import (
	"regexp"
	"sync"
)

// RE is a regular expression compiled on first use; it is safe for
// concurrent use, as *regexp.Regexp is.
type RE struct {
	once sync.Once
	src  string
	re   *regexp.Regexp
}

// New returns src, compiled the first time it is used. Like
// regexp.MustCompile it panics on an invalid pattern (at first use; the
// tests of each package use their patterns).
func New(src string) *RE { return &RE{src: src} }

// Regexp returns the compiled expression.
func (r *RE) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

// String returns the source text.
func (r *RE) String() string { return r.src }

func (r *RE) MatchString(s string) bool            { return r.Regexp().MatchString(s) }
func (r *RE) Match(b []byte) bool                  { return r.Regexp().Match(b) }
func (r *RE) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }
func (r *RE) FindStringIndex(s string) []int       { return r.Regexp().FindStringIndex(s) }
func (r *RE) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}
func (r *RE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}
func (r *RE) ReplaceAll(src, repl []byte) []byte { return r.Regexp().ReplaceAll(src, repl) }
func (r *RE) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}
func (r *RE) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}
