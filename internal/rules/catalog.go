// Package rules holds the rule catalog of SPEC §3: each rule is data (code,
// name, severity, fix applicability, summary, doc page) plus a function
// over a parsed document, a folder, or the repository index.
//
// catalog.go is the catalog itself, pass.go what a rule sees, facts.go the
// typed results and cross-file facts rules share. The rules live in one
// file (or a few) per family of SPEC §3:
//
//	common.go, schema.go, suppression.go   §3.1 all kinds
//	orchestration*.go                      §3.2 ORCHESTRATION.yaml resumption
//	checkpoint*.go                         §3.3 checkpoint files
//	project.go, project_folder.go          §3.4 precompact state and resume context
//	bundle.go                              §3.5 SPECTRUM-02 bundles
//	agentrun.go                            §3.6 agent runs
//	history.go                             §3.7 changes against a base (--base)
package rules

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Rule is one entry of the catalog.
type Rule struct {
	Code     string
	Name     string
	Severity diag.Severity
	Fix      diag.Applicability
	Summary  string
	// Kinds the rule looks at; empty means every kind.
	Kinds []load.Kind
	// Run checks one unit. Nil for rules reported while loading
	// (RL001–RL004, RL310), which the loader emits under this code.
	Run func(p *Pass)
	// Finalize, when set, runs once after every unit, over the index
	// (cross-file rules).
	Finalize func(p *RepoPass)
	// Requires lists the facts Run reads from the index: units of the
	// kinds producing them are checked first (see Phase).
	Requires []FactKey
	// Family groups rules in listings and names the file they live in.
	Family string
	// OptIn marks style and housekeeping checks (SPEC §0): off unless
	// --enable names them or the configuration gives them a severity.
	OptIn bool
	// NeedsBase marks rules that compare with a base revision: they run
	// only when --base is given.
	NeedsBase bool
	// Lifecycle says what the rule reports on a finished record (SPEC §0):
	// by default nothing (LiveOnly); see lifecycle.go.
	Lifecycle Lifecycle
}

var registry = map[string]*Rule{}
var byName = map[string]*Rule{}

// Register adds rules to the catalog; called from each family's init.
func Register(rs ...*Rule) {
	for _, r := range rs {
		if _, dup := registry[r.Code]; dup {
			panic("duplicate rule code " + r.Code)
		}
		if _, dup := byName[r.Name]; dup {
			panic("duplicate rule name " + r.Name)
		}
		registry[r.Code] = r
		byName[r.Name] = r
	}
}

// All returns every rule ordered by code.
func All() []*Rule {
	allOnce.Do(func() {
		all = make([]*Rule, 0, len(registry))
		for _, r := range registry {
			all = append(all, r)
		}
		sort.Slice(all, func(i, j int) bool { return all[i].Code < all[j].Code })
	})
	return all
}

// all is the sorted catalog, built on first use: the engine asks for it
// once per file. Rules register in init, before any call.
var (
	all     []*Rule
	allOnce sync.Once
)

// Lookup finds a rule by code (case-insensitive) or name.
func Lookup(s string) *Rule {
	if r, ok := registry[strings.ToUpper(s)]; ok {
		return r
	}
	return byName[strings.ToLower(s)]
}

// AppliesTo reports whether the rule looks at kind k.
func (r *Rule) AppliesTo(k load.Kind) bool {
	if len(r.Kinds) == 0 {
		return true
	}
	for _, x := range r.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// Options are the run-wide settings rules read (flags and configuration).
type Options struct {
	Now         time.Time
	MaxAge      time.Duration // staleness.max_age; 0 = off
	RunMaxAge   time.Duration // staleness.run_max_age; 0 = the default of 14 days
	Limits      load.Limits
	RepoRoot    string // OS path of the repository root
	Cwd         string // OS path of the working directory (display paths are relative to it)
	Bundle      BundleOptions
	SecretAllow []string // regexes of values RL005 must not report
	// AllowKeys are keys RL010 accepts, per kind (schema.allow_keys).
	AllowKeys map[load.Kind][]string
	// EveryLine reports every bad line of an events file instead of the
	// first few and a count (--every-line).
	EveryLine bool
	// NoSnippets: no report of the run prints source lines, so a file
	// keeps only the lines cross-file rules and suppressions need, and
	// facts keep none for their findings to print.
	NoSnippets bool
	// Classify gives the kind a lint of the repository gives the file at
	// an OS path (its configuration's globs and excludes, nested ones
	// included; KindUnknown when excluded): rules that look for evidence
	// among files the run was not given find what that lint would. Nil:
	// the default globs.
	Classify func(osPath string) load.Kind
	// Assembling: a bundle that lacks a required artifact is one still
	// being written, artifact by artifact, and RL401 does not report what
	// it lacks (the editing hook, docs/agent-hooks.md). Every other
	// finding, RL401's expected outputs included, is reported.
	Assembling bool
}

// BundleOptions configure SPECTRUM-02 checks (SPEC §3.5, §7 bundle:).
type BundleOptions struct {
	Base      string   // "bundle" (default) or "repo"
	Semvers   []string // supported validator semvers
	Forbidden []string // forbidden artifact patterns
}
