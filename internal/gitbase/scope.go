package gitbase

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/resumelint/resumelint/internal/load"
)

// FilterChanged keeps only what changed since base (--changed-only): files
// that are modified, renamed, added or untracked, the files whose OS paths
// are in also (those whose findings rest on a change), and folder units
// (bundles, agent runs) holding at least one changed or deleted file.
func (r *Repo) FilterChanged(d *load.Discovery, also map[string]bool) {
	// What the changed units' cross-file findings read stays as context
	// (load.Discovery.Context): the workflows beside a changed checkpoint,
	// the runs beside a changed run, so they are what a lint of the whole
	// repository says of them.
	// Only what a changed unit needs is kept: none when no checkpoint or
	// run changed.
	var workflows []*load.File
	cps := false
	keep := func(fs []*load.File) []*load.File {
		out := fs[:0]
		for _, f := range fs {
			switch {
			case r.Changed(f.OSPath):
				out = append(out, f)
				cps = cps || f.Kind == load.KindCheckpoint
			case also[f.OSPath]:
				out = append(out, f)
			case f.Kind == load.KindOrchestration:
				workflows = append(workflows, f)
			}
		}
		return out
	}
	d.Files = keep(d.Files)
	d.Unknown = keep(d.Unknown)
	if cps {
		d.Context = append(d.Context, workflows...)
	}
	var runs []*load.Folder
	runChanged := false
	folders := d.Folders[:0]
	for _, f := range d.Folders {
		switch {
		case r.changedUnder(f.OSPath):
			folders = append(folders, f)
			runChanged = runChanged || f.Kind == load.KindAgentRun
		case f.Kind == load.KindAgentRun:
			runs = append(runs, f)
		}
	}
	d.Folders = folders
	if runChanged {
		d.ContextFolders = append(d.ContextFolders, runs...)
	}
}

// FilterExcluded keeps, of the units an exclude pattern left out (display
// paths relative to cwd, folders ending in "/"), those the change touched:
// under --changed-only the others are not part of the run, so saying they
// were skipped would count what was never in question.
func (r *Repo) FilterExcluded(cwd string, skips []load.Skip) []load.Skip {
	var out []load.Skip
	for _, s := range skips {
		p := load.Abs(cwd, s.Path)
		if strings.HasSuffix(s.Path, "/") && r.changedUnder(filepath.Clean(p)) || r.Changed(p) {
			out = append(out, s)
		}
	}
	return out
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
			// Reached through a link (macOS's /tmp is one), the paths
			// linted are named by it, and git's changes (Repo.OSPath) by
			// the folder it leads to: both are in scope.
			if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
				es = append(es, entry{path: r, dir: fi.IsDir()})
			}
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
