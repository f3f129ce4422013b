package rules

import (
	"bytes"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// Facts checkpoint and orchestration files publish into the Index, so
// RL112 can tell which event a checkpoint_file holds without reopening it
// and RL206 can tell which checkpoints no ORCHESTRATION.yaml has merged.
// They are small values, never parsed trees.
var (
	// Checkpoints holds every checkpoint file of the run, each also under
	// its absolute OS path (what a resolved checkpoint_file yields).
	Checkpoints = NewFact[*CheckpointFact]("checkpoints")
	// Orchestrations holds every orchestration file of the run.
	Orchestrations = NewFact[*OrchestrationFact]("orchestrations")
)

func init() {
	RegisterIndexer(&Indexer{Name: "checkpoints", Kinds: []load.Kind{load.KindCheckpoint}, Produces: []FactKey{Checkpoints}, Run: indexCheckpoint},
		&Indexer{Name: "orchestrations", Kinds: []load.Kind{load.KindOrchestration}, Produces: []FactKey{Orchestrations}, Run: indexOrchestration})
}

func indexCheckpoint(p *Pass) {
	if p.Doc == nil {
		return
	}
	if cf := CheckpointFactOf(p.Opts, p.Doc.File, p.Doc.Root); cf != nil {
		Checkpoints.PublishAt(p.Index, cf.OSPath, cf)
	}
}

func indexOrchestration(p *Pass) {
	if of := OrchestrationFactOf(p); of != nil {
		Orchestrations.Publish(p.Index, of)
	}
}

// Span is a finding's start and end on one line, with the text of the
// line when a cross-file finding may be reported there (textSpan).
type Span struct {
	Start, End diag.Pos
	Text       Line
}

// Line is the text of a line a fact points at, taken while its file's
// bytes were read: a cross-file finding there prints it (WithSnippet).
type Line struct {
	Text string
	OK   bool
}

// textOf returns line n of f.
func textOf(f *load.File, n int) Line {
	t, ok := f.Snippet(n)
	return Line{t, ok}
}

// lineSpan is spanOf with the text of its line, unless no report of the
// run prints it.
func lineSpan(opts *Options, f *load.File, n *yaml.Node) Span {
	s := spanOf(f, n)
	if opts == nil || !opts.NoSnippets {
		s.Text = textOf(f, s.Start.Line)
	}
	return s
}

func spanOf(f *load.File, n *yaml.Node) Span {
	if n == nil {
		return Span{Start: diag.Pos{Line: 1, Col: 1}}
	}
	return Span{Start: node.Pos(n), End: load.EndOf(f, n)}
}

// CheckpointFact is what a checkpoint file tells the rest of the run.
type CheckpointFact struct {
	Path   string // display path
	OSPath string // absolute
	ID     string // event_id (seed form) or checkpoint_id (runtime form); "" if malformed
	IDAt   Span
	Line1  Line // the first line, where a finding without IDAt is reported
	// Time is `timestamp` (seed form) or `created_at` (runtime form);
	// TimeZone says it was written with its zone (else it is local time).
	Time     time.Time
	TimeZone bool
	// HasAck is false for the runtime form, which records no acknowledgement.
	HasAck       bool
	Acknowledged bool
	AckAt        Span
	// WorkflowID is orchestration_state.workflow_id, or the runtime form's
	// resumption_state.workflow_id / workflow.id; "" when the file names none.
	WorkflowID string
	// WorkflowStatus is the status it recorded its workflow in
	// (model.CheckpointDoc.WorkflowStatus).
	WorkflowStatus string
}

// CheckpointFactOf reads the fact of a parsed checkpoint file; nil when
// its top level is not a mapping.
func CheckpointFactOf(opts *Options, f *load.File, root *yaml.Node) *CheckpointFact {
	c := model.CheckpointDocOf(root)
	if c == nil {
		return nil
	}
	// Line1 is kept whatever the report: a finding there is widened over
	// its first token.
	cf := &CheckpointFact{Path: f.Path, OSPath: FileOSPath(opts, f), WorkflowID: c.WorkflowID, WorkflowStatus: c.WorkflowStatus, Line1: textOf(f, 1)}
	if c.ID.OK {
		cf.ID, cf.IDAt = c.ID.Value, lineSpan(opts, f, c.ID.Node)
	}
	if c.Time.OK {
		if t, zone, ok := ParseTimestamp(c.Time.Value); ok {
			cf.Time, cf.TimeZone = t, zone
		}
	}
	if md := c.Seed.Metadata; md != nil && md.Acknowledged.OK {
		ack := md.Acknowledged
		cf.HasAck, cf.Acknowledged, cf.AckAt = true, ack.Value, lineSpan(opts, f, ack.Node)
	}
	return cf
}

// OrchestrationFact is what an ORCHESTRATION.yaml tells the rest of the
// run: what RL206 asks of it, as one is kept for every such file.
type OrchestrationFact struct {
	Path       string // display path
	WorkflowID string // workflow.id; "" if absent
	// UpdatedAt is resumption.recovery_state.updated_at, zero if absent;
	// UpdatedAtZone says it was written with its zone (else local time).
	UpdatedAt     time.Time
	UpdatedAtZone bool
	UpdatedAtText string
	UpdatedAtAt   diag.Pos
	EventsAt      diag.Pos // resumption.compaction_events (or resumption when absent)
	// HasEvents is false when the file has no compaction_events list to
	// record an event in (a v1.0 section, or a malformed one).
	HasEvents bool
	Events    []CompactionEventFact
}

// CompactionEventFact is the checkpoint file of one
// resumption.compaction_events.events entry.
type CompactionEventFact struct {
	CheckpointFile string // as written
	// Resolved is the absolute OS path checkpoint_file names; "" when it
	// resolves nowhere or was not checked (template variables).
	Resolved string
}

// OrchestrationFactOf reads the fact of a v2.0 (or mixed) orchestration file.
func OrchestrationFactOf(p *Pass) *OrchestrationFact {
	d := p.Doc
	if d == nil || !node.IsMap(d.Root) {
		return nil
	}
	of := &OrchestrationFact{Path: d.File.Path}
	of.WorkflowID = OrchestrationOf(p).Workflow.ID.Value
	r := ResumptionOf(p)
	if r == nil {
		return of
	}
	of.EventsAt = spanOf(d.File, r.Key).Start
	if rs := r.Recovery; rs != nil && rs.UpdatedAt.OK {
		if t, zone, ok := ParseTimestamp(rs.UpdatedAt.Value); ok {
			of.UpdatedAt, of.UpdatedAtZone, of.UpdatedAtText, of.UpdatedAtAt = t, zone, rs.UpdatedAt.Value, spanOf(d.File, rs.UpdatedAt.Node).Start
		}
	}
	if r.CompactionKey == nil {
		return of
	}
	of.EventsAt = spanOf(d.File, r.CompactionKey).Start
	ce := r.Compaction
	if ce == nil || !node.IsSeq(ce.Events.Node) || r.Version() == "v1" {
		return of
	}
	of.HasEvents = true
	res := ResolverOf(p)
	for _, e := range ce.Events.Items {
		if e == nil {
			continue
		}
		var ef CompactionEventFact
		if s := e.CheckpointFile; s.OK {
			ef.CheckpointFile = s.Value
			if !(d.File.Template && hasTemplateVar(s.Value)) {
				ef.Resolved, _ = res.Resolve(s.Value)
			}
		}
		of.Events = append(of.Events, ef)
	}
	return of
}

// ResolverOf returns the resolver of the pass's file, computed once.
func ResolverOf(p *Pass) *Resolver { return resolverResult.Of(p) }

var resolverResult = NewResult("resolver", func(p *Pass) *Resolver {
	r := NewResolver(p.Opts, p.Files, p.File())
	if p.Doc != nil && p.Doc.File != nil && p.Doc.File.Kind == load.KindOrchestration && node.IsMap(p.Doc.Root) {
		r.AddDeclared(OrchestrationOf(p))
	}
	return r
})

// ContextRelevant reports whether a context unit's file (load.Discovery.
// Context: read for the cross-file rules, not checked) can tell them
// anything about the units checked, from its bytes, before it is parsed:
// an orchestration file beside named checkpoints only when it names one
// of their workflow ids or file names (RL206 asks no other), so a lint of
// one checkpoint in a repository of thousands of workflows parses the few
// that concern it. Other kinds always are.
func ContextRelevant(ix *Index, f *load.File, data []byte) bool {
	if f.Kind != load.KindOrchestration {
		return true
	}
	return ix.contextNeedles().in(data)
}

// contextNeedles are what ContextRelevant looks for: the workflow ids
// and file names of the run's checkpoints, gathered once (checkpoints
// are indexed in a phase before workflows) so each workflow is scanned
// once, not once per checkpoint.
type contextNeedles struct {
	words map[string]bool // lower-cased, of idChar only
	odd   []string        // the others, looked for one by one
	// heads holds the first two bytes of each word (the one byte of a
	// one-byte word, with 0): most words of a file start otherwise and
	// are passed over without a look-up.
	heads *[1 << 16]bool
}

// head is the table index of a word's first two lower-cased bytes.
func head(w []byte) int {
	a, b := lowerASCII(w[0]), byte(0)
	if len(w) > 1 {
		b = lowerASCII(w[1])
	}
	return int(a)<<8 | int(b)
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func (ix *Index) contextNeedles() *contextNeedles {
	ix.needles.once.Do(func() {
		n := &contextNeedles{words: map[string]bool{}, heads: new([1 << 16]bool)}
		for _, cp := range Checkpoints.All(ix) {
			n.add(cp.WorkflowID)
			n.add(filepath.Base(cp.OSPath))
		}
		ix.needles.v = n
	})
	return ix.needles.v
}

// WorkflowNames returns what a workflow's text can tie it to a checkpoint
// by (RL206): its workflow.id and the file names its compaction events'
// checkpoint_file values end in, lower-cased. A text that does not parse
// as a workflow ties it to none, as it gives a lint no facts. A word of
// the text is not enough: a checkpoint naming "workflow" as its workflow
// id would concern every workflow.
func WorkflowNames(text []byte) map[string]bool {
	names := map[string]bool{}
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: text}
	doc, _ := load.Parse(f, load.FormatYAML, load.DefaultLimits)
	defer doc.Release()
	if !node.IsMap(doc.Root) { // a file that does not parse has no root
		return names
	}
	o := model.OrchestrationOf(doc.Root)
	if id := strings.TrimSpace(o.Workflow.ID.Value); id != "" {
		names[strings.ToLower(id)] = true
	}
	if r := o.Resumption; r != nil && r.Compaction != nil {
		for _, e := range r.Compaction.Events.Items {
			if e != nil && e.CheckpointFile.OK {
				names[strings.ToLower(path.Base(strings.ReplaceAll(e.CheckpointFile.Value, "\\", "/")))] = true
			}
		}
	}
	return names
}

// add adds a needle: a word of idChar bytes, or an odd one.
func (n *contextNeedles) add(s string) {
	if s == "" || s == "." {
		return
	}
	if strings.IndexFunc(s, func(r rune) bool { return r >= utf8.RuneSelf || !idChar(byte(r)) }) >= 0 {
		n.odd = append(n.odd, s)
		return
	}
	n.words[strings.ToLower(s)] = true
	n.heads[head([]byte(s))] = true
}

// idChar is a byte of the words ids and file names are written in.
func idChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_'
}

// in reports whether data names a needle: a word of it (or the word
// without the dots and dashes that end a sentence) in any case, or an
// odd needle as written, lower- or upper-cased.
func (n *contextNeedles) in(data []byte) bool {
	if len(n.words) > 0 {
		var buf []byte
		for i := 0; i < len(data); {
			if !idChar(data[i]) {
				i++
				continue
			}
			j := i
			for j < len(data) && idChar(data[j]) {
				j++
			}
			if !n.heads[head(data[i:j])] {
				i = j
				continue
			}
			buf = append(buf[:0], data[i:j]...)
			for k, c := range buf {
				buf[k] = lowerASCII(c)
			}
			if n.words[string(buf)] || n.words[string(bytes.TrimRight(buf, ".-_"))] {
				return true
			}
			i = j
		}
	}
	for _, s := range n.odd {
		if containsFold(data, s) {
			return true
		}
	}
	return false
}

// containsFold reports whether data holds s as written, in lower case or
// in upper case (how ids are written; a full case-folded search of every
// workflow of a large repository cost more than reading them).
func containsFold(data []byte, s string) bool {
	return bytes.Contains(data, []byte(s)) || bytes.Contains(data, []byte(strings.ToLower(s))) || bytes.Contains(data, []byte(strings.ToUpper(s)))
}
