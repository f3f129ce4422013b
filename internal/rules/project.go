package rules

import (
	"fmt"
	"path"
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

// precompact_state.json and resume-context.md (SPEC §3.4, seed 004): the
// rules of one file. The rules that look at the project folder around a
// file live in project_folder.go.

var (
	precompactKind = []load.Kind{load.KindPrecompact}
	resumeKind     = []load.Kind{load.KindResumeContext}
)

var (
	PrecompactSchema = &Rule{Code: code.PrecompactSchema, Name: "precompact-schema", Severity: diag.SevError, Kinds: precompactKind, Family: "nexus",
		Summary: "a violation of #PrecompactState", Run: runPrecompactSchema}
	PrecompactFlat = &Rule{Code: code.PrecompactFlat, Name: "precompact-flat", Severity: diag.SevError, Fix: diag.FixSafe, Kinds: precompactKind, Family: "nexus",
		Summary: "the state nested (under project_detection) instead of flat", Run: runPrecompactFlat}
	PrecompactSize = &Rule{Code: code.PrecompactSize, Name: "precompact-size", Severity: diag.SevError, Kinds: precompactKind, Family: "nexus",
		Summary: "precompact_state.json of 1 KiB or more", Run: runPrecompactSize}
	FrontMatter = &Rule{Code: code.Frontmatter, Lifecycle: AnyLifecycle, Name: "frontmatter", Severity: diag.SevError, Kinds: resumeKind, Family: "nexus",
		Summary: "no YAML front matter, or one not closed by ---"}
	ResumeContextSchema = &Rule{Code: code.ResumeContextSchema, Name: "resume-context-schema", Severity: diag.SevError, Kinds: resumeKind, Family: "nexus",
		Summary: "a violation of #ResumeContext (#ResumeContextV2 for version \"2.0\")", Run: runResumeContextSchema}
	LegacyResumeVersion = &Rule{Code: code.LegacyResumeVersion, Name: "legacy-resume-version", Severity: diag.SevWarning, Fix: diag.FixSafe, Kinds: resumeKind, Family: "nexus",
		Summary: "`resume_version` instead of `resume_schema_version`", Run: runLegacyResumeVersion}
	Progress = &Rule{Code: code.Progress, Name: "progress", Severity: diag.SevWarning, Kinds: resumeKind, Family: "nexus",
		Summary: "more tasks done than there are (progress N/M, tasks_completed/total_tasks), or current_task not N or N+1", Run: runProgress}
	ValidationGate = &Rule{Code: code.ValidationGate, Name: "validation-gate", Severity: diag.SevWarning, Kinds: resumeKind, Family: "nexus",
		Summary: "a seed-form \"1.0\" body without a \"Validation Gate\" heading holding a `- [ ]` item", Run: runValidationGate}
)

func init() {
	Register(PrecompactSchema, PrecompactFlat, PrecompactSize, FrontMatter, ResumeContextSchema, LegacyResumeVersion, Progress, ValidationGate)
}

// ---- precompact_state.json ----------------------------------------------------

// PrecompactOf flattens the pass's precompact state document once per
// unit (RL301 and RL010 must see the same view), or returns nil when its
// top level is not a mapping.
func PrecompactOf(p *Pass) *model.Precompact { return precompactResult.Of(p) }

var precompactResult = NewResult("precompact", func(p *Pass) *model.Precompact {
	if p.Doc == nil {
		return nil
	}
	return model.PrecompactOf(p.Doc.Root)
})

func runPrecompactSchema(p *Pass) {
	if !requireMapping(p, p.Doc, "precompact_state.json") {
		return
	}
	validate(p, p.Doc.File, "#PrecompactState", PrecompactOf(p).View, "")
}

func runPrecompactFlat(p *Pass) {
	pc := PrecompactOf(p)
	if pc == nil {
		return
	}
	for _, n := range pc.Nests {
		var notes []string
		if len(n.Renames) > 0 {
			notes = append(notes, joinClauses(n.Renames))
		}
		if len(n.Drops) > 0 {
			notes = append(notes, "drop "+joinClauses(n.Drops))
		}
		detail := ""
		if len(notes) > 0 {
			detail = " (" + strings.Join(notes, "; ") + ")"
		}
		p.Report(p.Doc.File, n.Key, diag.FitClip(func(w int) string {
			d := detail
			if w < 60 {
				d = ""
			}
			return fmt.Sprintf("the state is nested under %s, but SessionStart reads it flat: move its keys to the top level%s", diag.QuoteFull(n.Key.Value), d)
		}), WithFix(fix.FlattenJSON(p.Doc, n.Key.Value, map[string]string{"project_id": "active_project_id"})))
	}
}

// joinClauses joins clauses as "a, b and c".
func joinClauses(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// precompactMaxSize is seed 004's "File size < 1KB".
const precompactMaxSize = 1024

func runPrecompactSize(p *Pass) {
	n := len(p.Doc.File.Data)
	if n < precompactMaxSize {
		return
	}
	p.ReportAt(p.Doc.File, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, fmt.Sprintf("precompact_state.json is %d bytes; it must stay under 1 KiB (1024 bytes): keep the four state fields and a small metadata", n))
}

// ---- resume-context.md: schema ------------------------------------------------

// ResumeOf returns the pass's resume file, or nil for a front matter that
// is not a mapping and for a _resume.md that resume-context.md supersedes
// (RL313 reports it; nothing else does).
func ResumeOf(p *Pass) *model.Resume {
	d := p.Doc
	if d == nil || d.Root == nil || !node.IsMap(d.Root) || Superseded(p) {
		return nil
	}
	return resumeResult.Of(p)
}

var resumeResult = NewResult("resume", func(p *Pass) *model.Resume {
	return model.ResumeOf(p.Doc.Root, path.Base(p.Doc.File.Path) == "_resume.md")
})

// resumeFields is a resume file's front matter read as the definitions
// whose fields the rules judge, whatever its form: each view's fields are
// zero when the front matter is not a mapping.
type resumeFields struct {
	Context model.ResumeContext
	Build   model.BuildResumeContext
	Extras  model.ResumeExtras
}

// resumeFieldsOf reads root (a resume file's front matter) as resumeFields.
func resumeFieldsOf(root *yaml.Node) resumeFields {
	var f resumeFields
	if c := model.ResumeContextOf(nil, root); c != nil {
		f.Context, f.Build, f.Extras = *c, *model.BuildResumeContextOf(nil, root), *model.ResumeExtrasOf(nil, root)
	}
	return f
}

// resumeLifecycleFields are the fields that tell a resume file's project
// is over, in the order they are judged; resumeLifecycleNodes their nodes.
var resumeLifecycleFields = []string{"current_phase", "status", "phase"}

func resumeLifecycleNodes(root *yaml.Node) []*yaml.Node {
	f := resumeFieldsOf(root)
	return []*yaml.Node{f.Context.CurrentPhase.Node, f.Extras.Status.Node, f.Extras.Phase.Node}
}

func runResumeContextSchema(p *Pass) {
	r := ResumeOf(p)
	if r == nil {
		return
	}
	f := p.Doc.File
	c := checkSchema(p, f, r.Def, r.View, "")
	if c.err != nil {
		p.Report(f, r.View, fmt.Sprintf("internal: schema %s: %v", r.Def, c.err))
		return
	}
	finished := ResumeFinished(p)
	kept := c.res.Violations[:0:0]
	for _, v := range c.res.Violations {
		switch {
		case finished && len(v.Missing) > 0 && len(v.Path) == 0:
			// A finished project is not asked to add what a resuming
			// session would need; what it holds must still be right.
		default:
			kept = append(kept, v)
		}
	}
	reportViolations(p, f, "", kept)
}

// ---- RL312 --------------------------------------------------------------------

func runLegacyResumeVersion(p *Pass) {
	d := p.Doc
	if d == nil || Superseded(p) || !node.IsMap(d.Root) || ResumeFinished(p) {
		return
	}
	rf := resumeFieldsOf(d.Root)
	k, v := rf.Extras.ResumeVersion.Key, rf.Extras.ResumeVersion.Node
	if k == nil {
		return
	}
	if ck := rf.Context.ResumeSchemaVersion.Key; ck != nil {
		p.Report(d.File, k, fmt.Sprintf("resume_version is the legacy name of resume_schema_version, which this file also has (line %d): remove resume_version", ck.Line), WithRelated(diag.Related{Path: d.File.Path, Line: ck.Line, Column: ck.Column, Message: "resume_schema_version"}))
		return
	}
	switch {
	case node.IsString(v):
		p.Report(d.File, k, "resume_version is the legacy name, which SessionStart does not read: rename it to resume_schema_version, keeping the value", WithFix(fix.RenameKeyKeepString(d, k, v, "resume_schema_version")))
	case node.IsScalar(v) && !node.IsNull(v):
		p.Report(d.File, k, fmt.Sprintf("resume_version is the legacy name, which SessionStart does not read: rename it and quote the number: resume_schema_version: %s", diag.QuoteFull(v.Value)), WithFix(fix.RenameKeyKeepString(d, k, v, "resume_schema_version")))
	default:
		p.Report(d.File, k, "resume_version is the legacy name of resume_schema_version: rename the key and give it a version string such as \"1.0\"")
	}
}

// ---- RL315 --------------------------------------------------------------------

func runProgress(p *Pass) {
	r := ResumeOf(p)
	if r == nil {
		return
	}
	d := p.Doc
	// total_tasks 0 is init_project.py's, which nothing of nexus updates
	// (update-resume.py sets only tasks_completed): it counts nothing.
	if done, total, dn, tn, ok := model.CountersOf(d.Root); ok && total > 0 && done > total {
		p.Report(d.File, dn, fmt.Sprintf("tasks_completed %d is more than total_tasks %d (line %d): recount both from the steps file's checkboxes", done, total, tn.Line), WithRelated(diag.Related{Path: d.File.Path, Line: tn.Line, Column: tn.Column, Message: "total_tasks"}))
	}
	done, total, pn, ok := model.ProgressOf(d.Root)
	if !ok {
		return
	}
	if done > total {
		p.Report(d.File, pn, fmt.Sprintf("progress %s counts more completed tasks (%d) than there are (%d): recount from the steps file", diag.QuoteFull(pn.Value), done, total))
		return
	}
	// current_task follows progress in seed 004's form; nexus's counters
	// number tasks within current_section instead, so they are not compared.
	cv, cur := r.CurrentTask.Node, int64(r.CurrentTask.Value)
	if !r.CurrentTask.OK {
		return
	}
	if cur != int64(done) && cur != int64(done)+1 {
		p.Report(d.File, cv, fmt.Sprintf("current_task %d does not follow progress %s: it is %d (just finished) or %d (next)", cur, diag.QuoteFull(pn.Value), done, done+1), WithRelated(diag.Related{Path: d.File.Path, Line: pn.Line, Column: pn.Column, Message: "progress"}))
	}
}

// ---- RL316 --------------------------------------------------------------------

// BodyLine is one line of a Markdown body outside fenced code blocks.
type BodyLine struct {
	Line int // 1-based line in the file
	Text string
}

// BodyLines splits a document's body into lines with file line numbers,
// leaving out fenced code blocks (``` or ~~~), whose content is not
// Markdown structure.
func BodyLines(d *load.Document) []BodyLine {
	var out []BodyLine
	fence := ""
	line := d.BodyLine
	for _, t := range strings.Split(d.Body, "\n") {
		t = strings.TrimRight(t, "\r")
		trim := strings.TrimSpace(t)
		switch {
		case fence != "":
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
		case strings.HasPrefix(trim, "```"):
			fence = "```"
		case strings.HasPrefix(trim, "~~~"):
			fence = "~~~"
		default:
			out = append(out, BodyLine{Line: line, Text: t})
		}
		line++
	}
	return out
}

// headingLevel returns the level of an ATX heading (# … ######) and its text.
func headingLevel(s string) (int, string) {
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) > 3 {
		return 0, ""
	}
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ' && t[n] != '\t') {
		return 0, ""
	}
	return n, strings.TrimSpace(strings.Trim(strings.TrimSpace(t[n:]), "#"))
}

// headingAt returns the level and text of a heading starting at lines[i]:
// an ATX heading, or a setext one (a line of text underlined by the next
// line, = for level 1, - for level 2).
func headingAt(lines []BodyLine, i int) (int, string) {
	if lv, text := headingLevel(lines[i].Text); lv > 0 {
		return lv, text
	}
	text := strings.TrimSpace(lines[i].Text)
	if text == "" || i+1 >= len(lines) || lines[i+1].Line != lines[i].Line+1 || len(lines[i].Text)-len(strings.TrimLeft(lines[i].Text, " ")) > 3 || listItem.MatchString(lines[i].Text) {
		return 0, ""
	}
	under := strings.TrimSpace(lines[i+1].Text)
	switch {
	case under != "" && strings.Trim(under, "=") == "":
		return 1, text
	case len(under) >= 2 && strings.Trim(under, "-") == "":
		return 2, text
	}
	return 0, ""
}

var (
	listItem      = lazyre.New(`^\s*(?:[-*+]|[0-9]+[.)])(?:\s|$)`)
	uncheckedItem = lazyre.New(`^\s*(?:[-*+]|[0-9]+[.)])\s+\[ \]`)
)

// gateRequired reports whether a resume file is in seed 004's "1.0" form,
// the one that carries a Validation Gate. The "2.0" form and nexus's "1.0"
// with counters (update-resume.py) are written without one, and their
// readers inject files_to_load, not the body; a file with no version is
// RL311's; a finished project will not be resumed.
func gateRequired(p *Pass) bool {
	r := ResumeOf(p)
	return r != nil && p.Doc.FrontMatter && r.Version != "" && !r.V2() && !r.Build && !r.Counters && !ResumeFinished(p)
}

func runValidationGate(p *Pass) {
	d := p.Doc
	if !gateRequired(p) {
		return
	}
	lines := BodyLines(d)
	gate, level := -1, 0
	for i := range lines {
		lv, text := headingAt(lines, i)
		if lv > 0 && strings.Contains(strings.ToLower(text), "validation gate") {
			gate, level = i, lv
			break
		}
	}
	if gate < 0 {
		p.ReportAt(d.File, diag.Pos{Line: d.BodyLine - 1, Col: 1}, diag.Pos{}, "the body has no \"Validation Gate\" section: add one with the questions a resumed session must answer, as `- [ ]` items")
		return
	}
	for i := gate + 1; i < len(lines); i++ {
		if lv, _ := headingAt(lines, i); lv > 0 && lv <= level {
			break
		}
		if uncheckedItem.MatchString(lines[i].Text) {
			return
		}
	}
	h := lines[gate]
	p.ReportAt(d.File, diag.Pos{Line: h.Line, Col: 1}, diag.Pos{Line: h.Line, Col: len([]rune(h.Text)) + 1}, "the Validation Gate has no `- [ ]` item: list the questions a resumed session must answer as unchecked boxes")
}
