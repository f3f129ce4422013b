package bundle

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Forbidden artifacts (seed 002 §2.3): things a bundle must not carry. They
// are reported as notes, never as rejection codes, because the verdict must
// not depend on them (002 §6.1, §7 item 5).

// DefaultForbidden are the name patterns of seed 002 §2.3, matched
// case-insensitively against every name inside the bundle folder. A
// pattern ending in "/" matches folders only; one with another "/" matches
// the path relative to the bundle folder; any other matches the base name.
var DefaultForbidden = []string{
	"logs/", "*.log", // execution logs
	"tmp/",                           // the run's ephemeral workspace
	"*transcript*", "*chat_history*", // chat transcripts
	"*reasoning*",                               // reasoning traces
	"*restore*", "*snapshot*", "*intermediate*", // restoration snapshots: intermediate state
	"EXECUTION_ORDER*", // execution-order metadata
	"*.dump", "debug*", // debug dumps
	"checkpoint*", "*.ckpt", // checkpoint files: intermediate state
}

// forbiddenWhat names what each default pattern is meant to catch.
var forbiddenWhat = map[string]string{
	"logs/":            "execution logs",
	"*.log":            "an execution log",
	"tmp/":             "an ephemeral workspace",
	"*transcript*":     "a chat transcript",
	"*chat_history*":   "a chat transcript",
	"*intermediate*":   "intermediate state",
	"*reasoning*":      "a reasoning trace",
	"*restore*":        "a restoration snapshot (intermediate state)",
	"*snapshot*":       "a restoration snapshot (intermediate state)",
	"EXECUTION_ORDER*": "execution-order metadata",
	"*.dump":           "a debug dump",
	"debug*":           "a debug dump",
	"checkpoint*":      "a checkpoint file (intermediate state)",
	"*.ckpt":           "a checkpoint file (intermediate state)",
}

// maxWalk bounds the names looked at for forbidden artifacts, so a bundle
// folder that is a whole repository costs a bounded walk.
const maxWalk = 100_000

type pattern struct {
	orig    string
	glob    string // lowercased, without a trailing "/"
	dirOnly bool
	full    bool // matched against the relative path
}

// ValidatePatterns reports the first malformed forbidden pattern.
func ValidatePatterns(pats []string) error {
	for _, p := range pats {
		g := strings.ToLower(strings.TrimSuffix(p, "/"))
		if g == "" {
			return fmt.Errorf("forbidden artifact pattern %s is not a valid glob", diag.QuoteFull(p))
		}
		if err := load.CheckGlob(g); err != nil {
			return fmt.Errorf("forbidden artifact pattern %s %v", diag.QuoteFull(p), err)
		}
	}
	return nil
}

func compilePatterns(pats []string) []pattern {
	out := make([]pattern, 0, len(pats))
	for _, p := range pats {
		g := strings.ToLower(strings.TrimSuffix(p, "/"))
		if g == "" || load.CheckGlob(g) != nil {
			continue
		}
		out = append(out, pattern{orig: p, glob: g, dirOnly: strings.HasSuffix(p, "/"), full: strings.Contains(g, "/")})
	}
	return out
}

func (p *pattern) match(rel string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	subject := strings.ToLower(path.Base(rel))
	if p.full {
		subject = strings.ToLower(rel)
	}
	ok, _ := doublestar.Match(p.glob, subject)
	return ok
}

// forbidden walks the bundle folder (without following links) and notes
// every forbidden artifact. Declared outputs are outputs, not artifacts:
// they and the folders holding them are exempt.
func (c *checker) forbidden(entries []entry) {
	pats := compilePatterns(c.o.Forbidden)
	if len(pats) == 0 {
		return
	}
	declared := map[string]bool{}
	holds := map[string]bool{}
	for _, e := range entries {
		rel, ok := c.bundleRel(e.key)
		if !ok {
			continue
		}
		declared[rel] = true
		for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
			holds[d] = true
		}
	}
	root, err := load.OpenFolder(c.b.Folder)
	if err != nil {
		return
	}
	defer root.Close()
	seen := 0
	// walk lists one folder, opened relative to its parent's descriptor:
	// a folder swapped for a symbolic link while the scan runs is not
	// followed out of the bundle, and nothing outside is ever listed.
	var walk func(dir *os.Root, prefix string, depth int) bool
	walk = func(dir *os.Root, prefix string, depth int) bool {
		d, err := dir.Open(".")
		if err != nil {
			return true
		}
		ents, _ := d.ReadDir(-1)
		d.Close()
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
		for _, e := range ents {
			if seen++; seen > maxWalk {
				return false
			}
			rel := prefix + e.Name()
			isDir := e.IsDir() // from the listing: a symbolic link is never a folder here
			if isDir && e.Name() == ".git" {
				continue
			}
			if declared[rel] || (isDir && holds[rel]) || (!strings.Contains(rel, "/") && isArtifact(rel)) {
				if isDir && depth < maxDepth && !c.enter(dir, e.Name(), rel, depth, walk) {
					return false
				}
				continue
			}
			if c.matchForbidden(pats, rel, isDir) {
				continue
			}
			if isDir && depth < maxDepth && !c.enter(dir, e.Name(), rel, depth, walk) {
				return false
			}
		}
		return true
	}
	walk(root, "", 0)
}

// maxDepth bounds how deep the forbidden-artifact scan descends.
const maxDepth = 32

// enter walks the subfolder name of dir.
func (c *checker) enter(dir *os.Root, name, rel string, depth int, walk func(*os.Root, string, int) bool) bool {
	sub, err := dir.OpenRoot(name)
	if err != nil {
		return true // gone, or no longer a folder inside the bundle
	}
	defer sub.Close()
	return walk(sub, rel+"/", depth+1)
}

// matchForbidden notes rel when it matches a forbidden pattern.
func (c *checker) matchForbidden(pats []pattern, rel string, isDir bool) bool {
	for i := range pats {
		if !pats[i].match(rel, isDir) {
			continue
		}
		shown := rel
		if isDir {
			shown += "/"
		}
		what := forbiddenWhat[pats[i].orig]
		if what == "" {
			what = "a forbidden artifact"
		}
		c.notes = append(c.notes, Note{Code: ForbiddenArtifact, Path: shown, Pattern: pats[i].orig,
			Message: fmt.Sprintf("%s looks like %s (pattern %s), which a bundle must not hold", diag.Clip(shown), what, diag.QuoteFull(pats[i].orig))})
		return true
	}
	return false
}

func isArtifact(name string) bool {
	return name == taskSpec || name == statusFile || name == outputHashes
}

// bundleRel returns a declared output's path relative to the bundle folder,
// when it lies inside it.
func (c *checker) bundleRel(key string) (string, bool) {
	if lexicalProblem(key) != "" {
		return "", false
	}
	if c.o.Base != BaseRepo {
		return path.Clean(key), true
	}
	abs, err := filepath.Abs(filepath.Join(c.repoRoot(), filepath.FromSlash(key)))
	if err != nil {
		return "", false
	}
	folder, err := filepath.Abs(c.b.Folder.OSPath)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(folder, abs)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return rel, true
}
