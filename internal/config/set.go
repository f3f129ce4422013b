package config

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/resumelint/resumelint/internal/load"
)

// Scope is one configuration and the folder it governs: its globs,
// excludes and ignores are relative to Root, and it applies to every path
// under Root that no nearer configuration claims.
type Scope struct {
	Config *Config
	// Root is the OS folder the configuration's patterns are anchored at:
	// the folder holding the .resumelint.yaml, the repository root for
	// --config and for the defaults.
	Root string
	// OSPath is the configuration file read; "" for the defaults.
	OSPath string

	classifierOnce sync.Once
	classifier     *load.Classifier
}

// Classifier is the scope's discovery classifier, built once.
func (sc *Scope) Classifier() *load.Classifier {
	sc.classifierOnce.Do(func() { sc.classifier = sc.Config.Classifier(sc.Root) })
	return sc.classifier
}

// Set finds the configuration of each linted path, as ruff does: --config
// for every path when given, else the nearest .resumelint.yaml walking up
// from the path's folder to the repository root (the first folder up that
// holds .git), or to the filesystem root outside a repository. Each file
// is read once; the first one that cannot be read or is invalid is kept
// in Err, and the run stops (exit 2).
type Set struct {
	cwd      string
	repoRoot string
	gitRoot  string // repoRoot when it holds .git, else ""
	fixed    *Scope // --config
	defaults *Scope

	// mu guards what follows; look-ups that find their answer memoised
	// share it (every unit and every classified path looks its folder up,
	// on every core).
	mu     sync.RWMutex
	byDir  map[string]*Scope // folder → the scope it belongs to
	byFile map[string]*Scope // configuration OS path → its scope
	order  []*Scope          // configurations read, in the order found
	err    error
	// uniform, once Settle finds every folder looked up governed by one
	// scope, answers every later look-up (byDir is then dropped), without
	// the lock.
	uniform atomic.Pointer[Scope]
	// listings are folders a git listing showed whole: the configurations
	// under them are known, so no folder inside is looked in.
	listings []listing
	// beside memoises Beside's look-ups once the set is settled.
	beside map[string]*Scope
}

// listing is a folder whose files a listing showed, and the folders
// below it that hold a configuration file.
type listing struct {
	root    string
	configs map[string]bool
}

// Listed records a listing of osDir (paths relative to it, '/'-separated,
// as git ls-files prints them): folders inside it are then governed by
// the nearest configuration the listing holds, or osDir's, without a
// look in each. A configuration git ignores below osDir is not seen. A
// later listing of osDir replaces the earlier; changed reports whether
// the configurations it shows differ (true for a first listing).
func (s *Set) Listed(osDir string, rel [][]byte) (changed bool) {
	l := listing{root: filepath.Clean(osDir), configs: map[string]bool{}}
	name := []byte(FileName)
	for _, r := range rel {
		if !bytes.HasSuffix(r, name) || (len(r) > len(name) && r[len(r)-len(name)-1] != '/') {
			continue
		}
		if dir := filepath.Dir(filepath.Join(l.root, filepath.FromSlash(string(r)))); dir != l.root {
			l.configs[dir] = true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, old := range s.listings {
		if old.root == l.root {
			// A later listing of the folder (the tracked files first, then
			// all) replaces the earlier one.
			s.listings[i] = l
			return !maps.Equal(old.configs, l.configs)
		}
	}
	s.listings = append(s.listings, l)
	return true
}

// listed answers For for a folder inside a listing: the nearest folder
// holding a configuration below the listing's root, else the root's own
// scope; false for a folder in no listing.
func (s *Set) listed(dir string) (*Scope, bool) {
	if d, ok := s.governing(dir); ok {
		return s.lookup(d), true
	}
	return nil, false
}

// governing is the folder whose scope answers for dir inside a listing:
// the nearest folder below the listing's root that holds a
// configuration, else the root; false for a folder in no listing.
func (s *Set) governing(dir string) (string, bool) {
	for _, l := range s.listings {
		if dir != l.root && !strings.HasPrefix(dir, l.root+string(filepath.Separator)) {
			continue
		}
		for d := dir; d != l.root && len(l.configs) > 0; d = filepath.Dir(d) {
			if l.configs[d] {
				return d, true
			}
		}
		return l.root, true
	}
	return "", false
}

// NewSet prepares the lookups of a run. explicit is the OS path of
// --config ("" when not given); repoRoot is the run's repository root
// (where --config's and the defaults' patterns are anchored; "" outside a
// repository, then cwd).
func NewSet(cwd, repoRoot, explicit string) (*Set, error) {
	anchor := repoRoot
	if anchor == "" {
		anchor = cwd
	}
	s := &Set{cwd: cwd, repoRoot: repoRoot, byDir: map[string]*Scope{}, byFile: map[string]*Scope{},
		defaults: &Scope{Config: &Config{}, Root: anchor}}
	if fi, err := os.Stat(filepath.Join(repoRoot, ".git")); repoRoot != "" && err == nil && fi != nil {
		s.gitRoot = filepath.Clean(repoRoot)
	}
	if explicit != "" {
		cfg, err := Load(explicit, load.Display(cwd, explicit), load.RootFor(repoRoot, explicit))
		if err != nil {
			return nil, err
		}
		s.fixed = &Scope{Config: cfg, Root: anchor, OSPath: explicit}
		s.order = append(s.order, s.fixed)
	}
	return s, nil
}

// For returns the scope that governs a folder (an OS path).
func (s *Set) For(osDir string) *Scope {
	if s.fixed != nil {
		return s.fixed
	}
	if sc := s.uniform.Load(); sc != nil {
		return sc
	}
	dir := filepath.Clean(osDir)
	s.mu.RLock()
	sc, ok := s.memoised(dir)
	s.mu.RUnlock()
	if ok {
		return sc
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc := s.uniform.Load(); sc != nil {
		return sc
	}
	if sc, ok := s.listed(dir); ok {
		return sc
	}
	return s.lookup(dir)
}

// memoised is For's answer when it needs neither a look in a folder nor
// a change to the memo: listed and lookup, reading only. s.mu is held
// for reading.
func (s *Set) memoised(dir string) (*Scope, bool) {
	if d, ok := s.governing(dir); ok {
		dir = d
	}
	sc, ok := s.byDir[dir]
	return sc, ok
}

// Settle is called once every unit of the run was looked up (after
// discovery): when one configuration governs them all, as in most
// repositories, it answers every later look-up and the per-folder memo,
// one entry per folder of the repository, is let go.
func (s *Set) Settle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	var only *Scope
	for _, sc := range s.byDir {
		if only != nil && sc != only {
			return
		}
		only = sc
	}
	if only != nil {
		s.uniform.Store(only)
		s.byDir = nil
	}
}

// Unsettle undoes Settle before more units are looked up that discovery
// did not meet (the files a lint reads beside the ones named): a nested
// configuration of theirs is then found and applies; Settle again once
// they are.
func (s *Set) Unsettle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.uniform.Load() != nil {
		s.uniform.Store(nil)
		s.byDir = map[string]*Scope{}
	}
}

// Beside is For for a folder the run's units may not be in (a file a rule
// reads beside them, to weigh evidence as a lint of the repository
// would): past a settled answer, which holds only for the units' folders,
// the folder is looked up, its answer kept apart from the run's.
func (s *Set) Beside(osDir string) *Scope {
	if s.fixed != nil || s.uniform.Load() == nil {
		return s.For(osDir)
	}
	dir := filepath.Clean(osDir)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.beside == nil {
		s.beside = map[string]*Scope{}
	}
	run := s.byDir
	s.byDir = s.beside
	defer func() { s.byDir = run }()
	if sc, ok := s.listed(dir); ok {
		return sc
	}
	return s.lookup(dir)
}

// ForPath returns the scope of a file or folder unit by its OS path.
func (s *Set) ForPath(osPath string, isDir bool) *Scope {
	if isDir {
		return s.For(osPath)
	}
	return s.For(filepath.Dir(osPath))
}

// lookup walks up from dir until a folder holds a configuration, is a
// repository root, or is the filesystem root, and remembers the answer
// for every folder on the way.
func (s *Set) lookup(dir string) *Scope {
	var walked []string
	var found *Scope
	for d := dir; ; {
		if sc, ok := s.byDir[d]; ok {
			found = sc
			break
		}
		walked = append(walked, d)
		p := filepath.Join(d, FileName)
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
			found = s.read(p)
			break
		}
		parent := filepath.Dir(d)
		if parent == d || s.isStop(d) {
			found = s.defaults
			break
		}
		d = parent
	}
	for _, d := range walked {
		s.byDir[d] = found
	}
	return found
}

// isStop reports whether the walk up ends at dir: the run's repository
// root for folders inside it (no further look-up there), else any folder
// holding .git.
func (s *Set) isStop(dir string) bool {
	if s.gitRoot != "" {
		if dir == s.gitRoot {
			return true
		}
		if _, inside := load.Contained(s.gitRoot, dir); inside {
			return false
		}
	}
	_, err := os.Stat(filepath.Join(dir, ".git"))
	return err == nil
}

// read loads one configuration file; an unreadable or invalid one is
// recorded in Err and its folder falls back to the defaults, so discovery
// can finish before the run stops.
func (s *Set) read(osPath string) *Scope {
	if sc, ok := s.byFile[osPath]; ok {
		return sc
	}
	cfg, err := Load(osPath, load.Display(s.cwd, osPath), load.RootFor(s.repoRoot, osPath))
	if err != nil {
		if s.err == nil {
			s.err = err
		}
		s.byFile[osPath] = s.defaults
		return s.defaults
	}
	sc := &Scope{Config: cfg, Root: filepath.Dir(osPath), OSPath: osPath}
	s.byFile[osPath] = sc
	s.order = append(s.order, sc)
	return sc
}

// Err is the first configuration that could not be read or is invalid.
func (s *Set) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Scopes lists the configurations read so far, in the order found.
func (s *Set) Scopes() []*Scope {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Scope(nil), s.order...)
}

// Defaults is the scope of paths no configuration file governs.
func (s *Set) Defaults() *Scope { return s.defaults }
