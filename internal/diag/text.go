package diag

import (
	"fmt"
	"strconv"
	"strings"
)

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

// ClipTo is Clip with an explicit length (at least 5).
func ClipTo(s string, n int) string {
	r := []rune(s)
	if n < 5 {
		n = 5
	}
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// Quote quotes a value for a message, clipped with Clip.
func Quote(s string) string {
	return strconv.Quote(Clip(s))
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
func Fit(max int, render func(n int) string) string {
	msg := render(max)
	for n := max - 1; n >= 1 && len([]rune(msg)) > MaxMessage; n-- {
		msg = render(n)
	}
	return msg
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
func ClipPath(p string, n int) string {
	r := []rune(p)
	if len(r) <= n {
		return p
	}
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
