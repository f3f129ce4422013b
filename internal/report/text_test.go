package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/fatih/color"
	"golang.org/x/text/width"

	"github.com/resumelint/resumelint/internal/diag"
)

// The text report writes each finding byte for byte as textReference,
// the formatting implementation it replaced, does: colours, escapes,
// masks and carets, whatever the line and the span.
func TestTextMatchesReference(t *testing.T) {
	pieces := []string{"", "a", "key: value", "\t", "  ", "\x1b[31m", "\r", "\n", "\x7f", "\u0085", "\u2028", "\u202e", "\u200f",
		"é", "日本", "🙂", "\xff", "\xe2\x82", "\ufffd", `"q"`, "ghp_Zq8vY2kLm4Np6Rs8Tu0Wx2Yz4Ab6Cd8Ef0G", "password: hunter2hunter2",
		"::error title=x::", " ::",
		strings.Repeat("x", 190), strings.Repeat("é", 120), strings.Repeat("y", 4400)}
	rng := uint64(11)
	next := func(n int) int {
		rng = rng*6364136223846793005 + 1442695040888963407
		return int(rng>>33) % n
	}
	pick := func(most int) string {
		var s string
		for range next(most + 1) {
			s += pieces[next(len(pieces))]
		}
		return s
	}
	for round := range 400 {
		fs := make([]diag.Finding, 1+next(6))
		for i := range fs {
			line := 1 + next(3000)
			f := diag.Finding{Code: "RL113", Name: "files-to-read", Severity: diag.Severity(1 + next(2)), Path: pick(2), Message: pick(3),
				Start: diag.Pos{Line: line, Col: next(260) - 2}, End: diag.Pos{Line: line + next(3) - 1, Col: next(260) - 2}}
			if next(4) > 0 {
				f.Snippet, f.HasSnippet = pick(4), true
			}
			f.Secret = next(5) == 0
			fs[i] = f
		}
		for _, on := range []bool{false, true} {
			in := &Input{Findings: fs, Checked: 10, Color: on, Quiet: round%3 == 0}
			if got, want := textAndReference(t, in); got != want {
				t.Fatalf("round %d, colour %v:\n%q\nreference:\n%q", round, on, got, want)
			}
		}
	}
}

// textAndReference returns what Text and textReference write of in.
func textAndReference(t *testing.T, in *Input) (got, want string) {
	t.Helper()
	var g, w bytes.Buffer
	if err := Text(&g, in); err != nil {
		t.Fatal(err)
	}
	if err := textReference(&w, in); err != nil {
		t.Fatal(err)
	}
	return g.String(), w.String()
}

// textReference is the text report's findings as they were written with
// fmt and fatih/color, one string per character of a snippet; the
// summary line is the report's own (textSummary).
func textReference(w io.Writer, in *Input) error {
	paint := func(attrs ...color.Attribute) func(string) string {
		c := color.New(attrs...)
		if in.Color {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return func(s string) string { return c.Sprint(s) }
	}
	bold, red, yellow, gray, green := paint(color.Bold), paint(color.FgRed, color.Bold), paint(color.FgYellow, color.Bold), paint(color.FgHiBlack), paint(color.FgGreen)
	masks := secretMasks(in.Findings)
	// Written as it is made: the output of 24,000 findings is megabytes.
	sb := bufio.NewWriterSize(w, 64<<10)
	err := inOrder(sb, len(in.Findings), func(sb *bytes.Buffer, i int) {
		f := &in.Findings[i]
		sev := f.Severity.String()
		if f.Severity == diag.SevError {
			sev = red(sev)
		} else {
			sev = yellow(sev)
		}
		// Paths and messages come from the repository: escaped, so none
		// can move the cursor or start a line of its own.
		fmt.Fprintf(sb, "%s: %s: %s %s\n", bold(fmt.Sprintf("%s:%d:%d", diag.SafeLine(f.Path), f.Start.Line, f.Start.Col)), sev, diag.Escape(f.Message), gray("["+f.Code+" "+f.Name+"]"))
		if text, ok := f.Snippet, f.HasSnippet; ok {
			// Not the whole line (findings on one long line), but the mask
			// reads past what is shown, so a credential cut at the edge is
			// still recognised: located secrets by their ranges, and
			// whatever else has a credential's shape (RL005 may be off).
			line := headRunes(diag.MaskInPlace(string(headRunes(text, 200+4096))), 200)
			shift := 0
			// A finding past what a line shows from its start, on a
			// line longer than that, is shown in a window of the line
			// masked whole: "…", 60 characters before its column, on.
			if all := []rune(diag.MaskInPlace(string([]rune(text)))); f.Start.Col > 200 && len(all) > 200 {
				from := min(f.Start.Col-1-60, len(all)-199)
				line = append([]rune{'…'}, all[from:from+199]...)
				shift = from - 1
				g := *f
				g.Start.Col -= shift
				if g.End.Line == f.Start.Line {
					g.End.Col -= shift
				}
				f = &g
			}
			for _, m := range masks[maskKey{f.Path, f.Start.Line}] {
				for i := m[0] - shift; i < m[1]-shift && i < len(line); i++ {
					if i >= 0 && (shift == 0 || i >= 1) {
						line[i] = '*'
					}
				}
			}
			if len(line) > 200 {
				line = line[:200]
			}
			num := fmt.Sprint(f.Start.Line)
			pad := strings.Repeat(" ", len(num))
			fmt.Fprintf(sb, "%s %s\n", pad, gray("|"))
			// Each character escaped on its own, so the caret still
			// lines up under it.
			shown := make([]string, len(line))
			for i, r := range line {
				shown[i] = diag.Escape(string(r))
			}
			fmt.Fprintf(sb, "%s %s %s\n", gray(num), gray("|"), strings.Join(shown, ""))
			var caret strings.Builder
			for i := 0; i < f.Start.Col-1 && i < len(line); i++ {
				if line[i] == '\t' {
					caret.WriteByte('\t')
				} else {
					caret.WriteString(strings.Repeat(" ", columns(shown[i])))
				}
			}
			width := 1
			if f.End.Line == f.Start.Line && f.End.Col > f.Start.Col {
				width = 0
				for i := f.Start.Col - 1; i < f.End.Col-1; i++ {
					if i >= 0 && i < len(shown) {
						width += columns(shown[i])
					} else {
						width++
					}
				}
			}
			caret.WriteString(green("^" + strings.Repeat("~", width-1)))
			fmt.Fprintf(sb, "%s %s %s\n", pad, gray("|"), caret.String())
		}
	})
	if err != nil {
		return err
	}
	if !in.Quiet {
		textSummary(sb, Summarize(in))
	}
	return sb.Flush()
}

// columns is the terminal width of a character as the reference shows it:
// an escape one column a character; a character shown as itself two when
// it is East Asian wide or fullwidth (CJK, most emoji), none when it is a
// combining mark or a format character.
func columns(shown string) int {
	r, _ := utf8.DecodeRuneInString(shown)
	switch {
	case utf8.RuneCountInString(shown) != 1:
		return utf8.RuneCountInString(shown)
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r):
		return 0
	}
	if k := width.LookupRune(r).Kind(); k == width.EastAsianWide || k == width.EastAsianFullwidth {
		return 2
	}
	return 1
}

// TestTextPathStartsNoWorkflowCommand: a folder named like a workflow
// command cannot make a line of the text report one, and a credential in
// a path is masked, as in every other line the report prints.
func TestTextPathStartsNoWorkflowCommand(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"::error title=PWNED::forged/precompact_state.json", `\x3a:error title=PWNED::forged/precompact_state.json:3:17: error:`},
		{"  ::warning::x/ORCHESTRATION.yaml", `  \x3a:warning::x/ORCHESTRATION.yaml:3:17: error:`},
		{"runs/ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2/task-graph.json", `runs/****:3:17: error:`},
	} {
		in := &Input{Checked: 1, Quiet: true, Findings: []diag.Finding{{Code: "RL301", Name: "precompact-schema", Severity: diag.SevError,
			Path: tc.path, Start: diag.Pos{Line: 3, Col: 17}, End: diag.Pos{Line: 3, Col: 26}, Message: `confidence: "certain" is not one of high, medium, low`}}}
		var out bytes.Buffer
		if err := Text(&out, in); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.String(), tc.want) {
			t.Errorf("Text(%q) = %q, want it to start %q", tc.path, out.String(), tc.want)
		}
	}
}

// A finding past what a snippet shows of a long line (a minified JSON
// file, a one-line bundle file) is shown in a window of the line around
// its column, the caret under it; a located secret that begins before
// the window stays masked inside it, and the window's "…" shows.
func TestTextWindowsLongLines(t *testing.T) {
	digits := strings.Repeat("0123456789", 100) // character i is i%10
	for _, tc := range []struct {
		name, line string
		col, end   int
		secret     [2]int // a located secret's columns on the line, 1-based
		want       []string
	}{
		{name: "ascii", line: digits, col: 501, end: 504,
			want: []string{"1 | …" + digits[440:639], "  |" + strings.Repeat(" ", 62) + "^~~"}},
		{name: "secret crossing the window's start", line: digits, col: 301, end: 302, secret: [2]int{101, 401},
			want: []string{"1 | …" + strings.Repeat("*", 160) + digits[400:439], "  |" + strings.Repeat(" ", 62) + "^"}},
		{name: "multi-byte, near the line's end", line: strings.Repeat("é", 150) + digits[:150], col: 261, end: 262,
			want: []string{"1 | …" + strings.Repeat("é", 49) + digits[:150], "  |" + strings.Repeat(" ", 161) + "^"}},
		{name: "past the line's end", line: digits[:250], col: 400, end: 401,
			want: []string{"1 | …" + digits[51:250], "  |" + strings.Repeat(" ", 201) + "^"}},
	} {
		fs := []diag.Finding{{Code: "RL113", Name: "files-to-read", Severity: diag.SevError, Path: "cx.json",
			Start: diag.Pos{Line: 1, Col: tc.col}, End: diag.Pos{Line: 1, Col: tc.end}, Snippet: tc.line, HasSnippet: true}}
		if tc.secret[0] > 0 {
			fs = append(fs, diag.Finding{Code: "RL005", Name: "secret", Severity: diag.SevError, Path: "cx.json", Secret: true,
				Start: diag.Pos{Line: 1, Col: tc.secret[0]}, End: diag.Pos{Line: 1, Col: tc.secret[1]}})
		}
		var out bytes.Buffer
		if err := Text(&out, &Input{Findings: fs, Checked: 1, Quiet: true}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(out.String(), "\n")
		if len(lines) < 5 || lines[2] != tc.want[0] || lines[3] != tc.want[1] {
			t.Errorf("%s:\n%s\nwant\n%s\n%s", tc.name, strings.Join(lines[:min(len(lines), 5)], "\n"), tc.want[0], tc.want[1])
		}
	}
}

// FuzzText holds the text report to its reference writer for any line,
// span and located secret: escapes, masks, carets and long-line windows.
func FuzzText(f *testing.F) {
	f.Add(strings.Repeat("0123456789", 30), 250, 255, 0, 0, false)
	f.Add(strings.Repeat("é", 150)+"key: ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2", 180, 190, 151, 196, true)
	f.Add("a\tb\x1b[31m\u202e", 3, 1, 0, 0, false)
	f.Fuzz(func(t *testing.T, line string, col, end, secretFrom, secretTo int, color bool) {
		if len(line) > 20000 || col > 30000 || end > 30000 || col < -5 || end < -5 || secretFrom > 30000 || secretTo > 30000 {
			t.Skip()
		}
		fs := []diag.Finding{{Code: "RL113", Name: "files-to-read", Severity: diag.SevError, Path: "cx.json",
			Start: diag.Pos{Line: 7, Col: col}, End: diag.Pos{Line: 7, Col: end}, Message: "m", Snippet: line, HasSnippet: true}}
		if secretFrom > 0 {
			fs = append(fs, diag.Finding{Code: "RL005", Name: "secret", Severity: diag.SevError, Path: "cx.json", Secret: true,
				Start: diag.Pos{Line: 7, Col: secretFrom}, End: diag.Pos{Line: 7, Col: secretTo}, Snippet: line, HasSnippet: true})
		}
		in := &Input{Findings: fs, Checked: 1, Color: color}
		if got, want := textAndReference(t, in); got != want {
			t.Fatalf("text report:\n%q\nreference:\n%q", got, want)
		}
	})
}

// The caret sits under the finding's column as a terminal shows the line:
// a CJK character or an emoji takes two columns, a combining accent none,
// a tab is copied as a tab.
func TestTextCaretUnderWideCharacters(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		col, end   int
		caret      string
	}{
		{"cjk before", `"名前": "値", "mode": "fast"`, 20, 26, strings.Repeat(" ", 22) + "^~~~~~"},
		{"emoji before", `"note": "ok 🙂", "mode": "fast"`, 25, 31, strings.Repeat(" ", 25) + "^~~~~~"},
		{"tab and cjk", "\t\"説明\": 1, \"k\": 2", 16, 17, "\t" + strings.Repeat(" ", 16) + "^"},
		{"combining accent", "\"cafe\u0301\": 1, \"k\": 2", 13, 16, strings.Repeat(" ", 11) + "^~~"},
		{"wide span", `k: "日本語"`, 4, 9, "   ^~~~~~~~"},
	} {
		fs := []diag.Finding{{Code: "RL301", Name: "precompact-schema", Severity: diag.SevError, Path: "precompact_state.json",
			Start: diag.Pos{Line: 1, Col: tc.col}, End: diag.Pos{Line: 1, Col: tc.end}, Snippet: tc.line, HasSnippet: true}}
		var out bytes.Buffer
		if err := Text(&out, &Input{Findings: fs, Checked: 1, Quiet: true}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(out.String(), "\n")
		if want := "  | " + tc.caret; len(lines) < 4 || lines[3] != want {
			t.Errorf("%s:\n%s\nwant the caret line\n%s", tc.name, out.String(), want)
		}
	}
}
