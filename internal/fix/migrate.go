package fix

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// The v1.0 → v2.0 migration of an ORCHESTRATION.yaml resumption section
// (SPEC §5, seed 000 §V1.0 to V2.0 Field Mapping), for RL101 and RL115.
//
// The v1.0 fields move into recovery_state as whole lines (their bytes,
// comments and quoting kept, only indented one level deeper); current_state
// prose is kept verbatim as a comment above recovery_state; the structured
// fields are derived from the file's own data or written null; missing
// sub-sections are appended empty. Nothing outside `resumption:` changes.

// v1Movable are the v1.0 fields that leave the top of resumption.
var v1Movable = map[string]bool{"last_checkpoint": true, "current_state": true, "next_step": true, "cross_session_portable": true, "ephemeral_references": true}

// recoveryFields is recovery_state in the order of seed 000 §Update
// Semantics, then the two optional v1.0 carry-overs.
var recoveryFields = []string{"last_checkpoint", "current_phase", "current_phase_name", "workflow_status", "current_activity", "next_step", "context_fill_at_update", "updated_at", "cross_session_portable", "ephemeral_references"}

// Migration is the migration of one file.
type Migration struct {
	Fix *diag.Fix // nil when the section cannot be migrated safely
	// Folded holds the top-level v1.0 keys the fix takes care of; a key
	// left out (its value differs from recovery_state's) keeps its finding
	// without a fix.
	Folded map[*yaml.Node]bool
	// Reason says why Fix is nil.
	Reason string
}

// Migrate computes the migration of doc's resumption section.
func Migrate(doc *load.Document) *Migration {
	m := &Migration{Folded: map[*yaml.Node]bool{}}
	if doc == nil || doc.File == nil || !node.IsMap(doc.Root) || doc.Root.Style&yaml.FlowStyle != 0 {
		m.Reason = "the file is not a block mapping"
		return m
	}
	if !breaksOK(doc.File.Data) {
		m.Reason = "the file breaks lines with a lone CR or a Unicode line separator"
		return m
	}
	root := doc.Root
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
	s := newSrc(doc.File)
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
		m.Reason = "resumption is not a block mapping"
		return m
	}
	items := s.items(rv, limit)
	st := detectStyle(s, root, rv)
	st.blankSep = blankSeparated(s, items)
	ci := rv.Content[0].Column - 1 // indentation of resumption's keys

	var v1 []item
	var rs *item
	present := map[string]bool{}
	for i := range items {
		it := &items[i]
		present[it.key.Value] = true
		switch {
		case v1Movable[it.key.Value]:
			v1 = append(v1, *it)
		case it.key.Value == "recovery_state":
			rs = it
		}
	}
	if len(v1) == 0 {
		m.Reason = "no v1.0 fields at the top of resumption"
		return m
	}
	for _, it := range v1 {
		if it.key.Column-1 != ci {
			m.Reason = "resumption's keys are not aligned"
			return m
		}
	}
	if cs := find(v1, "current_state"); cs != nil && cs.val.Kind != yaml.ScalarNode {
		m.Reason = "current_state is not text"
		return m
	}

	var e editList
	var drops []string
	fieldsAt := func(fi int) func(w *lineWriter, name string) {
		return func(w *lineWriter, name string) { writeDerived(w, st, root, fi, name) }
	}
	if rs == nil {
		// One new recovery_state where the first v1.0 field was.
		fi := ci + st.indent
		w := &lineWriter{eol: s.eol}
		if cs := find(v1, "current_state"); cs != nil {
			writeProse(w, s, ci, cs)
			drops = append(drops, commented("current_state", cs.val)...)
		}
		w.line(ci, "recovery_state:")
		derive := fieldsAt(fi)
		for _, name := range recoveryFields {
			if it := find(v1, name); it != nil {
				w.raw(reindent(s.lineText(it.first, it.last), fi-ci))
				continue
			}
			if name == "cross_session_portable" || name == "ephemeral_references" {
				continue
			}
			derive(w, name)
		}
		for i, it := range v1 {
			if i == 0 {
				e.replace(s.start(it.first), s.next(it.last), w.String())
			} else {
				e.replace(s.start(it.first), s.next(it.last), "")
			}
			m.Folded[it.key] = true
		}
	} else {
		// Mixed: fold the v1.0 fields into the recovery_state there is.
		if rs.val.Kind != yaml.MappingNode || rs.val.Style&yaml.FlowStyle != 0 || len(rs.val.Content) == 0 || rs.val.Content[0].Line <= rs.key.Line {
			m.Reason = "recovery_state is not a block mapping"
			return m
		}
		rsItems := s.items(rs.val, rs.last+1)
		fi := rs.val.Content[0].Column - 1
		have := map[string]*item{}
		for i := range rsItems {
			have[rsItems[i].key.Value] = &rsItems[i]
		}
		add := &lineWriter{eol: s.eol}
		for _, it := range v1 {
			name := it.key.Value
			region := func() { e.replace(s.start(it.first), s.next(it.last), "") }
			switch ex := have[name]; {
			case name == "current_state":
				w := &lineWriter{eol: s.eol}
				writeProse(w, s, ci, &it)
				e.insert(s.start(rs.first), w.String())
				region()
				drops = append(drops, commented("current_state", it.val)...)
			case ex == nil:
				add.raw(reindent(s.lineText(it.first, it.last), fi-ci))
				region()
			case sameScalar(ex.val, it.val):
				region()
				drops = append(drops, name, it.val.Value)
			case it.val.Kind == yaml.ScalarNode && it.val.ShortTag() == "!!str" && ex.val.Kind == yaml.ScalarNode:
				// Two texts: recovery_state's stays, the v1.0 one is kept
				// as a comment above it.
				w := &lineWriter{eol: s.eol}
				w.commentLines(fi, name+" (v1.0, superseded by the value below): ", it.val.Value)
				e.insert(s.start(ex.first), w.String())
				region()
				drops = append(drops, commented(name, it.val)...)
			default:
				continue // differing non-text values: left for the user
			}
			m.Folded[it.key] = true
		}
		derive := fieldsAt(fi)
		for _, name := range recoveryFields {
			if have[name] != nil || find(v1, name) != nil || name == "cross_session_portable" || name == "ephemeral_references" {
				continue
			}
			derive(add, name)
		}
		if add.String() != "" {
			last := rsItems[len(rsItems)-1]
			e.insert(s.next(last.last), add.String())
		}
	}

	// Missing sub-sections, appended after the section's last item.
	if present["decisions"] {
		present["decision_log"] = true
	}
	last := items[len(items)-1]
	at := s.next(last.last)
	w := &lineWriter{eol: s.eol}
	prevBlank := lineBeforeIsBlank(s, at, e.list)
	for _, name := range []string{"files_to_read", "quality_trajectory", "defect_summary", "decision_log", "agent_summaries", "compaction_events"} {
		if present[name] {
			continue
		}
		if st.blankSep && !prevBlank {
			w.blank()
		}
		prevBlank = false
		writeSubsection(w, st, root, ci, name)
	}
	if w.String() != "" {
		text := w.String()
		if at == len(s.data) && len(s.data) > 0 && s.data[len(s.data)-1] != '\n' {
			text = s.eol + text
		}
		e.insert(at, text)
	}
	if len(e.list) == 0 {
		m.Reason = "the v1.0 fields left differ from recovery_state's and are not text: merge them by hand"
		return m
	}
	m.Fix = &diag.Fix{Applicability: diag.FixSafe, Description: "migrate resumption to v2.0", Edits: e.list, Drops: drops}
	return m
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
			break
		}
	}
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

// writeProse writes current_state's own comments and its text as a
// comment, verbatim.
func writeProse(w *lineWriter, s *src, indent int, cs *item) {
	if cs.first < cs.keyLine {
		w.raw(s.lineText(cs.first, cs.keyLine-1))
	}
	w.commentLines(indent, "current_state (v1.0): ", cs.val.Value)
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
// null when it cannot be derived.
func writeDerived(w *lineWriter, st style, root *yaml.Node, indent int, name string) {
	val := "null"
	switch name {
	case "last_checkpoint":
		if id, ok := latestCheckpoint(root); ok {
			val = st.str(id)
		}
	case "current_phase":
		if n, ok, _, _ := currentPhase(root); ok && n >= 0 {
			val = strconv.Itoa(n)
		}
	case "current_phase_name":
		if _, _, name, ok := currentPhase(root); ok {
			val = st.str(name)
		}
	case "workflow_status":
		if s, ok := workflowStatus(root); ok {
			val = st.str(s)
		}
	}
	w.line(indent, name+": "+val)
}

// writeSubsection writes a missing sub-section: quality_trajectory from
// quality_gates, agent_summaries from completed agents, the rest empty.
func writeSubsection(w *lineWriter, st style, root *yaml.Node, indent int, name string) {
	fi, gi := indent+st.indent, indent+2*st.indent
	switch name {
	case "files_to_read", "decision_log":
		w.line(indent, name+": []")
	case "quality_trajectory":
		t := deriveTrajectory(root)
		w.line(indent, "quality_trajectory:")
		writeList(w, st, fi, "gates_completed", t.completed)
		writeList(w, st, fi, "gates_remaining", t.remaining)
		if t.current != "" {
			w.line(fi, "current_gate: "+st.str(t.current))
		} else {
			w.line(fi, "current_gate: null")
		}
		if t.current != "" && t.currentIter > 0 {
			w.line(fi, "current_gate_iteration: "+strconv.Itoa(t.currentIter))
		} else {
			w.line(fi, "current_gate_iteration: null")
		}
		if len(t.history) == 0 {
			w.line(fi, "score_history: {}")
		} else {
			w.line(fi, "score_history:")
			for _, h := range t.history {
				w.line(gi, st.key(h.gate)+": "+flowList(h.scores))
			}
		}
		w.line(fi, "lowest_dimension: null")
		w.line(fi, "total_iterations_used: "+strconv.Itoa(t.used))
	case "defect_summary":
		// Defect counts are not recorded per gate in structured form; with
		// no iteration run yet they are zero.
		t := deriveTrajectory(root)
		w.line(indent, "defect_summary:")
		if t.anyIteration {
			w.line(fi, "total_defects_found: null")
			w.line(fi, "total_defects_resolved: null")
			w.line(fi, "unresolved_defects: null")
		} else {
			w.line(fi, "total_defects_found: 0")
			w.line(fi, "total_defects_resolved: 0")
			w.line(fi, "unresolved_defects: []")
		}
		w.line(fi, "recurring_patterns: []")
		w.line(fi, "last_gate_primary_defect: null")
	case "agent_summaries":
		sums := agentSummaries(root)
		if len(sums) == 0 {
			w.line(indent, "agent_summaries: {}")
			return
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
