package load

import (
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
