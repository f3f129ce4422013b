package load

import (
	"bytes"

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
