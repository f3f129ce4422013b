package engine

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// Every text the engine hands on that came from a file — messages, fix
// descriptions, related messages, snippets, the lines of suppression
// directives — passes here first and is masked of the secrets located in
// that file (rules.SecretsToMask). They are located whatever rules run or
// are reported: --disable RL005, `rules: {RL005: off}`, an `ignore:`
// entry or an inline directive hide a finding, never a secret.

// located is what the engine hides of the secrets located in one file:
// where they are (spans, on the file's own lines), each line of each as
// written and decoded (secs), and every run of secretRun bytes of them
// (windows), which a message or another line of the file may hold in
// part.
type located struct {
	spans   []rules.SecretSpan
	secs    []string
	windows map[string]bool
	// pieces are what a message may hold of a secret whole (each line of
	// it, its distinctive middle, its quoted middle), found in one pass
	// over a message through byHead, their first pieceHead bytes.
	pieces []string
	byHead map[string][]int
	// edges are the first and last up to secretRun-1 bytes of each
	// secret: what a clip may leave of one beside its ellipsis, too short
	// for a run (made on first use).
	heads, tails map[string]bool
	byLine       map[int][]int // spansOn
}

// pieceHead is how many leading bytes of a piece index it.
const pieceHead = 6

// locate gives the secrets rules.SecretsToMask finds in the unit's files,
// while its documents are in hand, by path; nil when there are none.
// A file that was not parsed (not UTF-8, a NUL byte) has its text
// searched all the same: its snippets quote its lines.
func (ur *unitRun) locate() map[string]*located {
	var spans map[string][]rules.SecretSpan
	var extra []string // located in what the rules read besides the files (--base)
	if ur.unit != nil {
		p := rules.NewPass(nil, &ur.s.Opts, ur.unit, nil)
		p.Results = ur.results
		spans = rules.SecretsToMask(p)
		extra = rules.ExtraSecrets(p)
	}
	var out map[string]*located
	for _, f := range ur.files {
		if f.Data == nil {
			continue
		}
		sp := spans[f.Path]
		if ur.unit == nil && len(sp) == 0 && (ur.s.Opts.Limits.MaxFileSize <= 0 || int64(len(f.Data)) <= ur.s.Opts.Limits.MaxFileSize) && rules.MayHoldSecret(f.Data) {
			sp = rules.FindSecrets(f, nil)
		}
		if len(sp) > 0 || len(extra) > 0 {
			if out == nil {
				out = map[string]*located{}
			}
			out[f.Path] = locatedIn(f, sp, extra...)
		}
	}
	return out
}

// Masker returns what hides, in text printed from the files of docs
// (parsed or not), the credentials located in them, as a lint's reports
// hide them; nil when none is located.
func Masker(docs []*load.Document) func(string) string {
	loc := map[string]*located{}
	for _, d := range docs {
		if d == nil || d.File == nil || d.File.Data == nil {
			continue
		}
		if sp := rules.DocSecrets(d); len(sp) > 0 {
			loc[d.File.Path] = locatedIn(d.File, sp)
		}
	}
	if len(loc) == 0 {
		return nil
	}
	return unionOf(loc).mask
}

// locatedIn takes the text of spans from f, and adds the texts of extra
// (credentials located elsewhere that f's findings may quote).
func locatedIn(f *load.File, spans []rules.SecretSpan, extra ...string) *located {
	lc := &located{spans: spans}
	for _, e := range extra {
		lc.secs = append(lc.secs, e)
		if u, ok := unquote(e); ok {
			lc.secs = append(lc.secs, u)
		}
	}
	for _, seg := range rules.SpanTexts(f, spans) {
		lc.secs = append(lc.secs, strings.TrimSpace(seg))
		if u, ok := unquote(seg); ok {
			lc.secs = append(lc.secs, u)
			for _, part := range strings.Split(u, "\n") {
				lc.secs = append(lc.secs, strings.TrimSpace(part))
			}
		}
	}
	lc.windows = secretWindows(lc.secs)
	lc.indexPieces()
	lc.indexLines()
	return lc
}

// indexPieces lists what mask looks for of each secret of six bytes or
// more: the secret, its middle (a JSON-escaped or quoted rendering may
// differ at the ends) and the middle of its Go-quoted form.
func (lc *located) indexPieces() {
	lc.byHead = map[string][]int{}
	seen := map[string]bool{}
	add := func(p string) {
		if p == "" || seen[p] {
			return
		}
		seen[p] = true
		if lc.covered(p) {
			return // maskRuns hides every occurrence already
		}
		if len(p) < pieceHead {
			return // a short middle: replaced one by one, it would cost every message a pass and garble its words
		}
		lc.byHead[p[:pieceHead]] = append(lc.byHead[p[:pieceHead]], len(lc.pieces))
		lc.pieces = append(lc.pieces, p)
	}
	for _, sec := range lc.secs {
		if len(sec) < 6 {
			continue
		}
		add(sec)
		if len(sec) < 16 {
			// A short middle is a word or two of the value a masked
			// line of text holds ("rotate" of "is rotated'"): masked in
			// every message, it says nothing of a credential.
			continue
		}
		add(sec[3 : len(sec)-2])
		if q := strconv.Quote(sec); len(q) > 8 {
			add(q[4 : len(q)-3])
		}
	}
}

// covered reports whether every run of secretRun bytes of p is a window,
// so maskRuns masks any occurrence of p whole.
func (lc *located) covered(p string) bool {
	if len(p) < secretRun {
		return false
	}
	for i := 0; i+secretRun <= len(p); i++ {
		if !lc.windows[p[i:i+secretRun]] {
			return false
		}
	}
	return true
}

// maskPieces replaces every stretch of msg that holds a piece with ****,
// in one pass over msg whatever the number of secrets.
func (lc *located) maskPieces(msg string) string {
	if len(lc.pieces) == 0 || len(msg) < pieceHead {
		return msg
	}
	var sb strings.Builder
	last, end := 0, -1 // end: past the stretch being covered
	for i := 0; i+pieceHead <= len(msg); i++ {
		far := -1
		for _, pi := range lc.byHead[msg[i:i+pieceHead]] {
			if p := lc.pieces[pi]; strings.HasPrefix(msg[i:], p) {
				far = max(far, i+len(p))
			}
		}
		if far < 0 {
			continue
		}
		if end >= 0 && i > end {
			sb.WriteString("****")
			last = end
			end = -1
		}
		if end < 0 {
			sb.WriteString(msg[last:i])
		}
		end = max(end, far)
	}
	if end < 0 {
		if last == 0 {
			return msg
		}
		sb.WriteString(msg[last:])
		return sb.String()
	}
	sb.WriteString("****")
	sb.WriteString(msg[end:])
	return sb.String()
}

// redact removes from the messages of fs every secret located in their
// file (CUE's messages quote offending values): each line of it as
// written and decoded, any run of secretRun bytes of it (a message that
// clipped the value); then diag.SafeText masks anything in any message
// that looks like a credential and escapes every control character
// (rules name keys and values as they are written).
func redact(fs []diag.Finding, loc map[string]*located) {
	for i := range fs {
		if lc := loc[fs[i].Path]; lc != nil {
			fs[i].Message = lc.mask(fs[i].Message)
			if fx := fs[i].Fix; fx != nil {
				fx.Description = lc.mask(fx.Description) // shown by fix, the hook and editors
			}
			for j := range fs[i].Related {
				fs[i].Related[j].Message = lc.mask(fs[i].Related[j].Message)
			}
		}
		diag.SafeText(&fs[i])
	}
}

// maskAcrossFiles masks the texts of fs of the secrets located in every
// file of the run (all, their union), once their own file's are masked: a rule may
// quote another file it read (a checkpoint's event id in the workflow's
// finding), whose secrets its own file's do not name. Idempotent: ****
// holds no run of a secret.
func maskAcrossFiles(fs []diag.Finding, all *located) {
	if all == nil {
		return
	}
	for i := range fs {
		fd := &fs[i]
		fd.Message = all.mask(fd.Message)
		if fx := fd.Fix; fx != nil {
			fx.Description = all.mask(fx.Description)
		}
		for j := range fd.Related {
			fd.Related[j].Message = all.mask(fd.Related[j].Message)
		}
		if fd.HasSnippet {
			// character for character, so the caret keeps its column
			fd.Snippet = all.maskLine(fd.Snippet, 0)
		}
	}
}

// unionOf is every secret of loc as one located: lines, windows, pieces
// (no spans: where in a snippet's file a secret sits is its own file's
// to say; the union masks the runs of one found elsewhere).
func unionOf(loc map[string]*located) *located {
	all := &located{windows: map[string]bool{}}
	for _, lc := range loc {
		all.secs = append(all.secs, lc.secs...)
		for w := range lc.windows {
			all.windows[w] = true
		}
	}
	all.indexPieces()
	return all
}

// mask hides in msg every located secret: first what has a credential's
// shape (whole, before a located secret's runs could break the shape),
// then runs, pieces, and what a clip left of one beside its ellipsis.
func (lc *located) mask(msg string) string {
	return lc.maskEdges(lc.maskPieces(maskRuns(diag.Mask(msg), lc.windows)))
}

// maskEdges hides what a clip left of a located secret next to its
// ellipsis ("https://bot:Gh7kP2…"): the bytes before an ellipsis that
// begin a secret, and those after one that end it, when there are 3 or
// more of them or they stand apart from the word before or after (fewer
// than secretRun: longer ones are runs, masked already).
func (lc *located) maskEdges(msg string) string {
	if !strings.Contains(msg, "…") && !strings.Contains(msg, "...") || len(lc.secs) == 0 {
		return msg
	}
	if lc.heads == nil {
		lc.heads, lc.tails = map[string]bool{}, map[string]bool{}
		for _, sec := range lc.secs {
			// A line of a masked value may start or end with its quote:
			// a lone quote beside an ellipsis is no part of a secret.
			sec = strings.Trim(sec, "\"' \t")
			if len(sec) < secretRun {
				continue
			}
			for k := 1; k < secretRun; k++ {
				if h := sec[:k]; hasWordByte(h) {
					lc.heads[h] = true
				}
				if t := sec[len(sec)-k:]; hasWordByte(t) {
					lc.tails[t] = true
				}
			}
		}
	}
	var sb strings.Builder
	last := 0
	for i := 0; i < len(msg); {
		n := ellipsisAt(msg, i)
		if n == 0 {
			i++
			continue
		}
		if k := edge(msg[last:i], lc.heads, true); k > 0 {
			sb.WriteString(msg[last : i-k])
			sb.WriteString("****")
		} else {
			sb.WriteString(msg[last:i])
		}
		sb.WriteString(msg[i : i+n])
		last = i + n
		if k := edge(msg[last:], lc.tails, false); k > 0 {
			sb.WriteString("****")
			last += k
		}
		i = last
	}
	sb.WriteString(msg[last:])
	return sb.String()
}

// ellipsisAt is the length of an ellipsis ("…" or "...") at msg[i:], or 0.
func ellipsisAt(msg string, i int) int {
	switch {
	case strings.HasPrefix(msg[i:], "…"):
		return len("…")
	case strings.HasPrefix(msg[i:], "..."):
		return 3
	}
	return 0
}

// edge is how many bytes at the end of s (atEnd) or its start are one of
// set, the longest first, when they are 3 or more or stand apart from the
// word beside them; 0 when none. A credential's known prefix (sk-, ghp_)
// is not one: it tells nothing, and a message names kinds by it.
func edge(s string, set map[string]bool, atEnd bool) int {
	for k := min(secretRun-1, len(s)); k >= 1; k-- {
		var piece string
		var beside byte = ' '
		if atEnd {
			piece = s[len(s)-k:]
			if len(s) > k {
				beside = s[len(s)-k-1]
			}
		} else {
			piece = s[:k]
			if len(s) > k {
				beside = s[k]
			}
		}
		if set[piece] && (k >= 3 || !isWordByte(beside)) && !(atEnd && diag.KnownSecretPrefix(piece)) {
			return k
		}
	}
	return 0
}

// hasWordByte reports whether s holds a letter, a digit or _.
func hasWordByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if isWordByte(s[i]) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// maskSnippets hides in each finding's snippet the secrets located in its
// file, character for character, so the caret still stands under its
// column: the secrets on that line where they were located, and any run
// of secretRun bytes of one elsewhere (a value repeated on a line no
// pattern flags). Findings on one line share one masked copy of it.
func maskSnippets(fs []diag.Finding, loc map[string]*located) {
	if len(loc) == 0 {
		return
	}
	type at struct {
		path string
		line int
	}
	done := map[at]string{}
	for i := range fs {
		fd := &fs[i]
		lc := loc[fd.Path]
		if !fd.HasSnippet || lc == nil {
			continue
		}
		k := at{fd.Path, fd.Start.Line}
		m, ok := done[k]
		if !ok {
			m = lc.maskLine(fd.Snippet, fd.Start.Line)
			done[k] = m
		}
		fd.Snippet = m
	}
}

// maskDirectives returns dirs with the line each sits on masked like a
// snippet (RL007 shows it), sharing dirs when nothing changes.
func maskDirectives(dirs []load.Directive, lc *located) []load.Directive {
	if lc == nil {
		return dirs
	}
	out := dirs
	for i, d := range dirs {
		if m := lc.maskLine(d.LineText, d.Line); m != d.LineText {
			if &out[0] == &dirs[0] {
				out = slices.Clone(dirs)
			}
			out[i].LineText = m
		}
	}
	return out
}

// spansOn returns the indexes of the spans covering line n (as locatedIn
// reads them, at most 1000 lines of one span).
func (lc *located) spansOn(n int) []int { return lc.byLine[n] }

// indexLines makes spansOn's index, once, before the located secrets are
// shared.
func (lc *located) indexLines() {
	lc.byLine = map[int][]int{}
	for i, sp := range lc.spans {
		for l := sp.Line; l <= max(sp.EndLine, sp.Line) && l-sp.Line < 1000; l++ {
			lc.byLine[l] = append(lc.byLine[l], i)
		}
	}
}

// maskLine hides, character for character, the located secrets in text,
// the text of line n of the file.
func (lc *located) maskLine(text string, n int) string {
	var runes []rune
	star := func(a, b int) { // runes [a, b)
		if runes == nil {
			runes = []rune(text)
		}
		for i := max(a, 0); i < b && i < len(runes); i++ {
			runes[i] = '*'
		}
	}
	for _, si := range lc.spansOn(n) {
		sp := lc.spans[si]
		a, b := 0, 1<<30 // a line inside a block: all of it
		if n == sp.Line {
			a = sp.Col - 1
		}
		if n == sp.EndLine && sp.EndCol > 0 {
			b = sp.EndCol - 1
		}
		star(a, b)
	}
	at, before := 0, 0 // stretches come in order: count runes on from the last
	for _, st := range runStretches(text, lc.windows) {
		before += utf8.RuneCountInString(text[at:st[0]])
		at = st[0]
		star(before, before+utf8.RuneCountInString(text[st[0]:st[1]]))
	}
	if runes == nil {
		return text
	}
	return string(runes)
}

// secretRun is the shortest piece of a located secret a message may not
// hold: a message that clipped the value keeps pieces of it that match
// neither the whole value nor a pattern.
const secretRun = 8

// secretWindows returns every run of secretRun bytes of the words of secs.
func secretWindows(secs []string) map[string]bool {
	w := map[string]bool{}
	for _, sec := range secs {
		for _, word := range strings.Fields(sec) {
			word = strings.Trim(word, `"',`)
			for i := 0; i+secretRun <= len(word); i++ {
				w[word[i:i+secretRun]] = true
			}
		}
	}
	return w
}

// maskRuns replaces each stretch of msg covered by runs of a located
// secret (windows) with ****.
func maskRuns(msg string, windows map[string]bool) string {
	st := runStretches(msg, windows)
	if st == nil {
		return msg
	}
	var sb strings.Builder
	last := 0
	for _, s := range st {
		sb.WriteString(msg[last:s[0]])
		sb.WriteString("****")
		last = s[1]
	}
	sb.WriteString(msg[last:])
	return sb.String()
}

// runStretches returns the byte ranges of s covered by runs of a located
// secret (windows), in order, each widened to whole characters.
func runStretches(s string, windows map[string]bool) [][2]int {
	if len(windows) == 0 || len(s) < secretRun {
		return nil
	}
	var out [][2]int
	start, end := 0, -1 // end: past the covered stretch being built
	flush := func() {
		for start > 0 && !utf8.RuneStart(s[start]) {
			start--
		}
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		if n := len(out); n > 0 && start < out[n-1][1] {
			start = out[n-1][1]
		}
		out = append(out, [2]int{start, end})
	}
	for i := 0; i+secretRun <= len(s); i++ {
		if !windows[s[i:i+secretRun]] {
			continue
		}
		if end >= 0 && i > end {
			flush()
			end = -1
		}
		if end < 0 {
			start = i
		}
		end = i + secretRun
	}
	if end < 0 {
		return out
	}
	flush()
	return out
}

// unquote decodes a double-quoted (JSON or YAML) scalar's text.
func unquote(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '"' {
		return "", false
	}
	var out string
	if err := json.Unmarshal([]byte(s), &out); err == nil {
		return out, true
	}
	if u, err := strconv.Unquote(s); err == nil {
		return u, true
	}
	return "", false
}
