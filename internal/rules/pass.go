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

	// Exactly one of these is set.
	Doc    *load.Document
	Bundle *load.Bundle
	Run    *load.AgentRun

	// Index is the repository index: read-only facts of the units checked
	// before this one (see Index), and where this unit publishes its own.
	Index *Index

	// Results holds the unit's per-unit results (see Result), shared by
	// every pass over the unit.
	Results *Results

	out *[]diag.Finding
}

// NewPass prepares a pass that appends findings to out.
func NewPass(r *Rule, opts *Options, out *[]diag.Finding) *Pass {
	return &Pass{Rule: r, Opts: opts, out: out, Results: NewResults()}
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

// RepoPass is what a rule's Finalize sees: the whole index.
type RepoPass struct {
	Rule  *Rule
	Opts  *Options
	Index *Index
	out   *[]diag.Finding
}

// NewRepoPass prepares a repository pass appending to out.
func NewRepoPass(r *Rule, opts *Options, ix *Index, out *[]diag.Finding) *RepoPass {
	return &RepoPass{Rule: r, Opts: opts, Index: ix, out: out}
}

// ReportAt adds a finding at a position of a file named by its display path.
func (p *RepoPass) ReportAt(path string, start, end diag.Pos, format string, args ...any) *diag.Finding {
	if end.Line == 0 {
		end = start
	}
	*p.out = append(*p.out, diag.Finding{Code: p.Rule.Code, Name: p.Rule.Name, Severity: p.Rule.Severity,
		Path: path, Start: start, End: end, Message: fmt.Sprintf(format, args...)})
	return &(*p.out)[len(*p.out)-1]
}
