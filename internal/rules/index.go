package rules

import (
	"fmt"
	"sync"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Index is the repository-wide view of a run. Units of every kind but
// orchestration are checked first and publish facts (a checkpoint's id,
// …); orchestration files are checked next and can look those up; then
// each rule's Finalize sees every fact. Facts are small values, not parsed
// trees, so memory stays flat however many files a run checks.
type Index struct {
	mu    sync.Mutex
	facts map[string][]any
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{facts: map[string][]any{}} }

// Publish records a fact under key. Safe for concurrent use.
func (ix *Index) Publish(key string, v any) {
	ix.mu.Lock()
	ix.facts[key] = append(ix.facts[key], v)
	ix.mu.Unlock()
}

// Facts returns the facts under key. Their order depends on scheduling:
// callers that report from them must sort.
func (ix *Index) Facts(key string) []any {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return append([]any(nil), ix.facts[key]...)
}

// retainLines keeps lines of f that a fact points at past the release of
// its bytes, for the snippets of cross-file findings (0 is no line).
func retainLines(f *load.File, lines ...int) {
	for _, n := range lines {
		f.Retain(n)
	}
}

// RepoPass is what a rule's Finalize sees: the whole index.
type RepoPass struct {
	Rule  *Rule
	Opts  *Options
	Index *Index
	out   *[]diag.Finding
	// sources are files a Finalize read itself, released to the lines its
	// findings point at (Source).
	sources []*load.File
}

// Source records a file Finalize read itself as the source of its
// findings' snippets, releasing its bytes but the given lines.
func (p *RepoPass) Source(f *load.File, lines ...int) {
	f.Release(lines...)
	p.sources = append(p.sources, f)
}

// Sources returns the files recorded with Source.
func (p *RepoPass) Sources() []*load.File { return p.sources }

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
