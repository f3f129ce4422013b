package rules

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// Repository paths named inside state files (files_to_read, checkpoint_file,
// recovery_instructions.files_to_read) resolve against the repository root
// first, then the file's own folder (SPEC §1). Real files are also written
// relative to their project folder (projects/<name>/) or to the folder that
// holds .jerry/ (where the seed's ".jerry/checkpoints/…" paths start), so
// those are tried next when the file sits inside one.

// PathBase is one folder a reference may be relative to.
type PathBase struct {
	What string // "the repository root", for messages
	Dir  string // absolute OS path
}

// Resolver resolves the paths one file names. It belongs to one unit,
// checked by one goroutine.
type Resolver struct {
	Bases []PathBase
	cwd   string
	// root confines every look-up (ReadRoot): a path outside it, or one
	// leading out through a symbolic link, resolves nowhere, exactly like
	// a missing one, and is never looked at.
	root string
	// files answers the look-ups (Pass.Files): nil looks on disk.
	files *load.Files
	// project is the folder a declared base that exists nowhere is
	// placed under: the project folder, else the file's own; fileDir is
	// the file's own folder, where the search for a declared base starts.
	project, fileDir string
	// resolved remembers Resolve's answers: several rules of a unit
	// resolve the same paths, each a look-up on disk.
	resolved map[string]resolution
	// pending are declared folders (paths.*) looked for only once a path
	// resolves under no other base: finding each costs a look-up per
	// folder from the file's up to the root, and most paths need none.
	pending     []string
	pendingVars map[string]string
}

type resolution struct {
	path string
	ok   bool
}

// NewResolver returns the bases of file f, nearest-first after the
// repository root, without duplicates; files answers its look-ups (nil
// looks on disk).
func NewResolver(opts *Options, files *load.Files, f *load.File) *Resolver {
	r := &Resolver{cwd: opts.Cwd, root: ReadRoot(opts, f), files: files}
	add := func(what, dir string) {
		if dir == "" {
			return
		}
		dir = filepath.Clean(dir)
		for _, b := range r.Bases {
			if b.Dir == dir {
				return
			}
		}
		r.Bases = append(r.Bases, PathBase{What: what, Dir: dir})
	}
	root := absPath(opts.Cwd, opts.RepoRoot)
	if fr := ReadRoot(opts, f); f != nil && fr != "" && fr != root {
		if _, in := load.Contained(root, fr); root == "" || !in {
			// A file of another repository, named beside this one's: its
			// paths are written against its own root.
			root = fr
		}
	}
	add("the repository root", root)
	if f == nil {
		return r
	}
	dir := filepath.Dir(FileOSPath(opts, f))
	add("this file's folder", dir)
	var project, jerry string
	for d := dir; ; {
		if project == "" && filepath.Base(filepath.Dir(d)) == "projects" {
			project = d
		}
		if jerry == "" && r.files.IsDir(r.root, filepath.Join(d, ".jerry")) {
			jerry = d
		}
		parent := filepath.Dir(d)
		if parent == d || d == root || (project != "" && jerry != "") {
			break
		}
		d = parent
	}
	// jerry keeps a work item's decisions and plans beside the
	// orchestration/ folder its workflow sits in, directly or in a folder
	// of its own (FEAT-001/orchestration/<id>/): FEAT-001/FEAT-001--DEC-003-….md.
	for d, i := dir, 0; i < 2; d, i = filepath.Dir(d), i+1 {
		if filepath.Base(d) == "orchestration" {
			if item := filepath.Dir(d); item != project {
				add("the folder holding orchestration/", item)
			}
			break
		}
	}
	add("the project folder", project)
	add("the folder holding .jerry/", jerry)
	r.project, r.fileDir = project, dir
	if r.project == "" {
		r.project = dir
	}
	return r
}

// AddDeclared adds the bases an orchestration file declares (SPEC §1):
// jerry's paths.base, written relative to the project folder, with the
// {…} variables of paths and workflow.id expanded, and its documented
// artifact folder orchestration/{workflow_id}/. A base that needs a
// variable the file does not define is left out.
func (r *Resolver) AddDeclared(o *model.Orchestration) {
	vars := map[string]string{}
	if id := o.Workflow.ID; id.OK && strings.TrimSpace(id.Value) != "" {
		vars["workflow_id"], vars["workflow.id"], vars["id"] = id.Value, id.Value, id.Value
	}
	if paths := o.Doc.Paths; paths != nil {
		// Every other key of paths is a variable base may name.
		node.Pairs(paths.Node, func(k, v *yaml.Node) {
			if s, ok := node.Str(v); ok && k.Value != "base" {
				vars[k.Value] = s
			}
		})
		if paths.Base.OK {
			r.addDeclared("paths.base", paths.Base.Value, vars, false)
		}
		// The other folders it declares (paths.design, paths.research):
		// where they exist, a file named by its name alone is looked for
		// there too.
		node.Pairs(paths.Node, func(k, v *yaml.Node) {
			if s, ok := node.Str(v); ok && k.Value != "base" && len(r.pending) < maxDeclaredFolders && !slices.Contains(r.pending, s) {
				r.pending = append(r.pending, s)
			}
		})
		r.pendingVars = vars
	}
	if id := vars["workflow_id"]; id != "" {
		r.addDeclared("orchestration/<id>/", "orchestration/"+id+"/", vars, true)
	}
}

// maxDeclaredFolders bounds the paths.* folders a file's look-ups try
// (jerry declares about ten): each costs a look-up per folder above the
// file.
const maxDeclaredFolders = 32

// maxDeclaredLevels bounds how many folders above a file a declared base
// is looked for in (jerry's deepest workflow is eight below the root).
const maxDeclaredLevels = 16

// addDeclared adds one declared base: under the nearest folder, from the
// file's own up to the repository root, where it exists (jerry writes
// paths.base relative to the folder holding the workflow's orchestration/
// folder: the project's, or a feature's inside it), else (unless
// onlyExisting: a convention, not a declaration) under the project
// folder.
func (r *Resolver) addDeclared(what, base string, vars map[string]string, onlyExisting bool) {
	base = expandVars(strings.TrimSpace(base), vars, 0)
	if base == "" || hasTemplateVar(base) || IsHomeOrAbsolute(base) {
		return
	}
	rel := filepath.FromSlash(base)
	dir := ""
	stop := ""
	if len(r.Bases) > 0 {
		stop = r.Bases[0].Dir
	}
	for d, level := r.fileDir, 0; d != "" && level < maxDeclaredLevels; level++ {
		if c := filepath.Join(d, rel); r.files.IsDir(r.root, c) {
			dir = c
			break
		}
		parent := filepath.Dir(d) // each joined and cleaned once
		if d == stop || d == parent {
			break
		}
		d = parent
	}
	if dir == "" {
		if onlyExisting {
			return
		}
		dir = filepath.Join(r.project, rel)
	}
	dir = filepath.Clean(dir)
	for _, b := range r.Bases {
		if b.Dir == dir {
			return
		}
	}
	r.Bases = append(r.Bases, PathBase{What: what, Dir: dir})
}

// maxExpanded bounds a path with its variables expanded: a value naming
// a variable k times, k times over, would otherwise grow as k^5.
const maxExpanded = 4096

// expandVars replaces {name} by vars[name], a few levels deep ({base} in
// another paths entry); unknown names are kept. A result longer than
// maxExpanded is no path: "".
func expandVars(s string, vars map[string]string, depth int) string {
	var b strings.Builder
	if !expandInto(&b, s, vars, depth) {
		return ""
	}
	return b.String()
}

// expandInto writes s expanded to b, and reports whether b stayed within
// maxExpanded.
func expandInto(b *strings.Builder, s string, vars map[string]string, depth int) bool {
	if depth > 4 || !strings.Contains(s, "{") {
		b.WriteString(s)
		return b.Len() <= maxExpanded
	}
	for {
		i := strings.IndexByte(s, '{')
		j := strings.IndexByte(s[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(s)
			break
		}
		name := s[i+1 : i+j]
		b.WriteString(s[:i])
		if v, ok := vars[name]; ok {
			if !expandInto(b, v, vars, depth+1) {
				return false
			}
		} else {
			b.WriteString(s[i : i+j+1])
		}
		if b.Len() > maxExpanded {
			return false
		}
		s = s[i+j+1:]
	}
	return b.Len() <= maxExpanded
}

// FileOSPath returns the absolute OS path of a file of the run.
func FileOSPath(opts *Options, f *load.File) string {
	p := f.OSPath
	if p == "" {
		p = filepath.FromSlash(f.Path)
	}
	return absPath(opts.Cwd, p)
}

func absPath(cwd, p string) string {
	if p == "" {
		return ""
	}
	p = load.Abs(cwd, p)
	return filepath.Clean(p)
}

// Resolve returns the absolute OS path ref names under the first base where
// it exists, or false when it exists under none. An absolute ref is taken
// as it is.
func (r *Resolver) Resolve(ref string) (string, bool) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", false
	}
	if x, ok := r.resolved[ref]; ok {
		return x.path, x.ok
	}
	p, ok := r.resolve(ref)
	if r.resolved == nil {
		r.resolved = map[string]resolution{}
	}
	r.resolved[ref] = resolution{p, ok}
	return p, ok
}

func (r *Resolver) resolve(ref string) (string, bool) {
	p := filepath.FromSlash(ref)
	if filepath.IsAbs(p) {
		p = filepath.Clean(p)
		if !r.files.Exists(r.root, p) {
			return "", false
		}
		return p, true
	}
	for i := 0; i < len(r.Bases); i++ {
		c := filepath.Join(r.Bases[i].Dir, p)
		if r.files.Exists(r.root, c) {
			return c, true
		}
		if i == len(r.Bases)-1 {
			r.settle() // the bases it adds are tried next
		}
	}
	return "", false
}

// settle adds the pending declared folders that exist as bases.
func (r *Resolver) settle() {
	pending := r.pending
	r.pending = nil
	for _, s := range pending {
		r.addDeclared("paths.*", s, r.pendingVars, true)
	}
}

// Root is the folder the resolver's look-ups are confined to ("" when
// nothing is).
func (r *Resolver) Root() string { return r.root }

// ReadRoot is the folder that confines what is read on behalf of f: its
// own Root, else the repository root (load.RootFor). Without a repository
// root (unit tests) nothing is confined.
func ReadRoot(opts *Options, f *load.File) string {
	if f != nil && f.Root != "" {
		return f.Root
	}
	if opts.RepoRoot == "" {
		return ""
	}
	root := absPath(opts.Cwd, opts.RepoRoot)
	if f == nil {
		return root
	}
	return load.RootFor(root, FileOSPath(opts, f))
}

// Tried names every base for a message, in its short form and without
// its path (the rule's page says what each is): "the repository root,
// this file's folder and the project folder".
func (r *Resolver) Tried() string { return triedList(r.triedNames(), 0) }

// triedNames are the bases' short names, each once; paths.base is among
// the paths.* folders when the file declares others.
func (r *Resolver) triedNames() []string {
	r.settle()
	parts := make([]string, 0, len(r.Bases))
	others := slices.ContainsFunc(r.Bases, func(b PathBase) bool { return b.What == "paths.*" })
	for _, b := range r.Bases {
		s := shortBase[b.What]
		if b.What == "paths.base" && others {
			s = shortBase["paths.*"]
		}
		if !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	return parts
}

// triedList joins names, the first n of them and a count of the rest when
// 0 < n < len(names).
func triedList(names []string, n int) string {
	if n > 0 && n < len(names) {
		return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// shortBase is each base's name in a message: a finding names every base
// it tried (SPEC §1) within one line.
var shortBase = map[string]string{
	"the repository root":               "repo root",
	"this file's folder":                "this folder",
	"the project folder":                "project folder",
	"the folder holding .jerry/":        ".jerry/'s parent",
	"the folder holding orchestration/": "work item",
	"paths.*":                           "paths.*",
	"paths.base":                        "paths.base",
	"orchestration/<id>/":               "orchestration/<id>/",
}

// NotFound words a path that resolves nowhere: what names it, the path,
// every base tried and what to do.
// Where naming every base would pass the message's length, the last are
// counted ("and 2 more"; the rule's page lists them).
func (r *Resolver) NotFound(what, ref string) string {
	names := r.triedNames()
	var msg string
	for n := len(names); n >= 1; n-- {
		msg = diag.FitClip(func(w int) string {
			return fmt.Sprintf("%s %s resolves nowhere (tried %s): correct or remove it", what, diag.QuotePath(ref, w), triedList(names, n))
		})
		if utf8.RuneCountInString(msg) <= diag.MaxMessage {
			break
		}
	}
	return msg
}

// IsHomeOrAbsolute reports a path a session on another machine cannot read:
// absolute (including /tmp and drive letters) or starting with ~.
func IsHomeOrAbsolute(ref string) bool {
	ref = strings.TrimSpace(ref)
	if strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "\\") || strings.HasPrefix(ref, "~") {
		return true
	}
	return len(ref) >= 3 && ref[1] == ':' && (ref[2] == '\\' || ref[2] == '/') &&
		(ref[0] >= 'A' && ref[0] <= 'Z' || ref[0] >= 'a' && ref[0] <= 'z')
}

// hasTemplateVar reports a {variable} in a path: in a template file it is
// filled in when the template is instantiated, so the path is not checked.
func hasTemplateVar(ref string) bool {
	i := strings.IndexByte(ref, '{')
	return i >= 0 && strings.IndexByte(ref[i:], '}') > 0
}
