package rules

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/gitbase"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// A workflow record moved with enough changes that git lists a deletion
// and an addition is still one workflow: the new file is compared with
// the deleted one holding the same workflow.id. A record deleted outright
// loses its append-only history, which RL601 reports at the deleted path,
// line 1 (as RL602 reports a deleted events file).

// deletedWorkflow is an orchestration file git lists as deleted, with
// its version at base.
type deletedWorkflow struct {
	Rel string // repository path at base
	ID  string // workflow.id at base; "" when it names none
	Doc *load.Document
	// Unread says why its base version could not be read (too large);
	// both are nil when it does not parse: no history can be told then.
	Unread error
}

// workflowMoves is what the change list says about workflow records.
type workflowMoves struct {
	deleted []deletedWorkflow
	// addedIDs are the workflow ids of orchestration files new at head
	// (read once, only when a deleted record needs them).
	addedIDs map[string]bool
	added    bool
}

// moves reads, once per run, the base version of every orchestration
// file deleted since base.
func (b *Base) moves(opts *Options) *workflowMoves {
	b.movesOnce.Do(func() {
		b.moved = &workflowMoves{}
		cls := load.NewClassifier()
		for _, c := range b.Repo.Changes() {
			if c.Status != gitbase.Deleted || cls.FileKind(c.Path) != load.KindOrchestration {
				continue
			}
			d := deletedWorkflow{Rel: c.Path}
			d.Doc, d.Unread = readBaseYAML(b, opts, c.Path)
			if d.Doc != nil {
				if w := model.WorkflowIn(d.Doc.Root); w != nil {
					d.ID = w.ID.Value
				}
			}
			b.moved.deleted = append(b.moved.deleted, d)
		}
	})
	return b.moved
}

// readBaseYAML reads and parses a file's version at base: an error when
// it cannot be read (too large), neither when it does not parse.
func readBaseYAML(b *Base, opts *Options, rel string) (*load.Document, error) {
	bf, err := baseFile(b, b.Repo.OSPath(rel))
	if err != nil || !bf.Exists {
		return nil, err
	}
	doc, _ := parseBase(&load.File{Path: rel, Kind: load.KindOrchestration, Data: bf.Data}, opts.Limits)
	return doc, nil
}

// parseBase parses a base version; the error says why it cannot be
// compared (the parser's first problem, with its line). An empty file
// gives neither a document nor an error.
func parseBase(f *load.File, lim load.Limits) (*load.Document, error) {
	probs, ok := load.CheckBytes(f, lim)
	var doc *load.Document
	if ok {
		var more []diag.Finding
		doc, more = load.Parse(f, load.FormatOf(f.Kind, f.Path), lim)
		probs = append(probs, more...)
		if doc != nil && doc.Root != nil {
			return doc, nil
		}
	}
	for _, p := range probs {
		if p.Severity == diag.SevError || p.Severity == diag.SevOff {
			// "does not parse" says what the parser's prefix would.
			msg := strings.TrimPrefix(strings.TrimPrefix(p.Message, "invalid YAML: "), "invalid JSON: ")
			return nil, fmt.Errorf("line %d: %s", p.Start.Line, msg)
		}
	}
	return nil, nil // an empty file: no history, nothing to say
}

// movedFrom returns the deleted workflow record with the given id, if
// exactly one holds it.
func (m *workflowMoves) movedFrom(id string) *deletedWorkflow {
	var found *deletedWorkflow
	for i := range m.deleted {
		if d := &m.deleted[i]; id != "" && d.ID == id && d.Doc != nil {
			if found != nil {
				return nil
			}
			found = d
		}
	}
	return found
}

// addedID reports whether an orchestration file new at head holds the
// workflow id (such a file is compared with the deleted record).
func (m *workflowMoves) addedID(b *Base, opts *Options, files *load.Files, id string) bool {
	if !m.added {
		m.added, m.addedIDs = true, map[string]bool{}
		cls := load.NewClassifier()
		for _, c := range b.Repo.Changes() {
			if c.Status != gitbase.Added && c.Status != gitbase.Untracked && c.Status != gitbase.Copied ||
				cls.FileKind(c.Path) != load.KindOrchestration {
				continue
			}
			osPath := b.Repo.OSPath(c.Path)
			data, ok := readHead(files, opts, b.Repo.Root, osPath)
			if !ok {
				continue
			}
			if doc, err := parseBase(&load.File{Path: c.Path, Kind: load.KindOrchestration, Data: data}, opts.Limits); err == nil && doc != nil {
				if w := model.WorkflowIn(doc.Root); w != nil && w.ID.Value != "" {
					m.addedIDs[w.ID.Value] = true
				}
			}
		}
	}
	return m.addedIDs[id]
}

// appendOnlyCounts lists the append-only entries a document holds, one
// "decision_log: 3" per list that has any.
func appendOnlyCounts(root *yaml.Node) []string {
	var parts []string
	o := model.OrchestrationOf(root)
	for _, l := range appendOnlyLists {
		_, _, v := l.Get(o)
		v = node.Resolve(v)
		if v == nil {
			continue
		}
		n := len(v.Content)
		switch v.Kind {
		case yaml.MappingNode:
			n /= 2
		case yaml.SequenceNode:
		default:
			continue
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s: %d", l.Label, n))
		}
	}
	return parts
}

// finalizeDeletedWorkflows reports workflow records deleted since base
// whose base version held append-only entries, unless the same workflow
// lives on at another path at head (then that file was compared).
func finalizeDeletedWorkflows(p *RepoPass) {
	b := p.BaseRev
	if b == nil {
		return
	}
	m := b.moves(p.Opts)
	if len(m.deleted) == 0 {
		return
	}
	atHead := map[string]bool{}
	for _, of := range Orchestrations.All(p.Index) {
		atHead[of.WorkflowID] = of.WorkflowID != ""
	}
	ref := b.Repo.Ref
	for _, d := range m.deleted {
		osPath := b.Repo.OSPath(d.Rel)
		if !b.inScope(osPath) || d.ID != "" && (atHead[d.ID] || m.addedID(b, p.Opts, p.Files, d.ID)) {
			continue
		}
		at, shown := diag.Pos{Line: 1, Col: 1}, displayOf(p.Opts, osPath)
		if d.Unread != nil {
			p.ReportAt(shown, at, diag.Pos{}, diag.FitClip(func(w int) string {
				return fmt.Sprintf("workflow record deleted; its version at %s cannot be read (%s), so its append-only history was not checked",
					ref, diag.ClipTo(d.Unread.Error(), w))
			}))
			continue
		}
		if d.Doc == nil {
			continue // it did not parse at base: no history to tell
		}
		if counts := appendOnlyCounts(d.Doc.Root); len(counts) > 0 {
			p.ReportAt(shown, at, diag.Pos{}, diag.Fit(len(counts), func(n int) string {
				return fmt.Sprintf("workflow record deleted with the append-only history it held at %s (%s): restore it", ref, joinShort(counts, ", ", n))
			}))
		}
	}
}
