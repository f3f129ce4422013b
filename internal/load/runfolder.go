package load

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/resumelint/resumelint/internal/diag"
)

// RunFolder lists the files of one agent-run folder named by the user,
// wherever it lies (Discover finds runs only under .agent-memory/runs/):
// everything under dir but .git and node_modules, sorted, for
// LoadAgentRun. A folder that cannot be listed is an RL001 problem, not
// left out in silence. root is the folder reads may not leave
// (File.Root).
func RunFolder(cwd, root, dir string) (*Folder, []diag.Finding) {
	f := &Folder{Kind: KindAgentRun, Path: Display(cwd, dir), OSPath: dir, Explicit: true, Root: root}
	var probs []diag.Finding
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			bad := &File{Path: Display(cwd, p), OSPath: p, Kind: KindAgentRun, Root: root}
			probs = append(probs, Problem(bad, "RL001", diag.Pos{}, "cannot read folder: %v", unwrapPathErr(err)))
			if e != nil && e.IsDir() && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			if p != dir && (e.Name() == ".git" || e.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		f.Files = append(f.Files, &File{Path: Display(cwd, p), OSPath: p, Kind: KindAgentRun, Root: root})
		return nil
	})
	slices.SortFunc(f.Files, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
	return f, probs
}
