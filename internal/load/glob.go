package load

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// match reports whether p matches one of the patterns, as doublestar.Match
// does. Every listed path of a repository is classified against every
// kind's patterns, and doublestar parses a pattern on each call: the
// patterns of the common shape are answered from the path's last name and
// folders instead (nameGlob).
func match(patterns []string, p string) bool {
	for _, pat := range patterns {
		g := globFor(pat)
		if g.simple {
			if g.matches(p) {
				return true
			}
			continue
		}
		if ok, _ := doublestar.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// nameGlob is a pattern "**/DIR/.../NAME": literal folders (maybe none)
// and a last name with at most one '*', matched at any depth. Others are
// not simple and go to doublestar.
type nameGlob struct {
	simple         bool
	dirs           string // "DIR/..." before the name; "" for none
	prefix, suffix string // of the name, around its '*'
	star           bool
}

var globs sync.Map // pattern -> nameGlob

func globFor(pat string) nameGlob {
	if g, ok := globs.Load(pat); ok {
		return g.(nameGlob)
	}
	g := parseNameGlob(pat)
	globs.Store(pat, g)
	return g
}

func parseNameGlob(pat string) nameGlob {
	rest, ok := strings.CutPrefix(pat, "**/")
	if !ok || rest == "" || strings.ContainsAny(rest, "?[]{}\\") || strings.Contains(rest, "//") || strings.HasPrefix(rest, "/") {
		return nameGlob{}
	}
	dirs, name := "", rest
	if i := strings.LastIndexByte(rest, '/'); i >= 0 {
		dirs, name = rest[:i], rest[i+1:]
	}
	if name == "" || strings.Contains(dirs, "*") || strings.Count(name, "*") > 1 {
		return nameGlob{}
	}
	g := nameGlob{simple: true, dirs: dirs, prefix: name}
	if before, after, found := strings.Cut(name, "*"); found {
		g.prefix, g.suffix, g.star = before, after, true
	}
	return g
}

// matches reports whether the slash-separated path p matches: its last
// name fits, and its folders end with the pattern's (at a separator).
// Odd paths (empty, or with empty names) are answered as doublestar
// answers them (TestNameGlobIsDoublestar).
func (g nameGlob) matches(p string) bool {
	if p == "" {
		return false
	}
	dir, name := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, name = p[:i], p[i+1:]
	}
	if g.star {
		if len(name) < len(g.prefix)+len(g.suffix) || !strings.HasPrefix(name, g.prefix) || !strings.HasSuffix(name, g.suffix) {
			return false
		}
	} else if name != g.prefix {
		return false
	}
	if g.dirs == "" {
		return true
	}
	return dir == g.dirs || strings.HasSuffix(dir, "/"+g.dirs)
}

// MaxGlobAlternatives bounds the brace alternatives of one pattern a
// configuration may give: doublestar matches braces by trying each
// alternative in turn, so "{*,*}" repeated k times costs 2^k per path.
// MaxGlobLength bounds its length: matching a path costs up to the
// alternatives times the pattern's length times the path's.
const (
	MaxGlobAlternatives = 32
	MaxGlobLength       = 256
)

// MaxGlobs bounds a configuration's list of glob patterns (the valid
// ones, in order): every path of a lint is matched against each (10,000
// patterns against 2,000 paths took 46 s).
const MaxGlobs = 128

// CheckGlob reports why a glob pattern from a configuration cannot be
// used: malformed, or with more brace alternatives than
// MaxGlobAlternatives (several patterns say the same and match in
// linear time).
func CheckGlob(pat string) error {
	if !doublestar.ValidatePattern(pat) {
		return errors.New("is not a valid glob pattern")
	}
	if len(pat) > MaxGlobLength {
		return fmt.Errorf("is longer than %d bytes; write it as several patterns", MaxGlobLength)
	}
	if n := braceAlternatives(pat); n > MaxGlobAlternatives {
		return fmt.Errorf("has more than %d brace alternatives; write it as several patterns", MaxGlobAlternatives)
	}
	return nil
}

// braceAlternatives counts the patterns a pattern's braces expand to,
// counting no further than MaxGlobAlternatives+1. Backslash escapes and
// character classes are skipped as doublestar reads them.
func braceAlternatives(pat string) int {
	const over = MaxGlobAlternatives + 1
	type frame struct{ sum, prod int }
	stack := []frame{{prod: 1}}
	for i := 0; i < len(pat); i++ {
		top := &stack[len(stack)-1]
		switch pat[i] {
		case '\\':
			i++
		case '[':
			if j := strings.IndexByte(pat[i+1:], ']'); j >= 0 {
				i += j + 1
			}
		case '{':
			stack = append(stack, frame{prod: 1})
		case ',':
			if len(stack) > 1 {
				top.sum, top.prod = min(top.sum+top.prod, over), 1
			}
		case '}':
			if len(stack) > 1 {
				n := min(top.sum+top.prod, over)
				stack = stack[:len(stack)-1]
				outer := &stack[len(stack)-1]
				outer.prod = min(outer.prod*n, over)
			}
		}
	}
	return stack[0].prod
}
