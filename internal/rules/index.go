package rules

import (
	"fmt"
	"sync"

	"github.com/resumelint/resumelint/internal/diag"
)

// Index is the repository-wide view of a run: the facts (see Fact) the
// indexers publish for every unit. Units are checked in the phases Phase
// derives from what rules require, so a rule sees the facts of every unit
// of the kinds it depends on; then each rule's Finalize sees every fact.
// Facts are small values, not parsed trees, so memory stays flat however
// many files a run checks.
type Index struct {
	mu    sync.Mutex
	all   map[any][]any
	byKey map[keyed]any
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{all: map[any][]any{}, byKey: map[keyed]any{}} }

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
