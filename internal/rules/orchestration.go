package rules

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/schema"
)

// ORCHESTRATION.yaml `resumption:` structure (SPEC §3.2, seeds 000 and 001).

var orch = []load.Kind{load.KindOrchestration}

var (
	ResumptionMissing = &Rule{Code: code.ResumptionMissing, Name: "resumption-missing", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "no `resumption:` mapping", Run: runResumptionMissing}
	ResumptionV1 = &Rule{Code: code.ResumptionV1, Name: "resumption-v1", Severity: diag.SevWarning, Fix: diag.FixSafe, Kinds: orch, Family: "orchestration",
		Summary: "a v1.0 section (last_checkpoint/current_state/next_step at the top of resumption) where the repository writes v2.0", Finalize: finalizeResumptionV1}
	ResumptionSchema = &Rule{Code: code.ResumptionSchema, Name: "resumption-schema", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "a violation of #ResumptionV2 (or #ResumptionV1 for a v1.0 section)", Run: runResumptionSchema, Finalize: finalizeBareResumption}
	DecisionsAlias = &Rule{Code: code.DecisionsAlias, Name: "decisions-alias", Severity: diag.SevWarning, Fix: diag.FixSafe, Kinds: orch, Family: "orchestration",
		Summary: "`decisions:` instead of `decision_log:`", Run: runDecisionsAlias}
	TemplatePlaceholder = &Rule{Code: code.TemplatePlaceholder, Name: "template-placeholder", Severity: diag.SevError, Kinds: orch, Family: "orchestration",
		Summary: "a {PLACEHOLDER} left in a non-template file", Run: runTemplatePlaceholder}
	MixedVersion = &Rule{Code: code.MixedVersion, Name: "mixed-version", Severity: diag.SevError, Fix: diag.FixSafe, Kinds: orch, Family: "orchestration",
		Summary: "both v1.0 top-level fields and recovery_state present", Run: runMixedVersion}
)

func init() {
	Register(ResumptionMissing, ResumptionV1, ResumptionSchema, DecisionsAlias, TemplatePlaceholder, MixedVersion)
}

// V1Movable are the v1.0 fields that move into recovery_state (seed 000
// §V1.0 to V2.0 Field Mapping).
var V1Movable = []string{"last_checkpoint", "current_state", "next_step", "cross_session_portable", "ephemeral_references"}

// OrchestrationOf returns the typed view of the pass's orchestration
// document, read once per unit.
func OrchestrationOf(p *Pass) *model.Orchestration { return orchestrationResult.Of(p) }

var orchestrationResult = NewResult("orchestration", func(p *Pass) *model.Orchestration {
	var root *yaml.Node
	if p.Doc != nil {
		root = p.Doc.Root
	}
	return model.OrchestrationOf(root)
})

// ResumptionOf returns the resumption section of an orchestration file, or
// nil when there is none (RL100 reports that).
func ResumptionOf(p *Pass) *model.Resumption { return OrchestrationOf(p).Resumption }

func runResumptionMissing(p *Pass) {
	d := p.Doc
	if d == nil || d.Root == nil {
		// An empty file and one of comments alone are the same to a
		// reader: nothing to resume from. One that does not parse is
		// RL001's.
		switch {
		case d == nil || !d.Empty:
		case strings.TrimSpace(string(d.File.Data)) != "":
			p.ReportAt(d.File, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "the file holds only comments: it has no `resumption:` section")
		default:
			p.ReportAt(d.File, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "the file is empty: it has no `resumption:` section")
		}
		return
	}
	if !requireMapping(p, d, "ORCHESTRATION.yaml") {
		return
	}
	res := OrchestrationOf(p).Doc.Resumption
	k, v := res.Key, res.Node
	switch {
	case k == nil && WorkflowFinished(p):
		// History: nothing will resume it.
	case k == nil:
		p.ReportAt(d.File, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "no `resumption:` section, so a fresh session has nothing to resume from: add one")
	case !node.IsMap(v):
		p.Report(d.File, k, fmt.Sprintf("`resumption:` must be a mapping, found %s", node.Kind(v)))
	}
}

func runMixedVersion(p *Pass) {
	r := ResumptionOf(p)
	if r == nil || r.Version() != "mixed" || WorkflowFinished(p) || len(r.V1Keys) == 0 {
		return
	}
	// One half-done migration, one finding: at the first stray field, the
	// others related, with the fix that folds what it can.
	m := fix.Migrate(p.Doc)
	var fx *diag.Fix
	names := make([]string, 0, len(r.V1Keys))
	var rel []diag.Related
	state := false
	for i, k := range r.V1Keys {
		if m.Folded[k] {
			fx = m.Fix
		}
		names = append(names, k.Value)
		state = state || k.Value == "current_state"
		if i > 0 {
			rel = append(rel, relatedAt(p.Doc.File, k, "v1.0 field "+k.Value))
		}
	}
	first := r.V1Keys[0]
	var msg string
	switch {
	case len(names) == 1 && state:
		// v2.0 has no current_state: its prose becomes structured fields.
		msg = "v1.0 field current_state sits next to recovery_state: move its content into recovery_state's phase, status and activity fields, then remove it"
	case len(names) == 1:
		msg = fmt.Sprintf("v1.0 field %s sits next to recovery_state: move it into recovery_state", first.Value)
	case state:
		msg = fmt.Sprintf("v1.0 fields %s sit next to recovery_state: move them into it (current_state's content into its phase and activity fields)", strings.Join(names, ", "))
	default:
		msg = fmt.Sprintf("v1.0 fields %s sit next to recovery_state: move them into recovery_state", strings.Join(names, ", "))
	}
	p.Report(p.Doc.File, first, msg, WithFix(fx), WithRelated(rel...))
}

func runDecisionsAlias(p *Pass) {
	r := ResumptionOf(p)
	if r == nil {
		return
	}
	k := r.Aliases.Decisions.Key
	if k == nil {
		return
	}
	if r.V2.DecisionLog.Key != nil {
		p.Report(p.Doc.File, k, "both `decisions:` and `decision_log:` are present: merge the entries into `decision_log:`")
		return
	}
	p.Report(p.Doc.File, k, "`decisions:` is the draft name of the decision log: rename it to `decision_log:`", WithFix(fix.RenameKey(p.Doc, k, "decision_log", r.Node.Style&yaml.FlowStyle != 0)))
}

func runResumptionSchema(p *Pass) {
	t := resumptionTarget.Of(p)
	if t == nil {
		return
	}
	f := t.file
	if t.def == "#ResumptionV1" {
		validate(p, f, t.def, t.root, t.prefix)
		return
	}
	view := t.root
	c := checkSchema(p, f, "#ResumptionV2", view, "resumption")
	if c.err != nil {
		p.Report(f, view, fmt.Sprintf("internal: schema #ResumptionV2: %v", c.err))
		return
	}
	vs := c.res.Violations
	if bare := bareMissing(p); bare != nil {
		// Said once the repository's form is known (finalizeBareResumption).
		vs = slices.DeleteFunc(slices.Clone(vs), func(v schema.Violation) bool { return v.Message == bare.Message && len(v.Path) == 0 })
	}
	if WorkflowFinished(p) {
		// A finished workflow is not asked to add the sub-sections a
		// resuming session would need; what it holds must still be right.
		kept := vs[:0:0]
		for _, v := range vs {
			if len(v.Missing) == 0 || len(v.Path) > 0 {
				kept = append(kept, v)
			}
		}
		vs = kept
	}
	reportViolations(p, f, "resumption", vs)
}

// resumptionTarget is what RL102 validates, once per unit: the resumption
// section, or for v2 a view of it.
var resumptionTarget = NewResult("resumption-target", func(p *Pass) *schemaTarget {
	r := ResumptionOf(p)
	if r == nil {
		return nil
	}
	// RL114 reports a {PLACEHOLDER} in any orchestration file that is not
	// a template, so the schema accepts one wherever a string is expected,
	// as in template mode, instead of reporting the same value again.
	f := *p.Doc.File
	f.Template = true
	if r.Version() == "v1" {
		return &schemaTarget{&f, "#ResumptionV1", r.Node, "resumption"}
	}
	// Validate a view of the section: v1 fields (RL115) and the decisions
	// alias (RL103) have their own rules, so they must not cascade here.
	view := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: r.Node.Line, Column: r.Node.Column}
	hasLog := r.V2.DecisionLog.Key != nil
	node.Pairs(r.Node, func(k, v *yaml.Node) {
		if r.Version() == "mixed" && slices.Contains(V1Movable, k.Value) {
			return
		}
		if k.Value == "decisions" {
			if hasLog {
				return
			}
			nk := *k
			nk.Value = "decision_log"
			k = &nk
		}
		view.Content = append(view.Content, k, v)
	})
	return &schemaTarget{&f, "#ResumptionV2", view, "resumption"}
})

// A placeholder is {UPPER_SNAKE} of two or more characters; single letters
// such as iteration-{N} are deliberate path patterns in real files.
var placeholderInText = lazyre.New(`\{[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\}`)

// patternKey marks values that are patterns by design (iteration_pattern,
// id_format, …), where braces name a variable rather than a blank.
var patternKey = lazyre.New(`(?i)(pattern|format|template)$`)

// placeholderSections are the sections a protocol reads (SPEC §3.2
// RL114): a blank left there is read as a value. Elsewhere (task notes,
// descriptions) braces are the author's prose.
var placeholderSections = []string{"resumption", "workflow", "paths"}

func runTemplatePlaceholder(p *Pass) {
	d := p.Doc
	if d == nil || d.Root == nil || d.File.Template {
		return
	}
	if !node.IsMap(d.Root) {
		return
	}
	for _, sec := range placeholderSections {
		// Each section whatever its shape: a blank in a scalar is one too.
		if v := node.Val(d.Root, sec); v != nil {
			placeholdersIn(p, v)
		}
	}
}

// placeholdersIn reports the first unfilled placeholder of each string
// under n.
func placeholdersIn(p *Pass, root *yaml.Node) {
	d := p.Doc
	node.Walk(root, func(n, pk *yaml.Node) {
		if !node.IsString(n) || strings.IndexByte(n.Value, '{') < 0 || (pk != nil && patternKey.MatchString(pk.Value)) {
			return
		}
		if ph, ok := blankIn(n.Value); ok {
			start, end := textSpan(d.File, n, ph)
			p.ReportAt(d.File, start, end, fmt.Sprintf("template placeholder %s was never filled in: write the real value", ph))
		}
	})
}

// blankIn returns the first template placeholder of s left blank.
func blankIn(s string) (string, bool) {
	if strings.IndexByte(s, '{') < 0 {
		return "", false
	}
	for _, m := range placeholderInText.FindAllStringIndex(s, -1) {
		// ${NAME} is a shell or environment reference, not a blank;
		// a naming pattern described in a sentence (s-{NNN}-{slug}.md)
		// is not one either.
		if m[1]-m[0] > 3 && (m[0] == 0 || s[m[0]-1] != '$') && !patternInProse(s, m[0], m[1]) {
			return s[m[0]:m[1]], true
		}
	}
	return "", false
}

// unfilled reports a value that is a blank: a template's variable, or a
// placeholder left in a file that is not a template (RL114 reports it
// in the sections a protocol reads). Rules that compare the value with the
// rest of the file leave it alone: one blank, one finding.
func unfilled(f *load.File, s string) bool {
	if f.Template {
		return hasTemplateVar(s)
	}
	_, ok := blankIn(s)
	return ok
}

// patternInProse reports a placeholder at s[a:b] that is part of a larger
// word of a sentence ("Added s-{NNN}-{slug}.md naming"): a pattern the text
// describes, not a value left blank. A whole value, or a placeholder that
// stands as its own word, is still a blank.
func patternInProse(s string, a, b int) bool {
	if !strings.ContainsAny(strings.TrimSpace(s), " \t") {
		return false
	}
	before := a > 0 && !isSpaceByte(s[a-1]) && s[a-1] != '"' && s[a-1] != '\''
	after := b < len(s) && !isSpaceByte(s[b]) && !strings.ContainsRune(".,;:!?)\"'", rune(s[b]))
	return before || after || (b+1 < len(s) && s[b] == '.' && !isSpaceByte(s[b+1]))
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// textSpan locates text inside a scalar's source, on the node's line or the
// lines of its block, so a finding underlines that text rather than the
// whole value; it falls back to the node.
func textSpan(f *load.File, n *yaml.Node, text string) (diag.Pos, diag.Pos) {
	lines := strings.Count(n.Value, "\n") + 2
	for l := n.Line; l < n.Line+lines; l++ {
		col := 1
		if l == n.Line {
			col = n.Column
		}
		// From the node's column on, in bytes: a finding costs its value,
		// not its line (LineAt).
		line, from, ok := f.LineAt(l, col)
		if !ok {
			continue
		}
		if i := bytes.Index(line[from:], []byte(text)); i >= 0 {
			col += utf8.RuneCount(line[from : from+i])
			return diag.Pos{Line: l, Col: col}, diag.Pos{Line: l, Col: col + utf8.RuneCountInString(text)}
		}
	}
	return node.Pos(n), load.EndOf(f, n)
}
