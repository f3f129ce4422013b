package rules

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// Pass is what a rule's Run sees for one unit.
type Pass struct {
	Rule *Rule
	Opts *Options

	// Unit is what the pass runs over (NewPass). Doc, Bundle and Run hold
	// it as its own type: the one of its kind is set, the others are nil.
	Unit   load.Unit
	Doc    *load.Document
	Bundle *load.Bundle
	Run    *load.AgentRun

	// Files is the run's file access, behind ReadFile, Stat and ReadDir
	// (files.go); nil reads from disk, unshared.
	Files *load.Files
	// BaseRev is the revision --base compares against, behind Base
	// (RL601–RL604); nil without --base.
	BaseRev *Base

	// Index is the repository index: read-only facts of the units checked
	// before this one (see Index), and where this unit publishes its own.
	Index *Index

	// Results holds the unit's per-unit results (see Result), shared by
	// every pass over the unit.
	Results *Results

	// Selection is the run's rule selection (Runs); nil: every rule runs.
	Selection *Selection

	out     *[]diag.Finding
	pending []*diag.Finding // reported, added to out when the rule returns
}

// NewPass prepares a pass over u that appends findings to out (see
// Rule.Check).
func NewPass(r *Rule, opts *Options, u load.Unit, out *[]diag.Finding) *Pass {
	p := &Pass{Rule: r, Opts: opts, Unit: u, out: out}
	switch u := u.(type) {
	case *load.Document:
		p.Doc = u
	case *load.Bundle:
		p.Bundle = u
	case *load.AgentRun:
		p.Run = u
	}
	return p
}

// Runs reports whether the rule of code c runs over this pass's unit: a
// rule that leaves a cause to another reports it when that one does not.
func (p *Pass) Runs(c string) bool {
	return p.Selection == nil || p.Selection.ActiveCode(c, p.BaseRev != nil)
}

// File returns the file a finding of this pass belongs to by default.
func (p *Pass) File() *load.File {
	if p.Doc != nil {
		return p.Doc.File
	}
	return nil
}

// Check runs the rule over the pass's unit and adds the findings it
// reported to the pass's output, also when the rule panics.
func (r *Rule) Check(p *Pass) {
	defer p.flush()
	r.Run(p)
}

func (p *Pass) flush() {
	for _, fd := range p.pending {
		*p.out = append(*p.out, *fd)
	}
	clear(p.pending)
	p.pending = p.pending[:0]
}

// Next readies p, a pass over the same unit, for the next rule r (nil for
// an indexer) writing to out: the engine runs a unit's indexers and rules
// on one Pass, as one each was a twentieth of a lint's allocation. So a
// rule keeps no Pass past its Run, and a per-unit result holds none
// (TestResultsHoldNoPass).
func (p *Pass) Next(r *Rule, out *[]diag.Finding) {
	p.Rule, p.out = r, out
	clear(p.pending)
	p.pending = p.pending[:0]
}

// Report records a finding at a node of f with the message msg, complete
// when called: its related locations, fix and any per-finding severity are
// given as options, and the path and content hash of the node it stands
// for (its identity in baselines) are taken now. Check adds every finding in the order reported when
// the rule returns.
func (p *Pass) Report(f *load.File, n *yaml.Node, msg string, opts ...Option) {
	p.ReportAt(f, node.Pos(n), load.EndOf(f, n), msg, opts...)
}

// ReportAt records a finding at explicit positions, like Report.
func (p *Pass) ReportAt(f *load.File, start, end diag.Pos, msg string, opts ...Option) {
	path := ""
	if f != nil {
		path = f.Path
	}
	fd := p.Rule.finding(path, start, end, msg, opts)
	if p.Results == nil {
		p.Results = NewResults()
	}
	p.Results.locator(p.Unit).place(fd) // while the document is in hand
	p.pending = append(p.pending, fd)
}

// RepoPass is what a rule's Finalize sees: the whole index.
type RepoPass struct {
	Rule  *Rule
	Opts  *Options
	Index *Index
	// Files and BaseRev are the run's, as for Pass.
	Files   *load.Files
	BaseRev *Base
	out     *[]diag.Finding
	pending []*diag.Finding
	notes   []string
}

// Note records, for --verbose, what a cross-file rule decided and from
// which evidence.
func (p *RepoPass) Note(format string, args ...any) {
	p.notes = append(p.notes, p.Rule.Code+": "+fmt.Sprintf(format, args...))
}

// Notes returns the notes recorded with Note.
func (p *RepoPass) Notes() []string { return p.notes }

// NewRepoPass prepares a repository pass appending to out (see
// Rule.CheckRepo).
func NewRepoPass(r *Rule, opts *Options, ix *Index, out *[]diag.Finding) *RepoPass {
	return &RepoPass{Rule: r, Opts: opts, Index: ix, out: out}
}

// CheckRepo runs the rule's Finalize and adds the findings it reported to
// the pass's output, also when Finalize panics.
func (r *Rule) CheckRepo(p *RepoPass) {
	defer func() {
		for _, fd := range p.pending {
			*p.out = append(*p.out, *fd)
		}
		p.pending = nil
	}()
	r.Finalize(p)
}

// ReportAt records a finding at a position of a file named by its display
// path, like Pass.Report.
func (p *RepoPass) ReportAt(path string, start, end diag.Pos, msg string, opts ...Option) {
	p.pending = append(p.pending, p.Rule.finding(path, start, end, msg, opts))
}
