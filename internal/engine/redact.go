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
}

// locate gives the secrets rules.SecretsToMask finds in the unit's files,
// while its documents are in hand, by path; nil when there are none.
func (ur *unitRun) locate() map[string]*located {
	if ur.unit == nil {
		return nil
	}
	p := rules.NewPass(nil, &ur.s.Opts, ur.unit, nil)
	p.Results = ur.results
	spans := rules.SecretsToMask(p)
	if len(spans) == 0 {
		return nil
	}
	out := map[string]*located{}
	for _, f := range ur.files {
		if sp := spans[f.Path]; len(sp) > 0 && f.Data != nil {
			out[f.Path] = locatedIn(f, sp)
		}
	}
	return out
}

// locatedIn takes the text of spans from f.
func locatedIn(f *load.File, spans []rules.SecretSpan) *located {
	lc := &located{spans: spans}
	for _, sp := range spans {
		endLine := max(sp.EndLine, sp.Line)
		for l := sp.Line; l <= endLine && l-sp.Line < 1000; l++ {
			line := []rune(f.Line(l))
			a, b := 0, len(line)
			if l == sp.Line {
				a = sp.Col - 1
			}
			if l == endLine && sp.EndCol > 0 {
				b = min(b, sp.EndCol-1)
			}
			if a < 0 || a >= b {
				continue
			}
			seg := string(line[a:b])
			lc.secs = append(lc.secs, strings.TrimSpace(seg))
			if u, ok := unquote(seg); ok {
				lc.secs = append(lc.secs, u)
				for _, part := range strings.Split(u, "\n") {
					lc.secs = append(lc.secs, strings.TrimSpace(part))
				}
			}
		}
	}
	lc.windows = secretWindows(lc.secs)
	return lc
}

// redact removes from the messages of fs every secret located in their
// file (CUE's messages quote offending values): each line of it as
// written and decoded, any run of secretRun bytes of it (a message that
// clipped the value); then diag.SafeText masks anything in any message
// that looks like a credential and escapes every control character
// (rules name keys and values as they are written).
func redact(fs []diag.Finding, loc map[string]*located) {
	mask := func(lc *located, msg string) string {
		msg = maskRuns(msg, lc.windows)
		for _, sec := range lc.secs {
			if len(sec) >= 6 {
				msg = strings.ReplaceAll(msg, sec, "****")
				// A JSON-escaped or quoted rendering may differ; mask the
				// distinctive middle too.
				msg = strings.ReplaceAll(msg, sec[3:len(sec)-2], "****")
				if q := strconv.Quote(sec); len(q) > 8 {
					msg = strings.ReplaceAll(msg, q[4:len(q)-3], "****")
				}
			}
		}
		return msg
	}
	for i := range fs {
		if lc := loc[fs[i].Path]; lc != nil {
			fs[i].Message = mask(lc, fs[i].Message)
			if fx := fs[i].Fix; fx != nil {
				fx.Description = mask(lc, fx.Description) // shown by fix, the hook and editors
			}
			for j := range fs[i].Related {
				fs[i].Related[j].Message = mask(lc, fs[i].Related[j].Message)
			}
		}
		diag.SafeText(&fs[i])
	}
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
	for _, sp := range lc.spans {
		if n < sp.Line || n > max(sp.EndLine, sp.Line) {
			continue
		}
		a, b := 0, 1<<30 // a line inside a block: all of it
		if n == sp.Line {
			a = sp.Col - 1
		}
		if n == sp.EndLine && sp.EndCol > 0 {
			b = sp.EndCol - 1
		}
		star(a, b)
	}
	for _, st := range runStretches(text, lc.windows) {
		a := utf8.RuneCountInString(text[:st[0]])
		star(a, a+utf8.RuneCountInString(text[st[0]:st[1]]))
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
