package load

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
)

// RunFolder lists the files of one agent-run folder named by the user,
// wherever it lies (Discover finds runs only under .agent-memory/runs/):
// everything under dir but .git and node_modules, sorted, for
// LoadAgentRun. A folder that cannot be listed is an RL001 problem, not
// left out in silence. root is the folder reads may not leave
// (File.Root): the folder is walked through an os.Root at root, so a
// link on the way out of it is neither entered nor listed.
func RunFolder(cwd, root, dir string) (*Folder, []diag.Finding) {
	f := &Folder{Kind: KindAgentRun, Path: Display(cwd, dir), OSPath: dir, Explicit: true, Root: root}
	var probs []diag.Finding
	bad := func(p string, err error) {
		file := &File{Path: Display(cwd, p), OSPath: p, Kind: KindAgentRun, Root: root}
		if errors.Is(err, ErrOutside) {
			probs = append(probs, Problem(file, code.InputLimits, diag.Pos{}, "the folder leads outside the repository (a symbolic link or \"..\"); not read"))
			return
		}
		probs = append(probs, Problem(file, code.ParseError, diag.Pos{}, "cannot read folder: %v", unwrapPathErr(err)))
	}
	if root == "" {
		bad(dir, ErrNoRoot)
		return f, probs
	}
	rel, ok := Contained(root, dir)
	if !ok {
		bad(dir, ErrOutside)
		return f, probs
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		bad(dir, err)
		return f, probs
	}
	defer r.Close()
	_ = fs.WalkDir(r.FS(), filepath.ToSlash(rel), func(p string, e fs.DirEntry, err error) error {
		osPath := filepath.Join(root, filepath.FromSlash(p))
		if err != nil {
			bad(osPath, rootErr(err))
			if e != nil && e.IsDir() && osPath != dir {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			if osPath != dir && (e.Name() == ".git" || e.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		f.Files = append(f.Files, &File{Path: Display(cwd, osPath), OSPath: osPath, Kind: KindAgentRun, Root: root})
		return nil
	})
	slices.SortFunc(f.Files, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
	return f, probs
}
