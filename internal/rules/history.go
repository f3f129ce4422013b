package rules

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/gitbase"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// Changes against a base revision (SPEC §3.7, `--base REF`): each file is
// compared with its version at REF. Without --base these rules do nothing;
// a file that is new at head has no base and is not compared.

var (
	AppendOnly = &Rule{Code: code.AppendOnly, Lifecycle: AnyLifecycle, Name: "append-only", Severity: diag.SevError, Kinds: orch, Family: "base", NeedsBase: true,
		Summary: "a decision_log, agent_summaries, compaction_events or checkpoints entry at base is missing or changed at head (--base)", Run: runAppendOnly, Finalize: finalizeDeletedWorkflows}
	EventLogAppendOnly = &Rule{Code: code.EventLogAppendOnly, Lifecycle: AnyLifecycle, Name: "event-log-append-only", Severity: diag.SevError, Kinds: []load.Kind{load.KindAgentRun}, Family: "base", NeedsBase: true,
		Summary: "an events .jsonl at base that is not a byte prefix of its head version, or was deleted (--base)", Run: runEventLogAppendOnly, Finalize: finalizeDeletedEventLogs}
	UpdateProtocol = &Rule{Code: code.UpdateProtocol, Lifecycle: AnyLifecycle, Name: "update-protocol", Severity: diag.SevError, Kinds: orch, Family: "base", NeedsBase: true,
		Summary: "a trigger of seed 000 (phase, gate iteration, agent, compaction, decision) without the resumption updates it requires (--base)", Run: runUpdateProtocol}
	ResumeContextUpdate = &Rule{Code: code.ResumeContextUpdate, Lifecycle: AnyLifecycle, Name: "resume-context-update", Severity: diag.SevError, Kinds: []load.Kind{load.KindResumeContext}, Family: "base", NeedsBase: true,
		Summary: "the steps file (01-planning/steps.md, 04-steps.md) gained checked items but the project's resume-context.md did not change (--base)", Finalize: finalizeResumeContextUpdate}
)

func init() {
	Register(AppendOnly, EventLogAppendOnly, UpdateProtocol, ResumeContextUpdate)
}

// Base is the revision a run compares against (Pass.BaseRev).
type Base struct {
	Repo *gitbase.Repo
	// InScope reports whether an OS path lies within the paths the run
	// lints; it decides for files that are no unit of the run (deleted
	// events files, steps.md next to a resume-context.md).
	InScope func(osPath string) bool

	once        sync.Once
	checkpoints []addedCheckpoint
	movesOnce   sync.Once
	moved       *workflowMoves
	ticksOnce   sync.Once
	ticks       []tickedSteps
}

func (b *Base) inScope(osPath string) bool { return b.InScope == nil || b.InScope(osPath) }

// baseVersion is a unit file's version at base, parsed.
type baseVersion struct {
	Doc       *load.Document
	Path      string // repository path at base (differs after a rename)
	Unchanged bool   // byte-identical to head: Doc is the head document
}

// baseOf returns the parsed base version of the pass's document, or nil
// when there is nothing to compare: no --base or a file new at head. An
// orchestration file new at head is compared with the record of its
// workflow that git lists as deleted (a move git did not see as one). A
// base version that cannot be read or parsed is said, never skipped in
// silence: an error when it cannot be read (too large), a warning when it
// does not parse (the change may be its repair). The base version is read
// once per unit and reported once, by the first rule of the unit that asks.
func baseOf(p *Pass) *baseVersion {
	bl := baseLookup.Of(p)
	if bl.err != nil && !bl.reported {
		bl.reported = true
		var opts []Option
		if bl.warn {
			opts = append(opts, WithSeverity(diag.SevWarning))
		}
		p.ReportAt(p.Doc.File, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, fmt.Sprintf("%v", bl.err), opts...)
	}
	return bl.version
}

// baseRead is the unit's one read of its base version.
type baseRead struct {
	version  *baseVersion
	err      error // why it cannot be compared
	warn     bool  // err is a base version that does not parse
	reported bool
}

var baseLookup = NewResult("base-version", func(p *Pass) *baseRead {
	b := p.BaseRev
	if b == nil || p.Doc == nil || p.Doc.Root == nil {
		return &baseRead{}
	}
	f := p.Doc.File
	ref := b.Repo.Ref
	bf, err := p.Base(osPathOf(p.Opts, f.OSPath))
	if err == gitbase.ErrTooLarge {
		return &baseRead{err: fmt.Errorf("this file at %s is larger than the read limit of %d MiB, so this change was not checked against it", ref, b.Repo.MaxSize>>20)}
	}
	if err != nil {
		return &baseRead{err: fmt.Errorf("cannot read this file at %s, so it was not compared: %v", ref, err)}
	}
	if !bf.Exists {
		if f.Kind == load.KindOrchestration {
			if d := b.moves(p.Opts).movedFrom(OrchestrationOf(p).Workflow.ID.Value); d != nil {
				maskAlso(p, d.Doc.File, docTrees(d.Doc))
				return &baseRead{version: &baseVersion{Doc: d.Doc, Path: d.Rel}}
			}
		}
		return &baseRead{}
	}
	if bf.Unchanged {
		return &baseRead{version: &baseVersion{Doc: p.Doc, Path: bf.Path, Unchanged: true}}
	}
	baseFile := &load.File{Path: f.Path, Kind: f.Kind, Data: bf.Data}
	doc, err := parseBase(baseFile, p.Opts.Limits)
	var trees []*yaml.Node
	if doc != nil {
		trees = docTrees(doc)
	}
	maskAlso(p, baseFile, trees) // its values and parse errors are quoted
	if err != nil {
		msg := diag.FitClip(func(w int) string {
			return fmt.Sprintf("this file does not parse at %s (%s), so this change was not checked against it", ref, diag.ClipTo(err.Error(), w))
		})
		return &baseRead{err: errors.New(msg), warn: true}
	}
	if doc == nil {
		return &baseRead{}
	}
	return &baseRead{version: &baseVersion{Doc: doc, Path: bf.Path}}
})

// osPathOf makes a file's OS path absolute against the working directory
// (stdin files carry the name the user gave).
func osPathOf(opts *Options, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(opts.Cwd, p)
}

// displayOf is the path shown for a file that is no unit of the run,
// relative to the working directory like every other path.
func displayOf(opts *Options, osPath string) string {
	d := load.Display(opts.Cwd, osPath)
	if strings.HasPrefix(d, "../") {
		if real, err := filepath.EvalSymlinks(opts.Cwd); err == nil {
			if d2 := load.Display(real, osPath); !strings.HasPrefix(d2, "../") {
				return d2
			}
		}
	}
	return d
}

// readHead reads a work-tree file that is no unit of the run through the
// run's file access, within the size limit, like every other read:
// confined to the work tree, a regular file, never a FIFO.
func readHead(files *load.Files, opts *Options, root, osPath string) ([]byte, bool) {
	data, err := files.ReadFile(root, osPath, maxSize(opts))
	if err != nil {
		return nil, false
	}
	return bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}), true // as load.Read strips it
}

// ---- comparing trees ----------------------------------------------------------

// sameNode compares two trees by content: key order, quoting, comments and
// positions do not count; an unquoted timestamp equals its quoted text and
// numbers compare by value.
func sameNode(a, b *yaml.Node) bool {
	a, b = node.Resolve(a), node.Resolve(b)
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return node.IsNull(a) && node.IsNull(b)
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		ta, tb := scalarTag(a), scalarTag(b)
		if ta != tb {
			return false
		}
		switch ta {
		case "!!null":
			return true
		case "!!bool":
			x, _ := node.Bool(a)
			y, _ := node.Bool(b)
			return x == y
		case "!!float":
			x, okx := node.Float(a)
			y, oky := node.Float(b)
			if okx && oky {
				return x == y
			}
		}
		return a.Value == b.Value
	case yaml.MappingNode:
		ma, mb := mapOf(a), mapOf(b)
		if len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			vb, ok := mb[k]
			if !ok || !sameNode(va, vb) {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		if len(a.Content) != len(b.Content) {
			return false
		}
		for i := range a.Content {
			if !sameNode(a.Content[i], b.Content[i]) {
				return false
			}
		}
		return true
	}
	return false
}

func scalarTag(n *yaml.Node) string {
	switch t := n.ShortTag(); t {
	case "!!timestamp", "!!binary":
		return "!!str"
	case "!!int", "!!float":
		return "!!float"
	default:
		return t
	}
}

// mapOf indexes a mapping by key text (the last one wins, as a look-up by
// key does).
func mapOf(m *yaml.Node) map[string]*yaml.Node {
	out := make(map[string]*yaml.Node, len(m.Content)/2)
	node.Pairs(m, func(k, v *yaml.Node) { out[k.Value] = v })
	return out
}

// wasNow renders a changed value for a message, "was X, now Y": scalars
// quoted, long strings cut to a window around their first difference so
// the change stays visible, collections by their kind.
func wasNow(b, h *yaml.Node) string {
	bs, bok := shortText(b)
	hs, hok := shortText(h)
	if bok && hok {
		bs, hs = around(bs, hs)
	}
	return fmt.Sprintf("was %s, now %s", quoteIf(b, bs), quoteIf(h, hs))
}

// around cuts two texts to windows that show where they first differ.
func around(b, h string) (string, string) {
	br, hr := []rune(b), []rune(h)
	i := 0
	for i < len(br) && i < len(hr) && br[i] == hr[i] {
		i++
	}
	return window(br, i), window(hr, i)
}

// shortText is a scalar's text with runs of space folded; ok is false for
// anything else.
func shortText(n *yaml.Node) (string, bool) {
	n = node.Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || node.IsNull(n) {
		return "", false
	}
	return strings.Join(strings.Fields(diag.Mask(n.Value)), " "), true
}

// window cuts r to at most 40 characters that show position at.
func window(r []rune, at int) string {
	const width = 26
	if len(r) <= width {
		return string(r)
	}
	start := 0
	if at > width-10 {
		start = at - 10
	}
	end := min(start+width, len(r))
	s := string(r[start:end])
	if start > 0 {
		s = "..." + s
	}
	if end < len(r) {
		s += "..."
	}
	return s
}

func quoteIf(n *yaml.Node, text string) string {
	n = node.Resolve(n)
	switch {
	case n == nil:
		return "absent"
	case n.Kind != yaml.ScalarNode || node.IsNull(n):
		return node.Kind(n)
	case node.IsString(n):
		return diag.QuoteFull(text)
	}
	return text
}

// ---- matching entries of a list across revisions -------------------------------

// entryID is the id of a list entry (`id:`), or "".
func entryID(n *yaml.Node) string {
	// The entries of any history list: no one definition describes them.
	return scalarID(node.Val(n, "id"))
}

// scalarID is an id's text when it is a scalar other than null, else "".
func scalarID(v *yaml.Node) string {
	if v == nil || v.Kind != yaml.ScalarNode || node.IsNull(v) {
		return ""
	}
	return v.Value
}

// matchEntries pairs the entries of a list at base with those at head: by
// id where an entry has one, by position otherwise (and for an entry
// whose id changed). It returns the pairs, the base entries with no
// partner (removed) and the head entries with none (appended).
func matchEntries(base, head []*yaml.Node) (pairs [][2]int, removed, added []int) {
	byID := map[string][]int{}
	for j, h := range head {
		if id := entryID(h); id != "" {
			byID[id] = append(byID[id], j)
		}
	}
	headUsed := make([]bool, len(head))
	partner := make([]int, len(base))
	for i, b := range base {
		partner[i] = -1
		// Each id's head entries are taken in order, once: a list of
		// one id repeated is paired in one pass, not rescanned per entry.
		if id := entryID(b); id != "" && len(byID[id]) > 0 {
			j := byID[id][0]
			byID[id] = byID[id][1:]
			partner[i], headUsed[j] = j, true
		}
	}
	for i := range base {
		if partner[i] < 0 && i < len(head) && !headUsed[i] {
			partner[i], headUsed[i] = i, true
		}
	}
	for i, j := range partner {
		if j < 0 {
			removed = append(removed, i)
		} else {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	for j, used := range headUsed {
		if !used {
			added = append(added, j)
		}
	}
	return pairs, removed, added
}

// fieldChange is one difference inside a paired entry.
type fieldChange struct {
	At   *yaml.Node // where to report at head
	Desc string
}

// entryChanges lists what changed in an entry, leaving out what seed 000
// allows: applied and acknowledged going from false to true (with
// acknowledged_at set alongside), and an id given to an entry that had
// none (numbering, RL110's fix).
func entryChanges(b, h *yaml.Node) []fieldChange {
	b, h = node.Resolve(b), node.Resolve(h)
	if !node.IsMap(b) || !node.IsMap(h) {
		if sameNode(b, h) {
			return nil
		}
		return []fieldChange{{At: h, Desc: wasNow(b, h)}}
	}
	bm := mapOf(b)
	// An entry of any history list: acknowledged wherever one is written.
	ackFlip := flippedTrue(bm["acknowledged"], node.Val(h, "acknowledged"))
	var out []fieldChange
	node.Pairs(h, func(k, hv *yaml.Node) {
		bv, had := bm[k.Value]
		switch {
		case !had:
			switch {
			case k.Value == "id" && entryID(b) == "":
			case (k.Value == "applied" || k.Value == "acknowledged") && !node.IsNull(hv):
			case k.Value == "acknowledged_at" && ackFlip:
			default:
				out = append(out, fieldChange{At: k, Desc: k.Value + " was added"})
			}
		case sameNode(bv, hv):
		case (k.Value == "applied" || k.Value == "acknowledged") && flippedTrue(bv, hv):
		case k.Value == "acknowledged_at" && ackFlip && node.IsNull(bv):
		default:
			out = append(out, fieldChange{At: hv, Desc: k.Value + " " + wasNow(bv, hv)})
		}
	})
	hm := mapOf(h)
	node.Pairs(b, func(k, _ *yaml.Node) {
		if _, ok := hm[k.Value]; !ok {
			out = append(out, fieldChange{At: h, Desc: k.Value + " was removed"})
		}
	})
	return out
}

// flippedTrue reports false (or null, or absent) at base and true at head.
func flippedTrue(b, h *yaml.Node) bool {
	hb, ok := node.Bool(h)
	if !ok || !hb {
		return false
	}
	if bb, ok := node.Bool(b); ok {
		return !bb
	}
	return node.IsNull(b)
}

// ---- RL601 append-only ----------------------------------------------------------

// appendOnlyList is one of the histories seed 000 §Update Semantics keeps.
type appendOnlyList struct {
	Label string // path for messages
	Rule  string // what may change, for the message
	Get   func(o *model.Orchestration) (parentKey, key, val *yaml.Node)
}

var appendOnlyLists = []appendOnlyList{
	{"decision_log", "restore it, append a new one",
		func(o *model.Orchestration) (*yaml.Node, *yaml.Node, *yaml.Node) {
			r := o.Resumption
			if r == nil {
				return o.ResumptionKey, nil, nil
			}
			if l := r.V2.DecisionLog; l.Key != nil {
				return r.Key, l.Key, l.Node
			}
			return r.Key, r.Aliases.Decisions.Key, r.Aliases.Decisions.Node
		}},
	{"agent_summaries", "restore it, summaries are final",
		func(o *model.Orchestration) (*yaml.Node, *yaml.Node, *yaml.Node) {
			if r := o.Resumption; r != nil {
				return r.Key, r.V2.AgentSummaries.Key, r.V2.AgentSummaries.Node
			}
			return o.ResumptionKey, nil, nil
		}},
	{"compaction_events.events", "restore it and append a new event",
		func(o *model.Orchestration) (*yaml.Node, *yaml.Node, *yaml.Node) {
			r := o.Resumption
			switch {
			case r == nil:
				return nil, nil, nil
			case r.Compaction == nil:
				return r.CompactionKey, nil, nil
			}
			return r.CompactionKey, r.Compaction.Events.Key, r.Compaction.Events.Node
		}},
	{"checkpoints.entries", "restore it and append a new entry",
		func(o *model.Orchestration) (*yaml.Node, *yaml.Node, *yaml.Node) {
			return o.Checkpoints.Key, o.Checkpoints.Entries.Key, o.Checkpoints.Entries.Node
		}},
}

// historyBreak is one entry of an append-only history that is missing or
// changed at head: Head is its message without the rule's advice.
type historyBreak struct {
	At          *yaml.Node
	Head, Short string // Short: which entry, for a grouped finding
	List        appendOnlyList
}

// maxRelated bounds the related locations one grouped finding lists.
const maxRelated = 50

func runAppendOnly(p *Pass) {
	bv := baseOf(p)
	if bv == nil || bv.Unchanged || !node.IsMap(bv.Doc.Root) || !node.IsMap(p.Doc.Root) {
		return
	}
	var breaks []historyBreak
	if finishedAtBase(p, bv.Doc.Root) {
		return
	}
	base := model.OrchestrationOf(bv.Doc.Root)
	for _, l := range appendOnlyLists {
		breaks = append(breaks, appendOnlyBreaks(p, l, base)...)
	}
	reportHistoryBreaks(p, breaks)
}

// reportHistoryBreaks reports a change's breaks of the append-only
// histories as one finding (one pass that rewrote many entries is one
// cause), at the first break, naming how many there are.
func reportHistoryBreaks(p *Pass, breaks []historyBreak) {
	if len(breaks) == 0 {
		return
	}
	first := breaks[0]
	for _, b := range breaks[1:] {
		if lineOfNode(b.At) < lineOfNode(first.At) {
			first = b
		}
	}
	f := p.Doc.File
	if len(breaks) == 1 {
		p.Report(f, first.At, fmt.Sprintf("%s: %s", first.Head, first.List.Rule))
		return
	}
	var lists []string
	perList := map[string]int{}
	for _, b := range breaks {
		if perList[b.List.Label] == 0 {
			lists = append(lists, b.List.Label)
		}
		perList[b.List.Label]++
	}
	counts := make([]string, len(lists))
	for i, l := range lists {
		counts[i] = fmt.Sprintf("%s %d", l, perList[l])
	}
	advice := "restore them, histories only grow"
	if len(lists) == 1 {
		advice = "restore them: " + strings.TrimPrefix(first.List.Rule, "restore it, ")
	}
	var rel []diag.Related
	for _, b := range breaks {
		if b.At != first.At && len(rel) < maxRelated {
			rel = append(rel, relatedNode(f, b.At, b.Head))
		}
	}
	p.Report(f, first.At, fmt.Sprintf("%d append-only entries changed or removed since %s (%s; first %s): %s",
		len(breaks), basePlace(p, baseOf(p)), strings.Join(counts, ", "), first.Short, advice), WithRelated(rel...))
}

// appendOnlyBreaks compares one history at base and head.
func appendOnlyBreaks(p *Pass, l appendOnlyList, base *model.Orchestration) []historyBreak {
	ref := basePlace(p, baseOf(p))
	_, _, bl := l.Get(base)
	parent, hk, hl := l.Get(OrchestrationOf(p))
	bl = node.Resolve(bl)
	if bl == nil || len(bl.Content) == 0 || (bl.Kind != yaml.SequenceNode && bl.Kind != yaml.MappingNode) {
		return nil
	}
	at := hk
	if at == nil {
		at = parent
	}
	if at == nil {
		at = p.Doc.Root
	}
	hl = node.Resolve(hl)
	if hl == nil || hl.Kind != bl.Kind {
		n := len(bl.Content)
		if bl.Kind == yaml.MappingNode {
			n /= 2
		}
		what := "is gone"
		if hl != nil {
			what = "is now " + node.Kind(hl)
		}
		return []historyBreak{{at, fmt.Sprintf("%s held %s at %s and %s", l.Label, countOf(n, "entry"), ref, what), l.Label, l}}
	}
	if bl.Kind == yaml.MappingNode {
		return appendOnlyMap(p, l, at, bl, hl)
	}
	var out []historyBreak
	pairs, removed, _ := matchEntries(bl.Content, hl.Content)
	for _, i := range removed {
		e := bl.Content[i]
		out = append(out, historyBreak{at, fmt.Sprintf("%s entry %s (line %d at %s) was removed", l.Label, entryLabel(e, i), e.Line, ref),
			l.Label + " " + entryLabel(e, i), l})
	}
	for _, pr := range pairs {
		b, h := bl.Content[pr[0]], hl.Content[pr[1]]
		chs := entryChanges(b, h)
		if len(chs) == 0 {
			continue
		}
		descs := make([]string, len(chs))
		for i, c := range chs {
			descs[i] = c.Desc
		}
		label := entryLabel(b, pr[0])
		if hid, bid := entryID(h), entryID(b); bid != "" && hid != bid {
			label += " (now " + hid + ")"
		}
		msg := diag.Fit(len(descs), func(n int) string {
			return fmt.Sprintf("%s entry %s changed since %s (%s): %s", l.Label, label, ref, joinShort(descs, "; ", n), l.Rule)
		})
		out = append(out, historyBreak{chs[0].At, strings.TrimSuffix(msg, ": "+l.Rule), l.Label + " " + label, l})
	}
	return out
}

// basePlace names where the base version was read: REF, or REF:PATH in
// git's notation when the file had another path there (a move).
func basePlace(p *Pass, bv *baseVersion) string {
	b := p.BaseRev
	if rel, ok := b.Repo.Rel(osPathOf(p.Opts, p.Doc.File.OSPath)); ok && bv.Path != "" && rel != bv.Path {
		return b.Repo.Ref + ":" + bv.Path
	}
	return b.Repo.Ref
}

// appendOnlyMap checks a map of entries (agent_summaries) by key.
func appendOnlyMap(p *Pass, l appendOnlyList, at, bl, hl *yaml.Node) []historyBreak {
	ref := basePlace(p, baseOf(p))

	hm := map[string][2]*yaml.Node{}
	node.Pairs(hl, func(k, v *yaml.Node) { hm[k.Value] = [2]*yaml.Node{k, v} })
	var out []historyBreak
	node.Pairs(bl, func(k, bv *yaml.Node) {
		h, ok := hm[k.Value]
		switch {
		case !ok:
			out = append(out, historyBreak{at, fmt.Sprintf("%s.%s (line %d at %s) was removed", l.Label, k.Value, k.Line, ref),
				l.Label + "." + k.Value, l})
		case !sameNode(bv, h[1]):
			out = append(out, historyBreak{h[1], fmt.Sprintf("%s.%s changed since %s (%s)", l.Label, k.Value, ref, wasNow(bv, h[1])),
				l.Label + "." + k.Value, l})
		}
	})
	return out
}

func entryLabel(e *yaml.Node, i int) string {
	if id := entryID(e); id != "" {
		return id
	}
	return fmt.Sprintf("#%d", i+1)
}

// ---- RL602 event-log-append-only -----------------------------------------------

func runEventLogAppendOnly(p *Pass) {
	b := p.BaseRev
	if b == nil || p.Run == nil {
		return
	}
	for _, d := range p.Run.Events {
		f := d.File
		if f.Data == nil {
			continue // unreadable: the loader reported it
		}
		bf, err := p.Base(osPathOf(p.Opts, f.OSPath))
		if err == gitbase.ErrTooLarge {
			p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, fmt.Sprintf("this events file at %s is larger than the read limit of %d MiB, so it was not compared", b.Repo.Ref, b.Repo.MaxSize>>20))
			continue
		}
		if err != nil {
			p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, fmt.Sprintf("cannot read this events file at %s, so it was not compared: %v", b.Repo.Ref, err))
			continue
		}
		// The loader strips a byte-order mark from head (RL004 reports it).
		bf.Data = bytes.TrimPrefix(bf.Data, []byte{0xEF, 0xBB, 0xBF})
		if !bf.Exists || bf.Unchanged || bytes.HasPrefix(f.Data, bf.Data) {
			continue
		}
		maskAlso(p, &load.File{Path: f.Path, Kind: f.Kind, Data: bf.Data}, nil) // its lines are quoted
		was := ""
		if rel, ok := b.Repo.Rel(osPathOf(p.Opts, f.OSPath)); ok && rel != bf.Path {
			was = " (at " + b.Repo.Ref + " it was " + bf.Path + ")"
		}
		i := commonPrefix(f.Data, bf.Data)
		if i == len(f.Data) {
			lost := bytes.Count(bf.Data[i:], []byte{'\n'})
			end := endPos(f)
			p.ReportAt(f, end, diag.Pos{}, fmt.Sprintf("this events file is shorter than at %s%s: %d bytes (%d lines) were cut from its end; restore them, events are only appended",
				b.Repo.Ref, was, len(bf.Data)-i, lost))
			continue
		}
		start := posAt(f, i)
		headLine := f.Line(start.Line)
		baseLine := (&load.File{Data: bf.Data}).Line(start.Line)
		bw, hw := around(baseLine, headLine)
		lineEnd := diag.Pos{Line: start.Line, Col: len([]rune(headLine)) + 1}
		p.ReportAt(f, start, lineEnd, fmt.Sprintf("line %d was rewritten since %s%s: it read `%s`, now `%s`; restore it and append instead",
			start.Line, b.Repo.Ref, was, bw, hw))
	}
}

// finalizeDeletedEventLogs reports events files that existed at base and
// are gone: they are no unit of the run, so only the change list knows.
func finalizeDeletedEventLogs(p *RepoPass) {
	b := p.BaseRev
	if b == nil {
		return
	}
	for _, c := range b.Repo.Changes() {
		if c.Status != gitbase.Deleted || !strings.HasSuffix(c.Path, ".jsonl") {
			continue
		}
		if _, ok := load.RunDir(c.Path); !ok {
			continue
		}
		osPath := b.Repo.OSPath(c.Path)
		if !b.inScope(osPath) {
			continue
		}
		p.ReportAt(displayOf(p.Opts, osPath), diag.Pos{Line: 1, Col: 1}, diag.Pos{},
			fmt.Sprintf("this events file existed at %s and was deleted: restore it, event logs are never removed", b.Repo.Ref))
	}
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// posAt converts a byte offset of f to a line and character column.
func posAt(f *load.File, off int) diag.Pos {
	ls := f.LineStarts()
	line := sort.Search(len(ls), func(i int) bool { return ls[i] > off })
	return diag.Pos{Line: line, Col: len([]rune(string(f.Data[ls[line-1]:off]))) + 1}
}

func endPos(f *load.File) diag.Pos {
	n := len(f.LineStarts())
	if n > 1 && len(f.Line(n)) == 0 {
		n--
	}
	return diag.Pos{Line: n, Col: len([]rune(f.Line(n))) + 1}
}

// ---- RL603 update-protocol ---------------------------------------------------

// protocolTrigger is one lifecycle event of seed 000 §Update Triggers read
// from the difference between base and head.
type protocolTrigger struct {
	Code, Name string // "T3", "quality-gate iteration"
	What       string // what happened, with its path
	At         *yaml.Node
	Agent      string // T4: the agent that completed
	// T5 from a checkpoint file no compaction event names.
	Checkpoint *addedCheckpoint
	// T3: the new iterations all record primary_defect: null.
	NoDefect bool
}

func (t protocolTrigger) String() string {
	if t.At == nil {
		return fmt.Sprintf("%s: %s", t.Code, t.What)
	}
	return fmt.Sprintf("%s: %s (line %d)", t.Code, t.What, t.At.Line)
}

// resumptionSubsections are the seven v2.0 sub-sections in seed order
// (#ResumptionV2's).
var resumptionSubsections = model.FieldNames(model.ResumptionV2Fields)

func runUpdateProtocol(p *Pass) {
	bv := baseOf(p)
	if bv == nil || bv.Unchanged && len(p.BaseRev.addedCheckpoints(p.Opts, p.Files)) == 0 {
		return // unchanged: only a new checkpoint file can be a trigger
	}
	head, base := p.Doc.Root, bv.Doc.Root
	if finishedAtBase(p, base) {
		return
	}
	hres, bres := ResumptionOf(p), model.ResumptionOf(base)
	if hres == nil || bres == nil || hres.Recovery == nil || bres.Recovery == nil {
		return // not v2.0 on both sides (a migration, or RL100/RL101 territory)
	}
	triggers := protocolTriggers(p, base, head)
	var gaps []protocolGap
	if g, ok := updatedAtGap(p, bres, hres, triggers); ok {
		gaps = append(gaps, g)
	}
	gaps = append(gaps, triggerGaps(p, bres, hres, triggers)...)
	reportProtocolGaps(p, triggers, gaps)
}

// protocolGap is one update a change owed the resumption section and did
// not make.
type protocolGap struct {
	At       *yaml.Node
	Severity diag.Severity // SevOff: the rule's
	Message  string        // the whole message when it is the only gap
	Short    string        // what is missing, for a grouped finding
	Related  []diag.Related
}

// reportProtocolGaps reports a change's gaps as one finding: one change
// that left the section behind is one cause, however many triggers fired.
func reportProtocolGaps(p *Pass, triggers []protocolTrigger, gaps []protocolGap) {
	if len(gaps) == 0 {
		return
	}
	f := p.Doc.File
	if len(gaps) == 1 {
		g := gaps[0]
		opts := []Option{WithRelated(g.Related...)}
		if g.Severity != diag.SevOff {
			opts = append(opts, WithSeverity(g.Severity))
		}
		p.Report(f, g.At, g.Message, opts...)
		return
	}
	var shorts, unchanged []string
	sev := diag.SevWarning
	for _, g := range gaps {
		if name, ok := strings.CutSuffix(g.Short, " unchanged"); ok {
			unchanged = append(unchanged, name)
		} else {
			shorts = append(shorts, g.Short)
		}
		if g.Severity == diag.SevOff || g.Severity == diag.SevError {
			sev = diag.SevError
		}
	}
	if len(unchanged) > 0 {
		shorts = append([]string{joinAnd(unchanged) + " unchanged"}, shorts...)
	}
	msg := diag.Fit(len(shorts), func(n int) string {
		return fmt.Sprintf("%s, but resumption was not updated (%s): update it",
			triggerCount(triggers, p.BaseRev.Repo.Ref), joinShort(shorts, ", ", n))
	})
	var rel []diag.Related
	for _, t := range triggers {
		if t.At != nil && len(rel) < maxRelated {
			rel = append(rel, relatedNode(f, t.At, t.Code+" "+t.Name))
		}
	}
	p.Report(f, gaps[0].At, msg, WithSeverity(sev), WithRelated(rel...))
}

// triggerCount names the trigger, or how many of each kind fired: "24
// triggers since HEAD^ (10 T2, 14 T4)".
func triggerCount(ts []protocolTrigger, ref string) string {
	switch len(ts) {
	case 0:
		return "the section changed since " + ref
	case 1:
		if ts[0].At == nil {
			return ts[0].String()
		}
		return fmt.Sprintf("%s %s (line %d)", ts[0].Code, ts[0].Name, ts[0].At.Line)
	}
	var codes []string
	per := map[string]int{}
	for _, t := range ts {
		if per[t.Code] == 0 {
			codes = append(codes, t.Code)
		}
		per[t.Code]++
	}
	sort.Strings(codes)
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%d %s", per[c], c)
	}
	return fmt.Sprintf("%d triggers since %s (%s)", len(ts), ref, strings.Join(parts, ", "))
}

// updatedAtGap is a recovery_state.updated_at left as it was although a
// trigger fired or a sub-section changed.
func updatedAtGap(p *Pass, br, hr *model.Resumption, triggers []protocolTrigger) (protocolGap, bool) {
	f, ref := p.Doc.File, p.BaseRev.Repo.Ref
	rewritten, hu, was := updatedAtRewritten(br.Recovery.UpdatedAt, hr.Recovery.UpdatedAt)

	// Every trigger overwrites recovery_state; so does any change of a
	// sub-section.
	var changed []string
	for _, name := range resumptionSubsections {
		if !sameNode(subsectionOf(br, name, true), subsectionOf(hr, name, true)) {
			changed = append(changed, name)
		}
	}
	if hu == nil || rewritten || len(triggers) == 0 && len(changed) == 0 {
		return protocolGap{}, false
	}
	g := protocolGap{At: hu, Short: "updated_at unchanged"}
	if len(triggers) > 0 {
		more := ""
		if len(triggers) > 1 {
			var rest []string
			for _, t := range triggers[1:] {
				rest = append(rest, fmt.Sprintf("%s line %d", t.Code, lineOfNode(t.At)))
			}
			more = "; also " + strings.Join(rest, ", ")
		}
		g.Message = fmt.Sprintf("%s, but recovery_state.updated_at %s%s: update it", triggers[0], was, more)
		for _, t := range triggers {
			if t.At != nil {
				g.Related = append(g.Related, diag.Related{Path: f.Path, Line: t.At.Line, Column: t.At.Column, Message: t.Code + " " + t.Name})
			}
		}
		return g, true
	}
	g.Message = diag.Fit(len(changed), func(n int) string {
		shown := changed
		if len(changed) > n {
			shown = append(append([]string(nil), changed[:n]...), fmt.Sprintf("%d more", len(changed)-n))
		}
		return fmt.Sprintf("%s changed since %s, but recovery_state.updated_at %s: update it with each change", joinAnd(shown), ref, was)
	})
	return g, true
}

// triggerGaps lists what each trigger adds to the overwrite of
// recovery_state and is missing: a summary, a compaction event, a changed
// sub-section.
func triggerGaps(p *Pass, br, hr *model.Resumption, triggers []protocolTrigger) []protocolGap {
	f := p.Doc.File
	subAt := func(name string) *yaml.Node {
		if k := subsectionKey(hr, name); k != nil {
			return k
		}
		return hr.Key
	}
	unchanged := func(name string) bool {
		return sameNode(subsectionOf(br, name, false), subsectionOf(hr, name, false))
	}
	var gaps []protocolGap
	var t2, t3, t3Defects, t4 []protocolTrigger
	summaries := hr.V2.AgentSummaries.Node
	for _, t := range triggers {
		switch t.Code {
		case "T2":
			t2 = append(t2, t)
		case "T3":
			t3 = append(t3, t)
			if !t.NoDefect {
				t3Defects = append(t3Defects, t)
			}
		case "T4":
			// Keyed by the agent's own name: no definition names those keys.
			if node.IsMap(summaries) && node.Has(summaries, t.Agent) || !node.IsMap(summaries) && summaries != nil {
				continue // a summary exists (a non-map is RL102's to report)
			}
			t4 = append(t4, t)
		case "T5":
			if t.Checkpoint == nil {
				continue // the trigger is the new compaction event itself
			}
			gaps = append(gaps, protocolGap{At: subAt("compaction_events"),
				// The event id as the checkpoint writes it: text from a file is
				// quoted as written, so masking finds what it located.
				Message: fmt.Sprintf("%s, but compaction_events has no event for %s: add one", t, t.Checkpoint.EventID),
				Short:   "no compaction event for " + t.Checkpoint.EventID,
				Related: []diag.Related{{Path: t.Checkpoint.Display, Line: 1, Column: 1, Message: "the checkpoint file"}}})
		}
	}
	if len(t4) > 0 {
		g := protocolGap{At: subAt("agent_summaries"), Short: fmt.Sprintf("no summary for %d agents", len(t4))}
		if len(t4) == 1 {
			g.Short = "no summary for " + t4[0].Agent
		}
		g.Message = fmt.Sprintf("%s, but agent_summaries has no entry for it: add a one-line summary", t4[0])
		if len(t4) > 1 {
			g.Message = fmt.Sprintf("%s and %d more agents completed, but agent_summaries has no entry for them: add a one-line summary for each", t4[0], len(t4)-1)
		}
		for _, t := range t4 {
			g.Related = append(g.Related, relatedNode(f, t.At, "the agent's status"))
		}
		gaps = append(gaps, g)
	}
	requireChange := func(ts []protocolTrigger, name string, sev diag.Severity, should string) {
		if len(ts) == 0 || !unchanged(name) {
			return
		}
		more := ""
		if len(ts) > 1 {
			more = fmt.Sprintf(" (and %d more %s triggers)", len(ts)-1, ts[0].Code)
		}
		g := protocolGap{At: subAt(name), Severity: sev, Short: name + " unchanged",
			Message: fmt.Sprintf("%s%s, but resumption.%s did not change: %s", ts[0], more, name, should)}
		for _, t := range ts {
			g.Related = append(g.Related, relatedNode(f, t.At, t.Code+" "+t.Name))
		}
		gaps = append(gaps, g)
	}
	requireChange(t3, "quality_trajectory", diag.SevOff, "record the iteration")
	requireChange(t3Defects, "defect_summary", diag.SevOff, "record the iteration's defects")
	requireChange(t2, "files_to_read", diag.SevWarning, "point it at what the next phase needs")
	return gaps
}

// subsectionKey returns the key of a resumption sub-section (decision_log
// also under its alias), nil when it is absent.
func subsectionKey(r *model.Resumption, name string) *yaml.Node {
	k, _ := subsection(r, name)
	return k
}

// subsection returns a resumption sub-section's key and value as written,
// whatever its type (decision_log also under its alias). Read by name:
// the comparisons run over all seven names, and a sub-section of the wrong
// type, which has no view, is a change too.
func subsection(r *model.Resumption, name string) (k, v *yaml.Node) {
	k, v = node.Get(r.Node, name)
	if k == nil && name == "decision_log" {
		k, v = r.Aliases.Decisions.Key, r.Aliases.Decisions.Node
	}
	return k, v
}

// subsectionOf returns a resumption sub-section (decision_log also under
// its alias); with noStamp, recovery_state without updated_at, which has
// its own check.
func subsectionOf(r *model.Resumption, name string, noStamp bool) *yaml.Node {
	_, v := subsection(r, name)
	if noStamp && name == "recovery_state" && node.IsMap(v) {
		c := &yaml.Node{Kind: yaml.MappingNode}
		node.Pairs(v, func(k, x *yaml.Node) {
			if k.Value != "updated_at" {
				c.Content = append(c.Content, k, x)
			}
		})
		return c
	}
	return v
}

// updatedAtRewritten compares recovery_state.updated_at across revisions.
// It returns whether it increased, the head node (nil: nothing to judge),
// and how it stayed for the message.
func updatedAtRewritten(b, h model.Str) (bool, *yaml.Node, string) {
	hu, hs := h.Node, h.Value
	if !h.OK {
		return false, nil, ""
	}
	bs := b.Value
	if !b.OK {
		return true, hu, "" // set for the first time
	}
	tb, _, okb := ParseTimestamp(bs)
	th, _, okh := ParseTimestamp(hs)
	switch {
	case okb && okh && th.After(tb):
		return true, hu, ""
	case okb && okh && th.Before(tb):
		return false, hu, fmt.Sprintf("went back from %s to %s", bs, hs)
	case !okb || !okh:
		if bs != hs {
			return true, hu, ""
		}
	}
	return false, hu, "did not increase (still " + hs + ")"
}

// protocolTriggers reads T1–T6 from what changed between base and head.
// compactionList is compaction_events.events, whatever its type (nil when
// absent or the section is no mapping).
func compactionList(r *model.Resumption) *yaml.Node {
	if r == nil || r.Compaction == nil {
		return nil
	}
	return r.Compaction.Events.Node
}

// decisionList is decision_log (or decisions) when it is a list.
func decisionList(r *model.Resumption) *yaml.Node {
	if r == nil || r.Decisions == nil {
		return nil
	}
	return r.Decisions.Node
}

func protocolTriggers(p *Pass, base, head *yaml.Node) []protocolTrigger {
	var out []protocolTrigger
	bdoc, hdoc := orchestrationDoc(base), orchestrationDoc(head)
	// T1, T2: phase status transitions.
	bph := phaseStates(bdoc)
	for _, h := range phaseStates(hdoc).list {
		b := bph.byKey[h.Key]
		switch {
		case statusIn(h.Status, inProgressWords) && (b == nil || !statusIn(b.Status, inProgressWords)):
			out = append(out, protocolTrigger{Code: "T1", Name: "phase start", What: h.Label + " became " + h.Status, At: h.At})
		case statusIn(h.Status, completeWords) && (b == nil || !statusIn(b.Status, completeWords)):
			out = append(out, protocolTrigger{Code: "T2", Name: "phase complete", What: h.Label + " became " + h.Status, At: h.At})
		}
	}
	// T3: quality-gate iterations appended.
	bg := gateIterations(bdoc)
	for _, h := range gateIterations(hdoc).list {
		var n int
		if b := bg.byKey[h.Key]; b != nil {
			n = len(b.Iters)
		}
		if len(h.Iters) <= n {
			continue
		}
		added := h.Iters[n:]
		nums := make([]string, len(added))
		noDefect := true
		for i, it := range h.IterViews[n:] {
			nums[i] = fmt.Sprint(n + i + 1)
			if it != nil && it.Iteration.OK {
				nums[i] = fmt.Sprint(it.Iteration.Value)
			}
			noDefect = noDefect && it != nil && it.PrimaryDefect.Key != nil && node.IsNull(it.PrimaryDefect.Node)
		}
		what := fmt.Sprintf("%s gained iteration %s", h.Label, nums[0])
		if len(nums) > 1 {
			what = fmt.Sprintf("%s gained iterations %s", h.Label, strings.Join(nums, ", "))
		}
		out = append(out, protocolTrigger{Code: "T3", Name: "quality-gate iteration", What: what, At: added[0], NoDefect: noDefect})
	}
	// T4: agents completed.
	bag := agentStates(bdoc)
	for _, h := range agentStates(hdoc).list {
		if !statusIn(h.Status, completeWords) {
			continue
		}
		if b := bag.byKey[h.Key]; b != nil && statusIn(b.Status, completeWords) {
			continue
		}
		out = append(out, protocolTrigger{Code: "T4", Name: "agent completion", What: h.Label + " became " + h.Status, At: h.At, Agent: h.Key})
	}
	// T5: compaction events appended, or checkpoint files of this workflow
	// added that no event names.
	bres, hres := model.ResumptionOf(base), ResumptionOf(p)
	hev := compactionList(hres)
	if added := appendedEntries(compactionList(bres), hev); len(added) > 0 {
		for _, e := range added {
			out = append(out, protocolTrigger{Code: "T5", Name: "compaction event", What: "resumption.compaction_events.events gained " + entryLabel(e, 0), At: e})
		}
	}
	if wf := OrchestrationOf(p).Workflow.ID.Value; wf != "" {
		for _, cp := range p.BaseRev.addedCheckpoints(p.Opts, p.Files) {
			if cp.WorkflowID != wf || compactionNames(hev, cp) {
				continue
			}
			c := cp
			out = append(out, protocolTrigger{Code: "T5", Name: "compaction event", What: "checkpoint " + path.Base(cp.Rel) + " was added", Checkpoint: &c})
		}
	}
	// T6: decisions appended.
	for _, e := range appendedEntries(decisionList(bres), decisionList(hres)) {
		out = append(out, protocolTrigger{Code: "T6", Name: "cross-phase decision", What: "resumption.decision_log gained " + entryLabel(e, 0), At: e})
	}
	return out
}

// appendedEntries are the head entries of a list with no partner at base.
func appendedEntries(base, head *yaml.Node) []*yaml.Node {
	if !node.IsSeq(head) {
		return nil
	}
	var bc []*yaml.Node
	if node.IsSeq(base) {
		bc = node.Resolve(base).Content
	}
	hc := node.Resolve(head).Content
	_, _, added := matchEntries(bc, hc)
	out := make([]*yaml.Node, len(added))
	for i, j := range added {
		out[i] = hc[j]
	}
	return out
}

// compactionNames reports whether a compaction event names a checkpoint
// file, by id (CX-002 for cx-002) or by its checkpoint_file.
func compactionNames(events *yaml.Node, cp addedCheckpoint) bool {
	if !node.IsSeq(events) {
		return false
	}
	for _, e := range node.Resolve(events).Content {
		if cp.EventID != "" && strings.EqualFold(entryID(e), cp.EventID) {
			return true
		}
		if ev := model.CompactionEventOf(nil, e); ev != nil && ev.CheckpointFile.OK && path.Base(filepath.ToSlash(ev.CheckpointFile.Value)) == path.Base(cp.Rel) {
			return true
		}
	}
	return false
}

var (
	inProgressWords = []string{"IN_PROGRESS", "ACTIVE", "RUNNING", "STARTED"}
	completeWords   = []string{"COMPLETE", "COMPLETED", "DONE"}
)

func statusIn(s string, words []string) bool {
	s = node.StatusWord(s)
	for _, w := range words {
		if s == w {
			return true
		}
	}
	return false
}

// stateEntry is a phase, agent or gate with a stable identity across
// revisions.
type stateEntry struct {
	Key, Label, Status string
	At                 *yaml.Node // the status node (or the entry)
	Iters              []*yaml.Node
	IterViews          []*model.GateIteration // Iters read as #GateIteration
}

type stateSet struct {
	list  []*stateEntry
	byKey map[string]*stateEntry
}

func (s *stateSet) add(e *stateEntry) {
	if s.byKey == nil {
		s.byKey = map[string]*stateEntry{}
	}
	if _, dup := s.byKey[e.Key]; dup {
		return
	}
	s.byKey[e.Key] = e
	s.list = append(s.list, e)
}

// orchestrationDoc reads root as #OrchestrationDoc, empty when it is not a
// mapping.
func orchestrationDoc(root *yaml.Node) *model.OrchestrationDoc {
	if d := model.OrchestrationDocOf(nil, root); d != nil {
		return d
	}
	return &model.OrchestrationDoc{}
}

// eachItem calls fn for the items of a mapping (keyed) or a list (by the
// id idOf gives, else by position), with a label for messages; item is nil
// where an entry is not a mapping.
func eachItem[T comparable](prefix string, c model.Coll[T], idOf func(T) *yaml.Node, fn func(id, label string, v *yaml.Node, item T)) {
	var zero T
	for i, item := range c.Items {
		if c.Keys != nil {
			fn(c.Keys[i].Value, prefix+"."+c.Keys[i].Value, c.Vals[i], item)
			continue
		}
		id := ""
		if item != zero {
			id = scalarID(idOf(item))
		}
		if id == "" {
			id = fmt.Sprintf("#%d", i)
		}
		fn(id, fmt.Sprintf("%s[%d]", prefix, i), c.Vals[i], item)
	}
}

// phaseStates reads pipelines.<key>.phases (a map or a list) in the shapes
// real files use.
func phaseStates(doc *model.OrchestrationDoc) *stateSet {
	s := &stateSet{}
	eachItem("pipelines", doc.Pipelines, pipelineID, func(pid, plabel string, _ *yaml.Node, pv *model.PipelineEntry) {
		if pv == nil {
			return
		}
		eachItem(plabel+".phases", pv.Phases, phaseIDNode, func(id, label string, v *yaml.Node, ph *model.PhaseEntry) {
			var st *yaml.Node
			status := ""
			if ph != nil {
				st, status = ph.Status.Node, ph.Status.Value
				if ph.Name.OK && ph.Name.Value != "" {
					label += " " + diag.QuoteFull(ph.Name.Value)
				}
			}
			if st == nil {
				st = v
			}
			s.add(&stateEntry{Key: pid + "\x00" + id, Label: label, Status: status, At: st})
		})
	})
	return s
}

func pipelineID(v *model.PipelineEntry) *yaml.Node { return v.ID.Node }
func phaseIDNode(v *model.PhaseEntry) *yaml.Node   { return v.ID.Node }
func agentID(v *model.AgentEntry) *yaml.Node       { return v.ID.Node }
func gateID(v *model.QualityGate) *yaml.Node       { return v.ID.Node }

// agentStates reads agents per phase (a map keyed by id, a list with ids,
// or one `agent:` that shares its phase's status) and a top-level
// `agents:` list or map. An agent counts as complete where any of its
// entries says so.
func agentStates(doc *model.OrchestrationDoc) *stateSet {
	s := &stateSet{byKey: map[string]*stateEntry{}}
	put := func(id, label string, st model.Str, fallback *yaml.Node) {
		if id == "" || strings.HasPrefix(id, "#") {
			return
		}
		at := st.Node
		if at == nil {
			at = fallback
		}
		e := &stateEntry{Key: id, Label: "agent " + id + " (" + label + ")", Status: st.Value, At: at}
		if old := s.byKey[id]; old != nil {
			if !statusIn(old.Status, completeWords) && statusIn(st.Value, completeWords) {
				*old = *e
			}
			return
		}
		s.add(e)
	}
	eachAgent := func(prefix string, agents model.Coll[*model.AgentEntry]) {
		eachItem(prefix, agents, agentID, func(id, label string, v *yaml.Node, a *model.AgentEntry) {
			var st model.Str
			if a != nil {
				st = a.Status
			}
			put(id, label, st, v)
		})
	}
	eachItem("pipelines", doc.Pipelines, pipelineID, func(_, plabel string, _ *yaml.Node, pv *model.PipelineEntry) {
		if pv == nil {
			return
		}
		eachItem(plabel+".phases", pv.Phases, phaseIDNode, func(_, label string, v *yaml.Node, ph *model.PhaseEntry) {
			if ph == nil {
				return
			}
			eachAgent(label+".agents", ph.Agents)
			if ph.Agent.OK {
				put(ph.Agent.Value, label+".agent", ph.Status, v)
			}
		})
	})
	eachAgent("agents", doc.Agents)
	return s
}

// gateIterations reads quality_gates (a map of id to gate, or a list of
// gates with ids) and each gate's iteration list.
func gateIterations(doc *model.OrchestrationDoc) *stateSet {
	s := &stateSet{}
	eachItem("quality_gates", doc.QualityGates, gateID, func(id, label string, _ *yaml.Node, g *model.QualityGate) {
		if g == nil {
			return
		}
		if g.ID.OK && g.ID.Value != "" {
			id = g.ID.Value
		}
		if k, it := g.IterationList(); it != nil {
			key := strings.ToLower(strings.ReplaceAll(id, "_", "-"))
			label += "." + k
			if strings.HasSuffix(label, "]."+k) {
				label += " of gate " + id
			}
			s.add(&stateEntry{Key: key, Label: label, Iters: it.Node.Content, IterViews: it.Items})
		}
	})
	return s
}

// addedCheckpoint is a checkpoint file new since base, with the workflow
// it belongs to (orchestration_state.workflow_id of the seed-001 form).
type addedCheckpoint struct {
	Rel, Display string
	EventID      string
	WorkflowID   string
}

// addedCheckpoints reads, once per run, the checkpoint files added since
// base that name their workflow.
func (b *Base) addedCheckpoints(opts *Options, files *load.Files) []addedCheckpoint {
	b.once.Do(func() {
		cls := load.NewClassifier()
		for _, c := range b.Repo.Changes() {
			if c.Status != gitbase.Added && c.Status != gitbase.Untracked && c.Status != gitbase.Copied {
				continue
			}
			if cls.FileKind(c.Path) != load.KindCheckpoint {
				continue
			}
			osPath := b.Repo.OSPath(c.Path)
			data, ok := readHead(files, opts, b.Repo.Root, osPath)
			if !ok {
				continue
			}
			root, _, err := load.ParseJSON(data, 1, opts.Limits.MaxDepth)
			if err != nil {
				continue
			}
			doc := model.CheckpointDocOf(root)
			if doc == nil {
				continue
			}
			wf := ""
			if st := doc.Seed.OrchestrationState; st != nil {
				wf = st.WorkflowID.Value
			}
			if wf == "" {
				if rs := model.RuntimeResumptionStateOf(nil, doc.Runtime.ResumptionState.Node); rs != nil {
					wf = rs.WorkflowID.Value
				}
			}
			if wf == "" {
				continue // the runtime form names no workflow: it cannot be attributed
			}
			id := doc.Seed.EventID.Value
			if id == "" {
				id = doc.Runtime.CheckpointID.Value
			}
			b.checkpoints = append(b.checkpoints, addedCheckpoint{Rel: c.Path, Display: displayOf(opts, osPath), EventID: id, WorkflowID: wf})
		}
	})
	return b.checkpoints
}

func lineOfNode(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	return n.Line
}

func relatedNode(f *load.File, n *yaml.Node, msg string) diag.Related {
	if n == nil {
		return diag.Related{Path: f.Path, Line: 1, Column: 1, Message: msg}
	}
	return diag.Related{Path: f.Path, Line: n.Line, Column: n.Column, Message: msg}
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// ---- RL604 resume-context-update ------------------------------------------------

// checkedItem is a Markdown task list item that is ticked.
var checkedItem = lazyre.New(`^\s*[-*+]\s+\[[xX]\]\s`)

// resumeContextNames are where a project keeps its resume context, in the
// order seed 004 prefers them.
var resumeContextNames = []string{"01-planning/resume-context.md", "resume-context.md", "01-planning/_resume.md", "_resume.md"}

func finalizeResumeContextUpdate(p *RepoPass) {
	b := p.BaseRev
	if b == nil {
		return
	}
	for _, t := range b.unrecordedTicks(p.Opts, p.Files) {
		reportUnrecordedTicks(p, b, t)
	}
}

// tickedSteps is a steps file that gained checked items since base while
// the resume context of its project did not change (RL604).
type tickedSteps struct {
	steps, rc string // repository paths
	gained    int    // items checked since base
	first     string // the first of them, and its line
	firstLine int
}

// unrecordedTicks finds, once per run, the steps files that gained
// checked items since base while their project's resume context did not
// change and lies within the paths linted (RL604; RL319 leaves those
// files' counters to it: one cause, one finding).
func (b *Base) unrecordedTicks(opts *Options, files *load.Files) []tickedSteps {
	b.ticksOnce.Do(func() {
		for _, c := range b.Repo.Changes() {
			if t, ok := b.ticked(opts, files, c); ok {
				b.ticks = append(b.ticks, t)
			}
		}
	})
	return b.ticks
}

// ticked is unrecordedTicks for one change.
func (b *Base) ticked(opts *Options, files *load.Files, c gitbase.Change) (tickedSteps, bool) {
	if c.Status == gitbase.Deleted || !isStepsName(path.Base(c.Path)) || path.Base(path.Dir(c.Path)) != "01-planning" {
		return tickedSteps{}, false
	}
	project := path.Dir(path.Dir(c.Path))
	var rc string
	for _, name := range resumeContextNames {
		rel := path.Join(project, name)
		if files.IsRegular(b.Repo.Root, b.Repo.OSPath(rel)) {
			rc = rel
			break
		}
	}
	if rc == "" {
		return tickedSteps{}, false // no resume context to keep in step
	}
	if rcc := b.Repo.ChangeOf(rc); rcc != nil && rcc.Status != gitbase.Deleted {
		return tickedSteps{}, false
	}
	if !b.inScope(b.Repo.OSPath(rc)) {
		return tickedSteps{}, false
	}
	head, ok := readHead(files, opts, b.Repo.Root, b.Repo.OSPath(c.Path))
	if !ok {
		return tickedSteps{}, false
	}
	bf, err := baseFile(b, b.Repo.OSPath(c.Path))
	if err != nil {
		return tickedSteps{}, false
	}
	gained, first, firstLine := newlyChecked(bf.Data, head)
	if gained == 0 {
		return tickedSteps{}, false
	}
	return tickedSteps{steps: c.Path, rc: rc, gained: gained, first: first, firstLine: firstLine}, true
}

// unrecordedIn reports whether RL604 reports the resume context at
// osPath in this run.
func (p *Pass) unrecordedIn(osPath string) bool {
	b := p.BaseRev
	if b == nil || !p.Runs(code.ResumeContextUpdate) {
		return false
	}
	for _, t := range b.unrecordedTicks(p.Opts, p.Files) {
		if b.Repo.OSPath(t.rc) == osPath {
			return true
		}
	}
	return false
}

// reportUnrecordedTicks reports t at the resume context's last_updated,
// unless the resume file is a memo that records no progress.
func reportUnrecordedTicks(p *RepoPass, b *Base, t tickedSteps) {
	rcOS := b.Repo.OSPath(t.rc)
	at := diag.Pos{Line: 1, Col: 1}
	var end diag.Pos
	rcFile := &load.File{Path: displayOf(p.Opts, rcOS), OSPath: rcOS, Kind: load.KindResumeContext, Root: b.Repo.Root}
	defer rcFile.Release()
	if readInto(p.Files, rcFile, p.Opts.Limits) {
		doc, _ := load.Parse(rcFile, load.FormatMarkdown, p.Opts.Limits)
		if path.Base(t.rc) == "_resume.md" {
			if r := model.ResumeOf(doc.Root, true); r == nil || r.Memo {
				// A _resume.md memo (updated, phase, last_skill, as
				// nexus's PreCompact hook writes it at a compaction) or
				// notes without front matter record no progress: ticked
				// steps leave it as its writer leaves it.
				return
			}
		}
		if doc.Root != nil {
			if v := resumeFieldsOf(doc.Root).Context.LastUpdated.Node; v != nil {
				at, end = node.Pos(v), load.EndOf(rcFile, v)
			}
		}
	}
	stepsOS := b.Repo.OSPath(t.steps)
	stepsShown := displayOf(p.Opts, stepsOS)
	items := "a checked item"
	if t.gained > 1 {
		items = fmt.Sprintf("%d checked items", t.gained)
	}
	stepsRel := stepsShown
	if rel, err := filepath.Rel(filepath.Dir(rcOS), stepsOS); err == nil {
		stepsRel = filepath.ToSlash(rel)
	}
	msg := diag.FitClip(func(w int) string {
		return fmt.Sprintf("%s gained %s since %s (line %d: %s); this file did not change: update progress, current_task and last_updated",
			diag.ClipPath(stepsRel, w), items, b.Repo.Ref, t.firstLine, diag.QuoteTo(checkedText(t.first), w))
	})
	p.ReportAt(rcFile.Path, at, end, msg, WithSnippet(textOf(rcFile, at.Line)),
		WithRelated(diag.Related{Path: stepsShown, Line: t.firstLine, Column: 1, Message: "newly checked item"}))
}

// isStepsName reports a project's steps file: seed 004's steps.md, or
// nexus's numbered 04-steps.md (any NN-steps.md, as RL319 reads them).
func isStepsName(name string) bool {
	return name == "steps.md" || numberedSteps.MatchString(name)
}

// newlyChecked counts the checked items of head that base does not have
// checked (as a multiset of lines) and returns the first of them.
func newlyChecked(base, head []byte) (n int, first string, firstLine int) {
	had := map[string]int{}
	for _, l := range strings.Split(string(base), "\n") {
		if checkedItem.MatchString(l) {
			had[strings.TrimSpace(l)]++
		}
	}
	for i, l := range strings.Split(string(head), "\n") {
		if !checkedItem.MatchString(l) {
			continue
		}
		t := strings.TrimSpace(l)
		if had[t] > 0 {
			had[t]--
			continue
		}
		if n == 0 {
			first, firstLine = t, i+1
		}
		n++
	}
	return n, first, firstLine
}

// checkedText is a checked item's text without its "- [x] " marker.
func checkedText(line string) string {
	t := strings.TrimSpace(line)
	for _, m := range []string{"- [x] ", "- [X] ", "* [x] ", "* [X] "} {
		if strings.HasPrefix(t, m) {
			return strings.TrimSpace(t[len(m):])
		}
	}
	return t
}
