package fix

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// The v1.0 → v2.0 migration of an ORCHESTRATION.yaml resumption section
// (SPEC §5, seed 000 §V1.0 to V2.0 Field Mapping), for RL101 and RL115.
//
// The v1.0 fields move into recovery_state as whole lines (their bytes,
// comments and quoting kept, only indented one level deeper); current_state
// prose is kept verbatim as a comment above recovery_state; the structured
// fields are derived from the file's own data; missing sub-sections are
// appended with what the schema requires. Nothing outside `resumption:`
// changes.
//
// The migration is safe only when every required v2.0 field derives from
// the file's own data (SPEC §5). What does not is written null and listed
// in the fix's Reason ("fill by hand: ..."): the fix is then unsafe.

// The shapes come from the CUE definitions (model's generated tables):
// recovery_state is written in #RecoveryState's order, with its required
// fields; the sub-sections are #ResumptionV2's.
var (
	// v1Movable are the fields that leave the top of resumption for
	// recovery_state: the v1.0 ones (#ResumptionV1's that #ResumptionV2
	// does not have), and the recovery_state fields seed 001's draft keeps
	// flat at the top of the section.
	v1Movable = movableFields()
	// recoveryFields is recovery_state in the order of seed 000 §Update
	// Semantics (#RecoveryState).
	recoveryFields = model.FieldNames(model.RecoveryStateFields)
	// optionalRecovery are recovery_state fields the schema does not
	// require: written only when the section has them.
	optionalRecovery = optionalFields(model.RecoveryStateFields)
	// subsections are #ResumptionV2's sections besides recovery_state.
	subsections = slices.DeleteFunc(model.FieldNames(model.ResumptionV2Fields), func(s string) bool { return s == "recovery_state" })
)

func movableFields() map[string]bool {
	v2 := map[string]bool{}
	for _, f := range model.ResumptionV2Fields {
		v2[f.Name] = true
	}
	m := map[string]bool{}
	for _, f := range model.ResumptionV1Fields {
		if !v2[f.Name] {
			m[f.Name] = true
		}
	}
	for _, f := range model.RecoveryStateFields {
		m[f.Name] = true
	}
	return m
}

func optionalFields(fields []model.FieldSpec) map[string]bool {
	m := map[string]bool{}
	for _, f := range fields {
		if !f.Required {
			m[f.Name] = true
		}
	}
	return m
}

// Migration is the migration of one file.
type Migration struct {
	Fix *diag.Fix // nil when the section cannot be migrated safely
	// Folded holds the top-level v1.0 keys the fix takes care of; a key
	// left out (its value differs from recovery_state's) keeps its finding
	// without a fix.
	Folded map[*yaml.Node]bool
	// Reason says why Fix is nil.
	Reason string
	// Fill lists the required v2.0 fields that do not derive from the
	// file's data (written null; the fix is then unsafe).
	Fill []string
}

// migration is the state of one Migrate: the section, its items and the
// edits, drops and fields to fill gathered so far.
type migration struct {
	m       *Migration
	s       *src
	st      style
	root    *yaml.Node
	items   []item          // resumption's items
	v1      []item          // the v1.0 fields among them
	rs      *item           // recovery_state, when there is one
	present map[string]bool // resumption's keys
	ci      int             // indentation of resumption's keys
	e       editList
	drops   []string
	moves   []diag.Move // v1.0 fields moved under recovery_state
	fill    []string    // required fields that do not derive from the data
	dropped []string    // v1.0 texts dropped for recovery_state's
}

// Migrate computes the migration of doc's resumption section.
func Migrate(doc *load.Document) *Migration {
	m := &Migration{Folded: map[*yaml.Node]bool{}}
	if doc == nil || doc.File == nil || !node.IsMap(doc.Root) || doc.Root.Style&yaml.FlowStyle != 0 {
		m.Reason = "the file is not a block mapping"
		return m
	}
	if !load.BreaksOK(doc.File.Data) {
		m.Reason = "the file breaks lines with a lone CR or a Unicode line separator"
		return m
	}
	if !doc.AddComments() { // current_state's comments move with it
		m.Reason = "the file's text is no longer at hand"
		return m
	}
	mg := &migration{m: m, root: doc.Root, s: newSrc(doc.File)}
	if m.Reason = mg.section(); m.Reason != "" {
		return m
	}
	if mg.rs == nil {
		mg.newRecovery()
	} else if m.Reason = mg.foldIntoRecovery(); m.Reason != "" {
		return m
	}
	mg.addSubsections()
	if len(mg.e.list) == 0 {
		m.Reason = "the v1.0 fields left differ from recovery_state's and are not text: merge them by hand"
		return m
	}
	desc := "migrate resumption to v2.0"
	if len(mg.dropped) > 0 {
		desc += " (recovery_state's " + strings.Join(mg.dropped, ", ") + " kept; the v1.0 text as a comment)"
	}
	m.Fix = &diag.Fix{Applicability: diag.FixSafe, Description: desc, Edits: mg.e.list, Drops: mg.drops, Moves: mg.moves}
	if len(mg.fill) > 0 {
		m.Fix.Applicability = diag.FixUnsafe
		m.Fix.Reason = "fill by hand: " + strings.Join(mg.fill, ", ")
	}
	m.Fill = mg.fill
	return m
}

// section finds the resumption section and its v1.0 fields, or says why
// it cannot be migrated.
func (mg *migration) section() string {
	s, root := mg.s, mg.root
	var rk, rv *yaml.Node
	limit := 0
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "resumption" {
			rk, rv = root.Content[i], root.Content[i+1]
			limit = 0
			if i+2 < len(root.Content) {
				limit = root.Content[i+2].Line
			}
		}
	}
	if limit == 0 {
		limit = s.lines() + 1
	}
	if rk != nil {
		// A document end marker closes the section too.
		for l := rk.Line + 1; l < limit; l++ {
			if t := strings.TrimRight(s.text(l), " \t"); t == "..." || t == "---" || strings.HasPrefix(t, "... ") || strings.HasPrefix(t, "--- ") {
				limit = l
				break
			}
		}
	}
	if rk == nil || rv == nil || rv.Kind != yaml.MappingNode || rv.Style&yaml.FlowStyle != 0 || len(rv.Content) == 0 || rv.Content[0].Line <= rk.Line {
		return "resumption is not a block mapping"
	}
	mg.items = s.items(rv, limit)
	mg.st = detectStyle(s, root, rv)
	mg.st.blankSep = blankSeparated(s, mg.items)
	mg.ci = rv.Content[0].Column - 1
	mg.present = map[string]bool{}
	for i := range mg.items {
		it := &mg.items[i]
		mg.present[it.key.Value] = true
		switch {
		case v1Movable[it.key.Value]:
			mg.v1 = append(mg.v1, *it)
		case it.key.Value == "recovery_state":
			mg.rs = it
		}
	}
	if len(mg.v1) == 0 {
		return "no v1.0 fields at the top of resumption"
	}
	for _, it := range mg.v1 {
		if it.key.Column-1 != mg.ci {
			return "resumption's keys are not aligned"
		}
	}
	if cs := find(mg.v1, "current_state"); cs != nil && cs.val.Kind != yaml.ScalarNode {
		return "current_state is not text"
	}
	return ""
}

// derive writes a derived recovery_state field at indentation fi, or null
// and a field to fill by hand.
func (mg *migration) derive(w *lineWriter, fi int, name string) {
	if !writeDerived(w, mg.st, mg.root, fi, name) {
		mg.fill = append(mg.fill, "recovery_state."+name)
	}
}

// newRecovery writes one new recovery_state where the first v1.0 field was.
func (mg *migration) newRecovery() {
	s, ci := mg.s, mg.ci
	fi := ci + mg.st.indent
	w := &lineWriter{eol: s.eol}
	if cs := find(mg.v1, "current_state"); cs != nil {
		writeProse(w, s, ci, cs)
		mg.drops = append(mg.drops, commented("current_state", cs.val)...)
	}
	w.line(ci, "recovery_state:")
	for _, name := range recoveryFields {
		if it := find(mg.v1, name); it != nil {
			w.raw(reindent(s.lineText(it.first, it.last), fi-ci))
			mg.moved(name)
			continue
		}
		if optionalRecovery[name] {
			continue
		}
		mg.derive(w, fi, name)
	}
	for i, it := range mg.v1 {
		if i == 0 {
			mg.e.replace(s.start(it.first), s.next(it.last), w.String())
		} else {
			mg.e.replace(s.start(it.first), s.next(it.last), "")
		}
		mg.m.Folded[it.key] = true
	}
}

// moved records that the v1.0 field name now sits in recovery_state.
func (mg *migration) moved(name string) {
	mg.moves = append(mg.moves, diag.Move{From: "resumption." + name, To: "resumption.recovery_state." + name})
}

// foldIntoRecovery folds the v1.0 fields into the recovery_state there is
// (a mixed section), or says why it cannot.
func (mg *migration) foldIntoRecovery() string {
	s, rs := mg.s, mg.rs
	if rs.val.Kind != yaml.MappingNode || rs.val.Style&yaml.FlowStyle != 0 || len(rs.val.Content) == 0 || rs.val.Content[0].Line <= rs.key.Line {
		return "recovery_state is not a block mapping"
	}
	rsItems := s.items(rs.val, rs.last+1)
	fi := rs.val.Content[0].Column - 1
	have := map[string]*item{}
	for i := range rsItems {
		have[rsItems[i].key.Value] = &rsItems[i]
	}
	add := &lineWriter{eol: s.eol}
	for _, it := range mg.v1 {
		if mg.foldField(it, have[it.key.Value], add, fi) {
			mg.m.Folded[it.key] = true
		}
	}
	for _, name := range recoveryFields {
		if have[name] != nil || find(mg.v1, name) != nil || optionalRecovery[name] {
			continue
		}
		mg.derive(add, fi, name)
	}
	if add.String() != "" {
		last := rsItems[len(rsItems)-1]
		mg.e.insert(s.next(last.last), add.String())
	}
	return ""
}

// foldField moves one v1.0 field into recovery_state (ex: the field there,
// if any; new fields go to add, at indentation fi) and reports whether it
// did.
func (mg *migration) foldField(it item, ex *item, add *lineWriter, fi int) bool {
	s := mg.s
	name := it.key.Value
	region := func() { mg.e.replace(s.start(it.first), s.next(it.last), "") }
	switch {
	case name == "current_state":
		w := &lineWriter{eol: s.eol}
		writeProse(w, s, mg.ci, &it)
		mg.e.insert(s.start(mg.rs.first), w.String())
		region()
		mg.drops = append(mg.drops, commented("current_state", it.val)...)
	case ex == nil:
		add.raw(reindent(s.lineText(it.first, it.last), fi-mg.ci))
		region()
		mg.moved(name)
	case sameScalar(ex.val, it.val):
		// The value is recovery_state's already; its comments stay.
		w := &lineWriter{eol: s.eol}
		writeComments(w, s, mg.ci, &it)
		mg.e.replace(s.start(it.first), s.next(it.last), w.String())
		mg.drops = append(mg.drops, name, it.val.Value)
	case it.val.Kind == yaml.ScalarNode && it.val.ShortTag() == "!!str" && ex.val.Kind == yaml.ScalarNode:
		// Two texts: recovery_state's is the one kept up to date; the
		// v1.0 one stays as a comment, as current_state does (which copy
		// is newer nothing records), and the fix says so.
		w := &lineWriter{eol: s.eol}
		writeProse(w, s, mg.ci, &it)
		mg.e.insert(s.start(mg.rs.first), w.String())
		region()
		mg.drops = append(mg.drops, commented(name, it.val)...)
		mg.dropped = append(mg.dropped, name)
	default:
		return false // differing non-text values: left for the user
	}
	return true
}

// addSubsections appends the missing sub-sections after the section's
// last item.
func (mg *migration) addSubsections() {
	s, present := mg.s, mg.present
	if present["decisions"] {
		present["decision_log"] = true
	}
	last := mg.items[len(mg.items)-1]
	at := s.next(last.last)
	w := &lineWriter{eol: s.eol}
	prevBlank := lineBeforeIsBlank(s, at, mg.e.list)
	for _, name := range subsections {
		if present[name] {
			continue
		}
		if mg.st.blankSep && !prevBlank {
			w.blank()
		}
		prevBlank = false
		mg.fill = append(mg.fill, writeSubsection(w, mg.st, mg.root, mg.ci, name)...)
	}
	if w.String() != "" {
		text := w.String()
		if end := keptEnd(at, mg.e.list); end > 0 && s.data[end-1] != '\n' {
			text = s.eol + text // the file ends without a line break there
		}
		mg.e.insert(at, text)
	}
}

// commented is what a key whose value becomes a comment drops: the key,
// and the value unless it is prose (which Verify finds in the comments).
func commented(key string, val *yaml.Node) []string {
	if isProse(val.Value) {
		return []string{key}
	}
	return []string{key, val.Value}
}

func find(items []item, key string) *item {
	for i := range items {
		if items[i].key.Value == key {
			return &items[i]
		}
	}
	return nil
}

// sameScalar reports two scalars with the same value and type.
func sameScalar(a, b *yaml.Node) bool {
	a, b = node.Resolve(a), node.Resolve(b)
	return a != nil && b != nil && a.Kind == yaml.ScalarNode && b.Kind == yaml.ScalarNode && a.Value == b.Value && a.ShortTag() == b.ShortTag()
}

// blankSeparated reports a section whose block-valued items are set apart
// by blank lines, so appended sub-sections follow suit.
func blankSeparated(s *src, items []item) bool {
	with, without := 0, 0
	for i := 1; i < len(items); i++ {
		if items[i].val.Kind == yaml.ScalarNode || items[i].val.Style&yaml.FlowStyle != 0 {
			continue
		}
		if items[i].first-1 > items[i-1].last && s.blank(items[i].first-1) {
			with++
		} else {
			without++
		}
	}
	return with > 0 && with >= without
}

// lineBeforeIsBlank reports whether the text just before offset at will be
// a blank line once the deletions in edits are made.
func lineBeforeIsBlank(s *src, at int, edits []diag.TextEdit) bool {
	end := keptEnd(at, edits)
	if end < 2 {
		return end == 0
	}
	// the line that ends at end-1 ('\n')
	i := end - 1
	j := i - 1
	for j >= 0 && s.data[j] != '\n' {
		j--
	}
	line := string(s.data[j+1 : i])
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// keptEnd is where the text kept before offset at ends once the deletions
// in edits that end there (one after another) are made.
func keptEnd(at int, edits []diag.TextEdit) int {
	end := at
	for {
		moved := false
		for _, e := range edits {
			if e.Length > 0 && e.NewText == "" && e.Offset+e.Length == end {
				end = e.Offset
				moved = true
			}
		}
		if !moved {
			return end
		}
	}
}

// writeProse writes a v1.0 text field's own comments and its text as a
// comment, verbatim (current_state's; a next_step recovery_state differs from).
func writeProse(w *lineWriter, s *src, indent int, cs *item) {
	writeHeadComments(w, s, cs)
	w.commentLines(indent, cs.key.Value+" (v1.0): ", cs.val.Value)
	writeLineComments(w, s, indent, cs)
}

// writeComments writes the comments of a field whose value goes: the
// lines above its key, then those on and under its lines.
func writeComments(w *lineWriter, s *src, indent int, cs *item) {
	writeHeadComments(w, s, cs)
	writeLineComments(w, s, indent, cs)
}

// writeHeadComments writes the comment lines directly above a field's key.
func writeHeadComments(w *lineWriter, s *src, cs *item) {
	if cs.first < cs.keyLine {
		w.raw(s.lineText(cs.first, cs.keyLine-1))
	}
}

// writeLineComments writes the comments on a field's key and value, and
// those under a one-line value, as comment lines at indent.
func writeLineComments(w *lineWriter, s *src, indent int, cs *item) {
	seen := map[string]bool{}
	for _, c := range []string{cs.key.LineComment, cs.val.LineComment} {
		if c != "" && !seen[c] {
			seen[c] = true
			for _, ln := range splitLines(c) {
				w.line(indent, ln)
			}
		}
	}
	// Comment lines under a one-line value belong to it too.
	if _, ok := s.scalarEnd(cs.val, false); ok && cs.val.Line == cs.keyLine {
		for l := cs.keyLine + 1; l <= cs.last; l++ {
			if s.comment(l) {
				w.line(indent, strings.TrimLeft(s.text(l), " \t"))
			}
		}
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// writeDerived writes one recovery_state field from the file's data, or
// null when it cannot be derived, and reports whether it was.
func writeDerived(w *lineWriter, st style, root *yaml.Node, indent int, name string) bool {
	val, ok := "null", false
	switch name {
	case "last_checkpoint":
		// null is the value before the first checkpoint.
		ok = true
		if id, has := latestCheckpoint(root); has {
			val = st.str(id)
		}
	case "current_phase":
		if n, has, _, _ := currentPhase(root); has && n >= 0 {
			val, ok = strconv.Itoa(n), true
		}
	case "current_phase_name":
		if _, _, name, has := currentPhase(root); has {
			val, ok = st.str(name), true
		}
	case "workflow_status":
		if s, has := workflowStatus(root); has {
			val, ok = st.str(s), true
		}
	}
	// current_activity, next_step and updated_at say what the session was
	// doing and when it wrote the section: nothing else in the file does.
	w.line(indent, name+": "+val)
	return ok
}

// writeSubsection writes a missing sub-section with the keys the schema
// requires: quality_trajectory from quality_gates, defect_summary when no
// gate has run, agent_summaries from completed agents, the logs empty. It
// returns the fields it could not derive (written null).
func writeSubsection(w *lineWriter, st style, root *yaml.Node, indent int, name string) []string {
	fi, gi := indent+st.indent, indent+2*st.indent
	var fill []string
	null := func(key string) {
		w.line(fi, key+": null")
		fill = append(fill, name+"."+key)
	}
	switch name {
	case "files_to_read", "decision_log":
		w.line(indent, name+": []")
	case "quality_trajectory":
		t := deriveTrajectory(root)
		w.line(indent, "quality_trajectory:")
		if !t.known {
			null("gates_completed")
			null("gates_remaining")
			null("current_gate")
			null("current_gate_iteration")
			null("score_history")
			w.line(fi, "lowest_dimension: null")
			null("total_iterations_used")
			return fill
		}
		writeList(w, st, fi, "gates_completed", t.completed)
		writeList(w, st, fi, "gates_remaining", t.remaining)
		if t.current != "" {
			w.line(fi, "current_gate: "+st.str(t.current))
		} else {
			w.line(fi, "current_gate: null")
		}
		switch {
		case t.current != "" && t.currentIter > 0:
			w.line(fi, "current_gate_iteration: "+strconv.Itoa(t.currentIter))
		case t.current != "":
			null("current_gate_iteration")
		default:
			w.line(fi, "current_gate_iteration: null")
		}
		switch {
		case t.historyUnknown:
			null("score_history")
		case len(t.history) == 0:
			w.line(fi, "score_history: {}")
		default:
			w.line(fi, "score_history:")
			for _, h := range t.history {
				w.line(gi, st.key(h.gate)+": "+flowList(h.scores))
			}
		}
		w.line(fi, "lowest_dimension: null")
		if t.historyUnknown {
			null("total_iterations_used")
		} else {
			w.line(fi, "total_iterations_used: "+strconv.Itoa(t.used))
		}
	case "defect_summary":
		// Defect counts are not recorded in structured form: they are
		// known (zero) only while no gate has run.
		t := deriveTrajectory(root)
		w.line(indent, "defect_summary:")
		if t.known && !t.anyRun {
			w.line(fi, "total_defects_found: 0")
			w.line(fi, "total_defects_resolved: 0")
			w.line(fi, "unresolved_defects: []")
		} else {
			null("total_defects_found")
			null("total_defects_resolved")
			null("unresolved_defects")
		}
		w.line(fi, "recurring_patterns: []")
		w.line(fi, "last_gate_primary_defect: null")
	case "agent_summaries":
		sums := agentSummaries(root)
		for _, id := range agentsWithoutSummary(root) {
			fill = append(fill, "agent_summaries."+id)
		}
		if len(sums) == 0 {
			w.line(indent, "agent_summaries: {}")
			return fill
		}
		w.line(indent, "agent_summaries:")
		for _, a := range sums {
			w.line(fi, st.key(a.id)+": "+st.str(a.summary))
		}
	case "compaction_events":
		w.line(indent, "compaction_events:")
		w.line(fi, "count: 0")
		w.line(fi, "events: []")
	}
	return fill
}

// writeList writes a list of strings in flow style, or as a block list
// when that line would be long.
func writeList(w *lineWriter, st style, indent int, key string, items []string) {
	rendered := make([]string, len(items))
	width := indent + len(key) + 4
	for i, x := range items {
		rendered[i] = st.strFlow(x)
		width += len(rendered[i]) + 2
	}
	if width <= 100 {
		w.line(indent, key+": "+flowList(rendered))
		return
	}
	w.line(indent, key+":")
	for _, x := range items {
		w.line(indent+st.seqIndent, "- "+st.str(x))
	}
}
