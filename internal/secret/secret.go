// Package secret knows what a credential looks like and hides one: the
// patterns RL005 reports and the mask every message, report and editor
// text passes through. It sits below diag, so the functions that quote or
// clip file content can mask before they cut (a clipped token no longer
// matches its pattern).
package secret

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/lazyre"
)

//go:generate go run gen_ruleset.go -dir ${GITLEAKS_DIR}

// Pattern is one kind of credential recognised by its shape.
type Pattern struct {
	ID   string // the gitleaks rule id, for the ruleset's patterns
	What string
	RE   *lazyre.RE
	PEM  bool // the match opens a block that runs to its END line
	// Keywords are lower-case literals one of which every match holds
	// (case aside): a line holding none never runs RE.
	Keywords []string
	Group    int     // the submatch that is the credential; 0 is the whole match
	Entropy  float64 // a credential of lower Shannon entropy (bits per byte) is not one
	// NotFollowedBy are the bytes that may not come right after the
	// credential: one of a fixed length followed by more of its own
	// alphabet is part of a longer word. (Checked here, not in RE: a
	// bound the match consumed could not start the next match.)
	NotFollowedBy string
	// NotWords: a match that reads as lower-case words joined by - or _
	// (sk-learning-rate-notes, a branch or task name) is a name, not a
	// credential, whose random body mixes cases or runs of digits.
	NotWords bool
}

// builtin are the shapes resumelint has always known; their names are
// the ones its messages use.
//
// Their bounds follow gitleaks and trufflehog, not \b: a credential pasted
// into a value is often glued into an identifier (CP-<token>_v2,
// <token>_key, ORCHESTRATION_<token>.yaml, x_<token>), where _, letters
// and digits around it are word characters and \b finds no edge. So:
//   - a prefix holding an underscore or other mark no word has (ghp_,
//     github_pat_, xoxb-, eyJ….eyJ) needs no bound at all, as gitleaks'
//     github-* and Slack rules have none;
//   - sk-ant- ends English words (desk-ant-…): not after a letter or
//     digit, but after _, - or anything else; the bare sk- of other
//     vendors' keys, which nothing else marks, keeps \b (after _ it
//     would start snake_case-kebab names, as gitleaks' openai-api-key
//     bounds it);
//   - an AWS key id is 20 upper-case letters and digits: not inside a
//     longer run of them (ASIAPACIFIC…), but glued to lower case or _;
//   - nothing bounds a token's end: it runs to the last character that can
//     continue it (TokenEnd), so <token>_v2 is masked whole.
var builtin = []Pattern{
	{What: "an AWS access key id", RE: lazyre.New(`(?:^|[^0-9A-Z])((?:AKIA|ASIA)[0-9A-Z]{16})`), Group: 1, NotFollowedBy: upperAlnum, Keywords: []string{"akia", "asia"}},
	{What: "a GitHub token", RE: lazyre.New(`(?:ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{30,}`), Keywords: []string{"ghp_", "gho_", "ghs_", "ghu_", "ghr_"}},
	{What: "a GitHub fine-grained token", RE: lazyre.New(`github_pat_[A-Za-z0-9_]{22,}`), Keywords: []string{"github_pat_"}},
	{What: "an Anthropic API key", RE: lazyre.New(`(?:^|[^A-Za-z0-9])(sk-ant-[A-Za-z0-9_-]{20,})`), Group: 1, Keywords: []string{"sk-ant-"}, NotWords: true},
	{What: "an API secret key (sk-…)", RE: lazyre.New(`\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}`), Keywords: []string{"sk-"}, NotWords: true},
	{What: "a Slack token", RE: lazyre.New(`xox[abposr]-[A-Za-z0-9-]{10,}`), Keywords: []string{"xox"}},
	{What: "a PEM private key", RE: lazyre.New(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`), PEM: true, Keywords: []string{"private key"}},
	{What: "a JSON Web Token", RE: lazyre.New(`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), Keywords: []string{"eyj"}},
	{What: "a bearer token", RE: lazyre.New(`\bBearer\s+(?:[A-Za-z0-9._~+/=-]|\\/){20,}`), Keywords: []string{"bearer"}},
}

// upperAlnum are the characters of an AWS key id.
const upperAlnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Patterns are the credential shapes, in the order they are tried: the
// built-in ones, then gitleaks' token formats (ruleset_gen.go), which
// report only what no earlier pattern found.
var Patterns = append(builtin[:len(builtin):len(builtin)], ruleset...)

// KnownPrefix reports whether s is the start of a pattern's keyword
// (sk-, ghp_, AKIA): what every credential of that kind begins with, which
// tells nothing of one.
func KnownPrefix(s string) bool {
	l := strings.ToLower(s)
	for i := range Patterns {
		for _, k := range Patterns[i].Keywords {
			if strings.HasPrefix(k, l) {
				return true
			}
		}
	}
	return false
}

// FromRuleset reports whether Patterns[i] comes from gitleaks' rule set.
func FromRuleset(i int) bool { return i >= len(builtin) }

// PEMEnd matches the line that closes a PEM private key block.
var PEMEnd = lazyre.New(`-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`)

// MayHold reports whether s holds a keyword of some pattern; false
// means no pattern can match.
func MayHold(s string) bool { return !Candidates(s).Empty() }

// MayHoldBytes is MayHold for bytes.
func MayHoldBytes(b []byte) bool { return !candidates(b).Empty() }

// Matches returns the credentials p finds in s, as [start, end) byte
// spans of the credential itself (its group), leaving out placeholders
// and values below the pattern's entropy.
func (p *Pattern) Matches(s string) [][2]int {
	var out [][2]int
	for _, m := range p.RE.FindAllStringSubmatchIndex(s, -1) {
		a, b := m[2*p.Group], m[2*p.Group+1]
		if a < 0 || LooksLikePlaceholder(s[a:b]) || p.Entropy > 0 && Entropy(s[a:b]) < p.Entropy ||
			b < len(s) && strings.IndexByte(p.NotFollowedBy, s[b]) >= 0 || p.NotWords && lowerWords(s[a:b]) {
			continue
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

// lowerWords reports whether s is lower-case words joined by - or _:
// every piece between them all letters, or at most four characters
// (v2, 123, wip). A random key's body has upper-case letters, or a long
// run that mixes letters and digits (sk- and 32 hexadecimal digits).
func lowerWords(s string) bool {
	for piece := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '-' || r == '_' }) {
		if len(piece) <= 4 && strings.ToLower(piece) == piece {
			continue
		}
		for i := 0; i < len(piece); i++ {
			if c := piece[i]; c < 'a' || c > 'z' {
				return false
			}
		}
	}
	return true
}

// Entropy is the Shannon entropy of s in bits per byte.
func Entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// LooksLikePlaceholder reports text that documents a credential's form
// rather than holding one (ghp_<token>, sk-EXAMPLE…, ${TOKEN}).
func LooksLikePlaceholder(s string) bool {
	l := strings.ToLower(s)
	return strings.ContainsAny(s, "{}<>$*") || strings.Contains(l, "example") || strings.Contains(l, "xxxx") ||
		strings.Contains(l, "redacted") || strings.Contains(l, "changeme") || strings.Contains(l, "your")
}

// TokenEnd extends a match that ends at byte m of line over the rest of
// the token: a pattern stops at the first character it does not expect
// (an escaped \/, a character of another alphabet), and the credential
// goes on to the next delimiter.
func TokenEnd(line string, m int) int {
	end := m
	for end < len(line) {
		c := line[end]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("_-+/=~.%", c) >= 0:
			end++
		case c == '\\' && end+1 < len(line) && line[end+1] != '"':
			end += 2 // an escape inside a quoted token (\/, \u002f)
		default:
			return trimDots(line, m, end)
		}
	}
	return trimDots(line, m, end)
}

// trimDots gives a sentence's full stop back.
func trimDots(line string, m, end int) int {
	for end > m && line[end-1] == '.' {
		end--
	}
	return end
}

// Find returns what the first credential in s is (Pattern.What) and its
// [start, end) span to the end of its token, or false when s holds none:
// for short text that is no file's content, such as a file's name.
func Find(s string) (what string, span [2]int, ok bool) {
	set := Candidates(s)
	if set.Empty() {
		return "", span, false
	}
	for i := range Patterns {
		if !set.Has(i) {
			continue
		}
		if ms := Patterns[i].Matches(s); len(ms) > 0 {
			return Patterns[i].What, [2]int{ms[0][0], TokenEnd(s, ms[0][1])}, true
		}
	}
	return "", span, false
}

// Mask replaces every credential in s by ****, to the end of its token
// (a PEM block to its END line, or to the end of s without one). Text
// from a file must pass through it before it is clipped, quoted or
// printed anywhere.
func Mask(s string) string {
	return maskWith(s, func(string) string { return "****" })
}

// MaskInPlace replaces every character of each credential in s by *, so
// a line keeps its width (a snippet with a caret under a column).
func MaskInPlace(s string) string {
	return maskWith(s, func(m string) string { return strings.Repeat("*", utf8.RuneCountInString(m)) })
}

// maskWith replaces each credential in s, to the end of its token, by
// what repl makes of it.
func maskWith(s string, repl func(string) string) string {
	set := Candidates(s)
	if set.Empty() {
		return s
	}
	for i := range Patterns {
		if !set.Has(i) {
			continue
		}
		sp := &Patterns[i]
		var sb strings.Builder
		last := 0
		for _, m := range sp.Matches(s) {
			if m[0] < last {
				continue
			}
			end := TokenEnd(s, m[1])
			if sp.PEM {
				if loc := PEMEnd.FindStringIndex(s[m[1]:]); loc != nil {
					end = m[1] + loc[1]
				} else {
					end = len(s)
				}
			}
			sb.WriteString(s[last:m[0]])
			sb.WriteString(repl(s[m[0]:end]))
			last = end
		}
		if last > 0 {
			sb.WriteString(s[last:])
			s = sb.String()
		}
	}
	return s
}
