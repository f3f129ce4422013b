package diag

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// leaks reports the first run of 8 characters of secret that out holds.
func leaks(out, secret string) string {
	for i := 0; i+8 <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+8]) {
			return secret[i : i+8]
		}
	}
	return ""
}

// TestQuoteMasksBeforeClip: every function that shows file content masks
// a credential whole before it cuts the value, at every length and place.
func TestQuoteMasksBeforeClip(t *testing.T) {
	tokens := []string{
		"ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i",
		"github_pat_11ABCDEFG0aBcDeFgHiJkLmN_oPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012345678",
		"AKIAQ7XK2LMN4PRS8TUV",
		"sk-ant-api03-Zq7Xw2Lk9Vb4Nm1Pt6Rs3Yh8Jd5Fg0Ce",
		"xoxb-2741-9918-Kq2Vw8Ly4Nz6",
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAxyzABCDEFGH\n-----END RSA PRIVATE KEY-----",
	}
	shows := map[string]func(string) string{
		"Quote":         Quote,
		"Clip":          Clip,
		"ClipTo(20)":    func(s string) string { return ClipTo(s, 20) },
		"ClipTo(40)":    func(s string) string { return ClipTo(s, 40) },
		"ClipPath(30)":  func(s string) string { return ClipPath(s, 30) },
		"QuoteTo(30)":   func(s string) string { return QuoteTo(s, 30) },
		"QuotePath(30)": func(s string) string { return QuotePath(s, 30) },
		"QuoteFull":     QuoteFull,
		"ClipHead(20)":  func(s string) string { return ClipHead(s, 20) },
		"QuoteHead(40)": func(s string) string { return QuoteHead(s, 40) },
		"Mask":          Mask,
		"Safe":          Safe,
	}
	for _, tok := range tokens {
		body := tok[strings.IndexAny(tok, "_-")+1:]
		for _, pad := range []int{0, 10, 25, 40, 70} {
			filler := strings.Repeat("x", pad)
			for _, v := range []string{tok, tok + " " + filler, filler + " " + tok, filler + " " + tok + " " + filler, "dir/" + filler + "/" + tok} {
				for name, show := range shows {
					if l := leaks(show(v), body); l != "" {
						t.Errorf("%s(%.30q…) shows %q of the secret: %q", name, v, l, show(v))
					}
				}
			}
		}
	}
}

// TestSafeEscapes: Safe shows control characters from a file as escapes.
func TestSafeEscapes(t *testing.T) {
	got := Safe("a\x1b[31m\x07b\r\n::error ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i")
	if want := `a\x1b[31m\x07b\r\n::error ****`; got != want {
		t.Errorf("Safe = %q, want %q", got, want)
	}
}

// TestSafeLineAndMarkdown: a line that would be a workflow command is
// defused; Markdown syntax and HTML from a file stay inert.
func TestSafeLineAndMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		"   ::error file=x::forged": `   \x3a:error file=x::forged`,
		"::warning\x07":             `\x3a:warning\x07`,
		"a ::error":                 "a ::error",
	} {
		if got := SafeLine(in); got != want {
			t.Errorf("SafeLine(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := SafeLines("one\n ::error x\x1b"), "one\n \\x3a:error x\\x1b"; got != want {
		t.Errorf("SafeLines = %q, want %q", got, want)
	}
	got := SafeMarkdown("![img](https://example.test/x.png) <b>[link](https://example.test)</b>\x1b ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i")
	want := `\!\[img\]\(https\://example.test/x.png\) &lt;b&gt;\[link\]\(https\://example.test\)&lt;/b&gt;\x1b \*\*\*\*`
	if got != want {
		t.Errorf("SafeMarkdown = %q, want %q", got, want)
	}
}

// TestSafePaths: the paths a report shows are masked and escaped in a
// copy; the findings the run matches by path keep theirs, and a run whose
// paths hold neither a credential nor a control character gets its own
// slice back.
func TestSafePaths(t *testing.T) {
	tok := "ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2"
	plain := []Finding{{Path: "ORCHESTRATION.yaml", Related: []Related{{Path: ".jerry/checkpoints/cx-001-checkpoint.json"}}}}
	if got := SafePaths(plain); &got[0] != &plain[0] {
		t.Errorf("SafePaths copied findings whose paths hold no credential")
	}
	fs := []Finding{
		{Path: "ORCHESTRATION.yaml", Related: []Related{{Path: "bundles/" + tok + "/STATUS.json"}}},
		{Path: ".agent-memory/runs/" + tok + "/task-graph.json"},
		{Path: ".agent-memory/runs/" + tok + "/task-graph.json"},
		{Path: "w\x1b[31m\rx\u202e/ORCHESTRATION.yaml"},
	}
	got := SafePaths(fs)
	want := []string{"ORCHESTRATION.yaml", ".agent-memory/runs/****", ".agent-memory/runs/****", `w\x1b[31m\rx\u202e/ORCHESTRATION.yaml`}
	for i := range got {
		if got[i].Path != want[i] {
			t.Errorf("finding %d: path %q, want %q", i, got[i].Path, want[i])
		}
	}
	if got[0].Related[0].Path != "bundles/****" {
		t.Errorf("related path %q, want bundles/****", got[0].Related[0].Path)
	}
	if !strings.Contains(fs[1].Path, tok) || !strings.Contains(fs[0].Related[0].Path, tok) {
		t.Errorf("SafePaths changed the run's findings: %+v", fs)
	}
}

func TestFitList(t *testing.T) {
	items := []string{"phase 4 (BLOCKED)", "phase 5 (BLOCKED)", "phase 6 (BLOCKED)"}
	short := FitList(items, func(l string) string { return "open: " + l })
	if short != "open: phase 4 (BLOCKED), phase 5 (BLOCKED), phase 6 (BLOCKED)" {
		t.Errorf("FitList kept %q", short)
	}
	long := FitList(items, func(l string) string { return strings.Repeat("x", 125) + l })
	if want := strings.Repeat("x", 125) + "phase 4 (BLOCKED) and 2 more"; long != want {
		t.Errorf("FitList = %q, want %q", long, want)
	}
	if got := FitList([]string{strings.Repeat("y", 200), "z"}, func(l string) string { return l }); got != strings.Repeat("y", 200)+" and 1 more" {
		t.Errorf("FitList of an overlong first item = %q", got)
	}
}

// fitListNaive is the definition FitList keeps: the longest rendering,
// from every item down to one, that fits.
func fitListNaive(items []string, format func(string) string) string {
	var msg string
	for k := len(items); k >= 1; k-- {
		msg = format(List(items, k))
		if len([]rune(msg)) <= MaxMessage {
			break
		}
	}
	return msg
}

func TestFitListMatchesNaive(t *testing.T) {
	format := func(l string) string { return "open: " + l + "; close them" }
	for _, n := range []int{1, 2, 5, 9, 10, 11, 30, 81, 82, 200} {
		for _, w := range []int{0, 1, 3, 7, 20, 170} {
			items := make([]string, n)
			for i := range items {
				items[i] = strings.Repeat("é", (i*w)%13+w/2)
			}
			if got, want := FitList(items, format), fitListNaive(items, format); got != want {
				t.Errorf("n=%d w=%d: FitList = %q, want %q", n, w, got, want)
			}
		}
	}
}

// A list of any length is fitted with a bounded number of renderings,
// each naming a bounded number of items.
func TestFitBounded(t *testing.T) {
	items := make([]string, 100000)
	for i := range items {
		items[i] = "x"
	}
	calls, named := 0, 0
	msg := Fit(len(items), func(n int) string {
		calls++
		named += n
		return "open: " + List(items, n)
	})
	if len(msg) > MaxMessage || !strings.HasSuffix(msg, "more") {
		t.Errorf("Fit = %q", msg)
	}
	if calls > maxFitItems || named > maxFitItems*maxFitItems {
		t.Errorf("Fit rendered %d times naming %d items in all, for a message of %d characters", calls, named, MaxMessage)
	}
	calls, named = 0, 0
	FitList(items, func(l string) string { calls++; return "open: " + l })
	if calls > maxFitItems {
		t.Errorf("FitList rendered %d times", calls)
	}
}

func BenchmarkFitList(b *testing.B) {
	for _, n := range []int{20000, 80000} {
		items := make([]string, n)
		for i := range items {
			items[i] = "phase " + strings.Repeat("9", 5)
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				FitList(items, func(l string) string { return "open: " + l })
			}
		})
	}
}

// A message keeps its words, but a run without a space longer than any
// value a rule shows whole (a key or id as long as a file made it) is
// clipped in its middle, and so is a message past maxText; a second pass
// changes nothing.
func TestSafeMessageBounds(t *testing.T) {
	short := "gate qg-1 is in gates_completed, but score_history has no scores for it (line 12): record them"
	long := "gate qg-1" + strings.Repeat("Q", 3000) + " is in gates_completed: record its scores"
	many := strings.Repeat("word ", 400) + "end"
	for _, tc := range []struct {
		in       string
		maxRunes int
		keeps    []string
	}{
		{short, len(short), []string{short}},
		{long, len("gate ") + maxWord + len(" is in gates_completed: record its scores"), []string{"gate qg-1QQQ", "QQQ is in gates_completed: record its scores", "…"}},
		{many, maxText, []string{"word word", "word end", "…"}},
		{"key \x1b[31m" + strings.Repeat("k", 500), maxWord + 4, []string{`key \x1b[31m`}},
	} {
		got := SafeMessage(tc.in)
		if n := utf8.RuneCountInString(got); n > tc.maxRunes {
			t.Errorf("SafeMessage(%.40q…) has %d characters, want at most %d", tc.in, n, tc.maxRunes)
		}
		for _, k := range tc.keeps {
			if !strings.Contains(got, k) {
				t.Errorf("SafeMessage(%.40q…) = %.80q…, want it to hold %q", tc.in, got, k)
			}
		}
		if again := SafeMessage(got); again != got {
			t.Errorf("SafeMessage is not idempotent on %.40q…", tc.in)
		}
	}
}
