// Package secret knows what a credential looks like and hides one: the
// patterns RL005 reports and the mask every message, report and editor
// text passes through. It sits below diag, so the functions that quote or
// clip file content can mask before they cut (a clipped token no longer
// matches its pattern).
package secret

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/lazyre"
)

// Pattern is one kind of credential recognised by its shape.
type Pattern struct {
	What string
	RE   *lazyre.RE
	PEM  bool // the match opens a block that runs to its END line
}

// Patterns are the credential shapes, in the order they are tried.
var Patterns = []Pattern{
	{"an AWS access key id", lazyre.New(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), false},
	{"a GitHub token", lazyre.New(`\b(?:ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{30,}\b`), false},
	{"a GitHub fine-grained token", lazyre.New(`\bgithub_pat_[A-Za-z0-9_]{22,}\b`), false},
	{"an Anthropic API key", lazyre.New(`\bsk-ant-[A-Za-z0-9_-]{20,}`), false},
	{"an API secret key (sk-…)", lazyre.New(`\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}`), false},
	{"a Slack token", lazyre.New(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), false},
	{"a PEM private key", lazyre.New(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----`), true},
	{"a JSON Web Token", lazyre.New(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), false},
	{"a bearer token", lazyre.New(`\bBearer\s+(?:[A-Za-z0-9._~+/=-]|\\/){20,}`), false},
}

// PEMEnd matches the line that closes a PEM private key block.
var PEMEnd = lazyre.New(`-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----`)

// prefixes are literal parts every pattern's match holds: a substring
// search rules most text out before any regexp runs.
var prefixes = []string{"AKIA", "ASIA", "ghp_", "gho_", "ghs_", "ghu_", "ghr_", "github_pat_", "sk-", "xox", "PRIVATE KEY", "eyJ", "Bearer"}

var prefixBytes = func() [][]byte {
	out := make([][]byte, len(prefixes))
	for i, p := range prefixes {
		out[i] = []byte(p)
	}
	return out
}()

// MayHold reports whether s holds a literal part of some pattern; false
// means no pattern can match.
func MayHold(s string) bool {
	for _, p := range prefixes {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// MayHoldBytes is MayHold for bytes.
func MayHoldBytes(b []byte) bool {
	for _, p := range prefixBytes {
		if bytes.Contains(b, p) {
			return true
		}
	}
	return false
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
	if !MayHold(s) {
		return s
	}
	for _, sp := range Patterns {
		var sb strings.Builder
		last := 0
		for _, m := range sp.RE.FindAllStringIndex(s, -1) {
			if m[0] < last || LooksLikePlaceholder(s[m[0]:m[1]]) {
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
