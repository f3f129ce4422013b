package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Findings count columns in characters; LSP counts UTF-16 code units.
func TestPositions(t *testing.T) {
	text := []byte("a: \"é😀x\"\r\nb: 1\n")
	starts := lineStarts(text)
	// x is the 7th character of line 1: "é" is one unit, "😀" two.
	if p := runePos(text, starts, 1, 7); p != (position{0, 7}) {
		t.Errorf("runePos = %+v, want {0 7}", p)
	}
	off := len("a: \"é😀")
	if p := offsetPos(text, starts, off); p != (position{0, 7}) {
		t.Errorf("offsetPos = %+v, want {0 7}", p)
	}
	if o := posOffset(text, starts, position{0, 7}); o != off {
		t.Errorf("posOffset = %d, want %d", o, off)
	}
	// Past the end of a line: clamped before its CR LF.
	if p := runePos(text, starts, 1, 99); p != (position{0, 9}) {
		t.Errorf("runePos past the end = %+v, want {0 9}", p)
	}
	d := &document{text: text, starts: starts}
	r := findingRange(d, &diag.Finding{Start: diag.Pos{Line: 2, Col: 4}})
	if r.Start != (position{1, 3}) || r.End != (position{1, 4}) {
		t.Errorf("point finding range = %+v, want one character at {1 3}", r)
	}
	if got := string(applyRangeChange(text, lspRange{Start: position{1, 3}, End: position{1, 4}}, "2")); got != "a: \"é😀x\"\r\nb: 2\n" {
		t.Errorf("applyRangeChange = %q", got)
	}
}

func TestURIs(t *testing.T) {
	p := "/tmp/a b/ORCHESTRATION.yaml"
	if got := osPathOf(uriOf(p)); got != p {
		t.Errorf("round trip of %q gives %q (uri %s)", p, got, uriOf(p))
	}
	if osPathOf("untitled:Untitled-1") != "" {
		t.Error("a non-file URI has no path")
	}
}

// On Windows a file URI's path starts with its drive: file:///c%3A/x
// (VS Code's form), file:///C:/x and file://C:/x all name C:\x, and a
// path's URI is file:///C:/x.
func TestWindowsURIs(t *testing.T) {
	defer func(w bool) { windowsPaths = w }(windowsPaths)
	windowsPaths = true
	want := filepath.FromSlash("c:/Users/a b/ORCHESTRATION.yaml")
	for _, uri := range []string{"file:///c%3A/Users/a%20b/ORCHESTRATION.yaml", "file:///c:/Users/a%20b/ORCHESTRATION.yaml", "file://c:/Users/a%20b/ORCHESTRATION.yaml"} {
		if got := osPathOf(uri); got != want {
			t.Errorf("osPathOf(%s) = %q, want %q", uri, got, want)
		}
	}
	if got := uriOf(want); got != "file:///c:/Users/a%20b/ORCHESTRATION.yaml" {
		t.Errorf("uriOf(%q) = %s, want file:///c:/Users/a%%20b/ORCHESTRATION.yaml", want, got)
	}
	// A path with no drive is as on any other system.
	if got := osPathOf("file:///tmp/x.yaml"); got != filepath.FromSlash("/tmp/x.yaml") {
		t.Errorf("osPathOf(file:///tmp/x.yaml) = %q", got)
	}
}

// relatedEngine finds in every document one finding on its line 1
// column 9, with related positions at column 9 of line 1 of the document
// itself, of another open document, of a file only saved, and of a file
// that cannot be read.
type relatedEngine struct {
	fakeEngine
	saved map[string]string
}

func (e *relatedEngine) Lint(osPath string, text []byte, _ bool, _ load.Overlay) (Result, error) {
	rel := func(p string) diag.Related { return diag.Related{Path: p, Line: 1, Column: 9, Message: p} }
	eol := bytes.IndexByte(text, '\n')
	return Result{Checked: true, Path: osPath, Base: "/r", Findings: []diag.Finding{{
		Code: "RL104", Name: "checkpoint-link", Severity: diag.SevError,
		Start: diag.Pos{Line: 1, Col: 9}, End: diag.Pos{Line: 1, Col: 10}, Message: "m",
		Related: []diag.Related{rel("a.yaml"), rel("b.yaml"), rel("saved.yaml"), rel("gone.yaml")},
		Fix: &diag.Fix{Description: "note it", Applicability: diag.FixSafe,
			Edits: []diag.TextEdit{{Offset: eol, NewText: " # c"}}},
	}}}, nil
}

func (e *relatedEngine) Saved(osPath string) []byte {
	if s, ok := e.saved[osPath]; ok {
		return []byte(s)
	}
	return nil
}

// Related positions are in UTF-16 code units, as the diagnostic's own
// range is, in whichever file they point into.
func TestRelatedPositionsAreUTF16(t *testing.T) {
	eng := &relatedEngine{saved: map[string]string{"/r/saved.yaml": "k: \"😀😀😀\"\n"}}
	s := newTestServer(eng)
	openDocAt(t, s, "file:///r/b.yaml", "k: \"é😀x\"\n")
	openDocAt(t, s, "file:///r/a.yaml", "k: \"😀😀xyz\"\n")
	d := s.docs["file:///r/a.yaml"]
	if len(d.diags) != 1 {
		t.Fatalf("diagnostics %+v, want one", d.diags)
	}
	dg := d.diags[0]
	if dg.Range.Start != (position{0, 10}) {
		t.Errorf("range starts at %+v, want {0 10}", dg.Range.Start)
	}
	want := map[string]int{"a.yaml": 10, "b.yaml": 9, "saved.yaml": 11, "gone.yaml": 8}
	check := func(step string, dg diagnostic) {
		t.Helper()
		if len(dg.RelatedInformation) != len(want) {
			t.Fatalf("%s: related %+v, want %d", step, dg.RelatedInformation, len(want))
		}
		for _, ri := range dg.RelatedInformation {
			if w := want[ri.Message]; ri.Location.Range.Start != (position{0, w}) || ri.Location.Range.End != (position{0, w}) {
				t.Errorf("%s: related %s at %+v, want {0 %d}", step, ri.Message, ri.Location.Range, w)
			}
		}
	}
	check("published", dg)
	// A code action names its diagnostic, converted the same way; its
	// edit is in code units too.
	acts := s.codeActions(&codeActionParams{TextDocument: textDocumentIdentifier{URI: "file:///r/a.yaml"}, Range: dg.Range})
	if len(acts) == 0 || len(acts[0].Diagnostics) != 1 {
		t.Fatalf("code actions %+v, want the quick fix with its diagnostic", acts)
	}
	check("code action", acts[0].Diagnostics[0])
	if e := acts[0].Edit.Changes["file:///r/a.yaml"]; len(e) != 1 || e[0].Range.Start != (position{0, 12}) {
		t.Errorf("edits %+v, want one at {0 12}", e)
	}
	// A hover's range is the diagnostic's.
	h := s.hover(&hoverParams{TextDocument: textDocumentIdentifier{URI: "file:///r/a.yaml"}, Position: position{0, 10}})
	if h == nil || h.Range == nil || *h.Range != dg.Range {
		t.Errorf("hover %+v, want the range %+v", h, dg.Range)
	}
}

// Positions on a long line go through the line's marks: each is what
// counting from the line's start gives (characters of one to four bytes,
// a byte-order mark, CR LF), and n findings on one line of L characters
// step over about L + 64n characters, not n×L.
func TestLongLinePositions(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("\uFEFF")
	for i := range 3000 {
		sb.WriteString([]string{"a", "é", "😀", "中"}[i%4])
	}
	sb.WriteString("\r\n")
	sb.WriteString(strings.Repeat("x", 5000))
	text := []byte(sb.String())
	starts := lineStarts(text)
	c := &colCache{}
	for line := 1; line <= 2; line++ {
		for col := 1; col <= 5100; col += 7 {
			if got, want := c.pos(text, starts, line, col), runePos(text, starts, line, col); got != want {
				t.Fatalf("line %d column %d: %+v through the marks, %+v counted", line, col, got, want)
			}
		}
	}

	const findings, length = 20000, 400000
	long := []byte(strings.Repeat("é", length))
	d := &document{text: long, starts: lineStarts(long), cols: &colCache{}}
	for i := range findings {
		col := 1 + i*(length/findings)
		findingRange(d, &diag.Finding{Start: diag.Pos{Line: 1, Col: col}, End: diag.Pos{Line: 1, Col: col + 8}})
	}
	if limit := 2*len(long) + 2*findings*colStep; d.cols.decoded > limit {
		t.Errorf("%d findings on a line of %d characters stepped over %d characters, want at most %d", findings, length, d.cols.decoded, limit)
	}
}

// BenchmarkFindingRanges: n and 4n findings spread over one line of 20
// characters per finding.
func BenchmarkFindingRanges(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			long := []byte(strings.Repeat("é", 20*n))
			for b.Loop() {
				d := &document{text: long, starts: lineStarts(long), cols: &colCache{}}
				for i := range n {
					findingRange(d, &diag.Finding{Start: diag.Pos{Line: 1, Col: 1 + 20*i}, End: diag.Pos{Line: 1, Col: 9 + 20*i}})
				}
			}
		})
	}
}
