package rules

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
)

// Credentials written where no parsed value holds them: in comments (a
// suppression's reason, a migrated current_state kept as a comment), in a
// Markdown body, on a JSONL line that does not parse, anywhere in a file
// that does not parse at all (whose snippets and parser errors quote its
// lines). Their text is judged as a value's is (embeddedIn: a name like
// password or API_TOKEN before it, a URL's password, an HTTP Basic
// credential), on the raw line.

// lineSecrets adds to out the credentials embeddedIn finds in the text of
// f that trees do not hold, unless a span of out covers them already.
func lineSecrets(f *load.File, trees []*yaml.Node, out []SecretSpan) []SecretSpan {
	if len(f.Data) == 0 {
		return out
	}
	// Each line is screened for what embeddedIn looks for (mayEmbedBytes)
	// before a copy or a regexp: no pass over the whole file first, most
	// files are left at the switch below.
	format := load.FormatOf(f.Kind, f.Path)
	whole := len(trees) == 0 // nothing parsed: every line is text
	switch {
	case whole:
	case format == load.FormatJSON:
		return out // parsed, and JSON has no comments
	case format == load.FormatYAML && bytes.IndexByte(f.Data, '#') < 0:
		return out // parsed, and no comment
	}
	var parsed map[int]bool // JSONL: the lines that parsed
	if format == load.FormatJSONL && !whole {
		parsed = map[int]bool{}
		for _, t := range trees {
			parsed[t.Line] = true
		}
	}
	body := 0 // Markdown: the first line of the body
	if format == load.FormatMarkdown {
		body = markdownBody(f)
	}
	found := newSpanIndex(out)
	n := len(f.LineStarts())
	for l := 1; l <= n; l++ {
		lb := f.LineBytes(l)
		if len(lb) < 16 {
			continue
		}
		var line string
		from := -1
		switch {
		case whole, body > 0 && l >= body:
			from = 0
		case format == load.FormatJSONL:
			if !parsed[l] {
				from = 0
			}
		case format == load.FormatYAML, format == load.FormatMarkdown:
			if bytes.IndexByte(lb, '#') < 0 {
				continue
			}
			line = string(lb)
			from = commentStart(line)
		}
		if from < 0 || !mayEmbedBytes(lb[from:]) {
			continue
		}
		if line == "" {
			line = string(lb)
		}
		// The matches come in order: their columns are counted on.
		starts, ends := colCounter{line: line}, colCounter{line: line}
		for _, m := range embeddedIn(line[from:]) {
			sp := SecretSpan{Line: l, Col: starts.col(from + m.a), EndLine: l, EndCol: ends.col(from + m.b), What: m.what}
			if !found.overlaps(sp) {
				out = append(out, sp)
			}
		}
	}
	return out
}

// commentStart is the byte offset of the comment on a YAML line (a #
// at its start or after a blank, outside quotes), or -1. A quote opens a
// quoted scalar only where one starts (the line's start, after a key's
// colon, a list's dash, [, { or a comma), not inside a plain one
// (`trigger: scheduled 'x`); \" inside double quotes and ” inside
// single ones do not close them.
func commentStart(line string) int {
	var quote, last byte // last: the last byte outside quotes that is no blank
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote == '\'' && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++
		case quote != 0:
			if c == quote {
				quote, last = 0, c
			}
		case c == ' ' || c == '\t':
		case c == '#':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' {
				return i
			}
			last = c
		case c == '"' || c == '\'':
			starts := i == 0 || strings.IndexByte(" \t[{,", line[i-1]) >= 0
			if starts && (last == 0 || strings.IndexByte(":-[{,?", last) >= 0) {
				quote = c
			} else {
				last = c
			}
		default:
			last = c
		}
	}
	return -1
}

// markdownBody is the first line after the front matter of a Markdown
// file (its fences as the parser reads them), or 1 when it has none.
func markdownBody(f *load.File) int {
	if strings.TrimRight(f.Line(1), " \t\r") != "---" {
		return 1
	}
	n := len(f.LineStarts())
	for l := 2; l <= n; l++ {
		if t := strings.TrimRight(f.Line(l), " \t\r"); t == "---" || t == "..." {
			return l + 1
		}
	}
	return n + 1 // not closed: RL310, and the text is front matter
}

// Text a rule quotes from outside the unit's files (the base version of a
// file, with --base) is masked of the credentials located in it: the rule
// hands that text to maskAlso when it reads it, and the engine masks the
// unit's findings of those credentials (ExtraSecrets) as of the unit's
// own.

// extraSecrets are the texts of credentials located in what the unit's
// rules read besides its files.
var extraSecrets = NewResult("extra-secrets", func(p *Pass) *[]string { return new([]string) })

// maskAlso locates the credentials in f (parsed into trees; none when it
// does not parse) for the engine to mask in the unit's findings.
func maskAlso(p *Pass, f *load.File, trees []*yaml.Node) {
	if len(f.Data) == 0 || !MayHoldSecret(f.Data) {
		return
	}
	if spans := FindSecrets(f, trees); len(spans) > 0 {
		ts := extraSecrets.Of(p)
		*ts = append(*ts, spanTexts(f, spans)...)
	}
}

// ExtraSecrets are the credentials located in text the unit's rules read
// from outside its files (maskAlso), to be masked in its findings.
func ExtraSecrets(p *Pass) []string {
	if ts, ok := extraSecrets.Peek(p); ok {
		return *ts
	}
	return nil
}

// spanTexts are the text of each line of each span, trimmed.
func spanTexts(f *load.File, spans []SecretSpan) []string {
	out := SpanTexts(f, spans)
	for i, t := range out {
		out[i] = strings.TrimSpace(t)
	}
	return out
}

// SpanTexts are the text of each line of each span, as written: what the
// engine masks of a located secret. A line holding many is decoded once.
func SpanTexts(f *load.File, spans []SecretSpan) []string {
	var out []string
	runes := map[int][]rune{}
	for _, sp := range spans {
		for l := sp.Line; l <= max(sp.EndLine, sp.Line) && l-sp.Line < 1000; l++ {
			r, ok := runes[l]
			if !ok {
				r = []rune(f.Line(l))
				runes[l] = r
			}
			a, b := 0, len(r)
			if l == sp.Line {
				a = sp.Col - 1
			}
			if l == sp.EndLine && sp.EndCol > 0 {
				b = min(b, sp.EndCol-1)
			}
			if a >= 0 && a < b {
				out = append(out, string(r[a:b]))
			}
		}
	}
	return out
}
