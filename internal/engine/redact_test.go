package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// TestMaskRunsHidesClippedPieces: a message that shows a located secret
// only in part (the head and tail a clipped quote keeps) holds no run of
// 8 of its characters after redaction; other text is kept.
func TestMaskRunsHidesClippedPieces(t *testing.T) {
	sec := `"Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca"`
	w := secretWindows([]string{sec, "Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca"})
	cases := map[string]string{
		`api_secret "Zr8Qk2Lw9V…y3Fg0Jm5Ca" is not a string`: `api_secret "****…****" is not a string`,
		`value Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca, then more`:  `value ****, then more`,
		`nothing of it here, only résumé text and Zr8Qk2L`:   `nothing of it here, only résumé text and Zr8Qk2L`,
		`two: Zr8Qk2Lw9Vx4 and 1Hs6Dy3Fg0Jm5Ca.`:             `two: **** and ****.`,
		`short`:                                              `short`,
	}
	for in, want := range cases {
		if got := maskRuns(in, w); got != want {
			t.Errorf("maskRuns(%q) = %q, want %q", in, got, want)
		}
	}
}

// forgedText is what a key or value may hold: a screen clear, a window
// title, a line break before a workflow command, a bidi override.
const forgedText = "k\x1b[2J\x1b]0;TITLE\x07\r\n::error::FORGED\u202eabc"

// rawText names what it found as it is written, in its message, a related
// position and a fix, from a unit and across files; the engine makes each
// safe for every output. It reports only where a file raw-text exists.
var rawText = &rules.Rule{Code: "RL994", Name: "test-raw-text", Severity: diag.SevWarning, Kinds: []load.Kind{load.KindCheckpoint},
	Summary: "test only",
	Run: func(p *rules.Pass) {
		if _, err := os.Stat(filepath.Join(p.Opts.RepoRoot, "raw-text")); err == nil && strings.Contains(p.Doc.File.Path, "cx-001") {
			p.Report(p.Doc.File, p.Doc.Root, "unknown key "+forgedText,
				rules.WithRelated(diag.Related{Path: p.Doc.File.Path, Line: 1, Column: 1, Message: "first " + forgedText}),
				rules.WithFix(&diag.Fix{Applicability: diag.FixUnsafe, Description: "rename " + forgedText}))
		}
	},
	Finalize: func(p *rules.RepoPass) {
		if _, err := os.Stat(filepath.Join(p.Opts.RepoRoot, "raw-text")); err == nil {
			p.ReportAt(".jerry/checkpoints/cx-002.json", diag.Pos{Line: 1, Col: 1}, diag.Pos{Line: 1, Col: 2}, "across files "+forgedText,
				rules.WithRelated(diag.Related{Path: ".jerry/checkpoints/cx-003.json", Line: 1, Column: 1, Message: "there " + forgedText}))
		}
	}}

func init() { rules.Register(rawText) }

// unsafeText reports whether s holds a rune text output would escape.
func unsafeText(s string) bool { return diag.Escape(s) != s }

// TestFindingTextIsSafe: whatever a rule puts in a finding's message, its
// related messages and its fix's description, from one unit or across
// files, reaches every output masked and escaped, once: escaping again
// (the text report does) changes nothing.
func TestFindingTextIsSafe(t *testing.T) {
	dir := threeCheckpoints(t)
	if err := os.WriteFile(filepath.Join(dir, "raw-text"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	res := Run(d, nil, Settings{Opts: rules.Options{Now: time.Now(), Limits: load.DefaultLimits, Cwd: dir, RepoRoot: dir}, Jobs: 2})
	want := map[string]bool{"unit": false, "across": false}
	for _, f := range res.Findings {
		texts := []string{f.Message}
		for _, r := range f.Related {
			texts = append(texts, r.Message)
		}
		if f.Fix != nil {
			texts = append(texts, f.Fix.Description)
		}
		for _, s := range texts {
			if unsafeText(s) {
				t.Errorf("%s %s: %q holds a character output would escape", f.Path, f.Code, s)
			}
		}
		if f.Code != rawText.Code {
			continue
		}
		switch {
		case f.Message == `unknown key k\x1b[2J\x1b]0;TITLE\x07\r\n::error::FORGED\u202eabc` && f.Fix != nil &&
			f.Fix.Description == `rename k\x1b[2J\x1b]0;TITLE\x07\r\n::error::FORGED\u202eabc`:
			want["unit"] = true
		case strings.HasPrefix(f.Message, "across files ") && len(f.Related) == 1 && f.Related[0].Message == `there k\x1b[2J\x1b]0;TITLE\x07\r\n::error::FORGED\u202eabc`:
			want["across"] = true
		}
	}
	for what, seen := range want {
		if !seen {
			t.Errorf("no %s finding with its text escaped: %+v", what, res.Findings)
		}
	}
}
