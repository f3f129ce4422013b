package load

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// pending is a fix's changes not written yet (Files.Pending): the text
// that stands for each changed file, and the paths renamed away.
type pending struct {
	put  map[string][]byte // by absolute, clean OS path
	gone map[string]bool
	// By folder, so a listing costs its folder's changes, not every
	// change of the fix: a fix of thousands of files lists a folder
	// for each of them.
	putIn  map[string][]string // the paths of put in each folder
	goneIn map[string]bool     // the folders of gone
}

// Pending makes the look-ups answer as if a fix's changes were written,
// until done is called: put's text stands for the file at each OS path
// (a regular file, listed in its folder), and the paths of gone are absent.
// The fix driver lints its candidates so before it writes them, so that a
// rule that looks at another file (is there a resume-context.md beside
// this _resume.md?) sees the rename. One lint at a time: the fix driver's
// lints follow one another.
func (x *Files) Pending(put map[string][]byte, gone []string) (done func()) {
	if x == nil || len(put) == 0 && len(gone) == 0 {
		return func() {}
	}
	p := &pending{put: map[string][]byte{}, gone: map[string]bool{}, putIn: map[string][]string{}, goneIn: map[string]bool{}}
	for osPath, data := range put {
		if abs, err := filepath.Abs(osPath); err == nil {
			if _, twice := p.put[abs]; !twice {
				p.putIn[filepath.Dir(abs)] = append(p.putIn[filepath.Dir(abs)], abs)
			}
			p.put[abs] = data
		}
	}
	for _, osPath := range gone {
		if abs, err := filepath.Abs(osPath); err == nil {
			if _, back := p.put[abs]; !back {
				p.gone[abs] = true
				p.goneIn[filepath.Dir(abs)] = true
			}
		}
	}
	x.pend.Store(p)
	return func() { x.pend.CompareAndSwap(p, nil) }
}

// pendingText returns the text a pending change puts at osPath.
func (x *Files) pendingText(osPath string) ([]byte, bool) {
	p := x.pend.Load()
	if p == nil {
		return nil, false
	}
	abs, err := filepath.Abs(osPath)
	if err != nil {
		return nil, false
	}
	data, ok := p.put[abs]
	return data, ok
}

// isGone reports a path a pending change renamed away.
func (x *Files) isGone(osPath string) bool {
	if x == nil {
		return false
	}
	p := x.pend.Load()
	if p == nil || len(p.gone) == 0 {
		return false
	}
	abs, err := filepath.Abs(osPath)
	return err == nil && p.gone[abs]
}

// pendingDir is the listing ents of the folder osPath (err when it could
// not be listed) with the pending changes made: the files renamed away
// left out, the files renamed into it added, in name order.
func (x *Files) pendingDir(osPath string, ents []fs.DirEntry, err error) ([]fs.DirEntry, error) {
	p := x.pend.Load()
	if p == nil {
		return ents, err
	}
	dir, aerr := filepath.Abs(osPath)
	if aerr != nil {
		return ents, err
	}
	var added []fs.DirEntry
	for _, abs := range p.putIn[dir] {
		added = append(added, fs.FileInfoToDirEntry(bufferInfo{name: filepath.Base(abs), size: int64(len(p.put[abs]))}))
	}
	changed := len(added) > 0 || p.goneIn[dir]
	if !changed || err != nil && len(added) == 0 {
		return ents, err
	}
	out := make([]fs.DirEntry, 0, len(ents)+len(added))
	have := map[string]bool{}
	for _, e := range ents {
		if !p.gone[filepath.Join(dir, e.Name())] {
			out = append(out, e)
			have[e.Name()] = true
		}
	}
	for _, e := range added {
		if !have[e.Name()] {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}
