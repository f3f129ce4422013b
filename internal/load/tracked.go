package load

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/resumelint/resumelint/internal/gitcmd"
)

// Tracked lists the files the index of the work tree at top holds under
// dir, relative to dir, as discovery lists them: read from the index, or
// asked of git where git must answer (an index named by the environment,
// as inside a pre-commit hook, a linked work tree). Names that would lead
// elsewhere (an index entry "../x", an absolute or empty part) are left
// out: git never writes them. ok is false when git cannot list them.
func Tracked(top, dir string) (list [][]byte, ok bool) {
	if err := gitcmd.CheckRepo(top); err != nil {
		return nil, false
	}
	list, err := trackedFiles(&lazyRepo{top: top}, dir)
	if err != nil {
		return nil, false
	}
	return bytesFilter(list, plainRel), true
}

// plainRel reports whether a listed name is a plain relative path: no
// empty, "." or ".." part, not absolute.
func plainRel(name []byte) bool {
	for len(name) > 0 {
		part := name
		if i := bytes.IndexByte(name, '/'); i >= 0 {
			part, name = name[:i], name[i+1:]
			if len(name) == 0 {
				return false // a trailing '/': an empty part
			}
		} else {
			name = nil
		}
		if len(part) == 0 || string(part) == "." || string(part) == ".." {
			return false
		}
	}
	return true
}

func bytesFilter(list [][]byte, keep func([]byte) bool) [][]byte {
	out := list[:0:0]
	for _, x := range list {
		if len(x) > 0 && keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// maxListedWalk bounds the entries Listed reads walking a folder outside
// a work tree git can list (a full lint's discovery walks it whole).
const maxListedWalk = 1 << 20

// Listed lists the files a lint of the work tree at top lists, relative
// to it: those git tracks and the untracked ones it does not ignore;
// outside a work tree git can list, the regular files a walk of top finds
// (.git, node_modules and vendor left out). As discovery does, git is
// asked for the untracked files (git ls-files -o --exclude-standard) only
// once the walk that checks the tree's .gitignore files has seen a file
// the index does not hold: a clean checkout runs no git. For the rules
// that weigh what a repository writes beyond the files a run was given: a
// file an agent has just written, not yet added, is part of what a lint
// of the repository sees.
func Listed(top string) [][]byte {
	list, ok := Tracked(top, top)
	if !ok {
		return walkListed(top)
	}
	// The tally discovery keeps: did the walk see what the index lacks?
	l := NewListing()
	tally := &treeTally{l: l, root: top, top: top}
	tally.track(list)
	err := gitcmd.CheckTreeSeen(top, top, func(dir string, ents []fs.DirEntry) {
		if filepath.IsAbs(dir) && filepath.Clean(dir) == dir {
			tally.seenHashed(dir, ents, l.Add(dir, ents))
		}
	})
	if err != nil || tally.clean() {
		return list // git would wait on a .gitignore; or nothing untracked
	}
	g, err := gitcmd.OpenRepo(top)
	if err != nil {
		return list
	}
	cmd := gitLsFiles(g, top, "-o", "--exclude-standard")
	if cmd.Run() != nil {
		return list
	}
	others := bytes.Split(cmd.Stdout.(*bytes.Buffer).Bytes(), []byte{0})
	return append(slices.Clip(list), bytesFilter(others, plainRel)...)
}

// walkListed is Listed outside a work tree git can list.
func walkListed(top string) [][]byte {
	var out [][]byte
	WalkFiles(top, maxListedWalk, func(p string) {
		if rel, err := filepath.Rel(top, p); err == nil {
			out = append(out, []byte(filepath.ToSlash(rel)))
		}
	})
	return out
}
