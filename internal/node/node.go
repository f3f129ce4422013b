// Package node has small helpers over yaml.Node trees, which carry every
// parsed document (YAML and JSON alike) with positions.
package node

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
)

// Resolve follows aliases.
func Resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

// Get returns the key and value nodes of key in mapping m (the last one if
// the key repeats, as most readers do), or nils.
func Get(m *yaml.Node, key string) (k, v *yaml.Node) {
	m = Resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := len(m.Content) - 2; i >= 0; i -= 2 {
		if m.Content[i].Value == key && m.Content[i].Kind == yaml.ScalarNode {
			return m.Content[i], Resolve(m.Content[i+1])
		}
	}
	return nil, nil
}

// Val returns the value node of key in m, or nil.
func Val(m *yaml.Node, key string) *yaml.Node {
	_, v := Get(m, key)
	return v
}

// Has reports whether mapping m has key.
func Has(m *yaml.Node, key string) bool {
	k, _ := Get(m, key)
	return k != nil
}

// Pairs calls fn for each key/value of a mapping, in order.
func Pairs(m *yaml.Node, fn func(k, v *yaml.Node)) {
	m = Resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		fn(m.Content[i], Resolve(m.Content[i+1]))
	}
}

// IsMap, IsSeq, IsScalar and IsNull classify a node (after aliases).
func IsMap(n *yaml.Node) bool { n = Resolve(n); return n != nil && n.Kind == yaml.MappingNode }
func IsSeq(n *yaml.Node) bool { n = Resolve(n); return n != nil && n.Kind == yaml.SequenceNode }
func IsScalar(n *yaml.Node) bool {
	n = Resolve(n)
	return n != nil && n.Kind == yaml.ScalarNode
}
func IsNull(n *yaml.Node) bool {
	n = Resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// IsString reports a string scalar; an unquoted YAML timestamp counts as its
// text, as resumelint treats timestamps as strings.
func IsString(n *yaml.Node) bool {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return false
	}
	t := n.ShortTag()
	return t == "!!str" || t == "!!timestamp" || t == "!!binary"
}

// Str returns a string scalar's value and whether it is one.
func Str(n *yaml.Node) (string, bool) {
	if !IsString(n) {
		return "", false
	}
	return Resolve(n).Value, true
}

// StatusWord puts a status in one spelling: upper case, '_' between words
// ("in-progress", "In Progress" and "IN_PROGRESS" compare equal), without
// the marks around it that files decorate it with ("✅ COMPLETE",
// "COMPLETE ✅", "**DONE**") or a trailing remark in parentheses
// ("COMPLETE (with notes)").
func StatusWord(s string) string {
	s = strings.TrimSpace(s)
	if w := undecorated(s); w != "" {
		s = w
	}
	return wordSeparators.Replace(strings.ToUpper(s))
}

// undecorated is s without the marks at its ends, a trailing remark in
// parentheses or after a dash, colon, comma or semicolon ("COMPLETE -
// ready for archive", "Done: merged in #42"), and a trailing date
// ("COMPLETED 2026-02-21"), or "" when nothing of a word is left. A remark
// that holds the status back ("COMPLETE (pending QA)", "DONE - not
// verified") stays: that is not the word.
func undecorated(s string) string {
	w := strings.TrimFunc(s, notWordRune)
	if i := strings.LastIndexByte(w, '('); i > 0 && strings.HasSuffix(s, ")") {
		if HoldsBack(w[i:]) {
			return s
		}
		w = strings.TrimFunc(w[:i], notWordRune)
	}
	if i, n := remarkAt(w); i > 0 {
		if HoldsBack(w[i+n:]) {
			return s
		}
		w = strings.TrimFunc(w[:i], notWordRune)
	}
	if i := strings.LastIndexByte(w, ' '); i > 0 && isDate(w[i+1:]) {
		w = strings.TrimFunc(w[:i], notWordRune)
	}
	return w
}

// remarkSeps set a remark apart from the status before it (the end of a
// sentence too: "WORKFLOW COMPLETE. All 4 phases done."). A bar is not
// one: "ACTIVE|PAUSED|COMPLETE" lists a field's values.
var remarkSeps = []string{" - ", " -- ", " – ", " — ", ": ", ", ", "; ", ". ", "\n"}

// remarkAt returns where the first remark separator in w starts and its
// length, or -1.
func remarkAt(w string) (int, int) {
	at, n := -1, 0
	for _, sep := range remarkSeps {
		if i := strings.Index(w, sep); i >= 0 && (at < 0 || i < at) {
			at, n = i, len(sep)
		}
	}
	return at, n
}

// isDate reports a date written after a status: YYYY-MM-DD, with or
// without a time after a T.
func isDate(s string) bool {
	if len(s) < 10 || (len(s) > 10 && s[10] != 'T') {
		return false
	}
	for i := 0; i < 10; i++ {
		if c := s[i]; (i == 4 || i == 7) != (c == '-') || (c != '-' && (c < '0' || c > '9')) {
			return false
		}
	}
	return true
}

// notWordRune is a mark around a status word; '?' is kept, since "Done?"
// is a question, not a status.
func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '/' && r != '?'
}

// HoldsBack reports a remark beside a status that says it does not quite
// hold: pending, awaiting, partial, reopened, not yet, retrying, ...
func HoldsBack(remark string) bool {
	if strings.ContainsRune(remark, '?') {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(remark), func(r rune) bool { return !unicode.IsLetter(r) }) {
		switch w {
		case "not", "but", "yet", "except", "open", "wip", "todo", "ish", "retrying", "resuming", "ongoing", "continuing":
			return true
		}
		for _, p := range []string{"pend", "await", "wait", "review", "partial", "reopen", "block", "progress", "incomplete", "unfinished"} {
			if strings.HasPrefix(w, p) {
				return true
			}
		}
	}
	return false
}

var wordSeparators = strings.NewReplacer("-", "_", " ", "_")

// IsTimestampKey reports whether a key names a timestamp (SPEC §2): one
// ending in _at, or one of the seeds' other names for one.
func IsTimestampKey(k string) bool {
	switch k {
	case "timestamp", "last_updated", "last_activity", "workflow_started", "updated":
		return true
	}
	return strings.HasSuffix(k, "_at")
}

// HeldBack says whether s is a done status that a remark holds back
// ("COMPLETE (pending QA)", "DONE - not verified", COMPLETE_PENDING_GATE):
// the work is not over.
func HeldBack(s string) bool {
	w := strings.TrimFunc(s, notWordRune)
	head, rest := w, ""
	if i := strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' }); i > 0 {
		head, rest = w[:i], w[i:]
	}
	head = strings.ToUpper(head)
	if j := strings.IndexByte(head, '_'); j > 0 && rest == "" {
		head, rest = head[:j], head[j:]
	}
	switch head {
	case "COMPLETE", "COMPLETED", "DONE", "FINISHED", "PASS", "PASSED":
		return rest != "" && HoldsBack(rest)
	}
	return false
}

// FinishedWords are the lifecycle states of a record that is over, in
// StatusWord spelling, with the spellings real files use. Callers must not
// modify it.
var FinishedWords = map[string]bool{
	"COMPLETE": true, "COMPLETED": true, "DONE": true, "FINISHED": true, "CLOSED": true, "ARCHIVED": true,
	"CANCELLED": true, "CANCELED": true, "ABANDONED": true, "SUPERSEDED": true, "FAILED": true, "ABORTED": true,
}

// FinishedWord is the one reading of "this record is over" that every
// rule and client shares: the word of FinishedWords that status s states,
// or "" for a status of work not over. It is the status word itself
// (StatusWord: "✅ Done", "COMPLETE - merged"), else its first word when
// the words after it do not hold it back ("COMPLETED_SUCCESSFULLY",
// "COMPLETE READY FOR ARCHIVE", but not "COMPLETE_PENDING_GATE"), else
// the word it misspells (Misspelled: "COMPELTE"). A misspelled word is a
// finished record whose status no reader comparing exact values takes as
// one: the rules about the terminal spelling report it. A subject naming
// the record itself before the word is not part of it ("WORKFLOW
// COMPLETE", "Project done"); a part named right after it makes it the
// status of that part, not of the record ("COMPLETE_PHASE_1", "Complete
// (phase 2 of 3)", "COMPLETE 3/5").
func FinishedWord(s string) string {
	s = withoutSubject(s)
	if ofPart(s) {
		return ""
	}
	w := StatusWord(s)
	if FinishedWords[w] {
		return w
	}
	if head, rest, ok := strings.Cut(w, "_"); ok && FinishedWords[head] && !HoldsBack(strings.ReplaceAll(rest, "_", " ")) {
		return head
	}
	return Misspelled(s)
}

// recordSubjects name the record a status is of, written before it
// ("WORKFLOW COMPLETE", jerry's current_state; "Project done"). A part of
// the record (a phase, a pipeline) is not one: its being done says nothing
// of the record.
var recordSubjects = []string{"WORKFLOW", "ORCHESTRATION", "PROJECT", "BUILD", "RUN"}

// RecordSubjects returns the words naming the record a status is of
// (recordSubjects): the exported JSON Schema reads statuses as lint does.
func RecordSubjects() []string { return append([]string(nil), recordSubjects...) }

// withoutSubject returns s without a leading subject of recordSubjects and
// the marks and separators around it, or s when it has none.
func withoutSubject(s string) string {
	t := strings.TrimLeftFunc(s, notWordRune)
	for _, subj := range recordSubjects {
		n := len(subj)
		if len(t) > n+1 && strings.EqualFold(t[:n], subj) && strings.ContainsRune(" _-", rune(t[n])) {
			if rest := strings.TrimLeft(t[n:], " _-"); rest != "" {
				return rest
			}
		}
	}
	return s
}

// partWords name a part of a record, by its number after them.
var partWords = map[string]bool{"PHASE": true, "STAGE": true, "STEP": true, "SECTION": true, "SPRINT": true,
	"MILESTONE": true, "PART": true, "WAVE": true, "GROUP": true}

// ofPart reports a finished word followed by the part of the record it
// is about ("COMPLETE_PHASE_1", "Done with phase 1", "COMPLETE 3/5
// phases"): a phase, stage, step, section or group by its number, or a
// fraction. Work of the record remains. The last part of all ("phase 3
// of 3", "5/5") is the whole record.
func ofPart(s string) bool {
	t := strings.TrimLeftFunc(s, notWordRune)
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) })
	if i <= 0 {
		return false
	}
	head := strings.ToUpper(t[:i])
	if !FinishedWords[head] && Misspelled(head) == "" {
		return false
	}
	tok := partTokens(t[i:], 5)
	if len(tok) > 0 && (tok[0] == "WITH" || tok[0] == "FOR" || tok[0] == "OF") {
		tok = tok[1:]
	}
	if len(tok) >= 2 && partWords[tok[0]] && isNumber(tok[1]) {
		return !(len(tok) >= 4 && (tok[2] == "OF" || tok[2] == "/")) || less(tok[1], tok[3])
	}
	return len(tok) >= 3 && isNumber(tok[0]) && (tok[1] == "/" || tok[1] == "OF") && less(tok[0], tok[2])
}

// partTokens splits the start of s into at most n words, numbers and
// slashes, in upper case; other marks separate them.
func partTokens(s string, n int) []string {
	var out []string
	for len(s) > 0 && len(out) < n {
		r, size := utf8.DecodeRuneInString(s)
		var end int
		switch {
		case r == '/':
			end = size
		case unicode.IsLetter(r):
			end = indexOr(s, func(r rune) bool { return !unicode.IsLetter(r) })
		case unicode.IsDigit(r):
			end = indexOr(s, func(r rune) bool { return !unicode.IsDigit(r) })
		default:
			s = s[size:]
			continue
		}
		out = append(out, strings.ToUpper(s[:end]))
		s = s[end:]
	}
	return out
}

// indexOr is the index of the first rune of s for which f holds, or len(s).
func indexOr(s string, f func(rune) bool) int {
	if i := strings.IndexFunc(s, f); i >= 0 {
		return i
	}
	return len(s)
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// less compares two decimal numbers.
func less(a, b string) bool {
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	return err1 == nil && err2 == nil && x < y
}

// Misspelled returns the word of FinishedWords that status s misspells
// (one letter left out, added, changed, or two swapped: COMPELTE,
// COMPLTED, Finsihed, SUPERCEDED, OCMPLETE), or "". A typo does not
// change the first letter alone: that makes other words (MAILED, SAILED,
// TAILED from FAILED); the first two swapped (OCMPLETE, AFILED) are a
// typo, as any other swap is. Words shorter than six letters are left alone: DONE is one
// letter from NONE and GONE; so are the real words one letter from a
// finished one (notMisspelled: CLONED, CLOSES).
func Misspelled(s string) string {
	w := StatusWord(s)
	if len(w) < 6 || FinishedWords[w] || notMisspelled[w] || strings.ContainsFunc(w, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		return ""
	}
	for _, f := range finishedByLength {
		if len(f) >= 6 && !(len(w) == len(f) && w[0] != f[0] && w[1:] == f[1:]) && oneEditApart(w, f) {
			return f
		}
	}
	return ""
}

// notMisspelled are words of their own one edit from a word of
// FinishedWords: a step's state (CLONED, MAILED), not a finished record's
// typo, which the record's live checks must still see.
var notMisspelled = map[string]bool{
	"CLONED": true, "CLOSER": true, "CLOSES": true, "CLOSET": true, "COMPETE": true,
	"COMPLETES": true, "COMPLETER": true, "FINISHES": true, "FINISHER": true,
	"FOILED":   true,
	"ARCHIVES": true, "ARCHIVER": true, "SUPERSEDES": true, "ABORTER": true, "CANCELER": true,
}

// finishedByLength are FinishedWords in a set order (shortest first, then
// by name), so a word one edit from two of them (CANCELED, CANCELLED)
// always gets the same answer.
var finishedByLength = func() []string {
	out := make([]string, 0, len(FinishedWords))
	for w := range FinishedWords {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) < len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}()

// oneEditApart reports two different ASCII words one insertion, deletion,
// substitution or swap of neighbours apart.
func oneEditApart(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 || a == b {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) < len(b) {
		return a[i:] == b[i+1:]
	}
	if a[i+1:] == b[i+1:] {
		return true
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// Int returns an integer scalar's value.
func Int(n *yaml.Node) (int64, bool) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
	return v, err == nil
}

// Float returns a numeric scalar's value (int or float).
func Float(n *yaml.Node) (float64, bool) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch n.ShortTag() {
	case "!!int":
		i, ok := Int(n)
		return float64(i), ok
	case "!!float":
		v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		return v, err == nil
	}
	return 0, false
}

// Bool returns a boolean scalar's value.
func Bool(n *yaml.Node) (bool, bool) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, false
	}
	// The spellings the decoder accepts for !!bool, without a decoder
	// (a few KiB for each call); anything else it answers as before. A
	// non-specific "!" tag is no boolean to the decoder.
	if n.Tag != "!" {
		switch n.Value {
		case "true", "True", "TRUE":
			return true, true
		case "false", "False", "FALSE":
			return false, true
		}
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, false
	}
	return b, true
}

// Pos returns a node's position.
func Pos(n *yaml.Node) diag.Pos {
	if n == nil {
		return diag.Pos{Line: 1, Col: 1}
	}
	return diag.Pos{Line: n.Line, Col: n.Column}
}

// Lookup walks a path of mapping keys and sequence indexes ("0", "1", …)
// from n. It returns the deepest node reached, the key node of the last
// mapping step taken, and how many path elements were matched.
func Lookup(n *yaml.Node, path []string) (last, key *yaml.Node, matched int) {
	cur := Resolve(n)
	for i, sel := range path {
		switch {
		case cur != nil && cur.Kind == yaml.MappingNode:
			k, v := Get(cur, sel)
			if k == nil {
				return cur, key, i
			}
			cur, key = v, k
		case cur != nil && cur.Kind == yaml.SequenceNode:
			idx, err := strconv.Atoi(sel)
			if err != nil || idx < 0 || idx >= len(cur.Content) {
				return cur, key, i
			}
			cur, key = Resolve(cur.Content[idx]), nil
		default:
			return cur, key, i
		}
	}
	return cur, key, len(path)
}

// Kind names a node's type for messages ("a mapping", "a string", …).
func Kind(n *yaml.Node) string {
	n = Resolve(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.ShortTag() {
	case "!!str":
		return "a string"
	case "!!int":
		return "an integer"
	case "!!float":
		return "a number"
	case "!!bool":
		return "a boolean"
	case "!!null":
		return "null"
	case "!!timestamp":
		return "a timestamp"
	}
	return "a value"
}

// Walk visits every node under n once (aliases are not followed).
func Walk(n *yaml.Node, fn func(n, parentKey *yaml.Node)) { walk(n, fn, false) }

// WalkKeys is Walk, visiting mapping keys too (with no parent key): text
// is written in keys as in values.
func WalkKeys(n *yaml.Node, fn func(n, parentKey *yaml.Node)) { walk(n, fn, true) }

func walk(n *yaml.Node, fn func(n, parentKey *yaml.Node), keys bool) {
	var rec func(n, pk *yaml.Node)
	rec = func(n, pk *yaml.Node) {
		if n == nil {
			return
		}
		fn(n, pk)
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if keys {
					fn(n.Content[i], nil)
				}
				rec(n.Content[i+1], n.Content[i])
			}
		case yaml.SequenceNode, yaml.DocumentNode:
			for _, c := range n.Content {
				rec(c, pk)
			}
		}
	}
	rec(n, nil)
}
