package rules

import (
	"bytes"
	"strings"
	"unicode/utf8"

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
	if len(f.Data) == 0 || !mayEmbedBytes(f.Data) {
		return out
	}
	format := load.FormatOf(f.Kind, f.Path)
	whole := len(trees) == 0 // nothing parsed: every line is text
	var parsed map[int]bool  // JSONL: the lines that parsed
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
		for _, m := range embeddedIn(line[from:]) {
			a, b := from+m.a, from+m.b
			sp := SecretSpan{Line: l, Col: utf8.RuneCountInString(line[:a]) + 1, EndLine: l, EndCol: utf8.RuneCountInString(line[:b]) + 1, What: m.what}
			if !found.overlaps(sp) {
				out = append(out, sp)
			}
		}
	}
	return out
}

// commentStart is the byte offset of the comment on a YAML line (a #
// at its start or after a blank, outside quotes), or -1.
func commentStart(line string) int {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == ':' || line[i-1] == '[' || line[i-1] == '{' || line[i-1] == ',' || line[i-1] == '-' {
				quote = c
			}
		case c == '#':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' {
				return i
			}
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
