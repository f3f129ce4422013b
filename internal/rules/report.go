package rules

import "github.com/resumelint/resumelint/internal/diag"

// Option completes a finding as it is reported (Pass.Report): a rule
// never changes a finding after reporting it.
type Option func(*diag.Finding)

// WithRelated adds secondary positions that explain the finding.
func WithRelated(rel ...diag.Related) Option {
	return func(fd *diag.Finding) { fd.Related = append(fd.Related, rel...) }
}

// WithFix attaches a fix; a nil fix attaches none.
func WithFix(fx *diag.Fix) Option {
	return func(fd *diag.Finding) {
		if fx != nil {
			fd.Fix = fx
		}
	}
}

// WithSeverity gives this finding a severity other than its rule's
// default. The rules that use it document which of their findings differ
// (in the rule's Doc): every other finding has the rule's one severity.
func WithSeverity(sev diag.Severity) Option {
	return func(fd *diag.Finding) { fd.Severity = sev }
}

// AboutLive marks a finding of an AboutFinished rule that is about a
// running record: it is left out with the LiveOnly rules' findings where
// the record is taken for history (WithoutQuestioned).
func AboutLive() Option {
	return func(fd *diag.Finding) { fd.Live = true }
}

// WithNodePath names the offending node's path in the document when the
// finding's position does not (a schema error reported at its parent).
func WithNodePath(path string) Option {
	return func(fd *diag.Finding) { fd.NodePath = path }
}

// WithSecret marks the finding's span as a credential: reports never
// print it.
func WithSecret() Option {
	return func(fd *diag.Finding) { fd.Secret = true }
}

// WithSnippet gives a finding reported in another unit's file the text
// of its line, which the fact it comes from took while the file was read.
func WithSnippet(l Line) Option {
	return func(fd *diag.Finding) { fd.Snippet, fd.HasSnippet = l.Text, l.OK }
}

// finding builds a finding of rule r with its options applied.
func (r *Rule) finding(path string, start, end diag.Pos, msg string, opts []Option) *diag.Finding {
	if end.Line == 0 {
		end = start
	}
	fd := &diag.Finding{Code: r.Code, Name: r.Name, Severity: r.Severity,
		Path: path, Start: start, End: end, Message: msg}
	for _, o := range opts {
		o(fd)
	}
	return fd
}
