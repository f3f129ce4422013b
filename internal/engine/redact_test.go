package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

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

// TestMaskLineHidesLocatedSecrets: a snippet hides, character for
// character, a secret located on its line and any run of 8 characters of
// one located elsewhere in the file; other text, and its width, are kept.
func TestMaskLineHidesLocatedSecrets(t *testing.T) {
	const sec = "Qm7vT2xK9pL4wR8nZ3cY6hB1dF5gJ0sA"
	lc := &located{
		spans:   []rules.SecretSpan{{Line: 3, Col: 19, EndLine: 3, EndCol: 53}},
		secs:    []string{`"` + sec + `"`},
		windows: secretWindows([]string{`"` + sec + `"`}),
	}
	lc.indexLines()
	for _, c := range []struct {
		line       int
		text, want string
	}{
		{3, `    deploy_token: "` + sec + `"`, `    deploy_token: ` + strings.Repeat("*", 34)},
		{7, `    last_checkpoint: "` + sec + `"`, `    last_checkpoint: "` + strings.Repeat("*", 32) + `"`},
		{9, `    next_step: "Retry « Qm7vT2xK9pL4 » and 3cY6hB1dF5gJ0sA…"`, `    next_step: "Retry « ************ » and ***************…"`},
		{9, `    next_step: "only Qm7vT2x of it, résumé"`, `    next_step: "only Qm7vT2x of it, résumé"`},
	} {
		if got := lc.maskLine(c.text, c.line); got != c.want {
			t.Errorf("line %d: maskLine(%q) =\n%q, want\n%q", c.line, c.text, got, c.want)
		}
	}
}

// TestRepoFindingsMasked: a cross-file finding on a file with a located
// secret is masked like the unit's own: message and snippet.
func TestRepoFindingsMasked(t *testing.T) {
	const sec = "Qm7vT2xK9pL4wR8nZ3cY6hB1dF5gJ0sA"
	res := &Result{located: map[string]*located{".jerry/checkpoints/cx-002.json": {
		secs: []string{sec}, windows: secretWindows([]string{sec}),
	}}}
	line := `  "checkpoint_id": "` + sec + `",`
	fd := diag.Finding{Code: "RL104", Path: ".jerry/checkpoints/cx-002.json", Start: diag.Pos{Line: 2, Col: 20},
		Message: `checkpoint "` + sec[:12] + `…" is not named by the workflow`, Snippet: line, HasSnippet: true}
	(&Settings{}).settleRepo(res, []diag.Finding{fd})
	got := res.Findings[0]
	if strings.Contains(got.Message, sec[:8]) || strings.Contains(got.Snippet, sec[:8]) || strings.Contains(got.Snippet, sec[24:]) {
		t.Errorf("the secret shows: %q / %q", got.Message, got.Snippet)
	}
	if utf8.RuneCountInString(got.Snippet) != utf8.RuneCountInString(line) {
		t.Errorf("snippet %q lost its width", got.Snippet)
	}
}

// TestFindingsMaskedOfOtherFiles: a finding on one file that quotes
// another file a rule read (a checkpoint's event id in the workflow's
// finding) holds no run of a secret located in that other file; its own
// text is kept.
func TestFindingsMaskedOfOtherFiles(t *testing.T) {
	const sec = "cx-Qm7vT2xK9pL4wR8nZ3cY6hB1dF5gJ0sA"
	loc := map[string]*located{".jerry/checkpoints/cx-002.json": {secs: []string{sec}, windows: secretWindows([]string{sec})}}
	fs := []diag.Finding{{Code: "RL603", Path: "ORCHESTRATION.yaml", Message: "compaction_events has no event for " + sec + ": add one",
		Related: []diag.Related{{Path: ".jerry/checkpoints/cx-002.json", Message: "event " + sec[3:20]}}}}
	maskAcrossFiles(fs, unionOf(loc))
	if got, want := fs[0].Message, "compaction_events has no event for ****: add one"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if got := fs[0].Related[0].Message; strings.Contains(got, sec[3:11]) {
		t.Errorf("related message %q shows the secret", got)
	}
}

// maskPieces leaves no piece of a located secret in a message, whatever
// the overlaps, and keeps the rest of the message as it was.
func TestMaskPiecesHidesEveryPiece(t *testing.T) {
	lc := &located{secs: []string{
		"ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2",
		"AKIAZ7QW3ERT5YUI8OPL",
		"sk-live-4eC39HqLyjWDarjtT1zdp7dc",
		"shortok",
	}}
	lc.indexPieces() // no windows: every piece is looked for
	for msg, want := range map[string]string{
		"last_checkpoint \"CP-ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2_v2\" is not CP-003": "last_checkpoint \"CP-****_v2\" is not CP-003",
		"keys AKIAZ7QW3ERT5YUI8OPL and AKIAZ7QW3ERT5YUI8OPL":                               "keys **** and ****",
		"quoted \"_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1\" middle":                            "quoted \"****\" middle",
		"adjacent AKIAZ7QW3ERT5YUI8OPLsk-live-4eC39HqLyjWDarjtT1zdp7dc end":                "adjacent **** end",
		"nothing secret here at all":                                                       "nothing secret here at all",
	} {
		if got := lc.maskPieces(msg); got != want {
			t.Errorf("%q:\n got %q\nwant %q", msg, got, want)
		}
	}
}

// Masking one message costs about the same whatever the number of
// secrets located in its file.
func BenchmarkMaskPieces(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			lc := &located{}
			for i := range n {
				lc.secs = append(lc.secs, fmt.Sprintf("ghp_%036d", i*7919))
			}
			lc.windows = secretWindows(lc.secs)
			lc.indexPieces()
			msg := "workflow_status \"ghp_000000000000000000000000000000007919\" is not one of ACTIVE, PAUSED, COMPLETE"
			b.ResetTimer()
			for range b.N {
				lc.maskPieces(maskRuns(msg, lc.windows))
			}
		})
	}
}

// TestMaskEdgesAndShortSecrets: what a clip leaves of a located secret
// beside its ellipsis is masked (fewer bytes than a run), a credential
// kind's known prefix is not (it names the kind), and a short secret's
// middle is no piece: one character of it is not masked in every word.
func TestMaskEdgesAndShortSecrets(t *testing.T) {
	lc := &located{secs: []string{"Gh7kP2vQ9xWm", "Qz7ep2", "sk-Zq7Xw2Lk9Vb4Nm1Pt6Rs3Yh8"}}
	lc.windows = secretWindows(lc.secs)
	lc.indexPieces()
	for in, want := range map[string]string{
		`path "xxhttps://bot:Gh7kP2v…bbbb.md" resolves nowhere`: `path "xxhttps://bot:****…bbbb.md" resolves nowhere`,
		`output "out/https://bot:Gh7…xWm@h.example.net"`:        `output "out/https://bot:****…****@h.example.net"`,
		`was "https://ci:Gh7kP2...", now "x"`:                   `was "https://ci:****...", now "x"`,
		`an API secret key (sk-…) is stored here`:               `an API secret key (sk-…) is stored here`,
		`every e in these words stays where it is`:              `every e in these words stays where it is`,
		`the preview at https://docs:Qz7ep2@h is up`:            `the preview at https://docs:****@h is up`,
		`a clip of nothing secret… then more`:                   `a clip of nothing secret… then more`,
	} {
		if got := lc.mask(in); got != want {
			t.Errorf("mask(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMaskNoWordsOfMaskedText: the lines of a value masked whole (it
// holds a credential in an escaped or multi-line string) are no source of
// short pieces or edges: a word of them ("rotate") or their quote beside
// an ellipsis is not masked in other messages.
func TestMaskNoWordsOfMaskedText(t *testing.T) {
	lc := &located{secs: []string{`"deploy with PIPELINE_TOKEN=Zq7Xw2Lk9Vb4Nm1P`, `is rotated'`, `"`}}
	lc.windows = secretWindows(lc.secs)
	lc.indexPieces()
	for in, want := range map[string]string{
		`remove it from the file and rotate the credential`: `remove it from the file and rotate the credential`,
		`closed by '...', which readers do not take`:        `closed by '...', which readers do not take`,
		`written after "SOME_NAME…" is stored`:              `written after "SOME_NAME…" is stored`,
	} {
		if got := lc.mask(in); got != want {
			t.Errorf("mask(%q) = %q, want %q", in, got, want)
		}
	}
}
