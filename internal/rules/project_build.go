package rules

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
)

// Nexus builds (SPEC §2 #BuildResumeContext): the rule about where a build
// sits. Every other project rule sees a build as a project (ProjectOf).

var BuildLocation = &Rule{Code: code.BuildLocation, Name: "build-location", Severity: diag.SevWarning, Kinds: resumeKind, Family: "nexus",
	Summary: "an unfinished build outside 02-builds/active/ (where SessionStart looks) while its overview names that path", Run: runBuildLocation}

func init() { Register(BuildLocation) }

// buildPathRe reads the build_path key init_build.py writes into the
// overview's front matter (`build_path: 02-builds/active/<id>/`).
var buildPathRe = lazyre.New(`(?m)^build_path:[ \t]*["']?([^"'\s#]+)`)

// overviewFront returns the front matter of the build's overview
// (01-planning/01-overview.md), "" when it has none, and the file read.
func overviewFront(p *Pass, pr *Project, rr string) (string, *load.File) {
	name := "01-overview.md"
	full := filepath.Join(pr.Dir, "01-planning", name)
	if !regularFileExists(p.Files, rr, full) {
		// Projects from before nexus numbered its planning files.
		name = "overview.md"
		if full = filepath.Join(pr.Dir, "01-planning", name); !regularFileExists(p.Files, rr, full) {
			return "", nil
		}
	}
	of := &load.File{Path: pr.display("01-planning/" + name), OSPath: full, Root: rr}
	lim := p.Opts.Limits
	if lim.MaxFileSize == 0 {
		lim = load.DefaultLimits
	}
	if !readInto(p.Files, of, lim) {
		return "", nil
	}
	text := string(of.Data)
	if !strings.HasPrefix(text, "---") {
		return "", of
	}
	// Only the front matter: the body may quote other builds' paths.
	if end := strings.Index(text[3:], "\n---"); end >= 0 {
		text = text[:3+end]
	}
	return text, of
}

// overviewBuildPath returns the build_path of the build's overview front
// matter and its line, or "" when the overview has none.
func overviewBuildPath(p *Pass, pr *Project, rr string) (string, int, *load.File) {
	return overviewKey(p, pr, rr, buildPathRe)
}

// overviewKey returns the value re captures in the overview's front matter,
// its line and the overview, or "" when it has none.
func overviewKey(p *Pass, pr *Project, rr string, re *lazyre.RE) (string, int, *load.File) {
	text, of := overviewFront(p, pr, rr)
	m := re.Regexp().FindStringSubmatchIndex(text)
	if m == nil {
		return "", 0, nil
	}
	return text[m[2]:m[3]], 1 + strings.Count(text[:m[0]], "\n"), of
}

// overviewDone is the overview status nexus's hooks skip: project_state.py
// and build_state.py compare it exactly (`state.status == "COMPLETE"`).
const overviewDone = "COMPLETE"

// nexusStateReaders are the hooks' utilities that pick the project or build
// SessionStart resumes by its overview's status, relative to the nexus root.
var nexusStateReaders = map[bool]string{false: ".claude/hooks/utils/project_state.py", true: ".claude/hooks/utils/build_state.py"}

// readsOverviewStatus reports whether the nexus root of pr has the utility
// that skips a project or build whose overview says COMPLETE: before it,
// SessionStart did not read the overview's status.
func readsOverviewStatus(p *Pass, pr *Project) bool {
	type key struct {
		root  string
		build bool
	}
	return perRun(p.Index, key{pr.Root, pr.Build}, func() bool {
		return hookHolds(p, filepath.Join(pr.Root, filepath.FromSlash(nexusStateReaders[pr.Build])), `"`+overviewDone+`"`)
	})
}

// staleOverview returns the related location and message part for a
// finished project or build whose overview's status is not COMPLETE where
// SessionStart picks what to resume by it: it would resume finished work.
// ok is false where the overview says COMPLETE, has no status, or nothing
// reads it (an archived folder, one SessionStart does not scan).
func staleOverview(p *Pass, pr *Project) (rel Option, what string, ok bool) {
	if pr == nil || pr.FolderID == "" || pr.Area == "complete" || strings.HasPrefix(pr.FolderID, "_") || !readsOverviewStatus(p, pr) {
		return nil, "", false
	}
	status, line, of := overviewKey(p, pr, ReadRoot(p.Opts, p.Doc.File), overviewStatusRe)
	if of == nil || status == overviewDone {
		return nil, "", false
	}
	what = "is still " + diag.Quote(status)
	if projectOver(status) {
		what = "is " + diag.Quote(status) + ", not " + overviewDone
	}
	return WithRelated(diag.Related{Path: of.Path, Line: line, Column: 1, Message: "status in the overview"}), what, true
}

// overviewOver reports whether the overview of a project or build has a
// status that says the work is over, in any spelling (CANCELLED, "✅
// COMPLETE").
func overviewOver(p *Pass, pr *Project) bool {
	status, _, of := overviewKey(p, pr, ReadRoot(p.Opts, p.Doc.File), overviewStatusRe)
	return of != nil && projectOver(status)
}

// archivedRe reads the date nexus's archive-build skill writes into the
// overview's front matter when it moves a build to 02-builds/complete/.
var archivedRe = lazyre.New(`(?m)^archived:[ \t]*["']?([^"'\s#]+)`)

// overviewStatusRe reads the status of a project's or build's overview
// front matter (PLANNING, IN_PROGRESS, COMPLETE).
var overviewStatusRe = lazyre.New(`(?m)^status:[ \t]*["']?([^"'\n#]*[^"'\s#])`)

// finishedOverview returns the status of a project's or build's overview
// when it says the work is over: nexus's hooks leave a project whose
// overview says COMPLETE out of those they resume (project_state.py,
// build_state.py), whatever its resume file says.
func finishedOverview(p *Pass) (string, bool) {
	pr := ProjectOf(p, p.Doc.File)
	if pr == nil || pr.FolderID == "" {
		return "", false
	}
	text, _ := overviewFront(p, pr, ReadRoot(p.Opts, p.Doc.File))
	m := overviewStatusRe.Regexp().FindStringSubmatch(text)
	if m == nil || !projectOver(m[1]) {
		return "", false
	}
	return m[1], true
}

// archivedBuild returns the archive date of a build that nexus's
// archive-build skill moved into 02-builds/complete/: the user archived it,
// finished or not ("Archive anyway?"), and its resume file is not
// rewritten, so it is history whatever that file says.
func archivedBuild(p *Pass) (string, bool) {
	f := p.Doc.File
	pr := ProjectOf(p, f)
	if pr == nil || !pr.Build || pr.Area != "complete" {
		return "", false
	}
	text, _ := overviewFront(p, pr, ReadRoot(p.Opts, f))
	m := archivedRe.Regexp().FindStringSubmatch(text)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// runBuildLocation reports a build that SessionStart will not find: its
// hooks scan 02-builds/active/ (then complete/ for a named build), so an
// unfinished build left directly under 02-builds/ or in complete/ is never
// offered for resumption. The warning needs the build's own word that it
// belongs in active/ (its overview's build_path), so layouts from before
// the active/complete split are left alone.
func runBuildLocation(p *Pass) {
	r := ResumeOf(p)
	if r == nil || !r.Build || ResumeFinished(p) {
		return
	}
	f := p.Doc.File
	pr := ProjectOf(p, f)
	if pr == nil || !pr.Build || pr.Area == "active" {
		return
	}
	want, line, of := overviewBuildPath(p, pr, ReadRoot(p.Opts, f))
	want = strings.TrimSuffix(path.Clean(strings.ReplaceAll(want, `\`, "/")), "/")
	if want != "02-builds/active/"+pr.FolderID {
		return
	}
	at := r.ProjectID.Node
	msg := fmt.Sprintf("build %s is not in 02-builds/active/, where SessionStart looks and its overview puts it: move the folder there or finish the build", diag.Quote(pr.FolderID))
	rel := WithRelated(diag.Related{Path: of.Path, Line: line, Column: 1, Message: "build_path in the overview"})
	if at != nil {
		p.Report(f, at, msg, rel)
	} else {
		p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, msg, rel)
	}
}
