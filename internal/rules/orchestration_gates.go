package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// ---- RL121 checkpoint-order ----------------------------------------------------

// cpEntry is one checkpoints.entries item with a time.
type cpEntry struct {
	ID   string
	IDAt *yaml.Node
	Text string
	T    time.Time
	Day  bool
	At   *yaml.Node
}

func checkpointEntries(entries model.List[*model.CheckpointEntry]) (ids []string, idAt []*yaml.Node, timed []cpEntry) {
	for _, e := range entries.Items {
		if e == nil || !e.ID.OK {
			continue
		}
		id, idv := e.ID.Value, e.ID.Node
		ids, idAt = append(ids, id), append(idAt, idv)
		tv := e.Timestamp.Node
		if t, s, day, ok := timeOf(tv); ok {
			timed = append(timed, cpEntry{ID: id, IDAt: idv, Text: s, T: t, Day: day, At: tv})
		}
	}
	return ids, idAt, timed
}

// later reports a strictly later than b; a date stands for its whole day.
func (a cpEntry) later(b cpEntry) bool {
	if a.Day || b.Day {
		return a.T.Truncate(24 * time.Hour).After(b.T.Truncate(24 * time.Hour))
	}
	return a.T.After(b.T)
}

// cpNumber is the number that ends a checkpoint id (CP-004, cp-4).
var cpNumber = lazyre.New(`(\d+)$`)

// numberedUp reports entries whose ids all end in a number, each higher
// than the one before.
func numberedUp(es []cpEntry) bool {
	prev := -1
	for _, e := range es {
		m := cpNumber.FindStringSubmatch(strings.TrimSpace(e.ID))
		if m == nil {
			return false
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n <= prev {
			return false
		}
		prev = n
	}
	return true
}

// zoneOf is how a timestamp writes its zone: "Z", an offset, or "".
var zoneSuffix = lazyre.New(`(?i)(z|[+-]\d\d:?\d\d)$`)

func zoneOf(s string) string {
	if len(strings.TrimSpace(s)) <= 10 {
		return "date"
	}
	return strings.ToUpper(zoneSuffix.Regexp().FindString(strings.TrimSpace(s)))
}

func runCheckpointOrder(p *Pass) {
	d := p.Doc
	if d == nil || !node.IsMap(d.Root) || d.File.Template || WorkflowFinished(p) {
		return
	}
	f := d.File
	cp := OrchestrationOf(p).Checkpoints
	ids, idAt, timed := checkpointEntries(cp.Entries)
	reversed := len(timed) >= 2
	for i := 1; i < len(timed); i++ {
		if timed[i].later(timed[i-1]) {
			reversed = false
		}
	}
	// Numbered up (CP-001, CP-002), the log is in writing order whatever
	// its times say: times that go back are this rule's finding, not a
	// log written newest first.
	reversed = reversed && timed[0].later(timed[len(timed)-1]) && !numberedUp(timed)
	newest := -1
	if len(timed) >= 2 && !reversed {
		last := timed[len(timed)-1]
		for i, e := range timed[:len(timed)-1] {
			if e.later(last) && (newest < 0 || e.later(timed[newest])) {
				newest = i
			}
		}
		if newest >= 0 {
			e := timed[newest]
			zones := ""
			if zoneOf(e.Text) != zoneOf(last.Text) {
				zones = " (the two are written in different zones)"
			}
			p.Report(f, e.At, fmt.Sprintf("checkpoint %s at %s is later than the last entry %s at %s%s: correct the times so the latest is the last",
				diag.Quote(e.ID), e.Text, diag.Quote(last.ID), last.Text, zones), WithRelated(relatedAt(f, last.At, "the last entry")))
		}
	}
	latest := cp.LatestID
	if !latest.OK || strings.TrimSpace(latest.Value) == "" || len(ids) == 0 || isPlaceholderIn(f, latest.Value) {
		return
	}
	want, wantAt := ids[len(ids)-1], idAt[len(idAt)-1]
	if reversed {
		want, wantAt = ids[0], idAt[0]
	}
	if latest.Value == want || newest >= 0 && latest.Value == timed[newest].ID {
		return
	}
	p.Report(f, latest.Node, fmt.Sprintf("checkpoints.latest_id is %s, but the last entry is %s: set latest_id to the last checkpoint recorded", diag.Quote(latest.Value), diag.Quote(want)), WithRelated(relatedAt(f, wantAt, "the last entry")))
}

// ---- RL122 gate-phase ------------------------------------------------------------

// closer is a barrier or quality gate between phases.
type closer struct {
	Kind     string // "barrier" or "gate"
	ID       string
	Status   string
	StatusAt *yaml.Node
	Closes   []int // the phases it closes (after_phase, phase, depends_on …phase.N)
	Opens    []int // the phases it opens (before_phase, unblocks …phase.N)
}

var phaseRef = lazyre.New(`(?i)phase[._ -]?(\d+)\b`)

func closerOf(kind, id string, g *model.QualityGate) closer {
	c := closer{Kind: kind, ID: id, StatusAt: g.Status.Node, Status: g.Status.Value}
	for _, n := range []model.Int{g.AfterPhase, g.Phase} {
		if n.OK {
			c.Closes = append(c.Closes, n.Value)
		}
	}
	refs := func(f model.Field) (out []int) {
		l := f.Node
		if s, ok := node.Str(l); ok {
			l = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}}}
		}
		if !node.IsSeq(l) {
			return nil
		}
		for _, x := range l.Content {
			if s, ok := node.Str(x); ok {
				if m := phaseRef.FindStringSubmatch(s); m != nil {
					out = append(out, model.TrailingInt(m[1]))
				}
			}
		}
		return out
	}
	if len(c.Closes) == 0 {
		c.Closes = refs(g.DependsOn)
	}
	if g.BeforePhase.OK {
		c.Opens = append(c.Opens, g.BeforePhase.Value)
	} else {
		c.Opens = refs(g.Unblocks)
	}
	return c
}

// closers are the file's barriers and quality gates.
func closers(o *model.Orchestration) []closer {
	var out []closer
	bs := o.Doc.Barriers
	for i, b := range bs.Items {
		switch {
		case b == nil:
		case bs.Keys != nil:
			out = append(out, closerOf("barrier", bs.Keys[i].Value, b))
		case b.ID.OK:
			out = append(out, closerOf("barrier", b.ID.Value, b))
		}
	}
	if gates, ok := o.Gates(); ok {
		// In the file's order, as the barriers: the first closer a rule
		// meets is the one it reports.
		for _, g := range model.GatesInOrder(gates) {
			out = append(out, closerOf("gate", g.ID, g.View))
		}
	}
	return out
}

func runGatePhase(p *Pass) {
	d := p.Doc
	if d == nil || !node.IsMap(d.Root) || d.File.Template {
		return
	}
	if WorkflowFinished(p) {
		if !FinishedContradicted(p) {
			openBehindFinished(p)
		}
		return
	}
	openBehindStarted(p)
	// A phase counter trails the same missed update as a stale phase
	// status (RL106), prose (RL118) or next action (RL120), reported
	// there: it starts no finding of its own, but is named in one another
	// counter of its block starts, which the maintainer fixes in one edit.
	if runningPhasesReported(p) || len(proseReportedPhases(p)) > 0 || len(staleActions(p)) > 0 {
		checkCounters(p, counters, 1)
		return
	}
	pipelineProgress(p)
	checkCounters(p, counters, 0)
}

// phaseIndex is what RL122 looks phases up by, read once per file.
type phaseIndex struct {
	blockedBy    map[string][]*model.Phase // by the lower-cased blocked_by
	completeNum  map[int]*model.Phase      // a complete phase of each number
	lastComplete *model.Phase              // the complete phase with the highest number
}

func phasesIndexed(p *Pass) *phaseIndex { return phaseIndexResult.Of(p) }

var phaseIndexResult = NewResult("phase-index", func(p *Pass) *phaseIndex {
	ix := &phaseIndex{blockedBy: map[string][]*model.Phase{}, completeNum: map[int]*model.Phase{}}
	for _, ph := range recordPhases(p) {
		if s := ph.View.BlockedBy; s.OK {
			k := strings.ToLower(s.Value)
			ix.blockedBy[k] = append(ix.blockedBy[k], ph)
		}
		if !ph.HasNum || !isComplete(ph.Status) {
			continue
		}
		if ix.completeNum[ph.Num] == nil {
			ix.completeNum[ph.Num] = ph
		}
		if ix.lastComplete == nil || ph.Num > ix.lastComplete.Num {
			ix.lastComplete = ph
		}
	}
	return ix
})

// openBehindStarted reports the barriers and gates still open although a
// phase they open (before_phase, unblocks, blocked_by, else any later
// phase) is complete: the work went past a gate the file says never
// closed. One finding names them all (one missed habit of the file).
func openBehindStarted(p *Pass) {
	f := p.Doc.File
	var at *yaml.Node
	var msg string
	var rel []diag.Related
	n := 0
	for _, c := range closers(OrchestrationOf(p)) {
		if c.StatusAt == nil || !isOpenStatus(c.Status) || isInProgress(c.Status) || len(c.Closes) == 0 && len(c.Opens) == 0 {
			continue
		}
		ph := completeAfter(p, c)
		if ph == nil {
			continue
		}
		sv := statusAt(ph)
		if n++; at == nil {
			at = c.StatusAt
			msg = fmt.Sprintf("%s %s is %s, but %s after it is %s (line %d): record the %s's result or correct the phase",
				c.Kind, diag.Quote(c.ID), c.Status, phaseName(p, ph), ph.Status, lineOf(sv), c.Kind)
			rel = append(rel, relatedAt(f, sv, ph.Label+".status"))
			continue
		}
		rel = append(rel, relatedAt(f, c.StatusAt, fmt.Sprintf("also %s: %s %s, %s %s", c.Status, c.Kind, c.ID, phaseName(p, ph), ph.Status)))
	}
	if n > 1 {
		msg = strings.TrimSuffix(msg, " or correct the phase") + fmt.Sprintf(" (%d gates in all)", n)
	}
	if at != nil {
		p.Report(f, at, msg, WithRelated(rel...), AboutLive())
	}
}

// completeAfter is a complete phase that c opens, or nil.
func completeAfter(p *Pass, c closer) *model.Phase {
	ix := phasesIndexed(p)
	for _, ph := range ix.blockedBy[strings.ToLower(c.ID)] {
		if isComplete(ph.Status) {
			return ph
		}
	}
	for _, n := range c.Opens {
		if ph := ix.completeNum[n]; ph != nil {
			return ph
		}
	}
	if last := ix.lastComplete; len(c.Opens) == 0 && len(c.Closes) > 0 && last != nil && last.Num > maxInt(c.Closes) {
		return last
	}
	return nil
}

// openBehindFinished reports, in a finished workflow, a completed phase
// whose barrier or gate is still open.
func openBehindFinished(p *Pass) {
	f := p.Doc.File
	for _, c := range closers(OrchestrationOf(p)) {
		if c.StatusAt == nil || !isOpenStatus(c.Status) {
			continue
		}
		for _, n := range c.Closes {
			ph := phaseDone(p, n)
			if ph == nil {
				continue
			}
			p.Report(f, c.StatusAt, fmt.Sprintf("the workflow is finished and %s is %s, but %s %s that closes it is %s: record its result or reopen the workflow",
				phaseName(p, ph), ph.Status, c.Kind, diag.Quote(c.ID), c.Status), WithRelated(relatedAt(f, statusAt(ph), ph.Label+".status")))
			break
		}
	}
}

func maxInt(xs []int) int {
	m := math.MinInt
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// counter is one count a file keeps of its own statuses.
type counter struct {
	keys, totals []string
	// count returns the items whose status says done, those whose status
	// is in a vocabulary of the writer's own (REVISION_COMPLETE,
	// APPROVED: done or not, its writer knows), and all of them.
	count func(p *Pass) (done, unsure, total int, ok bool)
}

// tally counts statuses: done by isDone, open by isOpenStatus, the rest
// unsure.
func tally(statuses []string, isDone func(string) bool) (done, unsure int) {
	for _, s := range statuses {
		switch {
		case isDone(s):
			done++
		case !isOpenStatus(s) && !isSettled(s):
			unsure++
		}
	}
	return done, unsure
}

var counters = []counter{
	{[]string{"phases_complete", "phases_completed"}, []string{"phases_total", "total_phases"}, countPhases},
	{[]string{"quality_gates_complete", "quality_gates_passed", "gates_passed"}, []string{"quality_gates_total", "gates_total"}, countGates},
	{[]string{"completed_enablers", "enablers_complete"}, []string{"total_enablers", "enablers_total"}, countEnablers},
}

func countPhases(p *Pass) (int, int, int, bool) {
	phs := recordPhases(p)
	var st []string
	for _, ph := range phs {
		if ph.Status == "" {
			return 0, 0, 0, false
		}
		st = append(st, ph.Status)
	}
	done, unsure := tally(st, isComplete)
	return done, unsure, len(phs), len(phs) > 0
}

func countGates(p *Pass) (int, int, int, bool) {
	gates, ok := OrchestrationOf(p).Gates()
	var st []string
	for _, g := range gates {
		if g.StatusAt == nil {
			return 0, 0, 0, false
		}
		st = append(st, g.Status)
	}
	done, unsure := tally(st, isPassed)
	return done, unsure, len(gates), ok && len(gates) > 0
}

func countEnablers(p *Pass) (int, int, int, bool) {
	es := OrchestrationOf(p).Doc.Enablers.Items
	var st []string
	for _, e := range es {
		if e == nil || !e.Status.OK {
			return 0, 0, 0, false
		}
		st = append(st, e.Status.Value)
	}
	done, unsure := tally(st, isWorkDone)
	return done, unsure, len(es), len(es) > 0
}

// metricBlock is a mapping jerry keeps its counters in.
type metricBlock struct {
	label string
	m     *yaml.Node
}

func metricBlocks(o *model.Orchestration) []metricBlock {
	var out []metricBlock
	if m := o.Doc.Metrics; m != nil {
		out = append(out, metricBlock{"metrics", m.Node})
		if e := m.Execution.Node; node.IsMap(e) {
			out = append(out, metricBlock{"metrics.execution", e})
		}
	}
	return out
}

// checkCounters reports the counters of cs, in each metrics block, that
// disagree with the statuses they count (only where the block's total
// equals the number of items counted: then both count the same things).
// The first quiet counters of cs are named only in a finding another
// counter of the block starts; the finding is at the first one named.
func checkCounters(p *Pass, cs []counter, quiet int) {
	f := p.Doc.File
	for _, b := range metricBlocks(OrchestrationOf(p)) {
		var items []string
		var first *yaml.Node
		loud := false
		for ci, c := range cs {
			v, k := firstIntKey(b.m, c.keys)
			tot, _ := firstIntKey(b.m, c.totals)
			if v == nil || tot == nil {
				continue
			}
			done, unsure, total, ok := c.count(p)
			got, _ := node.Int(v)
			want, _ := node.Int(tot)
			// A status of the writer's own words may count either way.
			if !ok || int(want) != total || int(got) >= done && int(got) <= done+unsure {
				continue
			}
			say := fmt.Sprintf("%d", done)
			if unsure > 0 {
				say = fmt.Sprintf("%d to %d", done, done+unsure)
			}
			items = append(items, fmt.Sprintf("%s %d (the statuses say %s of %d)", k, got, say, total))
			if first == nil {
				first = v
			}
			loud = loud || ci >= quiet
		}
		if !loud {
			continue
		}
		p.Report(f, first, diag.FitList(items, func(list string) string {
			return fmt.Sprintf("%s counts disagree with the statuses: %s; recount them", b.label, list)
		}), WithSeverity(diag.SevWarning), AboutLive())
	}
}

func firstIntKey(m *yaml.Node, keys []string) (*yaml.Node, string) {
	for _, k := range keys {
		// Counter names real files spell several ways: no definition holds them.
		if v := node.Val(m, k); v != nil {
			if _, ok := node.Int(v); ok {
				return v, k
			}
		}
	}
	return nil, ""
}

// pipelineProgress checks each pipeline's progress_percent at its ends: 0
// with phases complete, 100 with phases open.
func pipelineProgress(p *Pass) {
	f := p.Doc.File
	views := OrchestrationOf(p).Doc.Pipelines.ByKey()
	for _, pi := range pipelines(p) {
		pv := views[pi.Key]
		if pv == nil {
			continue
		}
		v, got := pv.ProgressPercent.Node, pv.ProgressPercent.Value
		if !pv.ProgressPercent.OK || len(pi.Phases) == 0 {
			continue
		}
		done := 0
		for _, ph := range pi.Phases {
			if ph.Status == "" {
				done = -1
				break
			}
			if isComplete(ph.Status) {
				done++
			}
		}
		if done < 0 {
			continue
		}
		// Pipelines weigh progress their own way (phases, agents,
		// enablers, effort): only the ends are read.
		if !(got == 0 && done > 0 || got >= 100 && done < len(pi.Phases)) {
			continue
		}
		p.Report(f, v, fmt.Sprintf("pipelines.%s.progress_percent is %g, but %d of its %d phases are complete: recompute it", pi.Key, got, done, len(pi.Phases)), WithSeverity(diag.SevWarning), AboutLive())
	}
}
