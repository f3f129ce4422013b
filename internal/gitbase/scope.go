package gitbase

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/resumelint/resumelint/internal/load"
)

// FilterChanged keeps only what changed since base (--changed-only): files
// that are modified, renamed, added or untracked, and folder units (bundles,
// agent runs) holding at least one changed or deleted file.
func (r *Repo) FilterChanged(d *load.Discovery) {
	// What the changed units' cross-file findings read stays as context
	// (load.Discovery.Context): the workflows beside a changed checkpoint,
	// the runs beside a changed run, so they are what a lint of the whole
	// repository says of them.
	keep := func(fs []*load.File, context bool) []*load.File {
		out := fs[:0]
		for _, f := range fs {
			switch {
			case r.Changed(f.OSPath):
				out = append(out, f)
			case context && f.Kind == load.KindOrchestration:
				d.Context = append(d.Context, f)
			}
		}
		return out
	}
	d.Files = keep(d.Files, true)
	d.Unknown = keep(d.Unknown, false)
	folders := d.Folders[:0]
	for _, f := range d.Folders {
		switch {
		case r.changedUnder(f.OSPath):
			folders = append(folders, f)
		case f.Kind == load.KindAgentRun:
			d.ContextFolders = append(d.ContextFolders, f)
		}
	}
	d.Folders = folders
}

// changedUnder reports whether any change, a deletion included, lies
// inside the folder osDir.
func (r *Repo) changedUnder(osDir string) bool {
	rel, ok := r.Rel(osDir)
	if !ok {
		return true
	}
	prefix := rel + "/"
	if rel == "." {
		prefix = ""
	}
	for _, c := range r.changes {
		if strings.HasPrefix(c.Path, prefix) || c.OldPath != "" && strings.HasPrefix(c.OldPath, prefix) {
			return true
		}
	}
	return false
}

// Scope returns whether an OS path lies within what a lint run names: the
// command-line paths (files, folders, doublestar globs) resolved against
// cwd, or cwd itself when there are none. Rules use it for files that are
// not units of the run, such as files deleted since base.
func Scope(cwd string, args []string) func(osPath string) bool {
	type entry struct {
		path string
		glob bool
		dir  bool
	}
	var es []entry
	if len(args) == 0 {
		args = []string{"."}
	}
	for _, a := range args {
		p := filepath.Clean(load.Abs(cwd, a))
		if fi, err := os.Stat(p); err == nil {
			es = append(es, entry{path: p, dir: fi.IsDir()})
		} else if strings.ContainsAny(a, "*?[{") {
			es = append(es, entry{path: filepath.ToSlash(p), glob: true})
		} else {
			es = append(es, entry{path: p})
		}
	}
	return func(osPath string) bool {
		abs, err := filepath.Abs(osPath)
		if err != nil {
			return false
		}
		for _, e := range es {
			switch {
			case e.glob:
				if ok, _ := doublestar.Match(e.path, filepath.ToSlash(abs)); ok {
					return true
				}
			case e.dir:
				if rel, ok := relUnder(e.path, abs); ok && rel != "" {
					return true
				}
			case abs == e.path:
				return true
			}
		}
		return false
	}
}
