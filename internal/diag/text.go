package diag

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/secret"
)

// Mask hides every credential in s (secret.Mask): for text from a file
// that is shown whole.
func Mask(s string) string { return secret.Mask(s) }

// KnownSecretPrefix reports whether s is the start of a credential kind's
// prefix (sk-, ghp_): it tells nothing of one (secret.KnownPrefix).
func KnownSecretPrefix(s string) bool { return secret.KnownPrefix(s) }

// SafeText makes what a finding says safe for every output. Its message,
// its related positions' messages and its fix's description are text that
// may hold a file's content (rules name keys, values and paths as they
// are), so each is masked (Mask) and then escaped (Escape): no output,
// JSON, SARIF and an editor's diagnostics included, holds a credential, a
// control character, a line break or a bidirectional override from a
// file. Both steps are idempotent, so a writer that escapes again (the
// text report) shows the same text. The engine and the filter stage call
// it on every finding they make.
func SafeText(f *Finding) {
	f.Message = SafeMessage(f.Message)
	for i := range f.Related {
		f.Related[i].Message = SafeMessage(f.Related[i].Message)
	}
	if f.Fix != nil {
		f.Fix.Description = SafeMessage(f.Fix.Description)
	}
}

// SafeMessage is Safe for a sentence that names values: a run without a
// space longer than any value a rule shows whole (QuoteFull) is clipped
// in its middle, and so is a message past maxText, so that a key or value
// a rule names as written cannot fill a report however long the file
// made it. Like Safe, it is idempotent.
func SafeMessage(s string) string { return bounded(Safe(s)) }

// maxWord is the longest run without a space SafeMessage keeps, and
// maxText the longest message.
const (
	maxWord = 160
	maxText = 1000
)

func bounded(s string) string {
	if len(s) <= maxWord {
		return s
	}
	out := s
	if longestRun(s) > maxWord {
		words := strings.Split(s, " ")
		for i, w := range words {
			words[i] = clipMiddle(w, maxWord)
		}
		out = strings.Join(words, " ")
	}
	return clipMiddle(out, maxText)
}

// longestRun is the length in bytes of the longest run of s without a
// space (at least its length in characters).
func longestRun(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// clipMiddle shortens s to n characters with an ellipsis in the middle,
// keeping both ends. A string no longer than n in bytes is not counted.
func clipMiddle(s string, n int) string {
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	head := (n - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

// SafePaths is fs as a report shows it: each finding's path and its
// related positions' paths masked and escaped (Safe), since a file or
// folder name is text from the repository like any value. It is for
// output only: the run matches configuration (ignore globs, scopes) and
// baselines against the real paths. fs itself is returned when no path
// changes, else a copy.
func SafePaths(fs []Finding) []Finding {
	out, copied := fs, false
	var last, lastMasked string // findings come sorted by path
	for i := range fs {
		p := fs[i].Path
		if p != last {
			last, lastMasked = p, Safe(p)
		}
		related := safeRelatedPaths(fs[i].Related)
		if lastMasked == p && related == nil {
			continue
		}
		if !copied {
			out, copied = slices.Clone(fs), true
		}
		out[i].Path = lastMasked
		if related != nil {
			out[i].Related = related
		}
	}
	return out
}

// safeRelatedPaths is rs with its paths masked and escaped, or nil when
// none changes.
func safeRelatedPaths(rs []Related) []Related {
	var out []Related
	for i := range rs {
		m := Safe(rs[i].Path)
		if m == rs[i].Path {
			continue
		}
		if out == nil {
			out = slices.Clone(rs)
		}
		out[i].Path = m
	}
	return out
}

// MaskInPlace hides every credential in s character for character
// (secret.MaskInPlace): for a line shown with a caret under a column.
func MaskInPlace(s string) string { return secret.MaskInPlace(s) }

// Safe is text from a file as a terminal or log may show it: secrets
// masked, then control characters escaped (Escape).
func Safe(s string) string { return Escape(secret.Mask(s)) }

// MaxMessage is the length a finding's message stays within: one sentence
// of what is wrong and what to do. The why lives in the rule's page.
const MaxMessage = 160

// maxValue is how much of a quoted value or path a message shows.
const maxValue = 60

// Clip shortens s to at most 60 characters with an ellipsis in the
// middle, keeping both ends: the start of a value and the file name at the
// end of a path.
func Clip(s string) string {
	return ClipTo(s, maxValue)
}

// ClipTo is Clip with an explicit length (at least 5). It masks secrets
// first: a clipped credential no longer matches its pattern, and its
// kept end would be printed.
func ClipTo(s string, n int) string {
	s = secret.Mask(s)
	if n < 5 {
		n = 5
	}
	return clipMiddle(s, n)
}

// Quote quotes a value from a file for a message: secrets masked, then
// clipped with Clip, then quoted with Go's escapes (no control character
// survives). It is the way a rule shows file content.
func Quote(s string) string {
	return strconv.Quote(Clip(s))
}

// QuoteTo is Quote clipped to n characters (ClipTo).
func QuoteTo(s string, n int) string {
	return strconv.Quote(ClipTo(s, n))
}

// QuotePath is Quote for a path clipped to n characters (ClipPath).
func QuotePath(p string, n int) string {
	return strconv.Quote(ClipPath(p, n))
}

// QuoteFull is Quote with a longer clip, for short values (ids, keys,
// timestamps) a message shows whole: one written longer than any such
// value is clipped all the same, so a file cannot fill a report.
func QuoteFull(s string) string {
	return strconv.Quote(ClipTo(s, maxFull))
}

// maxFull is the most of a value QuoteFull shows: far above an id, a key
// or a timestamp.
const maxFull = 120

// ClipHead keeps the start of s, at most n characters with the ellipsis
// (at least 2), after masking secrets.
func ClipHead(s string, n int) string {
	s = secret.Mask(s)
	r := []rune(s)
	n = max(n, 2)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// QuoteHead is Quote with ClipHead.
func QuoteHead(s string, n int) string {
	return strconv.Quote(ClipHead(s, n))
}

// List names at most max items, then how many more: "a, b, c and 4 more".
func List(items []string, max int) string {
	if max < 1 {
		max = 1
	}
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:max], ", "), len(items)-max)
}

// Fit renders a message whose lists can be shortened: render(n) names at
// most n items of each list. It returns the longest rendering, from max
// items down to one, that stays within MaxMessage.
//
// render separates the items it names by at least two characters (", ",
// "; ", " or ", " and "), so a rendering of more than maxFitItems items
// never fits: Fit starts below that, and a list of any length costs a
// bounded number of renderings of a bounded number of items.
func Fit(max int, render func(n int) string) string {
	max = min(max, maxFitItems)
	msg := render(max)
	for n := max - 1; n >= 1 && utf8.RuneCountInString(msg) > MaxMessage; n-- {
		msg = render(n)
	}
	return msg
}

// maxFitItems is the most items a message of MaxMessage characters can
// name with two-character separators between them.
const maxFitItems = MaxMessage/2 + 1

// FitList formats a message around as many of items as fit in MaxMessage
// ("a, b and 3 more", as List), at least one. Only the items whose
// joined length can fit are ever joined.
func FitList(items []string, format func(list string) string) string {
	if len(items) == 0 {
		return ""
	}
	// A message naming k items holds their joined text: no k whose
	// items alone exceed MaxMessage can fit.
	k, width := 0, -2
	for k < len(items) && k < maxFitItems {
		width += 2 + utf8.RuneCountInString(items[k])
		if width > MaxMessage {
			break
		}
		k++
	}
	return Fit(max(k, 1), func(n int) string { return format(List(items, n)) })
}

// FitClip renders a message whose quoted values can be clipped: render(w)
// clips them to w characters (ClipTo). It returns the first rendering,
// from 60 characters down to 20, that stays within MaxMessage.
func FitClip(render func(w int) string) string {
	var msg string
	for _, w := range []int{maxValue, 40, 28, 20} {
		if msg = render(w); len([]rune(msg)) <= MaxMessage {
			break
		}
	}
	return msg
}

// ClipPath is ClipTo for a '/'-separated path: the cut falls before the
// file name, which stays whole while it leaves room for the start.
// Secrets are masked first, as in ClipTo.
func ClipPath(p string, n int) string {
	p = secret.Mask(p)
	if utf8.RuneCountInString(p) <= n {
		return p // the usual case, without a copy as runes
	}
	r := []rune(p)
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ClipTo(p, n)
	}
	tail := []rune(p[i:])
	head := n - 1 - len(tail)
	if head < 4 {
		return ClipTo(p, n)
	}
	return string(r[:head]) + "…" + string(tail)
}
