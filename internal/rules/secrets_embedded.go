package rules

import (
	"encoding/base64"
	"sort"
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
var embeddedAssign = lazyre.New(`(?i)([a-z0-9_.-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|credential)[a-z0-9_.-]*)["']?[ \t]{0,4}(?:=|:)[ \t]{0,4}["']?[*&]?([A-Za-z0-9/+=_.~-]{16,200})`)

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
	found := newSpanIndex(out) // what the other scans found, looked up by line
	for _, t := range trees {
		node.WalkKeys(t, func(n, pk *yaml.Node) {
			if !node.IsString(n) || len(n.Value) < 16 || n.Line == 0 || !mayEmbed(n.Value) {
				return
			}
			ms := embeddedIn(n.Value)
			if len(ms) == 0 {
				return
			}
			line, start, exact := valueAt(f, n)
			if !exact {
				// The whole value is masked, the name with it.
				if sp := nodeSpan(f, n); !found.overlaps(sp) {
					sp.What = "a credential written in this value"
					out = append(out, sp)
				}
				return
			}
			// The matches come in order: their columns are counted on.
			starts, ends := colCounter{line: line}, colCounter{line: line}
			for _, m := range ms {
				sp := SecretSpan{Line: n.Line, Col: starts.col(start + m.a), EndLine: n.Line, EndCol: ends.col(start + m.b), What: m.what}
				if !found.overlaps(sp) {
					out = append(out, sp)
				}
			}
		})
	}
	return out
}

// spanIndex answers whether a span on one line overlaps one of a fixed
// set, by line: the spans of each line sorted by column, and the lines a
// span of several lines covers whole past its first.
type spanIndex map[int]*lineSpans

type lineSpans struct {
	whole bool
	spans [][2]int // [col, endCol) on the line, sorted
}

func newSpanIndex(spans []SecretSpan) spanIndex {
	ix := spanIndex{}
	at := func(l int) *lineSpans {
		if ix[l] == nil {
			ix[l] = &lineSpans{}
		}
		return ix[l]
	}
	for _, sp := range spans {
		last := max(sp.EndLine, sp.Line)
		end := sp.EndCol
		if last > sp.Line {
			end = 1 << 30 // to the end of its first line
		}
		at(sp.Line).spans = append(at(sp.Line).spans, [2]int{sp.Col, end})
		for l := sp.Line + 1; l <= last && l-sp.Line < 1000; l++ {
			at(l).whole = true
		}
	}
	for _, ls := range ix {
		sort.Slice(ls.spans, func(i, j int) bool { return ls.spans[i][0] < ls.spans[j][0] })
	}
	return ix
}

// overlaps reports whether sp (on one line) overlaps a span of ix: one
// that starts before sp ends and ends after sp starts. The spans of a line
// rarely overlap each other, so the few starting last before sp's end are
// enough to look at.
func (ix spanIndex) overlaps(sp SecretSpan) bool {
	ls := ix[sp.Line]
	if ls == nil {
		return false
	}
	if ls.whole {
		return true
	}
	i := sort.Search(len(ls.spans), func(i int) bool { return ls.spans[i][0] >= sp.EndCol })
	for k := i - 1; k >= 0 && k >= i-4; k-- {
		if ls.spans[k][1] > sp.Col {
			return true
		}
	}
	return false
}

// embedded is one credential inside a value: its byte range there.
type embedded struct {
	a, b int
	what string
}

// mayEmbedBytes is mayEmbed for a file's bytes, in one pass and without
// a lower-cased copy of them.
func mayEmbedBytes(b []byte) bool {
	for i, c := range b {
		if c = lowerASCII(c); !embeddedFirst[c] {
			continue
		}
		for _, w := range embeddedWords {
			if w[0] == c && len(b)-i >= len(w) && foldPrefix(b[i:], w) {
				return true
			}
		}
	}
	return false
}

// embeddedFirst marks the first bytes of embeddedWords.
var embeddedFirst = func() (t [256]bool) {
	for _, w := range embeddedWords {
		t[w[0]] = true
	}
	return t
}()

// foldPrefix reports whether b starts with the lower-case ASCII word w,
// in any case.
func foldPrefix(b []byte, w string) bool {
	for j := 0; j < len(w); j++ {
		if lowerASCII(b[j]) != w[j] {
			return false
		}
	}
	return true
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

// embeddedIn finds the credentials inside the value s, in order, none
// overlapping another.
func embeddedIn(s string) []embedded {
	ms := embeddedAll(s)
	if len(ms) < 2 {
		return ms
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].a < ms[j].a })
	kept := ms[:1]
	for _, m := range ms[1:] {
		if m.a >= kept[len(kept)-1].b {
			kept = append(kept, m)
		}
	}
	return kept
}

func embeddedAll(s string) []embedded {
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
		if err != nil {
			continue
		}
		_, pw, ok := strings.Cut(string(dec), ":")
		if ok && len(pw) >= 4 && !secret.LooksLikePlaceholder(string(dec)) && !lowerWord(pw) {
			out = append(out, embedded{m[2], m[3], "an HTTP Basic credential"})
		}
	}
	return out
}

// lowerWord is a password that is one lower-case word ("password",
// "secret"): what documentation writes, not what anyone is given.
func lowerWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// credentialLike is a value a credential could be: not a placeholder or
// a digest, of at least minEntropy bits a character, and mixing case or
// letters and digits (lower-case words joined by - or _ are a name).
func credentialLike(v string, minEntropy float64) bool {
	if secret.LooksLikePlaceholder(v) || digestRe.MatchString(v) || Entropy(v) < minEntropy || fileExt.MatchString(v) || wordy(v) {
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

// fileExt ends a file's path or name (ADR-014.md, TokenRefresher.py).
var fileExt = lazyre.New(`\.[A-Za-z][A-Za-z0-9]{0,4}$`)

// wordy reports a value most of whose characters are words (a run of
// four or more lower-case letters, after at most one capital): a work
// item's id, a branch or a file name, not a random key (whose runs of
// lower-case letters are short and few).
func wordy(v string) bool {
	words := 0
	for i := 0; i < len(v); {
		j := i
		if v[j] >= 'A' && v[j] <= 'Z' {
			j++
		}
		k := j
		for k < len(v) && v[k] >= 'a' && v[k] <= 'z' {
			k++
		}
		if k-j >= 4 {
			words += k - i
			i = k
			continue
		}
		i = max(k, i+1)
	}
	return words*10 >= len(v)*3
}

// valueAt finds where n's value is written on its line, as it is (exact,
// its bytes from start): a plain or quoted scalar on one line without
// escapes. A value that is not (escapes, folding) is not exact.
func valueAt(f *load.File, n *yaml.Node) (line string, start int, exact bool) {
	line = f.Line(n.Line)
	if strings.Contains(n.Value, "\n") {
		return line, 0, false
	}
	from := byteAt(line, n.Column)
	for _, skip := range []int{0, 1} { // plain, or after the opening quote
		if from+skip+len(n.Value) <= len(line) && line[from+skip:from+skip+len(n.Value)] == n.Value {
			return line, from + skip, true
		}
	}
	return line, 0, false
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

// MaskText hides in s, text that reaches output from outside a value a
// lint located its secrets in (a baseline's entry, a run folder's name),
// the credentials patterns find (diag.Mask) and those written inside it
// as RL005 finds them in a value: NAME=value, a URL's password, an HTTP
// Basic credential.
func MaskText(s string) string {
	s = diag.Mask(s)
	if !mayEmbed(s) {
		return s
	}
	ms := embeddedIn(s)
	for i := len(ms) - 1; i >= 0; i-- {
		s = s[:ms[i].a] + "****" + s[ms[i].b:]
	}
	return s
}
