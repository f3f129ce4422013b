package rules

import (
	"errors"
	"io/fs"

	"github.com/resumelint/resumelint/internal/gitbase"
	"github.com/resumelint/resumelint/internal/load"
)

// A rule reads what is not its unit only through its pass: ReadFile, Stat,
// ReadDir and Base. The engine gives every pass of a run the same
// *load.Files, so each read is confined to the repository root (or the
// folder RootFor gives a file outside it), done once however many rules
// and units ask, and answered from an editor's unsaved buffer where the
// language server has one.

// root is the folder the pass's reads are confined to (ReadRoot).
func (p *Pass) root() string { return ReadRoot(p.Opts, p.File()) }

// ReadFile returns the bytes of the regular file at osPath within the
// run's size limit. They are shared: a rule must not modify them.
func (p *Pass) ReadFile(osPath string) ([]byte, error) {
	return p.Files.ReadFile(p.root(), osPath, maxSize(p.Opts))
}

// Stat returns what osPath names; a path outside the root does not exist.
func (p *Pass) Stat(osPath string) (fs.FileInfo, error) { return p.Files.Stat(p.root(), osPath) }

// ReadDir lists the folder at osPath, sorted by name. The entries are
// shared: a rule must not modify them.
func (p *Pass) ReadDir(osPath string) ([]fs.DirEntry, error) {
	return p.Files.ReadDir(p.root(), osPath)
}

// exists and isDir are Stat's answers the rules of this package ask most.
func (p *Pass) exists(osPath string) bool { return p.Files.Exists(p.root(), osPath) }

func (p *Pass) isDir(osPath string) bool { return p.Files.IsDir(p.root(), osPath) }

// Base returns the file at osPath as the base revision holds it (--base).
func (p *Pass) Base(osPath string) (gitbase.File, error) { return baseFile(p.BaseRev, osPath) }

// root is the repository root, which confines a cross-file rule's reads.
func (p *RepoPass) root() string { return ReadRoot(p.Opts, nil) }

// ReadFile is Pass.ReadFile for a cross-file rule.
func (p *RepoPass) ReadFile(osPath string) ([]byte, error) {
	return p.Files.ReadFile(p.root(), osPath, maxSize(p.Opts))
}

// Stat is Pass.Stat for a cross-file rule.
func (p *RepoPass) Stat(osPath string) (fs.FileInfo, error) { return p.Files.Stat(p.root(), osPath) }

// ReadDir is Pass.ReadDir for a cross-file rule.
func (p *RepoPass) ReadDir(osPath string) ([]fs.DirEntry, error) {
	return p.Files.ReadDir(p.root(), osPath)
}

// Listed lists the files a lint of the repository lists, relative to its
// root (load.Files.Listed): tracked, and untracked but not ignored; none
// without a repository root.
func (p *RepoPass) Listed() [][]byte {
	if p.Opts.RepoRoot == "" {
		return nil
	}
	return p.Files.Listed(absPath(p.Opts.Cwd, p.Opts.RepoRoot))
}

// Base is Pass.Base for a cross-file rule.
func (p *RepoPass) Base(osPath string) (gitbase.File, error) { return baseFile(p.BaseRev, osPath) }

// errNoBase is Base's error in a run without --base.
var errNoBase = errors.New("no base revision (--base) to read from")

func baseFile(b *Base, osPath string) (gitbase.File, error) {
	if b == nil {
		return gitbase.File{}, errNoBase
	}
	return b.Repo.Lookup(osPath)
}

// maxSize is the run's file size limit (the default when none is set).
func maxSize(opts *Options) int64 {
	if opts.Limits.MaxFileSize == 0 {
		return load.DefaultLimits.MaxFileSize
	}
	return opts.Limits.MaxFileSize
}

// readInto reads f (a file no unit of the run holds) through the run's
// file access, confined to f.Root, and checks its bytes like load.Read:
// false when they must not be parsed.
func readInto(files *load.Files, f *load.File, lim load.Limits) bool {
	data, err := files.ReadFile(f.Root, f.OSPath, lim.MaxFileSize)
	if err != nil {
		return false
	}
	f.Data = data
	_, ok := load.CheckBytes(f, lim)
	return ok
}
