// Package rules holds the rule catalog of SPEC §3: each rule is data (code,
// name, severity, fix applicability, summary, doc page) plus a function
// over a parsed document, a folder, or the repository index.
package rules

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
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
	// Family groups rules in listings and names the file they live in.
	Family string
	// OptIn marks style and housekeeping checks (SPEC §0): off unless
	// --enable names them or the configuration gives them a severity.
	OptIn bool
	// NeedsBase marks rules that compare with a base revision: they run
	// only when --base is given.
	NeedsBase bool
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
	// Base is the revision --base REF compares against (RL601–RL604);
	// nil without --base.
	Base *Base
}

// BundleOptions configure SPECTRUM-02 checks (SPEC §3.5, §7 bundle:).
type BundleOptions struct {
	Base      string   // "bundle" (default) or "repo"
	Semvers   []string // supported validator semvers
	Forbidden []string // forbidden artifact patterns
}

// Pass is what a rule's Run sees for one unit.
type Pass struct {
	Rule *Rule
	Opts *Options

	// Exactly one of these is set.
	Doc    *load.Document
	Bundle *load.Bundle
	Run    *load.AgentRun

	// Index is the repository index: read-only facts of the units checked
	// before this one (see Index), and where this unit publishes its own.
	Index *Index

	// Shared per-unit facts computed once (for example the resumption
	// version), keyed by the producing helper.
	Facts map[string]any

	out *[]diag.Finding
}

// NewPass prepares a pass that appends findings to out.
func NewPass(r *Rule, opts *Options, out *[]diag.Finding) *Pass {
	return &Pass{Rule: r, Opts: opts, out: out, Facts: map[string]any{}}
}

// File returns the file a finding of this pass belongs to by default.
func (p *Pass) File() *load.File {
	if p.Doc != nil {
		return p.Doc.File
	}
	return nil
}

// Report adds a finding at a node of doc's file.
func (p *Pass) Report(f *load.File, n *yaml.Node, format string, args ...any) *diag.Finding {
	return p.ReportAt(f, node.Pos(n), EndOf(f, n), format, args...)
}

// ReportAt adds a finding at explicit positions.
func (p *Pass) ReportAt(f *load.File, start, end diag.Pos, format string, args ...any) *diag.Finding {
	if end.Line == 0 {
		end = start
	}
	path := ""
	if f != nil {
		path = f.Path
	}
	*p.out = append(*p.out, diag.Finding{
		Code:     p.Rule.Code,
		Name:     p.Rule.Name,
		Severity: p.Rule.Severity,
		Path:     path,
		Start:    start,
		End:      end,
		Message:  fmt.Sprintf(format, args...),
	})
	return &(*p.out)[len(*p.out)-1]
}

// EndOf estimates where a node's source text ends on its first line: the
// whole token for scalars, the key for collections.
func EndOf(f *load.File, n *yaml.Node) diag.Pos {
	if f == nil || n == nil || n.Line == 0 {
		return diag.Pos{}
	}
	line := []rune(f.Line(n.Line))
	start := n.Column - 1
	if start < 0 || start >= len(line) {
		return diag.Pos{Line: n.Line, Col: n.Column}
	}
	end := start + 1
	if n.Kind == yaml.ScalarNode {
		switch line[start] {
		case '"', '\'':
			q := line[start]
			end = start + 1
			for end < len(line) {
				if line[end] == '\\' && q == '"' {
					end += 2
					continue
				}
				if line[end] == q {
					if q == '\'' && end+1 < len(line) && line[end+1] == '\'' {
						end += 2
						continue
					}
					end++
					break
				}
				end++
			}
		case '|', '>':
			end = start + 1
		default:
			end = start
			for end < len(line) {
				c := line[end]
				if c == '#' && end > 0 && (line[end-1] == ' ' || line[end-1] == '\t') {
					break
				}
				if (c == ',' || c == ']' || c == '}') && n.Style&yaml.FlowStyle == 0 && isFlow(line, start) {
					break
				}
				// ": " or a final ':' ends a plain scalar in any context (a key).
				if c == ':' && (end+1 == len(line) || line[end+1] == ' ' || line[end+1] == '\t') && n.Style == 0 {
					break
				}
				end++
			}
			for end > start+1 && (line[end-1] == ' ' || line[end-1] == '\t') {
				end--
			}
		}
	} else if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		if line[start] == '{' || line[start] == '[' || line[start] == '-' {
			end = start + 1
		}
	}
	if end > len(line) {
		end = len(line)
	}
	if end <= start {
		end = start + 1
	}
	return diag.Pos{Line: n.Line, Col: end + 1}
}

// isFlow guesses whether a plain scalar sits inside a flow collection.
func isFlow(line []rune, at int) bool {
	depth := 0
	for i := 0; i < at; i++ {
		switch line[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
	}
	return depth > 0
}
