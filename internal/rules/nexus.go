package rules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/cue"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// precompact_state.json and resume-context.md (SPEC §3.4, seed 004): the
// rules of one file. The rules that look at the project folder around a
// file live in nexus_project.go.

var (
	precompactKind = []load.Kind{load.KindPrecompact}
	resumeKind     = []load.Kind{load.KindResumeContext}
)

var (
	PrecompactSchema = &Rule{Code: "RL301", Name: "precompact-schema", Severity: diag.SevError, Kinds: precompactKind, Family: "nexus",
		Summary: "a violation of #PrecompactState", Run: runPrecompactSchema}
	PrecompactFlat = &Rule{Code: "RL302", Name: "precompact-flat", Severity: diag.SevError, Fix: diag.FixSafe, Kinds: precompactKind, Family: "nexus",
		Summary: "the state nested (under project_detection) instead of flat", Run: runPrecompactFlat}
	PrecompactSize = &Rule{Code: "RL303", Name: "precompact-size", Severity: diag.SevError, Kinds: precompactKind, Family: "nexus",
		Summary: "precompact_state.json of 1 KiB or more", Run: runPrecompactSize}
	FrontMatter = &Rule{Code: "RL310", Name: "frontmatter", Severity: diag.SevError, Kinds: resumeKind, Family: "nexus",
		Summary: "no YAML front matter, or one not closed by ---"}
	ResumeContextSchema = &Rule{Code: "RL311", Name: "resume-context-schema", Severity: diag.SevError, Kinds: resumeKind, Family: "nexus",
		Summary: "a violation of #ResumeContext", Run: runResumeContextSchema}
	LegacyResumeVersion = &Rule{Code: "RL312", Name: "legacy-resume-version", Severity: diag.SevWarning, Fix: diag.FixSafe, Kinds: resumeKind, Family: "nexus",
		Summary: "`resume_version` instead of `resume_schema_version`", Run: runLegacyResumeVersion}
	Progress = &Rule{Code: "RL315", Name: "progress", Severity: diag.SevWarning, Kinds: resumeKind, Family: "nexus",
		Summary: "progress N/M with N > M, or current_task not N or N+1", Run: runProgress}
	ValidationGate = &Rule{Code: "RL316", Name: "validation-gate", Severity: diag.SevWarning, Kinds: resumeKind, Family: "nexus",
		Summary: "no \"Validation Gate\" heading with a `- [ ]` item in the body", Run: runValidationGate}
)

func init() {
	Register(PrecompactSchema, PrecompactFlat, PrecompactSize, FrontMatter, ResumeContextSchema, LegacyResumeVersion, Progress, ValidationGate)
}

// ---- precompact_state.json ----------------------------------------------------

// precompactKeys are the keys of the flat state (project_id is the nested
// form's name for active_project_id); a top-level mapping holding one of
// them is the nesting seed 004 corrected.
var precompactKeys = []string{"active_project_id", "project_id", "confidence", "detection_method", "timestamp"}

// Precompact is a precompact_state.json seen flat: nested state hoisted to
// the top level, so RL301 and RL304 judge the state itself and the nesting
// is reported once, by RL302.
type Precompact struct {
	View  *yaml.Node // the flat mapping (the root itself when nothing is nested)
	Nests []Nest
}

// Nest is one mapping that holds state keys, and what flattening it does.
type Nest struct {
	Key   *yaml.Node
	Moves []string // "move project_id up as active_project_id", …
}

// PrecompactOf flattens a precompact state document, or returns nil when
// its top level is not a mapping.
func PrecompactOf(d *load.Document) *Precompact {
	if d == nil || !node.IsMap(d.Root) {
		return nil
	}
	pc := &Precompact{View: d.Root}
	var nested [][2]*yaml.Node
	top := map[string]bool{}
	node.Pairs(d.Root, func(k, v *yaml.Node) {
		if k.Value != "metadata" && node.IsMap(v) && hasAnyKey(v, precompactKeys) {
			nested = append(nested, [2]*yaml.Node{k, v})
			return
		}
		top[k.Value] = true
	})
	if len(nested) == 0 {
		return pc
	}
	view := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: d.Root.Line, Column: d.Root.Column}
	node.Pairs(d.Root, func(k, v *yaml.Node) {
		if top[k.Value] {
			view.Content = append(view.Content, k, v)
		}
	})
	for _, kv := range nested {
		nest := Nest{Key: kv[0]}
		node.Pairs(kv[1], func(k, v *yaml.Node) {
			name := k.Value
			if name == "project_id" {
				name = "active_project_id"
			}
			if top[name] {
				nest.Moves = append(nest.Moves, fmt.Sprintf("drop its %s (the top level has one)", k.Value))
				return
			}
			top[name] = true
			nk := *k
			nk.Value = name
			view.Content = append(view.Content, &nk, v)
			if name != k.Value {
				nest.Moves = append(nest.Moves, fmt.Sprintf("move %s up as %s", k.Value, name))
			} else {
				nest.Moves = append(nest.Moves, "move "+name+" up")
			}
		})
		pc.Nests = append(pc.Nests, nest)
	}
	pc.View = view
	return pc
}

func hasAnyKey(m *yaml.Node, keys []string) bool {
	for _, k := range keys {
		if node.Has(m, k) {
			return true
		}
	}
	return false
}

func runPrecompactSchema(p *Pass) {
	if !requireMapping(p, p.Doc, "precompact_state.json") {
		return
	}
	validate(p, p.Doc.File, "#PrecompactState", PrecompactOf(p.Doc).View, "")
}

func runPrecompactFlat(p *Pass) {
	pc := PrecompactOf(p.Doc)
	if pc == nil {
		return
	}
	for _, n := range pc.Nests {
		moves := append(append([]string(nil), n.Moves...), fmt.Sprintf("remove %q", n.Key.Value))
		fd := p.Report(p.Doc.File, n.Key, "the state is nested under %q; precompact_state.json is flat (seed 004 §precompact_state.json Schema) and SessionStart reads active_project_id at the top level: %s",
			n.Key.Value, joinClauses(moves))
		fd.Fix = fix.FlattenJSON(p.Doc, n.Key.Value, map[string]string{"project_id": "active_project_id"})
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
	p.ReportAt(p.Doc.File, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "precompact_state.json is %d bytes; seed 004 requires it under 1 KiB (1024 bytes), written by a hook that must finish in 50 ms: keep the four state fields and a small metadata", n)
}

// ---- resume-context.md: schema ------------------------------------------------

// keyHints name the resume-context key an older or foreign key stands for.
// (the keys of the _resume.md files that predate seed 004's schema).
var keyHints = map[string]string{
	"updated": "last_updated",
	"phase":   "current_phase",
}

// progressCountKeys are the counters real files keep instead of progress.
var progressCountKeys = []string{"total_tasks", "tasks_completed"}

// resumeView is the front matter as RL311 judges it: the legacy
// resume_version renamed (RL312 reports it; an unquoted number becomes its
// text), and total_tasks/tasks_completed left out (RL311 reports each with
// its own message), so one root cause is one finding.
func resumeView(root *yaml.Node) *yaml.Node {
	hasCanon := node.Has(root, "resume_schema_version")
	view := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: root.Line, Column: root.Column}
	node.Pairs(root, func(k, v *yaml.Node) {
		switch {
		case k.Value == "resume_version":
			if hasCanon {
				return
			}
			nk := *k
			nk.Value = "resume_schema_version"
			k = &nk
			if node.IsScalar(v) && !node.IsNull(v) && !node.IsString(v) {
				nv := *v
				nv.Tag, nv.Style = "!!str", yaml.DoubleQuotedStyle
				v = &nv
			}
		case contains(progressCountKeys, k.Value):
			return
		}
		view.Content = append(view.Content, k, v)
	})
	return view
}

func runResumeContextSchema(p *Pass) {
	d := p.Doc
	if d == nil || Superseded(p) || d.Root == nil || !node.IsMap(d.Root) {
		return
	}
	vs, err := schema.Validate("#ResumeContext", resumeView(d.Root), schema.Options{Template: d.File.Template})
	if err != nil {
		p.Report(d.File, d.Root, "internal: schema #ResumeContext: %v", err)
		return
	}
	for _, v := range vs {
		n, msg := v.Node, v.Message
		if v.Key != nil {
			n = v.Key
			if hint := keyHints[v.Key.Value]; hint != "" && strings.HasPrefix(msg, "unknown key") && !node.Has(d.Root, hint) {
				msg += "; resume-context.md calls it " + hint
			}
		}
		fd := p.Report(d.File, n, "%s", msg)
		fd.NodePath = fmt.Sprint(v.Path)
	}
	reportProgressCounts(p, d)
}

// reportProgressCounts gives total_tasks and tasks_completed one clear
// finding each: the schema records progress as one string.
func reportProgressCounts(p *Pass, d *load.Document) {
	tk, tv := node.Get(d.Root, "total_tasks")
	ck, cv := node.Get(d.Root, "tasks_completed")
	if tk == nil && ck == nil {
		return
	}
	want := `progress: "N/M tasks complete"`
	total, okT := node.Int(tv)
	done, okC := node.Int(cv)
	if okT && okC {
		want = fmt.Sprintf("progress: %q", fmt.Sprintf("%d/%d tasks complete", done, total))
	}
	pv := node.Val(d.Root, "progress")
	for _, k := range []*yaml.Node{tk, ck} {
		if k == nil {
			continue
		}
		if pv != nil {
			p.Report(d.File, k, "unknown key %q: progress already records the count (seed 004 §resume-context.md YAML Schema); remove it", k.Value)
			continue
		}
		p.Report(d.File, k, "unknown key %q: resume-context.md records the count as one string, %s (seed 004 §resume-context.md YAML Schema); replace total_tasks and tasks_completed with it", k.Value, want)
	}
}

// ---- RL312 --------------------------------------------------------------------

func runLegacyResumeVersion(p *Pass) {
	d := p.Doc
	if d == nil || Superseded(p) || !node.IsMap(d.Root) {
		return
	}
	k, v := node.Get(d.Root, "resume_version")
	if k == nil {
		return
	}
	if ck, _ := node.Get(d.Root, "resume_schema_version"); ck != nil {
		fd := p.Report(d.File, k, "resume_version is the legacy name of resume_schema_version, which this file also has (line %d): remove resume_version", ck.Line)
		fd.Related = append(fd.Related, diag.Related{Path: d.File.Path, Line: ck.Line, Column: ck.Column, Message: "resume_schema_version"})
		return
	}
	switch {
	case node.IsString(v):
		fd := p.Report(d.File, k, "resume_version is the legacy name of resume_schema_version (seed 004: SessionStart reads the new name): rename the key, keeping the value: resume_schema_version: %s", strconv.Quote(v.Value))
		fd.Fix = fix.RenameKeyKeepString(d, k, v, "resume_schema_version")
	case node.IsScalar(v) && !node.IsNull(v):
		fd := p.Report(d.File, k, "resume_version is the legacy name of resume_schema_version, and %s is written as a number (YAML reads 1.10 as 1.1): rename the key and quote the value: resume_schema_version: %s", v.Value, strconv.Quote(v.Value))
		fd.Fix = fix.RenameKeyKeepString(d, k, v, "resume_schema_version")
	default:
		p.Report(d.File, k, "resume_version is the legacy name of resume_schema_version: rename the key and give it a version string such as \"1.0\"")
	}
}

// ---- RL315 --------------------------------------------------------------------

// progressRe is #ResumeContext's progress pattern, with the counts captured.
var progressRe = regexp.MustCompile(`^([0-9]+)/([0-9]+) tasks complete$`)

// ProgressOf returns progress N/M and its node, ok false when the file has
// no progress in the schema's form (RL311 reports a malformed one).
func ProgressOf(root *yaml.Node) (done, total int, n *yaml.Node, ok bool) {
	n = node.Val(root, "progress")
	s, isStr := node.Str(n)
	if !isStr {
		return 0, 0, nil, false
	}
	m := progressRe.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, nil, false
	}
	var err1, err2 error
	done, err1 = strconv.Atoi(m[1])
	total, err2 = strconv.Atoi(m[2])
	return done, total, n, err1 == nil && err2 == nil
}

func runProgress(p *Pass) {
	d := p.Doc
	if d == nil || Superseded(p) || !node.IsMap(d.Root) {
		return
	}
	done, total, pn, ok := ProgressOf(d.Root)
	if !ok {
		return
	}
	if done > total {
		p.Report(d.File, pn, "progress %q counts more completed tasks (%d) than there are (%d)", pn.Value, done, total)
		return
	}
	cv := node.Val(d.Root, "current_task")
	cur, ok := node.Int(cv)
	if !ok {
		return
	}
	if cur != int64(done) && cur != int64(done)+1 {
		fd := p.Report(d.File, cv, "current_task %d does not follow progress %q: with %d tasks complete the current task is %d (just finished) or %d (next)", cur, pn.Value, done, done, done+1)
		fd.Related = append(fd.Related, diag.Related{Path: d.File.Path, Line: pn.Line, Column: pn.Column, Message: "progress"})
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

var uncheckedItem = regexp.MustCompile(`^\s*(?:[-*+]|[0-9]+[.)])\s+\[ \]`)

func runValidationGate(p *Pass) {
	d := p.Doc
	if d == nil || Superseded(p) || !d.FrontMatter {
		return
	}
	lines := BodyLines(d)
	gate, level := -1, 0
	for i, l := range lines {
		lv, text := headingLevel(l.Text)
		if lv > 0 && strings.Contains(strings.ToLower(text), "validation gate") {
			gate, level = i, lv
			break
		}
	}
	if gate < 0 {
		p.ReportAt(d.File, diag.Pos{Line: d.BodyLine - 1, Col: 1}, diag.Pos{}, "the body has no \"Validation Gate\" heading: seed 004 makes resume-context.md a loading manifest plus a validation gate, questions as `- [ ]` items a resumed session must answer before it continues")
		return
	}
	for _, l := range lines[gate+1:] {
		if lv, _ := headingLevel(l.Text); lv > 0 && lv <= level {
			break
		}
		if uncheckedItem.MatchString(l.Text) {
			return
		}
	}
	h := lines[gate]
	p.ReportAt(d.File, diag.Pos{Line: h.Line, Col: 1}, diag.Pos{Line: h.Line, Col: len([]rune(h.Text)) + 1}, "the Validation Gate has no `- [ ]` item: list the questions a resumed session must answer (from the files it loads) as unchecked boxes (seed 004 §resume-context.md Structure)")
}
