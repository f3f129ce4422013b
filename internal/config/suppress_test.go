package config

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

func TestParseDirective(t *testing.T) {
	cases := []struct {
		line    string
		verb    string
		codes   []string
		unknown []string
		reason  string
		col     int
	}{
		{"# resumelint:ignore RL107 -- merged next session", "ignore", []string{"RL107"}, nil, "merged next session", 1},
		{"  x: 1 # resumelint:ignore RL107, quality-trajectory -- both", "ignore", []string{"RL107", "RL108"}, nil, "both", 8},
		{"# resumelint:ignore-file RL101--legacy", "ignore-file", []string{"RL101"}, nil, "legacy", 1},
		{"#resumelint:ignore rl006 RL9999", "ignore", []string{"RL006"}, []string{"RL9999"}, "", 1},
		{"  é: \"ü\" # resumelint:disable RL006", "disable", []string{"RL006"}, nil, "", 10},
	}
	for _, c := range cases {
		d := parseDirective(c.line)
		if d == nil {
			t.Errorf("%q: no directive", c.line)
			continue
		}
		if d.Verb != c.verb || !reflect.DeepEqual(d.codes, c.codes) || !reflect.DeepEqual(d.unknown, c.unknown) || d.Reason != c.reason || d.Col != c.col {
			t.Errorf("%q: got verb %q codes %v unknown %v reason %q col %d", c.line, d.Verb, d.codes, d.unknown, d.Reason, d.Col)
		}
	}
	for _, line := range []string{
		`note: "see resumelint:ignore in the docs"`,
		`url: http://x#resumelint:ignore RL001`,
		`# a comment that mentions resumelint but no directive`,
	} {
		if d := parseDirective(line); d != nil {
			t.Errorf("%q: read as a directive %+v", line, d)
		}
	}
}

// parseDirective returns the directive of a one-line YAML file, as the
// filter sees it; nil when the line has none.
func parseDirective(line string) *directive {
	s := suppressionsOf(&load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(line + "\n")})
	if s == nil {
		return nil
	}
	return s.dirs[0]
}

// suppressionsOf checks f's bytes, which captures its directives, and
// returns them resolved.
func suppressionsOf(f *load.File) *fileSups {
	load.CheckBytes(f, load.DefaultLimits)
	return NewFilter(nil, "", "").sups(f.Path, f.Directives)
}

func TestSuppressionTargetsAndUse(t *testing.T) {
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(strings.Join([]string{
		"a: 1 # resumelint:ignore RL006 -- same line", // 1
		"# resumelint:ignore RL102 -- next line",      // 2
		"# (a second comment line)",                   // 3
		"b: 2",                                        // 4
		"# resumelint:ignore-file RL008 -- all of it", // 5
		"c: 3", // 6
	}, "\n"))}
	load.CheckBytes(f, load.DefaultLimits)
	x := NewFilter(nil, "", "")
	fs := []diag.Finding{
		{Code: "RL006", Path: f.Path, Start: diag.Pos{Line: 1, Col: 4}},
		{Code: "RL006", Path: f.Path, Start: diag.Pos{Line: 4, Col: 4}}, // not covered
		{Code: "RL102", Path: f.Path, Start: diag.Pos{Line: 4, Col: 4}},
		{Code: "RL008", Path: f.Path, Start: diag.Pos{Line: 6, Col: 4}},
	}
	kept := x.PostFile(f.Path, f.Directives, fs)
	if len(kept) != 1 || kept[0].Code != "RL006" || kept[0].Start.Line != 4 {
		t.Fatalf("kept %+v", kept)
	}
	// A second call for the same file (cross-file findings) shares the state.
	if kept := x.PostFile(f.Path, f.Directives, nil); len(kept) != 0 {
		t.Fatalf("kept %+v", kept)
	}
	if unused := x.PostRun(); len(unused) != 0 {
		t.Errorf("every suppression was used, got %+v", unused)
	}

	// Used only in the second call: still used at the end.
	y := NewFilter(nil, "", "")
	y.PostFile(f.Path, f.Directives, fs[:1])
	y.PostFile(f.Path, f.Directives, fs[2:])
	if unused := y.PostRun(); len(unused) != 0 {
		t.Errorf("suppressions used across two calls reported: %+v", unused)
	}

	// Nothing to hide: every directive is reported once.
	z := NewFilter(nil, "", "")
	z.PostFile(f.Path, f.Directives, nil)
	unused := z.PostRun()
	if len(unused) != 3 {
		t.Errorf("got %d findings: %+v", len(unused), unused)
	}
	// Each carries its directive's line, whatever became of the file.
	lines := strings.Split(string(f.Data), "\n")
	for _, u := range unused {
		if !u.HasSnippet || u.Snippet != lines[u.Start.Line-1] {
			t.Errorf("RL007 at line %d: snippet %q, want %q", u.Start.Line, u.Snippet, lines[u.Start.Line-1])
		}
	}

	// A file that did not parse ran no rules: its suppressions are not judged.
	w := NewFilter(nil, "", "")
	w.PostFile(f.Path, f.Directives, []diag.Finding{{Code: "RL001", Path: f.Path, Start: diag.Pos{Line: 6, Col: 1}}})
	if unused := w.PostRun(); len(unused) != 0 {
		t.Errorf("suppressions of an unparsed file reported: %+v", unused)
	}
}

// A file holding the marker but no directive ("resumelint:00") has no
// suppressions; the end of the run does not trip over it.
func TestMarkerWithoutDirective(t *testing.T) {
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte("resumelint:00\n")}
	load.CheckBytes(f, load.DefaultLimits)
	x := NewFilter(nil, "", "")
	x.PostFile(f.Path, f.Directives, []diag.Finding{{Code: "RL100", Path: f.Path, Start: diag.Pos{Line: 1, Col: 1}}})
	if unused := x.PostRun(); len(unused) != 0 {
		t.Errorf("got %+v", unused)
	}
}

func TestFrontMatterOnly(t *testing.T) {
	f := &load.File{Path: "p/resume-context.md", Kind: load.KindResumeContext, Data: []byte(
		"---\nlast_updated: \"2026-02-20 21:00\" # resumelint:ignore RL006 -- local time\n---\n\n# resumelint:ignore RL316 -- a heading, not a comment\n")}
	s := suppressionsOf(f)
	if s == nil || len(s.dirs) != 1 || s.dirs[0].Line != 2 {
		t.Fatalf("got %+v", s)
	}
}

// A stack of comments covers the line after it; of several directives
// naming a finding's code and line, the first written hides it, before
// any whole-file one, and only it counts as used.
func TestSuppressionStackFirstWritten(t *testing.T) {
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(strings.Join([]string{
		"# resumelint:ignore-file RL102 -- all of it", // 1
		"# resumelint:ignore RL102 -- first",          // 2
		"# plain comment",                             // 3
		"# resumelint:ignore RL102,RL006 -- second",   // 4
		"b: 2 # resumelint:ignore RL006 -- own line",  // 5
		"c: 3", // 6
	}, "\n"))}
	s := suppressionsOf(f)
	for i, want := range []int{0, 5, 5, 5} { // a whole-file directive covers no line
		if s.dirs[i].Target != want {
			t.Errorf("directive %d covers line %d, want %d", i, s.dirs[i].Target, want)
		}
	}
	for _, fd := range []diag.Finding{{Code: "RL102", Start: diag.Pos{Line: 5}}, {Code: "RL006", Start: diag.Pos{Line: 5}}, {Code: "RL102", Start: diag.Pos{Line: 6}}} {
		if !s.suppress(&fd) {
			t.Fatalf("%s at %d not suppressed", fd.Code, fd.Start.Line)
		}
	}
	var used []string
	for _, d := range s.dirs {
		used = append(used, fmt.Sprint(d.Line, d.used))
	}
	if got, want := strings.Join(used, " "), "1 map[RL102:true] 2 map[RL102:true] 4 map[RL006:true] 5 map[]"; got != want {
		t.Errorf("used %s, want %s", got, want)
	}
}

// n unused suppressions stacked in one file: reading their directives and
// judging them is linear in n (compare the two sizes).
func benchmarkUnusedSuppressions(b *testing.B, n int) {
	var sb strings.Builder
	sb.WriteString("resumption:\n  recovery_state:\n    workflow_status: \"ACTIVE\"\n")
	for i := range n {
		fmt.Fprintf(&sb, "    # resumelint:ignore RL107 -- c%d\n", i)
	}
	data := []byte(sb.String())
	for b.Loop() {
		f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: data}
		load.CheckBytes(f, load.DefaultLimits)
		x := NewFilter(nil, "", "")
		x.PostFile(f.Path, f.Directives, nil)
		if got := len(x.PostRun()); got != n {
			b.Fatalf("%d unused, want %d", got, n)
		}
	}
}

func BenchmarkUnusedSuppressions5k(b *testing.B)  { benchmarkUnusedSuppressions(b, 5000) }
func BenchmarkUnusedSuppressions20k(b *testing.B) { benchmarkUnusedSuppressions(b, 20000) }

// Several unused rules of a suppression are named in one message whose
// verb and pronoun agree with them.
func TestUnusedRulesMessageAgrees(t *testing.T) {
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(strings.Join([]string{
		"# resumelint:ignore-file RL102,RL006,RL008 -- hand edits", // 1
		"a: 1 # resumelint:ignore RL102,RL006 -- hand edit",        // 2
	}, "\n"))}
	load.CheckBytes(f, load.DefaultLimits)
	x := NewFilter(nil, "", "")
	x.PostFile(f.Path, f.Directives, []diag.Finding{
		{Code: "RL102", Path: f.Path, Start: diag.Pos{Line: 2, Col: 1}},
		{Code: "RL102", Path: f.Path, Start: diag.Pos{Line: 3, Col: 1}},
	})
	want := map[int]string{
		1: "RL006 timestamp-format and RL008 future-timestamp are suppressed for the file, which has no such finding; remove them from the list",
		2: "RL006 timestamp-format is suppressed here, but line 2 has no such finding; remove it from the list",
	}
	got := x.PostRun()
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for _, u := range got {
		if u.Message != want[u.Start.Line] {
			t.Errorf("line %d: %q, want %q", u.Start.Line, u.Message, want[u.Start.Line])
		}
	}
}
