package load

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/diag"
)

// Directive is one `# resumelint:VERB NAME[,NAME] -- reason` comment of a
// YAML file or a Markdown file's front matter, captured when the file is
// read so it outlives the release of the file's bytes.
type Directive struct {
	Line, Col, EndCol int    // the comment's position
	Verb              string // ignore, ignore-file, or what was written
	WholeFile         bool   // ignore-file
	Target            int    // ignore: the line it covers
	Names             []string
	Reason            string
	Text              string // the comment, for the fingerprint
	LineText          string // the line it sits on, for the snippet of RL007
	// Remove deletes the comment (its line when it stands alone); Replace
	// spans the comment, to be rewritten. Nil when the file's line breaks
	// do not allow edits.
	Remove, Replace *diag.TextEdit
}

// captureDirectives parses the file's suppression directives, each with
// the text of its line, which outlives Release.
func (f *File) captureDirectives() { f.captureDirectivesAs(FormatOf(f.Kind, f.Path)) }

// DirectivesIn parses the suppression directives of data, the text of a
// file of the given format: what a fix would leave in a file is checked
// before it is written (a fix never writes a directive).
func DirectivesIn(format Format, data []byte) []Directive {
	f := &File{Data: data}
	f.captureDirectivesAs(format)
	return f.Directives
}

func (f *File) captureDirectivesAs(format Format) {
	f.Directives = nil
	if f.Data == nil || !bytes.Contains(f.Data, directiveMarker) {
		return
	}
	first, last := 1, len(f.LineStarts())
	switch format {
	case FormatYAML:
	case FormatMarkdown:
		if strings.TrimRight(f.Line(1), " \t") != "---" {
			return
		}
		first, last = 2, 0
		for i := 2; i <= len(f.LineStarts()); i++ {
			if t := strings.TrimRight(f.Line(i), " \t"); t == "---" || t == "..." {
				last = i - 1
				break
			}
		}
	default:
		return
	}
	editable := BreaksOK(f.Data)
	ls := f.LineStarts()
	start, end := ls[first-1], len(f.Data)
	if last < len(ls) {
		end = ls[last]
	}
	// Only comments the YAML parser sees are directives: the same text
	// inside a quoted string or a block scalar is part of a value.
	comments := yamlComments(f.Data[start:end])
	own := make(map[int]bool, len(comments)) // lines holding only a comment
	at := make([]int, 0, len(comments))      // each comment's line
	for _, c := range comments {
		i := sort.SearchInts(ls, start+c+1)
		at = append(at, i)
		if strings.TrimSpace(string(f.Data[ls[i-1]:start+c])) == "" {
			own[i] = true
		}
	}
	// A comment on a line of its own covers the next line that is not a
	// comment itself (stacked suppressions): found from the last comment
	// up, so that a stack of them is walked once, not once per comment.
	next := make(map[int]int, len(own))
	for k := len(at) - 1; k >= 0; k-- {
		i := at[k]
		if !own[i] {
			continue
		}
		t := i + 1
		if t <= last && own[t] {
			t = next[t]
		}
		next[i] = t
	}
	for k, c := range comments {
		i := at[k]
		line := f.Line(i)
		from := start + c - ls[i-1]
		d := parseDirective(cutYAMLBreak(line, from), from)
		if d == nil {
			continue
		}
		d.Line, d.LineText = i, line
		if !d.WholeFile {
			d.Target = i
			if own[i] {
				d.Target = next[i]
			}
		}
		if editable {
			d.Remove, d.Replace = f.commentEdits(i, d.Col)
		}
		f.Directives = append(f.Directives, *d)
	}
}

// cutYAMLBreak cuts line at the first line break YAML sees after byte
// from (CR, NEL, LS, PS), where a comment ends.
func cutYAMLBreak(line string, from int) string {
	end, _ := yamlLineEnd([]byte(line), from)
	return line[:end]
}

// commentEdits returns the edit deleting the comment that starts at
// line:col, and the span of the comment to its line's end.
func (f *File) commentEdits(line, col int) (remove, replace *diag.TextEdit) {
	a := f.Offset(diag.Pos{Line: line, Col: col})
	if a >= len(f.Data) || f.Data[a] != '#' {
		return nil, nil
	}
	ls := f.LineStarts()
	start, next := ls[line-1], len(f.Data)
	if line < len(ls) {
		next = ls[line]
	}
	end := next
	for end > a && (f.Data[end-1] == '\n' || f.Data[end-1] == '\r') {
		end--
	}
	replace = &diag.TextEdit{Offset: a, Length: end - a}
	if strings.TrimSpace(string(f.Data[start:a])) == "" {
		return &diag.TextEdit{Offset: start, Length: next - start}, replace
	}
	b := a
	for b > start && (f.Data[b-1] == ' ' || f.Data[b-1] == '\t') {
		b--
	}
	return &diag.TextEdit{Offset: b, Length: end - b}, replace
}

// BreaksOK reports text whose only line breaks are LF and CRLF: the
// files internal/fix edits, and whose directives get edits.
func BreaksOK(data []byte) bool {
	for i, b := range data {
		if b == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			return false
		}
	}
	return !bytes.Contains(data, []byte("\u0085")) && !bytes.Contains(data, []byte("\u2028")) && !bytes.Contains(data, []byte("\u2029"))
}

// parseDirective parses `# resumelint:VERB CODE[,CODE] -- reason` in the
// comment of line that starts at byte from; nil when it holds none.
func parseDirective(line string, from int) *Directive {
	at := strings.Index(line[from:], string(directiveMarker))
	if at < 0 {
		return nil
	}
	at += from
	hash := strings.LastIndexByte(line[:at], '#')
	if hash < from || strings.TrimSpace(line[hash+1:at]) != "" || (hash > 0 && line[hash-1] != ' ' && line[hash-1] != '\t') {
		return nil
	}
	rest := line[at+len(directiveMarker):]
	verbEnd := 0
	for verbEnd < len(rest) && (rest[verbEnd] == '-' || rest[verbEnd] >= 'a' && rest[verbEnd] <= 'z' || rest[verbEnd] >= 'A' && rest[verbEnd] <= 'Z') {
		verbEnd++
	}
	d := &Directive{
		Col:    utf8.RuneCountInString(line[:hash]) + 1,
		EndCol: utf8.RuneCountInString(strings.TrimRight(line, " \t")) + 1,
		Verb:   rest[:verbEnd],
		Text:   strings.TrimSpace(line[hash:]),
	}
	d.WholeFile = d.Verb == "ignore-file"
	list := rest[verbEnd:]
	if i := strings.Index(list, "--"); i >= 0 {
		d.Reason = strings.TrimSpace(list[i+2:])
		list = list[:i]
	}
	d.Names = strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	return d
}
