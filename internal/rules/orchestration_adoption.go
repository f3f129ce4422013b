package rules

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/schema"
)

// RL101: the repository decides what is current (SPEC §0). A v1.0
// resumption section is legacy only where the repository has adopted
// v2.0: its own ORCHESTRATION.template.yaml writes recovery_state, or a
// live workflow already holds one. Where the repository's template still
// writes v1.0, its workflows follow their writer and the one finding is
// on the template. A cross-file decision: each orchestration file
// publishes what it writes (Resumptions); Finalize decides once.

// Resumptions holds, for every orchestration file of the run, which
// resumption form it writes.
var Resumptions = NewFact[*ResumptionFact]("resumptions")

// ResumptionFact is what an orchestration file tells RL101.
type ResumptionFact struct {
	Path     string // display path
	Template bool
	Finished bool
	// V2 is true when the file holds resumption.recovery_state.
	V2 bool
	// V1 is its v1.0 section (nil when it has none, or is finished).
	V1 *V1Section
	// Bare is what RL102 says of a live section in neither form (nil
	// otherwise): said only where the repository writes v2.0.
	Bare *BareSection
}

// BareSection is a section holding neither v1.0's fields nor any v2.0
// sub-section, and the missing sub-sections RL102 reports of it.
type BareSection struct {
	At       Span
	Message  string
	NodePath string
}

// V1Section is where a v1.0 section is, its top-level v1 keys and the
// migration that replaces it.
type V1Section struct {
	At   Span
	Keys []string
	Fix  *diag.Fix
}

// templatePaths are where the reference systems keep the template their
// workflows are made from, relative to the repository root: read from disk
// when the run does not include it (a pre-commit run over one file).
var templatePaths = []string{"skills/orchestration/templates/ORCHESTRATION.template.yaml"}

func init() {
	RegisterIndexer(&Indexer{Name: "resumptions", Kinds: orch, Produces: []FactKey{Resumptions}, Run: indexResumption})
}

func indexResumption(p *Pass) {
	d := p.Doc
	if d == nil || !node.IsMap(d.Root) {
		return
	}
	rf := &ResumptionFact{Path: d.File.Path, Template: d.File.Template, Finished: WorkflowFinished(p)}
	r := ResumptionOf(p)
	if r != nil {
		rf.V2 = r.RecoveryState != nil
		if r.Version() == "v1" && !rf.Finished {
			keys := make([]string, len(r.V1Keys))
			for i, k := range r.V1Keys {
				keys[i] = k.Value
			}
			rf.V1 = &V1Section{At: lineSpan(p.Opts, d.File, r.Key), Keys: keys, Fix: fix.Migrate(d).Fix}
		}
		if v := bareMissing(p); v != nil {
			n := v.Node
			if v.Key != nil {
				n = v.Key
			}
			rf.Bare = &BareSection{At: lineSpan(p.Opts, d.File, n), Message: v.Message, NodePath: fmt.Sprint("resumption", v.Path)}
		}
	}
	Resumptions.Publish(p.Index, rf)
}

// adoption is the evidence of the form the repository writes.
type adoption struct {
	v2       string // the file showing v2.0 is adopted; "" if none
	v2Why    string
	template string // a template still writing v1.0; "" if none
}

// adoptionOf weighs the run's files, then the conventional template on
// disk when the run has no template, then the repository's other
// workflows; once per run.
func adoptionOf(p *RepoPass, all []*ResumptionFact) adoption {
	type key struct{}
	return perRun(p.Index, key{}, func() adoption { return weighAdoption(p, all) })
}

func weighAdoption(p *RepoPass, all []*ResumptionFact) adoption {
	var a adoption
	hasTemplate := false
	for _, rf := range all {
		switch {
		case rf.Template:
			hasTemplate = true
			if rf.V2 && a.v2 == "" {
				a.v2, a.v2Why = rf.Path, "the template writes recovery_state"
			} else if rf.V1 != nil && a.template == "" {
				a.template = rf.Path
			}
		case rf.V2 && !rf.Finished && a.v2 == "":
			a.v2, a.v2Why = rf.Path, "a live workflow holds recovery_state"
		}
	}
	if a.v2 != "" || p.Opts.RepoRoot == "" {
		return a
	}
	if !hasTemplate {
		a = templateOnDisk(p, a)
	}
	if a.v2 == "" {
		a = liveV2Elsewhere(p, all, a)
	}
	return a
}

// templateOnDisk reads the repository's template when the run has none:
// the conventional one, else the first the repository lists that its
// configuration classifies as an orchestration template.
func templateOnDisk(p *RepoPass, a adoption) adoption {
	rels := templatePaths
	if t := listedTemplate(p); t != "" && !slices.Contains(rels, t) {
		rels = append(slices.Clip(rels), t)
	}
	for _, rel := range rels {
		osPath := filepath.Join(absPath(p.Opts.Cwd, p.Opts.RepoRoot), filepath.FromSlash(rel))
		f := &load.File{Path: load.Display(p.Opts.Cwd, osPath), OSPath: osPath, Kind: load.KindOrchestration, Template: true,
			Root: absPath(p.Opts.Cwd, p.Opts.RepoRoot)}
		if !readInto(p.Files, f, p.Opts.Limits) {
			continue
		}
		doc, _ := load.Parse(f, load.FormatOf(load.KindOrchestration, f.Path), p.Opts.Limits)
		f.Release()
		if doc == nil {
			continue
		}
		res := model.ResumptionOf(doc.Root)
		switch {
		case res == nil:
		case res.RecoveryState != nil:
			a.v2, a.v2Why = f.Path, "the template writes recovery_state"
		case len(res.V1Keys) > 0:
			a.template = f.Path
		}
		break
	}
	return a
}

// listedTemplate is the first file the repository lists that a lint of
// it classifies as an orchestration template, or "" (at most
// maxAdoptionScan orchestration names looked at).
func listedTemplate(p *RepoPass) string {
	root := absPath(p.Opts.Cwd, p.Opts.RepoRoot)
	n := 0
	for _, name := range p.Listed() {
		rel := string(name)
		if !load.IsTemplate(rel) {
			continue
		}
		if n++; n > maxAdoptionScan {
			break
		}
		if repoKind(p.Opts, filepath.Join(root, filepath.FromSlash(rel)), rel) == load.KindOrchestration {
			return rel
		}
	}
	return ""
}

// repoKind is the kind a lint of the repository gives a listed file
// (Options.Classify), or the default globs' with the default excludes.
func repoKind(opts *Options, osPath, rel string) load.Kind {
	if opts.Classify != nil {
		return opts.Classify(osPath)
	}
	if isWorkflowName(rel) || load.IsTemplate(rel) && path.Base(rel) == "ORCHESTRATION.template.yaml" {
		return load.KindOrchestration
	}
	return load.KindUnknown
}

// maxAdoptionScan and maxAdoptionBytes bound the repository's workflows
// liveV2Elsewhere reads: a lone workflow's lint (a hook's, an editor's)
// stays quick in a repository of thousands; past them the evidence is
// what was read.
const (
	maxAdoptionScan  = 2000
	maxAdoptionBytes = 16 << 20
)

// liveV2Elsewhere looks for the evidence among the repository's workflows
// (tracked, or untracked and not ignored, as a lint of it lists them) the
// run was not given (a pre-commit run over one file, an
// editor's one buffer): a live one holding recovery_state. So a workflow
// linted alone is judged as a lint of the repository judges it. Only
// files naming recovery_state are parsed; the first found decides.
func liveV2Elsewhere(p *RepoPass, all []*ResumptionFact, a adoption) adoption {
	names := p.Listed()
	inRun := make(map[string]bool, len(all))
	for _, rf := range all {
		inRun[rf.Path] = true
	}
	root := absPath(p.Opts.Cwd, p.Opts.RepoRoot)
	n, budget := 0, int64(maxAdoptionBytes)
	for _, name := range names {
		rel := string(name)
		if load.IsTemplate(rel) || !mayBeWorkflow(p.Opts, rel) {
			continue
		}
		osPath := filepath.Join(root, filepath.FromSlash(rel))
		if repoKind(p.Opts, osPath, rel) != load.KindOrchestration {
			continue
		}
		if n++; n > maxAdoptionScan {
			break
		}
		disp := load.Display(p.Opts.Cwd, osPath)
		if inRun[disp] {
			continue
		}
		fi, err := p.Stat(osPath)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if budget -= fi.Size(); budget < 0 {
			break
		}
		data, err := p.ReadFile(osPath)
		if err != nil || !bytes.Contains(data, []byte("recovery_state")) {
			continue
		}
		f := &load.File{Path: disp, OSPath: osPath, Kind: load.KindOrchestration, Root: root, Data: data}
		doc, _ := load.Parse(f, load.FormatOf(load.KindOrchestration, f.Path), p.Opts.Limits)
		if doc == nil || !node.IsMap(doc.Root) || load.NotWorkflow(doc.Root) != "" {
			continue
		}
		q := NewPass(nil, p.Opts, doc, nil)
		q.Files = p.Files
		if r := ResumptionOf(q); r != nil && r.RecoveryState != nil && !WorkflowFinished(q) {
			a.v2, a.v2Why = disp, "a live workflow holds recovery_state"
			return a
		}
	}
	return a
}

// mayBeWorkflow screens a listed path before it is classified: with the
// default globs only their names can be a workflow; configured globs may
// name any YAML file.
func mayBeWorkflow(opts *Options, rel string) bool {
	if opts.Classify == nil {
		return isWorkflowName(rel)
	}
	return strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml")
}

// isWorkflowName reports a repository path named as the orchestration
// kind's default globs name a workflow (not a template), outside the
// default-excluded archives.
func isWorkflowName(rel string) bool {
	base := path.Base(rel)
	if strings.Contains(base, ".template.") || !(base == "ORCHESTRATION.yaml" || strings.HasPrefix(base, "ORCHESTRATION_") && strings.HasSuffix(base, ".yaml")) {
		return false
	}
	for _, part := range strings.Split(path.Dir(rel), "/") {
		if part == "archive" || part == "_archive" {
			return false
		}
	}
	return true
}

// bareMissing is the missing-keys violation at the top of a live bare
// section (model.Resumption.Bare), or nil.
func bareMissing(p *Pass) *schema.Violation {
	r := ResumptionOf(p)
	if !r.Bare() || WorkflowFinished(p) {
		return nil
	}
	t := resumptionTarget.Of(p)
	if t == nil || t.def != "#ResumptionV2" {
		return nil
	}
	c := checkSchema(p, t.file, t.def, t.root, t.prefix)
	if c.err != nil {
		return nil
	}
	for i, v := range c.res.Violations {
		if len(v.Missing) > 0 && len(v.Path) == 0 {
			return &c.res.Violations[i]
		}
	}
	return nil
}

// finalizeBareResumption reports the bare sections (RL102) where the
// repository writes v2.0; where it writes v1.0, a section without v1.0's
// optional fields is that form.
func finalizeBareResumption(p *RepoPass) {
	all := Resumptions.All(p.Index)
	sort.Slice(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	var bare []*ResumptionFact
	for _, rf := range all {
		if rf.Bare != nil {
			bare = append(bare, rf)
		}
	}
	if len(bare) == 0 {
		return
	}
	if a := adoptionOf(p, all); a.v2 == "" {
		hold := "hold"
		if len(bare) == 1 {
			hold = "holds"
		}
		p.Note("%s %s neither v1.0's fields nor v2.0's sub-sections: the repository writes v1.0, whose fields are optional, so they are not reported", countOf(len(bare), "resumption section"), hold)
		return
	}
	for _, rf := range bare {
		p.ReportAt(rf.Path, rf.Bare.At.Start, rf.Bare.At.End, rf.Bare.Message, WithSnippet(rf.Bare.At.Text), WithNodePath(rf.Bare.NodePath))
	}
}

func finalizeResumptionV1(p *RepoPass) {
	all := Resumptions.All(p.Index)
	sort.Slice(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	var live []*ResumptionFact
	for _, rf := range all {
		if rf.V1 == nil {
			continue
		}
		if rf.Template {
			p.ReportAt(rf.Path, rf.V1.At.Start, rf.V1.At.End, "this template writes a v1.0 resumption section, so every workflow made from it starts in the legacy form: migrate the template to v2.0", WithFix(rf.V1.Fix), WithSnippet(rf.V1.At.Text))
			continue
		}
		live = append(live, rf)
	}
	if len(live) == 0 {
		return
	}
	a := adoptionOf(p, all)
	if a.v2 == "" {
		why := "no template or live workflow of the repository holds recovery_state"
		if a.template != "" {
			why = fmt.Sprintf("the repository's template %s writes v1.0 and no live workflow holds recovery_state", a.template)
		}
		p.Note("%s: %d v1.0 workflow(s) follow their writer and are not reported", why, len(live))
		return
	}
	p.Note("the repository writes v2.0 (%s: %s): %d live v1.0 workflow(s) to migrate", a.v2, a.v2Why, len(live))
	for _, rf := range live {
		p.ReportAt(rf.Path, rf.V1.At.Start, rf.V1.At.End, fmt.Sprintf("resumption is a v1.0 section (%s at its top): migrate it to v2.0, which keeps them in recovery_state", strings.Join(rf.V1.Keys, ", ")), WithFix(rf.V1.Fix), WithSnippet(rf.V1.At.Text))
	}
}
