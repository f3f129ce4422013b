package fix

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// The small fixes of SPEC §3's Fix column. Each returns nil when the text
// is not in a shape it can edit exactly (block or multi-line scalars,
// anchors, tags): the finding then stays without a fix.

func safe(desc string, edits []diag.TextEdit, drops ...string) *diag.Fix {
	return &diag.Fix{Applicability: diag.FixSafe, Description: desc, Edits: edits, Drops: drops}
}

// styleOf detects the file's style around section (the whole document
// when section is nil).
func styleOf(doc *load.Document, section *yaml.Node) (*src, style) {
	s := newSrc(doc.File)
	return s, detectStyle(s, doc.Root, section)
}

// RenameKey renames a mapping key in place, keeping its quoting (RL103
// decisions → decision_log). inFlow tells a key inside {...}.
func RenameKey(doc *load.Document, key *yaml.Node, newName string, inFlow bool) *diag.Fix {
	if !load.BreaksOK(doc.File.Data) {
		return nil
	}
	s := newSrc(doc.File)
	e, ok := renameKeyEdit(s, key, newName, inFlow)
	if !ok {
		return nil
	}
	return safe(fmt.Sprintf("rename %s to %s", key.Value, newName), []diag.TextEdit{e}, key.Value)
}

func renameKeyEdit(s *src, key *yaml.Node, newName string, inFlow bool) (diag.TextEdit, bool) {
	end, ok := s.scalarEnd(key, inFlow)
	if !ok || key.Value == "" {
		return diag.TextEdit{}, false
	}
	a := s.off(key)
	text := newName
	switch s.data[a] {
	case '"':
		text = strconv.Quote(newName)
	case '\'':
		text = "'" + strings.ReplaceAll(newName, "'", "''") + "'"
	default:
		if !plainSafe(newName, inFlow) {
			text = strconv.Quote(newName)
		}
	}
	return diag.TextEdit{Offset: a, Length: end - a, NewText: text}, true
}

// RenameKeyKeepString renames a key and, when its value is not a string
// (resume_version: 1.0 is a number), quotes the value's text so it stays
// the same characters as a string (RL312).
func RenameKeyKeepString(doc *load.Document, key, val *yaml.Node, newName string) *diag.Fix {
	if !load.BreaksOK(doc.File.Data) {
		return nil
	}
	s, st := styleOf(doc, nil)
	ke, ok := renameKeyEdit(s, key, newName, false)
	if !ok {
		return nil
	}
	edits := []diag.TextEdit{ke}
	if val != nil && val.Kind == yaml.ScalarNode && val.ShortTag() != "!!str" && !node.IsNull(val) {
		end, ok := s.scalarEnd(val, false)
		if !ok || val.Line != key.Line {
			return nil
		}
		a := s.off(val)
		q := st
		if q.quote == 0 {
			q.quote = '"'
		}
		edits = append(edits, diag.TextEdit{Offset: a, Length: end - a, NewText: q.str(string(s.data[a:end]))})
	}
	return safe(fmt.Sprintf("rename %s to %s", key.Value, newName), edits, key.Value)
}

// SetScalar replaces a one-line scalar value with text already rendered
// for YAML. The old value is declared dropped (git keeps it); nothing is
// written in its memory (SPEC §5: a safe fix changes only what it fixes).
func SetScalar(doc *load.Document, val *yaml.Node, text, desc string, inFlow bool) *diag.Fix {
	if !load.BreaksOK(doc.File.Data) {
		return nil
	}
	s := newSrc(doc.File)
	end, ok := s.scalarEnd(val, inFlow)
	if !ok || val.Value == "" {
		return nil
	}
	a := s.off(val)
	if string(s.data[a:end]) == text {
		return nil
	}
	return safe(desc, []diag.TextEdit{{Offset: a, Length: end - a, NewText: text}}, val.Value)
}

// CopyLatestID sets recovery_state.last_checkpoint to checkpoints.latest_id
// (RL104). The rule offers it only when that moves the pointer forward to
// a recorded, later checkpoint.
func CopyLatestID(doc *load.Document, lastCheckpoint, latestID *yaml.Node, inFlow bool) *diag.Fix {
	id, ok := node.Str(latestID)
	if !ok {
		return nil
	}
	_, st := styleOf(doc, nil)
	text := st.str(id)
	if inFlow {
		text = st.strFlow(id)
	}
	return SetScalar(doc, lastCheckpoint, text, "move last_checkpoint forward to "+id, inFlow)
}

// RecomputeCount sets a count to the length of the list it counts (RL112).
// The rule offers it only when the count is below the list: a count above
// it may be the truth (events recorded elsewhere).
func RecomputeCount(doc *load.Document, count *yaml.Node, n int, inFlow bool) *diag.Fix {
	return SetScalar(doc, count, strconv.Itoa(n), fmt.Sprintf("set count to %d", n), inFlow)
}

// NumberDecisionIDs gives decision_log entries without an id the id their
// place calls for (RD-001 for the first, …), as the first key of the entry.
// It does nothing when an existing id is out of place (renumbering would
// break references to it).
func NumberDecisionIDs(doc *load.Document, log *yaml.Node) *diag.Fix {
	log = node.Resolve(log)
	if !node.IsSeq(log) || log.Style&yaml.FlowStyle != 0 || !load.BreaksOK(doc.File.Data) {
		return nil
	}
	s, st := styleOf(doc, log)
	var e editList
	for i, ent := range log.Content {
		ent = node.Resolve(ent)
		want := fmt.Sprintf("RD-%03d", i+1)
		if !node.IsMap(ent) || len(ent.Content) == 0 {
			return nil
		}
		if id := model.DecisionOf(nil, ent).ID; id.Key != nil {
			if !id.OK || id.Value != want {
				return nil
			}
			continue
		}
		first := ent.Content[0]
		at := s.off(first)
		if ent.Style&yaml.FlowStyle != 0 {
			e.insert(at, "id: "+st.strFlow(want)+", ")
			continue
		}
		if first.Line < 1 || s.off(first) < s.start(first.Line) {
			return nil
		}
		e.insert(at, "id: "+st.str(want)+s.eol+strings.Repeat(" ", first.Column-1))
	}
	if len(e.list) == 0 {
		return nil
	}
	return safe("number the decision_log entries without an id", e.list)
}

// RenameFile renames a file to the display path to (RL313 _resume.md →
// resume-context.md); the fix driver refuses a taken name.
func RenameFile(f *load.File, to string) *diag.Fix {
	if to == "" || to == f.Path {
		return nil
	}
	return &diag.Fix{Applicability: diag.FixSafe, Description: "rename to " + renameTarget(f.Path, to), RenameTo: to}
}

// renameTarget names to from the folder of from: its name beside it, the
// path below it (01-planning/resume-context.md for a project's _resume.md).
func renameTarget(from, to string) string {
	dir := path.Dir(from)
	switch {
	case dir == ".":
		return to
	case strings.HasPrefix(to, dir+"/"):
		return to[len(dir)+1:]
	}
	return path.Base(to)
}

// FlattenJSON moves the members of the object under key up into the
// enclosing top-level object (RL302: precompact_state.json must be flat).
// rename maps nested names to their flat names (project_id →
// active_project_id). A member already present at the top with the same
// value is dropped; with a different value there is no fix.
func FlattenJSON(doc *load.Document, key string, rename map[string]string) *diag.Fix {
	root := doc.Root
	if !node.IsMap(root) || !load.BreaksOK(doc.File.Data) {
		return nil
	}
	s := newSrc(doc.File)
	var k, v *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			k, v = root.Content[i], root.Content[i+1]
		}
	}
	if k == nil || !node.IsMap(v) {
		return nil
	}
	kStart := s.off(k)
	vEnd, ok := load.JSONValueEnd(s.data, s.off(v))
	if !ok || s.data[kStart] != '"' {
		return nil
	}
	ind := indentsOf(s, k, v)
	drops := []string{key}
	var moves []diag.Move
	var members []string
	targets := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		nk, nv := v.Content[i], v.Content[i+1]
		name := nk.Value
		if r, ok := rename[name]; ok {
			name = r
		}
		if targets[name] {
			return nil
		}
		targets[name] = true
		if name != nk.Value {
			drops = append(drops, nk.Value)
		}
		// Any nested key hoisted to the top: a key chosen at run time.
		if ex := node.Val(root, name); ex != nil {
			if !sameScalar(ex, nv) {
				return nil
			}
			drops = append(drops, nv.Value)
			if name == nk.Value {
				drops = append(drops, nk.Value)
			}
			continue
		}
		a := s.off(nv)
		b, ok := load.JSONValueEnd(s.data, a)
		if !ok {
			return nil
		}
		members = append(members, strconv.Quote(name)+": "+ind.moveUp(string(s.data[a:b])))
		moves = append(moves, diag.Move{From: key + "." + nk.Value, To: name})
	}
	var edits []diag.TextEdit
	if len(members) > 0 {
		sep := "," + s.eol + ind.member
		if k.Line == v.Line && (len(v.Content) == 0 || v.Content[0].Line == k.Line) {
			sep = ", " // a one-line object
		}
		edits = append(edits, diag.TextEdit{Offset: kStart, Length: vEnd - kStart, NewText: strings.Join(members, sep)})
	} else {
		// Nothing left to move: remove the member and one comma.
		j := skipWS(s.data, vEnd)
		if j < len(s.data) && s.data[j] == ',' {
			edits = append(edits, diag.TextEdit{Offset: kStart, Length: skipWS(s.data, j+1) - kStart})
		} else {
			i := kStart
			for i > 0 && strings.IndexByte(" \t\r\n", s.data[i-1]) >= 0 {
				i--
			}
			if i == 0 || s.data[i-1] != ',' {
				return nil // the only member: the object would be empty
			}
			edits = append(edits, diag.TextEdit{Offset: i - 1, Length: vEnd - (i - 1)})
		}
	}
	f := safe("move the members of "+key+" to the top level", edits, drops...)
	f.Moves = moves // a finding on a member is the same finding at the top
	return f
}

// jsonIndents is the indentation of a JSON object's members (member) and
// of the members of the object held by one of them (inner), as written:
// tabs or spaces.
type jsonIndents struct {
	member, inner string
	innerOK       bool // inner was read from the text
	dedentBy      int  // columns between the two, when it was not
}

func indentsOf(s *src, k, v *yaml.Node) jsonIndents {
	memberIndent := k.Column - 1
	innerIndent := memberIndent
	if len(v.Content) > 0 {
		innerIndent = v.Content[0].Column - 1
	}
	ind := jsonIndents{dedentBy: innerIndent - memberIndent}
	m, ok := s.leading(s.off(k))
	if !ok {
		m = strings.Repeat(" ", memberIndent)
	}
	ind.member = m
	if len(v.Content) > 0 && v.Content[0].Line != k.Line {
		ind.inner, ind.innerOK = s.leading(s.off(v.Content[0]))
		ind.innerOK = ind.innerOK && strings.HasPrefix(ind.inner, m)
	}
	return ind
}

// moveUp re-indents a member's value text for its place one level up.
func (ind jsonIndents) moveUp(val string) string {
	if ind.innerOK {
		return swapIndent(val, ind.inner, ind.member)
	}
	return dedent(val, ind.dedentBy)
}

func skipWS(d []byte, i int) int {
	for i < len(d) && strings.IndexByte(" \t\r\n", d[i]) >= 0 {
		i++
	}
	return i
}

// swapIndent replaces the indentation from with to at the start of every
// line but the first that begins with from.
func swapIndent(text, from, to string) string {
	if !strings.Contains(text, "\n") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		if rest, ok := strings.CutPrefix(lines[i], from); ok {
			lines[i] = to + rest
		}
	}
	return strings.Join(lines, "\n")
}

// dedent removes up to n leading spaces from every line but the first.
func dedent(text string, n int) string {
	if n <= 0 || !strings.Contains(text, "\n") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		j := 0
		for j < n && j < len(lines[i]) && lines[i][j] == ' ' {
			j++
		}
		lines[i] = lines[i][j:]
	}
	return strings.Join(lines, "\n")
}
