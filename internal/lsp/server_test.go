package lsp

import (
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
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
