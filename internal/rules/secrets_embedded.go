package rules

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/secret"
)

// Credentials written inside a value rather than under a key of their
// own: an agent's note of the command it ran ("export
// AWS_SECRET_ACCESS_KEY=…"), a pasted config line ("api_key=…",
// "client_secret: …"), a connection string with its password
// ("postgres://admin:…@db"), an HTTP Basic header. Each is judged as a
// value under a credential key is (length, entropy, not a placeholder),
// by the name written before it.

// embeddedAssign is NAME=value, NAME: value or "NAME": "value" inside a
// value, NAME named like a credential holder (not "auth", which names
// flows and methods far more often than secrets in prose).
var embeddedAssign = lazyre.New(`(?i)([a-z0-9_.-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|credential)[a-z0-9_.-]*)["']?[ \t]{0,4}(?:=|:)[ \t]{0,4}["']?([A-Za-z0-9/+=_.~-]{16,200})`)

// urlPassword is the password of a URL's user information.
var urlPassword = lazyre.New(`[A-Za-z][A-Za-z0-9+.-]{1,20}://[^/\s:@'"]{1,64}:([^/\s@'"]{6,128})@[A-Za-z0-9.\[-]`)

// basicAuth is an HTTP Basic credential: base64 of user:password.
var basicAuth = lazyre.New(`(?i)\bbasic[ \t]+([A-Za-z0-9+/]{12,}={0,2})`)

// embeddedWords screen a value before any regexp runs.
var embeddedWords = []string{"token", "secret", "passw", "pwd", "key", "credential", "://", "basic"}

// embeddedSecrets adds to out the credentials written inside the string
// values of trees, each located where its text is on its line (the whole
// value when it is not there as written: escapes, folding), unless a
// span of out covers it already.
func embeddedSecrets(f *load.File, trees []*yaml.Node, out []SecretSpan) []SecretSpan {
	for _, t := range trees {
		node.Walk(t, func(n, pk *yaml.Node) {
			if !node.IsString(n) || len(n.Value) < 16 || n.Line == 0 || !mayEmbed(n.Value) {
				return
			}
			for _, m := range embeddedIn(n.Value) {
				sp, exact := valueSpan(f, n, m)
				if covered(out, sp) {
					continue
				}
				sp.What = m.what
				if !exact {
					// The whole value is masked, the name with it.
					sp.What = "a credential written in this value"
				}
				out = append(out, sp)
			}
		})
	}
	return out
}

// embedded is one credential inside a value: its byte range there.
type embedded struct {
	a, b int
	what string
}

func mayEmbed(s string) bool {
	l := strings.ToLower(s)
	for _, w := range embeddedWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// embeddedIn finds the credentials inside the value s.
func embeddedIn(s string) []embedded {
	var out []embedded
	for _, m := range embeddedAssign.Regexp().FindAllStringSubmatchIndex(s, -1) {
		name, v := s[m[2]:m[3]], s[m[4]:m[5]]
		if secretRefKey.MatchString(name) || !credentialLike(v, 3.5) {
			continue
		}
		out = append(out, embedded{m[4], m[5], "a credential written after " + diag.QuoteHead(name, 40)})
	}
	for _, m := range urlPassword.Regexp().FindAllStringSubmatchIndex(s, -1) {
		if v := s[m[2]:m[3]]; credentialLike(v, 2.5) {
			out = append(out, embedded{m[2], m[3], "a password in a URL"})
		}
	}
	for _, m := range basicAuth.Regexp().FindAllStringSubmatchIndex(s, -1) {
		dec, err := base64.StdEncoding.DecodeString(s[m[2]:m[3]])
		if err == nil && strings.Contains(string(dec), ":") && !secret.LooksLikePlaceholder(string(dec)) {
			out = append(out, embedded{m[2], m[3], "an HTTP Basic credential"})
		}
	}
	return out
}

// credentialLike is a value a credential could be: not a placeholder or
// a digest, of at least minEntropy bits a character, and mixing case or
// letters and digits (lower-case words joined by - or _ are a name).
func credentialLike(v string, minEntropy float64) bool {
	if secret.LooksLikePlaceholder(v) || digestRe.MatchString(v) || Entropy(v) < minEntropy {
		return false
	}
	var lower, upper, digit bool
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= '0' && r <= '9':
			digit = true
		}
	}
	return lower && upper || (lower || upper) && digit
}

// valueSpan locates bytes [m.a, m.b) of n's value on its line when the
// value is written there as it is (exact), else the whole value.
func valueSpan(f *load.File, n *yaml.Node, m embedded) (sp SecretSpan, exact bool) {
	line := f.Line(n.Line)
	if !strings.Contains(n.Value, "\n") {
		from := byteAt(line, n.Column)
		if i := strings.Index(line[from:], n.Value); i >= 0 && i <= 1 {
			start := from + i
			return SecretSpan{Line: n.Line, Col: runeCol(line, start+m.a), EndLine: n.Line, EndCol: runeCol(line, start+m.b)}, true
		}
	}
	return nodeSpan(f, n), false
}

// byteAt is the byte offset of the 1-based rune column col of line.
func byteAt(line string, col int) int {
	i := 0
	for c := 1; c < col && i < len(line); c++ {
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
	}
	return i
}

// covered reports whether a span of out overlaps sp.
func covered(out []SecretSpan, sp SecretSpan) bool {
	for _, o := range out {
		if posLess(o.Line, o.Col, sp.EndLine, sp.EndCol) && posLess(sp.Line, sp.Col, o.EndLine, o.EndCol) {
			return true
		}
	}
	return false
}
