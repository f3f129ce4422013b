package rules

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// Nexus-style project folders (SPEC §3.4, seed 004): the rules that look
// past one file, at the 02-projects/<id>/ folder around it.

var (
	PrecompactProject = &Rule{Code: code.PrecompactProject, Name: "precompact-project", Severity: diag.SevWarning, Kinds: precompactKind, Family: "nexus",
		Summary: "active_project_id with no 02-projects/<id>/ folder, or none with 01-planning/resume-context.md", Run: runPrecompactProject}
	LegacyResumeFilename = &Rule{Code: code.LegacyResumeFilename, Name: "legacy-resume-filename", Severity: diag.SevWarning, Fix: diag.FixSafe, Kinds: resumeKind, Family: "nexus",
		Summary: "a _resume.md file (an error when resume-context.md exists too)", Run: runLegacyResumeFilename}
	FilesToLoad = &Rule{Code: code.FilesToLoad, Name: "files-to-load", Severity: diag.SevError, Kinds: resumeKind, Family: "nexus",
		Summary: "a files_to_load entry that is missing, absolute, outside the repository, or repeated", Run: runFilesToLoad}
	NoDuplication = &Rule{Code: code.NoDuplication, Name: "no-duplication", Severity: diag.SevWarning, Kinds: resumeKind, Family: "nexus",
		Summary: "the body repeats 5 or more consecutive non-blank lines of a files_to_load file", Run: runNoDuplication}
	ProjectIDFolder = &Rule{Code: code.ProjectIDFolder, Name: "project-id-folder", Severity: diag.SevError, Kinds: resumeKind, Family: "nexus",
		Summary: "project_id differs from the enclosing 02-projects/<id>/ folder", Run: runProjectIDFolder}
	ProgressVsSteps = &Rule{Code: code.ProgressVsSteps, Lifecycle: AboutFinished, Name: "progress-vs-steps", Severity: diag.SevWarning, Kinds: resumeKind, Family: "nexus",
		Summary: "tasks_completed or progress N differs from the checked items of the steps file (04-steps.md, steps.md)", Run: runProgressVsSteps}
)

func init() {
	Register(PrecompactProject, LegacyResumeFilename, FilesToLoad, NoDuplication, ProjectIDFolder, ProgressVsSteps)
}

// Project is the project folder of a resume file: the parent of
// 01-planning/, or the folder of a resume file that sits directly in
// 02-projects/<id>/ (where older projects kept _resume.md). A nexus build
// (02-builds/<id>/, 02-builds/active/<id>/, 02-builds/complete/<id>/) is a
// project to every rule: the same files in the same places.
type Project struct {
	Dir      string // OS path
	Disp     string // display path, '/'-separated
	FolderID string // <id> when the folder is 02-projects/<id> or a build's, else ""
	Build    bool   // the folder is a build's, under 02-builds/
	Area     string // a build's 02-builds/ subfolder: "active", "complete" or "" (directly under 02-builds/)
	Root     string // the nexus root (the folder holding 02-projects/ or 02-builds/) when FolderID is set
}

// noun names the folder's kind in messages.
func (pr *Project) noun() string {
	if pr.Build {
		return "build"
	}
	return "project"
}

// absPathOf returns a file's absolute OS path (stdin files carry the name
// given on the command line, relative to the working directory).
func absPathOf(p *Pass, f *load.File) string {
	if filepath.IsAbs(f.OSPath) {
		return f.OSPath
	}
	return filepath.Join(p.Opts.Cwd, f.OSPath)
}

// ProjectOf locates the project folder of a resume file, or nil.
func ProjectOf(p *Pass, f *load.File) *Project {
	dir := filepath.Dir(absPathOf(p, f))
	var proj string
	switch {
	case filepath.Base(dir) == "01-planning":
		proj = filepath.Dir(dir)
	case filepath.Base(filepath.Dir(dir)) == "02-projects", filepath.Base(filepath.Dir(dir)) == "02-builds":
		proj = dir
	default:
		return nil
	}
	pr := &Project{Dir: proj, Disp: load.Display(p.Opts.Cwd, proj)}
	parent := filepath.Dir(proj)
	switch pb := filepath.Base(parent); {
	case pb == "02-projects":
		pr.FolderID, pr.Root = filepath.Base(proj), filepath.Dir(parent)
	case pb == "02-builds":
		pr.FolderID, pr.Root, pr.Build = filepath.Base(proj), filepath.Dir(parent), true
	case (pb == "active" || pb == "complete") && filepath.Base(filepath.Dir(parent)) == "02-builds":
		pr.FolderID, pr.Root, pr.Build, pr.Area = filepath.Base(proj), filepath.Dir(filepath.Dir(parent)), true, pb
	}
	return pr
}

// LoadedProject is the project folder of the pass's resume file when it is
// one SessionStart reads, 02-projects/<id>/: files_to_load, the steps file
// and the body are checked against it. A resume file elsewhere (a test
// fixture in a working folder) is loaded by nothing, so its paths resolve
// nowhere that matters.
func LoadedProject(p *Pass) *Project {
	if p.Doc == nil {
		return nil
	}
	if pr := ProjectOf(p, p.Doc.File); pr != nil && pr.FolderID != "" {
		return pr
	}
	return nil
}

// display is the path shown for a file inside the project folder.
func (pr *Project) display(rel string) string {
	if pr.Disp == "." || pr.Disp == "" {
		return rel
	}
	if climbs(rel) {
		return path.Join(pr.Disp, rel) // a sibling build's file, by its own path
	}
	return pr.Disp + "/" + rel
}

// folderExists and regularFileExists look only inside root (ReadRoot):
// a symbolic link leading out of the repository names nothing.
func folderExists(files *load.Files, root, p string) bool { return files.IsDir(root, p) }

func regularFileExists(files *load.Files, root, p string) bool { return files.IsRegular(root, p) }

// ---- lifecycle ----------------------------------------------------------------

// ResumeFinished reports a resume file that records its project as over
// (SPEC §0 lifecycle): current_phase or status says complete (nexus's
// steps templates end with `current_phase: "complete"`), done, cancelled,
// failed or archived. Nothing will resume it, so no rule asks it to migrate
// or to add what a resuming session would need; what it holds must still
// be right. A project whose overview says COMPLETE is over too: nexus's
// hooks leave it out of the projects they resume (finishedOverview).
func ResumeFinished(p *Pass) bool {
	d := p.Doc
	return d != nil && d.File.Kind == load.KindResumeContext && RecordOf(p).Finished
}

// projectOver reads a project's or build's status as every record's is
// read ("COMPLETE - READY FOR ARCHIVE", "ARCHIVED").
func projectOver(s string) bool { return IsFinishedStatus(s) }

// ---- RL304 --------------------------------------------------------------------

// nexusRoot finds the folder holding 02-projects/ at or above dir, not
// climbing past the repository root (or 32 levels outside a repository).
// top is the last folder looked at.
func nexusRoot(files *load.Files, rr, dir, repoRoot string) (root, top string) {
	inRepo := repoRoot != "" && (dir == repoRoot || strings.HasPrefix(dir, repoRoot+string(filepath.Separator)))
	for i := 0; i < 32; i++ {
		if folderExists(files, rr, filepath.Join(dir, "02-projects")) || folderExists(files, rr, filepath.Join(dir, "02-builds")) {
			return dir, dir
		}
		parent := filepath.Dir(dir)
		if parent == dir || (inRepo && dir == repoRoot) {
			break
		}
		dir = parent
	}
	return "", dir
}

// projectIDRe is #PrecompactState's active_project_id pattern: an id that
// fails it is RL301's, not a missing folder.
var projectIDRe = lazyre.New(`^[0-9]{2}-[a-z0-9-]+$`)

func runPrecompactProject(p *Pass) {
	pc := PrecompactOf(p)
	if pc == nil {
		return
	}
	idNode := pc.State.ActiveProjectID.Node
	id, ok := node.Str(idNode)
	if !ok || !projectIDRe.MatchString(id) {
		return // null (no project detected), or a malformed id: RL301
	}
	f := p.Doc.File
	start := filepath.Dir(absPathOf(p, f))
	rr := ReadRoot(p.Opts, f)
	root, top := nexusRoot(p.Files, rr, start, p.Opts.RepoRoot)
	if root == "" {
		msg := diag.FitClip(func(w int) string {
			return fmt.Sprintf("active_project_id %s: no 02-projects/ or 02-builds/ folder in %s or above it (up to %s): correct the id or the layout", diag.Quote(id), diag.ClipPath(load.Display(p.Opts.Cwd, start), w), diag.ClipPath(load.Display(p.Opts.Cwd, top), w))
		})
		p.Report(f, idNode, msg)
		return
	}
	projDir := projectFolder(p.Files, rr, root, id)
	projDisp := load.Display(p.Opts.Cwd, projDir)
	if !folderExists(p.Files, rr, projDir) {
		p.Report(f, idNode, fmt.Sprintf("active_project_id %s names no project: %s/ does not exist; correct the id or restore the folder", diag.Quote(id), diag.Clip(projDisp)))
		return
	}
	rc := filepath.Join(projDir, "01-planning", "resume-context.md")
	if regularFileExists(p.Files, rr, rc) {
		return
	}
	for _, legacy := range []string{filepath.Join(projDir, "01-planning", "_resume.md"), filepath.Join(projDir, "_resume.md")} {
		if regularFileExists(p.Files, rr, legacy) {
			rel, _ := filepath.Rel(projDir, legacy)
			p.Report(f, idNode, fmt.Sprintf("project %s has only the legacy %s, which SessionStart does not read: rename it to 01-planning/resume-context.md", diag.Clip(projDisp), filepath.ToSlash(rel)))
			return
		}
	}
	p.Report(f, idNode, fmt.Sprintf("project %s has no 01-planning/resume-context.md, so a resumed session gets no loading manifest: write one", diag.Clip(projDisp)))
}

// projectFolder is where the project or build id lives under a nexus root:
// 02-projects/<id>/, else a build's folder (02-builds/active/<id>/, then
// complete/, then directly under 02-builds/, the order nexus's hooks look
// in); 02-projects/<id>/ when none exists.
func projectFolder(files *load.Files, rr, root, id string) string {
	proj := filepath.Join(root, "02-projects", id)
	if folderExists(files, rr, proj) {
		return proj
	}
	for _, sub := range []string{"active", "complete", ""} {
		if b := filepath.Join(root, "02-builds", sub, id); folderExists(files, rr, b) {
			return b
		}
	}
	return proj
}

// ---- RL313 --------------------------------------------------------------------

// legacyTarget is where a _resume.md belongs: its project's
// 01-planning/resume-context.md (or, outside a project, the file next to
// it). ok is false for a file that is not a _resume.md.
func legacyTarget(p *Pass, f *load.File) (target string, ok bool) {
	if path.Base(f.Path) != "_resume.md" {
		return "", false
	}
	target = filepath.Join(filepath.Dir(absPathOf(p, f)), "resume-context.md")
	if pr := ProjectOf(p, f); pr != nil {
		target = filepath.Join(pr.Dir, "01-planning", "resume-context.md")
	}
	return target, true
}

// Superseded reports a _resume.md whose project already has its
// resume-context.md: RL313 says to delete it, so the rules about a resume
// file's content stay silent on it (one root cause, one finding).
func Superseded(p *Pass) bool {
	if p.Doc == nil {
		return false
	}
	target, ok := legacyTarget(p, p.Doc.File)
	return ok && regularFileExists(p.Files, ReadRoot(p.Opts, p.Doc.File), target)
}

func runLegacyResumeFilename(p *Pass) {
	f := p.Doc.File
	target, ok := legacyTarget(p, f)
	if !ok {
		return
	}
	disp := load.Display(p.Opts.Cwd, target)
	rr := ReadRoot(p.Opts, f)
	if regularFileExists(p.Files, rr, target) {
		p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "a second resume file: SessionStart reads the resume-context.md next to it instead; move anything still needed there and delete this one", WithSeverity(diag.SevError), WithRelated(diag.Related{Path: disp, Line: 1, Column: 1, Message: "the resume file SessionStart reads"}))
		return
	}
	if ResumeFinished(p) {
		return // history: nothing asks to migrate it
	}
	rel, err := filepath.Rel(filepath.Dir(absPathOf(p, f)), target)
	if err != nil {
		rel = disp
	}
	rel = filepath.ToSlash(rel)
	if r := ResumeOf(p); r == nil || r.Memo {
		// A memo (or a note without front matter) is legacy only where
		// the repository reads resume-context.md; renaming it would not
		// give that form.
		if pr := ProjectOf(p, f); resumeContextAdopted(p, pr) && !memoStillWritten(p, pr) {
			p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, fmt.Sprintf("_resume.md is a legacy resume memo, which SessionStart does not load: write its state into %s", rel))
		}
		return
	}
	p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, fmt.Sprintf("_resume.md is the legacy name, which SessionStart does not load: rename it to %s", rel), WithFix(fix.RenameFile(f, disp)))
}

// memoStillWritten reports whether a skill of the project's nexus root
// still tells the agent to keep a _resume.md: nexus's research pipeline
// did (its orchestrators' SKILL.md, "{project_path}/_resume.md … reload
// after compaction") after SessionStart moved to resume-context.md, and
// nexus-loader --resume (core/nexus/state.py) reads the memo's phase and
// last skill back. Where a skill writes it and the loader reads it, it is
// that skill's format, not a leftover.
func memoStillWritten(p *Pass, pr *Project) bool {
	if pr == nil || pr.Root == "" {
		return false
	}
	type key struct{ root string }
	return perRun(p.Index, key{pr.Root}, func() bool {
		budget := maxSkillFiles
		for _, dir := range nexusSkillDirs {
			if skillNames(p, filepath.Join(pr.Root, filepath.FromSlash(dir)), 0, &budget, "_resume.md") {
				return true
			}
		}
		return false
	})
}

// nexusSkillDirs are the folders of a nexus root that hold skills.
var nexusSkillDirs = []string{"03-skills", "00-system/skills"}

// maxSkillFiles bounds the folders and SKILL.md files memoStillWritten
// looks at (nexus-template has about 150 skills); maxSkillDepth how deep.
const (
	maxSkillFiles = 2000
	maxSkillDepth = 5
)

// skillNames reports whether a SKILL.md under dir holds text.
func skillNames(p *Pass, dir string, depth int, budget *int, text string) bool {
	entries, err := p.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if *budget--; *budget < 0 {
			return false
		}
		full := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir() && depth < maxSkillDepth:
			if skillNames(p, full, depth+1, budget, text) {
				return true
			}
		case e.Name() == "SKILL.md" && hookHolds(p, full, text):
			return true
		}
	}
	return false
}

// maxAdoptionEntries bounds the folders resumeContextAdopted lists.
const maxAdoptionEntries = 1000

// nexusResumeHooks are the hooks of nexus-template that read or write the
// resume file (SessionStart, PreCompact), relative to the nexus root.
var nexusResumeHooks = []string{".claude/hooks/session_start.py", ".claude/hooks/save_resume_state.py"}

// maxHookSize bounds a hook resumeContextAdopted reads (nexus's are 10-40 KB).
const maxHookSize = 1 << 20

// hookHolds reports whether the hook at full, a regular file of at most
// maxHookSize, holds text.
func hookHolds(p *Pass, full, text string) bool {
	if fi, err := p.Stat(full); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxHookSize {
		return false
	}
	data, err := p.ReadFile(full)
	return err == nil && bytes.Contains(data, []byte(text))
}

// resumeContextAdopted reports whether the nexus root of a project has
// moved from _resume.md to resume-context.md (SPEC §0: a legacy form is
// legacy only where the repository has adopted its successor): its
// SessionStart or PreCompact hook names resume-context.md, or a project or
// build keeps one. Before that, nexus's PreCompact hook wrote _resume.md
// memos and SessionStart read them.
func resumeContextAdopted(p *Pass, pr *Project) bool {
	if pr == nil || pr.Root == "" {
		return false
	}
	type key struct{ root string }
	return perRun(p.Index, key{pr.Root}, func() bool { return weighResumeAdoption(p, pr) })
}

// weighResumeAdoption is resumeContextAdopted's look, once per nexus root.
func weighResumeAdoption(p *Pass, pr *Project) bool {
	for _, h := range nexusResumeHooks {
		if hookHolds(p, filepath.Join(pr.Root, filepath.FromSlash(h)), "resume-context.md") {
			return true
		}
	}
	for _, area := range []string{"02-projects", filepath.Join("02-builds", "active"), filepath.Join("02-builds", "complete"), "02-builds"} {
		dir := filepath.Join(pr.Root, area)
		entries, err := p.ReadDir(dir)
		if err != nil {
			continue
		}
		for i, e := range entries {
			if i == maxAdoptionEntries {
				break
			}
			if e.IsDir() && p.exists(filepath.Join(dir, e.Name(), "01-planning", "resume-context.md")) {
				return true
			}
		}
	}
	return false
}

// ---- RL314 --------------------------------------------------------------------

// loadEntry is one files_to_load entry that names a file of the project.
type loadEntry struct {
	rel  string // cleaned, '/'-separated, relative to the project folder
	node *yaml.Node
}

// cleanEntry normalises a files_to_load entry; problem is set for an entry
// that cannot name a file inside the project folder.
func cleanEntry(s string) (rel, problem string) {
	norm := strings.ReplaceAll(strings.TrimSpace(s), `\`, "/")
	switch {
	case norm == "":
		return "", "is empty"
	case strings.HasPrefix(norm, "/") || strings.HasPrefix(norm, "~") || (len(norm) >= 2 && norm[1] == ':' && isASCIILetter(norm[0])):
		return "", "is an absolute path: write it relative to the project folder"
	}
	// An entry that climbs out of the project folder ("../03-other/x.md")
	// is one nexus's SessionStart loads (it joins the entry to the folder
	// and opens the result): leavesRepo bounds it by the repository.
	return path.Clean(norm), ""
}

// climbs reports a cleaned entry that leaves the project folder.
func climbs(rel string) bool { return rel == ".." || strings.HasPrefix(rel, "../") }

// loadBase is the folder files_to_load entries are joined to: the
// project's, else the folder above the resume file's 01-planning/ (the
// project folder it would have), else the file's own.
func loadBase(p *Pass, pr *Project) string {
	if pr != nil {
		return pr.Dir
	}
	dir := filepath.Dir(absPathOf(p, p.Doc.File))
	if filepath.Base(dir) == "01-planning" {
		return filepath.Dir(dir)
	}
	return dir
}

// leavesRepo is the problem of an entry that climbs out of the repository
// (or, with no repository known, out of the project folder), "" for any
// other: SessionStart would inject a file from outside the repository, or
// one that exists on one machine only.
func leavesRepo(p *Pass, pr *Project, rr, rel string) string {
	switch {
	case !climbs(rel):
		return ""
	case rr == "":
		return "leaves the project folder: list files of this project only"
	}
	if _, ok := load.Contained(rr, filepath.Join(loadBase(p, pr), filepath.FromSlash(rel))); !ok {
		return "leaves the repository: list files of the repository only"
	}
	return ""
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// filesToLoad returns the well-formed entries of files_to_load.
func filesToLoad(root *yaml.Node) []loadEntry {
	var out []loadEntry
	v := resumeFieldsOf(root).Context.FilesToLoad.Node
	if !node.IsSeq(v) {
		return nil
	}
	for _, e := range v.Content {
		s, ok := node.Str(e)
		if !ok {
			continue
		}
		if rel, problem := cleanEntry(s); problem == "" {
			out = append(out, loadEntry{rel: rel, node: e})
		}
	}
	return out
}

func runFilesToLoad(p *Pass) {
	r := ResumeOf(p)
	if r == nil {
		return
	}
	d := p.Doc
	v := r.FilesToLoad
	if !node.IsSeq(v) {
		return // RL311
	}
	pr := LoadedProject(p)
	if !d.File.Template && !ResumeFinished(p) {
		commentCutsLoadList(p, pr, v)
	}
	rr := ReadRoot(p.Opts, d.File)
	first := map[string]*yaml.Node{}
	var renamed []renamedEntry
	defer func() { reportRenamed(p, pr, renamed) }()
	numbered := map[string]map[string]string{} // numberedNames by folder
	for _, e := range v.Content {
		s, ok := node.Str(e)
		if !ok {
			continue // RL311
		}
		rel, problem := cleanEntry(s)
		if problem == "" {
			problem = leavesRepo(p, pr, rr, rel)
		}
		if problem != "" {
			p.Report(d.File, e, fmt.Sprintf("files_to_load entry %s %s", diag.QuoteFull(s), problem))
			continue
		}
		if f := first[rel]; f != nil {
			p.Report(d.File, e, fmt.Sprintf("files_to_load lists %s twice (first at line %d); remove the repeat", diag.QuoteFull(s), f.Line), WithRelated(diag.Related{Path: d.File.Path, Line: f.Line, Column: f.Column, Message: "first entry"}))
			continue
		}
		first[rel] = e
		if pr == nil || d.File.Template || ResumeFinished(p) {
			continue // a finished project is history: nothing will load its manifest
		}
		full := filepath.Join(pr.Dir, filepath.FromSlash(rel))
		if p.Files.Exists(rr, full) {
			if p.Files.IsDir(rr, full) {
				p.Report(d.File, e, fmt.Sprintf("files_to_load entry %s is a folder, which SessionStart does not load: list the files in it instead", diag.Quote(s)))
			}
			continue
		}
		where := fmt.Sprintf("in the %s folder", pr.noun())
		if climbs(rel) {
			where = "at " + diag.Quote(pr.display(rel))
		}
		dir := filepath.Dir(full)
		names, listed := numbered[dir]
		if !listed {
			names = numberedNames(p.Files, rr, dir)
			numbered[dir] = names
		}
		if alt := names[filepath.Base(full)]; alt != "" {
			renamed = append(renamed, renamedEntry{e, s, where, path.Join(path.Dir(rel), alt)})
			continue
		}
		// The project folder is 02-projects/<id>/ (or a build's): Root is
		// the repository root of a nexus layout.
		if !climbs(rel) && regularFileExists(p.Files, rr, filepath.Join(pr.Root, filepath.FromSlash(rel))) {
			p.Report(d.File, e, diag.FitClip(func(w int) string {
				return fmt.Sprintf("files_to_load entry %s is at the repository root, but SessionStart reads the %s folder: copy it in or remove it", diag.QuotePath(s, w), pr.noun())
			}))
			continue
		}
		p.Report(d.File, e, fmt.Sprintf("files_to_load entry %s does not exist %s: correct the path or remove it", diag.Quote(s), where))
	}
}

// renamedEntry is a files_to_load entry naming a file nexus has since
// numbered (numberedNames): alt is its name now.
type renamedEntry struct {
	node     *yaml.Node
	s, where string
	alt      string
}

// reportRenamed reports the entries naming numbered files by their old
// names: one finding per entry, or one for all when there are several (one
// cause: the manifest predates the numbering).
func reportRenamed(p *Pass, pr *Project, rs []renamedEntry) {
	switch len(rs) {
	case 0:
		return
	case 1:
		r := rs[0]
		p.Report(p.Doc.File, r.node, fmt.Sprintf("files_to_load entry %s does not exist %s: did you mean %s?", diag.Quote(r.s), r.where, diag.Quote(r.alt)), WithRelated(diag.Related{Path: pr.display(r.alt), Line: 1, Column: 1, Message: "the file"}))
		return
	}
	olds, alts := make([]string, len(rs)), make([]string, len(rs))
	var rel []diag.Related
	for i, r := range rs {
		olds[i], alts[i] = path.Base(filepath.ToSlash(r.s)), path.Base(r.alt)
		if i > 0 {
			rel = append(rel, diag.Related{Path: p.Doc.File.Path, Line: r.node.Line, Column: r.node.Column, Message: "entry " + diag.Quote(r.s)})
		}
	}
	p.Report(p.Doc.File, rs[0].node, renamedMessage(olds, alts), WithRelated(rel...))
}

// renamedMessage says which entries name numbered files by their old
// names, and the names to write, within diag.MaxMessage.
func renamedMessage(olds, alts []string) string {
	return diag.FitClip(func(w int) string {
		return fmt.Sprintf("%d files_to_load entries name files nexus has since numbered (%s): write %s", len(olds), clipList(olds, w), clipList(alts, w))
	})
}

// clipList joins names for a message, the first three (the first one
// when w is small) and a count of the rest, each escaped, then clipped to
// a share of w.
func clipList(names []string, w int) string {
	keep := 3
	if w < 40 {
		keep = 1
	}
	shown := names[:min(len(names), keep)]
	out := make([]string, len(shown))
	for i, n := range shown {
		out[i] = diag.ClipPath(diag.Escape(n), max(w/4, 8))
	}
	s := strings.Join(out, ", ")
	if len(names) > len(shown) {
		s += fmt.Sprintf(" and %d more", len(names)-len(shown))
	}
	return s
}

// numberedNames maps the names of a folder's numbered files without their
// number (overview.md) to the file (01-overview.md), "" where two files
// share one (ambiguous): nexus numbers its planning files, and older
// manifests name them without. The folder is listed once for every entry
// of a manifest that looks in it.
func numberedNames(files *load.Files, root, dir string) map[string]string {
	entries, err := files.ReadDir(root, dir)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, e := range entries {
		n := e.Name()
		i := 0
		for i < len(n) && n[i] >= '0' && n[i] <= '9' {
			i++
		}
		if i == 0 || i+1 >= len(n) || n[i] != '-' || !e.Type().IsRegular() {
			continue
		}
		base := n[i+1:]
		if _, dup := out[base]; dup {
			out[base] = "" // ambiguous
			continue
		}
		out[base] = n
	}
	return out
}

// ---- RL317 --------------------------------------------------------------------

// dupWindow is the number of consecutive non-blank lines that count as
// duplicated content (SPEC §3.4).
const dupWindow = 5

// textLine is a non-blank line, normalised (runs of white space are one
// space) and hashed.
type textLine struct {
	line int
	text string
	hash uint64
}

func hashLine(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// textLines returns the non-blank lines of text, numbered from first.
func textLines(text string, first int) []textLine {
	var out []textLine
	n := first
	for _, l := range strings.Split(text, "\n") {
		if norm := strings.Join(strings.Fields(l), " "); norm != "" {
			out = append(out, textLine{line: n, text: norm, hash: hashLine(norm)})
		}
		n++
	}
	return out
}

// windowHash combines the hashes of dupWindow lines starting at i.
func windowHash(ls []textLine, i int) uint64 {
	var h uint64
	for _, l := range ls[i : i+dupWindow] {
		h = h*1099511628211 ^ l.hash
	}
	return h
}

type windowRef struct {
	file int // index into the loaded files
	at   int // index of the window's first line
}

type loadedFile struct {
	disp  string // display path
	rel   string // as files_to_load names it
	lines []textLine
}

// runNoDuplication finds runs of 5 or more lines the body shares with a
// files_to_load file. Every 5-line window of the loaded files goes into a
// map; the body's windows are looked up and a hit is extended line by
// line: linear in the size of the body plus the loaded files.
func runNoDuplication(p *Pass) {
	d := p.Doc
	if ResumeOf(p) == nil || !d.FrontMatter || ResumeFinished(p) {
		return
	}
	body := textLines(d.Body, d.BodyLine)
	if len(body) < dupWindow {
		return
	}
	pr := LoadedProject(p)
	if pr == nil {
		return
	}
	lim := p.Opts.Limits
	if lim.MaxFileSize == 0 {
		lim = load.DefaultLimits
	}
	self := filepath.Clean(absPathOf(p, d.File))
	var files []loadedFile
	index := map[uint64]windowRef{}
	seen := map[string]bool{}
	for _, e := range filesToLoad(d.Root) {
		full := filepath.Join(pr.Dir, filepath.FromSlash(e.rel))
		if seen[full] || full == self {
			continue
		}
		seen[full] = true
		lf := &load.File{Path: pr.display(e.rel), OSPath: full, Root: ReadRoot(p.Opts, d.File)}
		if !readInto(p.Files, lf, lim) {
			continue // missing or unreadable: RL314
		}
		ls := textLines(string(lf.Data), 1)
		fi := len(files)
		files = append(files, loadedFile{disp: lf.Path, rel: e.rel, lines: ls})
		for i := 0; i+dupWindow <= len(ls); i++ {
			h := windowHash(ls, i)
			if _, ok := index[h]; !ok {
				index[h] = windowRef{file: fi, at: i}
			}
		}
	}
	if len(index) == 0 {
		return
	}
	for i := 0; i+dupWindow <= len(body); {
		ref, ok := index[windowHash(body, i)]
		if !ok || !sameLines(body[i:i+dupWindow], files[ref.file].lines[ref.at:ref.at+dupWindow]) {
			i++
			continue
		}
		src := files[ref.file].lines
		k := dupWindow
		for i+k < len(body) && ref.at+k < len(src) && body[i+k].text == src[ref.at+k].text {
			k++
		}
		from, to := body[i].line, body[i+k-1].line
		sFrom, sTo := src[ref.at].line, src[ref.at+k-1].line
		p.ReportAt(d.File, diag.Pos{Line: from, Col: 1}, diag.Pos{}, fmt.Sprintf("lines %d–%d copy %d lines of %s (its lines %d–%d), which files_to_load already loads: delete the copy",
			from, to, k, diag.Clip(files[ref.file].rel), sFrom, sTo), WithRelated(diag.Related{Path: files[ref.file].disp, Line: sFrom, Column: 1, Message: "the original lines"}))
		i += k
	}
}

func sameLines(a, b []textLine) bool {
	for i := range a {
		if a[i].text != b[i].text {
			return false
		}
	}
	return true
}

// ---- RL318 --------------------------------------------------------------------

func runProjectIDFolder(p *Pass) {
	d := p.Doc
	r := ResumeOf(p)
	if r == nil {
		return
	}
	pr := ProjectOf(p, d.File)
	if pr == nil || pr.FolderID == "" {
		return
	}
	v, id := r.ProjectID.Node, r.ProjectID.Value
	if r.Memo || !r.ProjectID.OK || id == pr.FolderID {
		// A memo's project_id is read by nothing: its reader finds the
		// project by its folder.
		return
	}
	key := "project_id"
	if r.Build {
		key = "build_id"
	}
	p.Report(d.File, v, fmt.Sprintf("%s %s differs from its folder name: set it to %s", key, diag.Quote(id), diag.Quote(pr.FolderID)))
}

// ---- RL319 --------------------------------------------------------------------

// countChecked counts the checked task items (- [x]) of a Markdown file,
// outside fenced code blocks. dashOnly counts only "-" items, as nexus's
// scripts and hooks do (`^\s*- \[x\]`): its counters are kept by them.
func countChecked(data []byte, dashOnly bool) int {
	n := 0
	fence := ""
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(t, "```"):
			fence = "```"
			continue
		case strings.HasPrefix(t, "~~~"):
			fence = "~~~"
			continue
		}
		if len(t) >= 5 && (t[0] == '-' || !dashOnly && (t[0] == '*' || t[0] == '+')) {
			rest := strings.TrimLeft(t[1:], " \t")
			if len(rest) < len(t)-1 && (strings.HasPrefix(rest, "[x]") || strings.HasPrefix(rest, "[X]")) {
				n++
			}
		}
	}
	return n
}

// stepsNames are the task files of a project, in the order nexus's
// bulk-complete.py looks for them: 04-steps.md (what init_project.py
// writes and the hooks count), then steps.md (seed 004), then the legacy
// tasks.md.
var stepsNames = []string{"04-steps.md", "steps.md", "tasks.md"}

// stepsFile returns the project's task file and its path in the project,
// or nil when it has none.
func stepsFile(files *load.Files, pr *Project, rr string) (*load.File, string) {
	names := stepsNames
	var links map[string]bool
	if entries, err := files.ReadDir(rr, filepath.Join(pr.Dir, "01-planning")); err == nil {
		// A numbered NN-steps.md other than 04-steps.md, before tasks.md.
		var numbered []string
		for _, e := range entries {
			if n := e.Name(); numberedSteps.MatchString(n) && n != stepsNames[0] {
				numbered = append(numbered, n)
			}
			if e.Type()&fs.ModeSymlink != 0 {
				if links == nil {
					links = map[string]bool{}
				}
				links[e.Name()] = true
			}
		}
		if len(numbered) > 0 {
			names = append(append(append([]string{}, stepsNames[:2]...), numbered...), stepsNames[2:]...)
		}
	}
	for _, name := range names {
		rel := "01-planning/" + name
		full := filepath.Join(pr.Dir, "01-planning", name)
		// nexus writes each project its own steps file; one linked from
		// a thousand projects would be counted a thousand times.
		if !links[name] && regularFileExists(files, rr, full) {
			return &load.File{Path: pr.display(rel), OSPath: full, Root: rr}, rel
		}
	}
	return nil, ""
}

var numberedSteps = lazyre.New(`^[0-9]{2}-steps\.md$`)

// countBoxes counts the task items of a Markdown file, checked or not, as
// countChecked does.
func countBoxes(data []byte, dashOnly bool) int {
	return countChecked(openBoxes.ReplaceAll(data, []byte("$1[x]")), dashOnly)
}

var openBoxes = lazyre.New(`(?m)^(\s*[-*+]\s+)\[ \]`)

// stepsLag is how far a counter may trail the steps file: the task being
// ticked now is counted at the next update of the resume file.
const stepsLag = 1

// stepsProject is the folder whose 01-planning/ holds the pass's resume
// file: a nexus project or build, whatever its id key. RL319 compares the
// resume file with the steps file there, wherever the folder sits.
func stepsProject(p *Pass) *Project {
	if p.Doc == nil {
		return nil
	}
	return ProjectOf(p, p.Doc.File)
}

// readSteps reads the steps file of pr, or returns nil.
func readSteps(p *Pass, pr *Project) (*load.File, string) {
	sf, rel := stepsFile(p.Files, pr, ReadRoot(p.Opts, p.Doc.File))
	if sf == nil {
		return nil, ""
	}
	lim := p.Opts.Limits
	if lim.MaxFileSize == 0 {
		lim = load.DefaultLimits
	}
	lim.MaxFileSize = min(lim.MaxFileSize, maxStepsBytes)
	if !readInto(p.Files, sf, lim) {
		return nil, ""
	}
	return sf, rel
}

// maxStepsBytes bounds the steps file RL319 counts (nexus's are under
// 25 KiB): it is read and counted once for each resume file.
const maxStepsBytes = 1 << 20

func runProgressVsSteps(p *Pass) {
	d := p.Doc
	if ResumeOf(p) == nil {
		return
	}
	if ResumeFinished(p) {
		finishedSteps(p)
		return
	}
	// The count of completed tasks: nexus's tasks_completed, else seed
	// 004's progress N. Counters at init_project.py's 0/0 are compared
	// too (a ticked steps file read as "nothing done"); counters that
	// contradict each other are RL315's.
	var done, total int64
	var n *yaml.Node
	what := "tasks_completed"
	if c, t, cn, _, ok := model.CountersOf(d.Root); ok {
		if c > t && t > 0 {
			return
		}
		done, total, n = c, t, cn
	} else if c, t, pn, ok := model.ProgressOf(d.Root); ok {
		if c > t {
			return
		}
		done, total, n, what = int64(c), int64(t), pn, "progress"
	} else {
		return
	}
	pr := stepsProject(p)
	// total_tasks 0 is init_project.py's, which nothing updates: it says
	// nothing of tasks_completed, compared all the same.
	if pr == nil || total == 0 && what != "tasks_completed" {
		return
	}
	sf, rel := readSteps(p, pr)
	if sf == nil || p.unrecordedIn(d.File.OSPath) {
		// With --base, ticks the resume file did not follow since base
		// are RL604's: one cause, one finding.
		return
	}
	checked := int64(countChecked(sf.Data, what == "tasks_completed"))
	if checked == done || checked > done && checked-done <= stepsLag {
		return
	}
	steps := WithRelated(diag.Related{Path: sf.Path, Line: 1, Column: 1, Message: "the steps file"})
	switch {
	case total == 0 && done == 0:
		// init_project.py writes 0/0; a project whose steps are ticked
		// and whose counters never moved tells a reader nothing is done.
		p.Report(d.File, n, fmt.Sprintf("tasks_completed and total_tasks are 0, but %s has %d of %d tasks checked: set both from the steps file", diag.Clip(rel), checked, countBoxes(sf.Data, true)), steps)
	case what == "progress":
		p.Report(d.File, n, fmt.Sprintf("progress says %d tasks complete, but %s has %d checked: set it to \"%d/%d tasks complete\"", done, diag.Clip(rel), checked, checked, total), steps)
	default:
		p.Report(d.File, n, fmt.Sprintf("tasks_completed is %d, but %s has %d checked: update the counter when tasks are ticked", done, diag.Clip(rel), checked), steps)
	}
}

// finishedSteps reports a project or build whose current_phase says it is
// complete while its steps file still has open boxes, or ticks fewer than
// its counter claims, or while its overview's status (which SessionStart
// picks the work to resume by) does not say COMPLETE (SPEC §0: a
// contradiction about being finished). One finding per resume file: the
// overview is a related location of a steps finding.
func finishedSteps(p *Pass) {
	d := p.Doc
	pr := stepsProject(p)
	if pr == nil || inNexusArchive(p.Opts, d.File) {
		// nexus's archive step moves a project there finished or not
		// ("Not complete. Archive anyway?"): its open boxes are history.
		return
	}
	var at *yaml.Node
	stopped := ""
	for _, v := range resumeLifecycleNodes(d.Root) {
		if s, ok := node.Str(v); ok && projectOver(s) && at == nil {
			if canonWorkflowStatus(s) != "COMPLETE" {
				stopped = s
			}
			at = v
		}
	}
	kind := "project"
	if resumeFieldsOf(d.Root).Build.BuildID.Node != nil {
		kind = "build"
	}
	if at == nil {
		finishedByOverviewOnly(p, pr, kind)
		return
	}
	if stopped != "" {
		// Cancelled, failed, aborted: stopped with work left, which is
		// its history, not a contradiction (as for a workflow). An
		// overview that still calls it live is one: SessionStart resumes
		// it.
		if ovRel, ovWhat, stale := staleOverview(p, pr); stale && !overviewOver(p, pr) {
			p.Report(d.File, at, fmt.Sprintf("the %s was stopped (%s), but its overview's status %s, so SessionStart resumes it: set it to %s or archive it", kind, diag.Quote(stopped), ovWhat, overviewDone), ovRel)
		}
		return
	}
	ovRel, ovWhat, stale := staleOverview(p, pr)
	msg, steps := finishedStepsMessage(p, pr, kind)
	switch {
	case msg != "" && stale:
		p.Report(d.File, at, msg, steps, ovRel)
	case msg != "":
		p.Report(d.File, at, msg, steps)
	case stale:
		p.Report(d.File, at, fmt.Sprintf("the %s is complete, but its overview's status %s, so SessionStart will resume it: set that status to %s", kind, ovWhat, overviewDone), ovRel)
	}
}

// finishedByOverviewOnly reports a project or build that only its overview
// calls finished: the overview's status is COMPLETE, which SessionStart
// leaves out of the work it resumes, while the resume file is still at an
// earlier phase and the steps file has open boxes: unfinished work no
// session will pick up again (SPEC §0: "is it really finished?"). A
// single open box is not enough to say so.
func finishedByOverviewOnly(p *Pass, pr *Project, kind string) {
	d := p.Doc
	if pr.FolderID == "" || pr.Area == "complete" || strings.HasPrefix(pr.FolderID, "_") || !readsOverviewStatus(p, pr) {
		return
	}
	status, line, of := overviewKey(p, pr, ReadRoot(p.Opts, d.File), overviewStatusRe)
	if of == nil || status != overviewDone {
		return
	}
	sf, rel := readSteps(p, pr)
	if sf == nil {
		return
	}
	open := countBoxes(sf.Data, true) - countChecked(sf.Data, true)
	phase := resumeFieldsOf(d.Root).Context.CurrentPhase.Node
	ph, ok := node.Str(phase)
	// One box left open beside a finished overview is a tick that lags
	// (a review step nobody ticks), not work left undone.
	if open <= stepsLag || !ok {
		return
	}
	p.Report(d.File, phase, fmt.Sprintf("the overview says %s, so SessionStart skips this %s, but current_phase is %s and %s has %d open boxes: finish or reopen",
		overviewDone, kind, diag.Quote(ph), diag.Clip(rel), open),
		WithRelated(diag.Related{Path: of.Path, Line: line, Column: 1, Message: "status in the overview"}, diag.Related{Path: sf.Path, Line: 1, Column: 1, Message: "the steps file"}))
}

// finishedStepsMessage says how the steps file of a finished project or
// build contradicts it, or "" when it does not (or there is none), with
// the steps file as a related location.
func finishedStepsMessage(p *Pass, pr *Project, kind string) (string, Option) {
	d := p.Doc
	sf, rel := readSteps(p, pr)
	if sf == nil {
		return "", nil
	}
	checked := int64(countChecked(sf.Data, true))
	open := int64(countBoxes(sf.Data, true)) - checked
	claim, what := int64(-1), ""
	if c, _, _, _, ok := model.CountersOf(d.Root); ok {
		claim, what = c, "tasks_completed"
	} else if c, _, _, ok := model.ProgressOf(d.Root); ok {
		claim, what = int64(c), "progress"
	}
	over := claim > checked
	steps := WithRelated(diag.Related{Path: sf.Path, Line: 1, Column: 1, Message: "the steps file"})
	switch {
	case open > 0 && over:
		return fmt.Sprintf("the %s is complete and %s says %d, but %s ticks %d and has %s: tick the finished steps or reopen the %s",
			kind, what, claim, diag.Clip(rel), checked, countOf(int(open), "open box"), kind), steps
	case open > 0:
		return fmt.Sprintf("the %s is complete, but %s still has %s: tick the finished steps or reopen the %s", kind, diag.Clip(rel), countOf(int(open), "open box"), kind), steps
	case over:
		return fmt.Sprintf("the %s is complete and %s says %d, but %s ticks only %d: correct the counter or the steps file", kind, what, claim, diag.Clip(rel), checked), steps
	}
	return "", nil
}
