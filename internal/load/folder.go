package load

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
)

// Bundle is a loaded SPECTRUM-02 bundle folder (seed 002).
type Bundle struct {
	Folder *Folder
	// Artifacts holds the parsed required artifacts by file name; a
	// missing artifact has no entry, one that failed to parse has a
	// Document with a nil Root.
	Artifacts map[string]*Document
	// Entries are the names directly inside the folder (for forbidden
	// artifacts), folders with a trailing '/'.
	Entries []string
}

// LoadBundle reads and parses the bundle's required artifacts. The
// bundle folder is opened once (inside the folder's Root, when it has
// one) and every artifact is opened relative to it: an artifact that is a
// symbolic link leading out of the bundle folder, or becomes one while it
// is read, is not read (seed 002 §6.1: a verifier reads only what the
// bundle holds).
func LoadBundle(f *Folder, lim Limits) (*Bundle, []diag.Finding) {
	return (*Files)(nil).LoadBundle(f, lim)
}

// LoadBundle is load.LoadBundle with the artifacts read through x.
func (x *Files) LoadBundle(f *Folder, lim Limits) (*Bundle, []diag.Finding) {
	b := &Bundle{Folder: f, Artifacts: map[string]*Document{}}
	var out []diag.Finding
	dir, err := OpenFolder(f)
	if err != nil {
		// Nothing was read: say why, or the verdict would name no cause.
		file := &File{Path: f.Path, OSPath: f.OSPath, Kind: KindBundle, Root: f.Root}
		if errors.Is(err, ErrOutside) {
			return b, append(out, Problem(file, code.InputLimits, diag.Pos{}, "the bundle folder leads outside the repository (a symbolic link or \"..\"); not read"))
		}
		return b, append(out, Problem(file, code.ParseError, diag.Pos{}, "cannot read folder: %v", unwrapPathErr(err)))
	}
	defer dir.Close()
	for _, name := range BundleArtifacts {
		file := &File{Path: joinDisplay(f.Path, name), OSPath: filepath.Join(f.OSPath, name), Kind: KindBundle, Root: f.OSPath}
		fi, err := dir.Lstat(name)
		if err != nil {
			continue
		}
		probs, ok, err := x.readWith(file, lim, func() (handle, error) {
			fh, err := dir.OpenFile(name, os.O_RDONLY|openFlags, 0)
			if err != nil {
				return nil, rootErr(err)
			}
			return fh, nil
		})
		switch {
		case errors.Is(err, ErrOutside):
			out = append(out, Problem(file, code.InputLimits, diag.Pos{}, "%s is a symbolic link to a file outside the bundle folder; not read", name))
			b.Artifacts[name] = &Document{File: file}
			continue
		case errors.Is(err, fs.ErrNotExist) && fi.Mode()&fs.ModeSymlink == 0:
			continue // removed since it was listed
		case !ok:
			out = append(out, probs...)
			b.Artifacts[name] = &Document{File: file}
			continue
		}
		doc, ps := Parse(file, FormatJSON, lim)
		out = append(out, probs...)
		out = append(out, ps...)
		b.Artifacts[name] = doc
	}
	if d, err := dir.Open("."); err == nil {
		ents, _ := d.ReadDir(-1)
		d.Close()
		sortEntries(ents)
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() {
				n += "/"
			}
			b.Entries = append(b.Entries, n)
		}
	}
	return b, out
}

// OpenFolder opens a folder unit as a root: through its Root when it has
// one, so the folder itself cannot lie outside the repository. A folder
// without a Root is not opened (ErrNoRoot).
func OpenFolder(f *Folder) (*os.Root, error) {
	if f.Root == "" {
		return nil, ErrNoRoot
	}
	rel, ok := Contained(f.Root, f.OSPath)
	if !ok {
		return nil, ErrOutside
	}
	r, err := os.OpenRoot(f.Root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if rel == "." {
		return os.OpenRoot(f.Root)
	}
	d, err := r.OpenRoot(rel)
	return d, rootErr(err)
}

// AgentRun is a loaded run folder under .agent-memory/runs/ (seed 003).
type AgentRun struct {
	Folder    *Folder
	ID        string
	TaskGraph *Document // nil when the file does not exist
	// WorkflowState is workflow-state.json, which the agentic-developer
	// pack's orchestrator keeps beside the graph (its workflow.status
	// says whether the run is over); nil when the file does not exist.
	WorkflowState *Document
	Events        []*Document
	// Artifacts present at the top of the run folder (plan.md, prd.md, …).
	Present map[string]bool
	// PerEventFiles are files under events/ that hold one event each
	// (.yaml, .yml, .json: the agent packs' older layout). The resume
	// protocol reads only events/**/*.jsonl, so they are listed, not read.
	PerEventFiles []*File
}

// LoadAgentRun reads the task graph and every events file of a run.
func LoadAgentRun(f *Folder, lim Limits) (*AgentRun, []diag.Finding) {
	return (*Files)(nil).LoadAgentRun(f, lim)
}

// LoadAgentRun is load.LoadAgentRun with the files read through x.
func (x *Files) LoadAgentRun(f *Folder, lim Limits) (*AgentRun, []diag.Finding) {
	// The id is the folder's name, also when it is displayed as "." or ".."
	// (a lint from inside the run).
	id := path.Base(f.Path)
	if f.OSPath != "" {
		id = filepath.Base(f.OSPath)
	}
	r := &AgentRun{Folder: f, ID: id, Present: map[string]bool{}}
	var out []diag.Finding
	if ents, err := ReadDirIn(f.Root, f.OSPath); err == nil {
		for _, e := range ents {
			r.Present[e.Name()] = true
		}
	}
	if r.Present["task-graph.json"] {
		file := &File{Path: joinDisplay(f.Path, "task-graph.json"), OSPath: filepath.Join(f.OSPath, "task-graph.json"), Kind: KindAgentRun, Root: f.Root}
		doc, probs := x.readParse(file, FormatJSON, lim)
		out = append(out, probs...)
		r.TaskGraph = doc
	}
	if r.Present["workflow-state.json"] {
		file := &File{Path: joinDisplay(f.Path, "workflow-state.json"), OSPath: filepath.Join(f.OSPath, "workflow-state.json"), Kind: KindAgentRun, Root: f.Root}
		doc, probs := x.readParse(file, FormatJSON, lim)
		out = append(out, probs...)
		r.WorkflowState = doc
	}
	files := append([]*File(nil), f.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, file := range files {
		if !strings.HasSuffix(file.Path, ".jsonl") {
			if perEventFile(f.OSPath, file.OSPath) {
				r.PerEventFiles = append(r.PerEventFiles, file)
			}
			continue
		}
		doc, probs := x.readParse(file, FormatJSONL, lim)
		out = append(out, probs...)
		r.Events = append(r.Events, doc)
	}
	return r, out
}

// perEventFile reports whether a file of a run folder lies under its
// events/ and has the extension of a one-event-per-file layout.
func perEventFile(runDir, p string) bool {
	rel, err := filepath.Rel(runDir, p)
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	if !strings.HasPrefix(rel, "events/") {
		return false
	}
	switch strings.ToLower(path.Ext(rel)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func joinDisplay(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// readParse reads and parses one artifact of a folder unit; a file that
// cannot be read yields a Document with a nil Root.
func (x *Files) readParse(file *File, format Format, lim Limits) (*Document, []diag.Finding) {
	probs, ok := x.Read(file, lim)
	if !ok {
		return &Document{File: file}, probs
	}
	doc, ps := Parse(file, format, lim)
	return doc, append(probs, ps...)
}

// Unit is what one pass of the rules runs over: a file's *Document, a
// *Bundle or an *AgentRun. Only these three implement it.
type Unit interface {
	// UnitKind is the unit's kind.
	UnitKind() Kind
	// UnitPath is the unit's display path (a folder's without a slash).
	UnitPath() string
}

// UnitKind is the document's file's kind.
func (d *Document) UnitKind() Kind { return d.File.Kind }

// UnitPath is the document's file's display path.
func (d *Document) UnitPath() string { return d.File.Path }

// UnitKind is KindBundle.
func (b *Bundle) UnitKind() Kind { return KindBundle }

// UnitPath is the bundle folder's display path.
func (b *Bundle) UnitPath() string { return b.Folder.Path }

// UnitKind is KindAgentRun.
func (r *AgentRun) UnitKind() Kind { return KindAgentRun }

// UnitPath is the run folder's display path.
func (r *AgentRun) UnitPath() string { return r.Folder.Path }
