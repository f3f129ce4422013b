package load

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

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

// LoadBundle reads and parses the bundle's required artifacts.
func LoadBundle(f *Folder, lim Limits) (*Bundle, []diag.Finding) {
	b := &Bundle{Folder: f, Artifacts: map[string]*Document{}}
	var out []diag.Finding
	for _, name := range BundleArtifacts {
		p := filepath.Join(f.OSPath, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		file := &File{Path: joinDisplay(f.Path, name), OSPath: p, Kind: KindBundle}
		if !insideFolder(f.OSPath, p) {
			// A verifier reads only what the bundle holds (seed 002 §6.1):
			// an artifact linked from elsewhere is not the bundle's.
			out = append(out, Problem(file, "RL003", diag.Pos{}, "%s is a symbolic link to a file outside the bundle folder; not read", name))
			b.Artifacts[name] = &Document{File: file}
			continue
		}
		doc, probs := readParse(file, FormatJSON, lim)
		out = append(out, probs...)
		b.Artifacts[name] = doc
	}
	if ents, err := os.ReadDir(f.OSPath); err == nil {
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

// AgentRun is a loaded run folder under .agent-memory/runs/ (seed 003).
type AgentRun struct {
	Folder    *Folder
	ID        string
	TaskGraph *Document // nil when the file does not exist
	Events    []*Document
	// Artifacts present at the top of the run folder (plan.md, prd.md, …).
	Present map[string]bool
	// PerEventFiles are files under events/ that hold one event each
	// (.yaml, .yml, .json: the agent packs' older layout). The resume
	// protocol reads only events/**/*.jsonl, so they are listed, not read.
	PerEventFiles []*File
}

// LoadAgentRun reads the task graph and every events file of a run.
func LoadAgentRun(f *Folder, lim Limits) (*AgentRun, []diag.Finding) {
	r := &AgentRun{Folder: f, ID: path.Base(f.Path), Present: map[string]bool{}}
	var out []diag.Finding
	if ents, err := os.ReadDir(f.OSPath); err == nil {
		for _, e := range ents {
			r.Present[e.Name()] = true
		}
	}
	if r.Present["task-graph.json"] {
		file := &File{Path: joinDisplay(f.Path, "task-graph.json"), OSPath: filepath.Join(f.OSPath, "task-graph.json"), Kind: KindAgentRun}
		doc, probs := readParse(file, FormatJSON, lim)
		out = append(out, probs...)
		r.TaskGraph = doc
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
		doc, probs := readParse(file, FormatJSONL, lim)
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

// insideFolder reports whether p, after symbolic links, lies inside dir.
func insideFolder(dir, p string) bool {
	rd, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	rp, err := filepath.EvalSymlinks(p)
	if err != nil {
		return true // dangling or unreadable: Read reports it without following anything
	}
	rel, err := filepath.Rel(rd, rp)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// readParse reads and parses one artifact of a folder unit; a file that
// cannot be read yields a Document with a nil Root.
func readParse(file *File, format Format, lim Limits) (*Document, []diag.Finding) {
	probs, ok := Read(file, lim)
	if !ok {
		return &Document{File: file}, probs
	}
	doc, ps := Parse(file, format, lim)
	return doc, append(probs, ps...)
}
