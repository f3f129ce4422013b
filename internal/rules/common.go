package rules

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/schema"
	"github.com/resumelint/resumelint/internal/secret"
)

// Rules that apply to every kind (SPEC §3.1).

var (
	ParseError = &Rule{Code: code.ParseError, Lifecycle: AnyLifecycle, Name: "parse-error", Severity: diag.SevError, Family: "common",
		Summary: "YAML, JSON, JSONL or front matter that does not parse"}
	DuplicateKey = &Rule{Code: code.DuplicateKey, Name: "duplicate-key", Severity: diag.SevError, Family: "common",
		Summary: "a mapping repeats a key"}
	InputLimits = &Rule{Code: code.InputLimits, Lifecycle: AnyLifecycle, Name: "input-limits", Severity: diag.SevError, Family: "common",
		Summary: "file too large, alias expansion or nesting beyond the limits, a line too long, or not a regular file"}
	Encoding = &Rule{Code: code.Encoding, Lifecycle: AnyLifecycle, Name: "encoding", Severity: diag.SevError, Family: "common",
		Summary: "not UTF-8, a NUL byte, or a byte-order mark"}
	SecretLeak = &Rule{Code: code.SecretLeak, Lifecycle: AnyLifecycle, Name: "secret-leak", Severity: diag.SevError, Family: "common",
		Summary: "a value that looks like a credential (never printed)", Run: runSecrets}
	TimestampFormat = &Rule{Code: code.TimestampFormat, Name: "timestamp-format", Severity: diag.SevWarning, Family: "common",
		Summary: "a timestamp that is not RFC 3339 with a zone", Run: runTimestampFormat}
	FutureTimestamp = &Rule{Code: code.FutureTimestamp, Name: "future-timestamp", Severity: diag.SevError, Family: "common",
		Summary: "a timestamp later than now plus 5 minutes", Run: runFutureTimestamp}
	UnknownKind = &Rule{Code: code.UnknownKind, Name: "unknown-kind", Severity: diag.SevWarning, Family: "common",
		Summary: "an explicitly named file that matches no kind"}
)

func init() {
	Register(ParseError, DuplicateKey, InputLimits, Encoding, SecretLeak, TimestampFormat, FutureTimestamp, UnknownKind)
}

// ---- timestamps -------------------------------------------------------------

// IsTimestampKey reports keys whose values are timestamps in the seeds'
// formats (created_at, updated_at, timestamp, last_updated, …).
func IsTimestampKey(k string) bool { return node.IsTimestampKey(k) }

var (
	rfc3339Zone = lazyre.New(`^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$`)
	zoneless    = lazyre.New(`^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$`)
	dateOnly    = lazyre.New(`^\d{4}-\d{2}-\d{2}$`)
)

// ParseTimestamp parses the timestamp forms seen in real files. zone is
// false when the text carries no zone (then UTC is assumed).
func ParseTimestamp(s string) (t time.Time, zone bool, ok bool) {
	s = strings.TrimSpace(s)
	// RFC 3339 allows a lowercase t and z, and real files use a space.
	if len(s) > 10 && (s[10] == 't' || s[10] == ' ') {
		s = s[:10] + "T" + s[11:]
	}
	if strings.HasSuffix(s, "z") {
		s = s[:len(s)-1] + "Z"
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, true, true
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, false, true
		}
	}
	return time.Time{}, false, false
}

// timestampNodes yields every scalar under a timestamp-named key.
func timestampNodes(root *yaml.Node, fn func(key, val *yaml.Node)) {
	node.Walk(root, func(n, pk *yaml.Node) {
		if pk == nil || n.Kind != yaml.ScalarNode || !IsTimestampKey(pk.Value) || node.IsNull(n) {
			return
		}
		fn(pk, n)
	})
}

func docRoots(p *Pass) []*load.Document {
	switch {
	case p.Doc != nil:
		return []*load.Document{p.Doc}
	case p.Bundle != nil:
		var out []*load.Document
		for _, name := range load.BundleArtifacts {
			if d := p.Bundle.Artifacts[name]; d != nil {
				out = append(out, d)
			}
		}
		return out
	case p.Run != nil:
		var out []*load.Document
		if p.Run.TaskGraph != nil {
			out = append(out, p.Run.TaskGraph)
		}
		return append(out, p.Run.Events...)
	}
	return nil
}

// eachTree calls fn for every parsed tree of the unit (JSONL: each line).
func eachTree(p *Pass, fn func(d *load.Document, root *yaml.Node)) {
	for _, d := range docRoots(p) {
		if d.Root != nil {
			fn(d, d.Root)
		}
		for _, l := range d.Lines {
			if l.Node != nil {
				fn(d, l.Node)
			}
		}
	}
}

func runTimestampFormat(p *Pass) {
	eachTree(p, func(d *load.Document, root *yaml.Node) {
		// Seed 004's own examples write zone-less ISO 8601, and its hooks
		// read it back: a format there, not a violation. Seed 002 asks a
		// bundle for ISO 8601, its verdict never reads a timestamp, and the
		// reference system's writer stamps local time without a zone.
		zonelessOK := d.File.Kind == load.KindPrecompact || d.File.Kind == load.KindResumeContext || d.File.Kind == load.KindBundle
		timestampNodes(root, func(k, v *yaml.Node) {
			s, ok := node.Str(v)
			if !ok {
				return // a number or a list where a timestamp belongs is the schema's to report
			}
			if schema.IsPlaceholder(s) && (d.File.Template || d.File.Kind == load.KindOrchestration) {
				return // a template's blank, or RL114's finding
			}
			// Only timestamps a protocol compares: in an orchestration
			// file, the resumption section; phase dates elsewhere are the
			// user's business.
			if d.File.Kind == load.KindOrchestration && !comparedTimestamps(p)[v] {
				return
			}
			_, _, parsed := ParseTimestamp(s)
			switch {
			case !parsed && (rfc3339Zone.MatchString(s) || zoneless.MatchString(s) || dateOnly.MatchString(s)):
				p.Report(d.File, v, fmt.Sprintf("%s %s is not a real date and time (a month, day, hour, minute or second out of range)", k.Value, diag.QuoteFull(s)))
			case rfc3339Zone.MatchString(s):
			case zoneless.MatchString(s):
				if !zonelessOK {
					p.Report(d.File, v, fmt.Sprintf("%s %s has no time zone; add the zone it was written in, e.g. %s if it is UTC", k.Value, diag.QuoteFull(s), diag.QuoteFull(suggestZone(s))))
				}
			case dateOnly.MatchString(s):
				p.Report(d.File, v, fmt.Sprintf("%s %s is a date without a time of day; write the full time it happened, with its zone", k.Value, diag.QuoteFull(s)))
			default:
				// Text that does not even start with a date fails the
				// kind's schema where one covers the value; one finding
				// per node, so only uncovered values are reported here.
				if !parsed && (datePrefix.MatchString(s) || !schemaCovers(p, d, v)) {
					p.Report(d.File, v, fmt.Sprintf("%s %s is not an RFC 3339 timestamp (expected e.g. \"2026-02-20T21:00:00Z\")", k.Value, diag.QuoteFull(s)))
				}
			}
		})
	})
}

// comparedTimestamps are the timestamps of an orchestration file that a
// protocol compares (seed 000 §Staleness Detection, §Update Semantics):
// recovery_state.updated_at and the decision and compaction event times.
func comparedTimestamps(p *Pass) map[*yaml.Node]bool { return comparedTimestampsResult.Of(p) }

var comparedTimestampsResult = NewResult("compared-timestamps", func(p *Pass) map[*yaml.Node]bool {
	m := map[*yaml.Node]bool{}
	if rs := recoveryOf(p); rs != nil {
		m[rs.UpdatedAt.Node] = true
	}
	if r := ResumptionOf(p); r != nil && r.Version() != "v1" {
		if r.Decisions != nil {
			for _, e := range r.Decisions.Items {
				if e == nil {
					continue
				}
				m[e.Timestamp.Node] = true
			}
		}
		if r.Compaction != nil {
			for _, e := range r.Compaction.Events.Items {
				if e == nil {
					continue
				}
				m[e.Timestamp.Node] = true
			}
		}
	}
	delete(m, nil)
	return m
})

var datePrefix = lazyre.New(`^\d{4}-\d{2}-\d{2}`)

// schemaCovers reports whether a node lies in the part of the document a
// CUE definition validates: the whole document for every kind but
// orchestration, the resumption section there.
func schemaCovers(p *Pass, d *load.Document, n *yaml.Node) bool {
	if d.File.Kind != load.KindOrchestration {
		return true
	}
	r := ResumptionOf(p)
	if r == nil {
		return false
	}
	inside := false
	node.Walk(r.Node, func(x, _ *yaml.Node) {
		if x == n {
			inside = true
		}
	})
	return inside
}

func suggestZone(s string) string {
	s = strings.Replace(s, " ", "T", 1)
	if strings.Count(s, ":") == 1 {
		s += ":00"
	}
	return s + "Z"
}

// furthestZoneAhead is how far ahead of UTC a local time can be (UTC+14),
// furthestZoneBehind how far behind (UTC−12).
const (
	furthestZoneAhead  = 14 * time.Hour
	furthestZoneBehind = 12 * time.Hour
)

// surelyAfter reports a later than b in whatever zone a time written
// without one (az, bz false) was its writer's local time: such a time is
// any instant from 14 hours before to 12 hours after the same digits in
// UTC. Two times without a zone are taken from one clock.
func surelyAfter(a time.Time, az bool, b time.Time, bz bool) bool {
	switch {
	case az == bz:
		return a.After(b)
	case !az:
		return a.Add(-furthestZoneAhead).After(b)
	}
	return a.After(b.Add(furthestZoneBehind))
}

// earliestUTC is the first instant a timestamp can stand for: itself when
// it has a zone, its digits less 14 hours when it has none.
func earliestUTC(t time.Time, zone bool) time.Time {
	if zone {
		return t
	}
	return t.Add(-furthestZoneAhead)
}

// localTo is what a time is, compared with one written without a zone
// (a.After(b) for localTo(a) and b is surelyAfter): itself when it has no
// zone either (one clock); 12 hours less when it has one, as local digits
// may stand for any instant up to 12 hours after them.
func localTo(t time.Time, zone bool) time.Time {
	if zone {
		return t.Add(-furthestZoneBehind)
	}
	return t
}

func runFutureTimestamp(p *Pass) {
	limit := p.Opts.Now.Add(5 * time.Minute)
	eachTree(p, func(d *load.Document, root *yaml.Node) {
		timestampNodes(root, func(k, v *yaml.Node) {
			s, ok := node.Str(v)
			if !ok {
				return
			}
			t, zone, ok := ParseTimestamp(s)
			if !zone {
				// A time without a zone is its writer's local time, in a
				// zone the file does not say (datetime.now().isoformat()):
				// in the future only when it is so in every zone.
				t = t.Add(-furthestZoneAhead)
			}
			if !ok || !t.After(limit) {
				return
			}
			p.Report(d.File, v, fmt.Sprintf("%s %s is in the future (now is %s); a clock or a hand edit is wrong", k.Value, s, p.Opts.Now.UTC().Format(time.RFC3339)))
		})
	})
}

// ---- secrets ----------------------------------------------------------------

// digestRe matches content digests (sha256:…): hashes name data, they do
// not grant access to it.
var digestRe = lazyre.New(`^(?:sha(?:1|224|256|384|512)|md5|blake2b|blake3):[0-9a-fA-F]+$`)

var secretKeyRe = lazyre.New(`(?i)(token|secret|passw(or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth)`)

// secretKeyWords are what secretKeyRe looks for, as plain substrings:
// checking every key of every file with the regexp costs more than the
// rest of the secret scan.
var secretKeyWords = []string{"token", "secret", "passw", "pwd", "key", "credential", "auth"}

// secretKey reports a key named like a credential holder (secretKeyRe),
// screening with substrings first.
func secretKey(k string) bool {
	l := strings.ToLower(k)
	for _, w := range secretKeyWords {
		if strings.Contains(l, w) {
			return secretKeyRe.MatchString(k)
		}
	}
	return false
}

// secretRefKey marks keys that name where a secret lives or what it is
// (api_key_source, token_env, password_policy), not the secret itself.
var secretRefKey = lazyre.New(`(?i)[_-](name|env|var|file|path|source|ref|url|uri|id|policy|type|hint|scope|header|location)s?$`)

// Entropy returns the Shannon entropy of s in bits per character.
func Entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	var h float64
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}

// SecretSpan is a located credential; only its position and kind leave
// the rule, never its text. It ends at EndLine:EndCol (exclusive); a PEM
// block or a multi-line scalar spans lines.
type SecretSpan struct {
	Line, Col, EndLine, EndCol int
	What                       string
	// ByKey: found by its entropy under a credential-named key, not by a
	// credential's shape (secrets.allow can say it is no secret).
	ByKey bool
}

// pemEnd finds the END line of a PEM block that begins at line i (1-based),
// byte m: on the same line (a JSON string with \n escapes) or below, within
// 1,000 lines. It returns the line and the byte offset just past END; not
// found, the block runs to the end of its line.
func pemEnd(f *load.File, i int, line string, m int) (int, int) {
	if loc := secret.PEMEnd.FindStringIndex(line[m:]); loc != nil {
		return i, m + loc[1]
	}
	n := len(f.LineStarts())
	for j := i + 1; j <= n && j <= i+1000; j++ {
		l := f.Line(j)
		if loc := secret.PEMEnd.FindStringIndex(l); loc != nil {
			return j, loc[1]
		}
	}
	return i, len(line)
}

// cover marks bytes [a, b) of line as a reported credential's (to the
// end of the line for a PEM block). Each pattern's matches do not
// overlap, so marking costs O(patterns × line), never O(matches²).
func cover(covered []bool, line string, a, b int, pem bool) []bool {
	if covered == nil {
		covered = make([]bool, len(line))
	}
	if pem {
		b = len(line)
	}
	for j := a; j < b && j < len(covered); j++ {
		covered[j] = true
	}
	return covered
}

func posLess(l1, c1, l2, c2 int) bool { return l1 < l2 || l1 == l2 && c1 < c2 }

func runeCol(line string, b int) int {
	return utf8.RuneCountInString(line[:min(b, len(line))]) + 1
}

// colCounter gives the rune columns of byte offsets of one line, counting
// on from the last offset asked when offsets come in order: a minified
// line holding thousands of credentials is counted about once per
// pattern, not once per match.
type colCounter struct {
	line      string
	at, runes int // byte offset at and the runes before it
}

func (c *colCounter) col(b int) int {
	b = min(b, len(c.line))
	if b < c.at {
		c.at, c.runes = 0, 0
	}
	c.runes += utf8.RuneCountInString(c.line[c.at:b])
	c.at = b
	return c.runes + 1
}

// FindSecrets scans a file's text for credential patterns, and its trees
// for high-entropy values under secret-named keys.
//
// The file is first screened for the patterns' keywords (one pass over
// its bytes finds them all, line by line): most lines hold none and run
// no regexp, and a line runs only the patterns whose keyword it holds.
func FindSecrets(f *load.File, trees []*yaml.Node) []SecretSpan {
	var out []SecretSpan
	seen := map[[2]int]bool{}
	// One pass over the file's bytes finds the lines holding a pattern's
	// prefix; only those are copied.
	secret.LineCandidates(f.Data, f.LineStarts(), func(i int, set secret.Set) {
		lb := f.LineBytes(i + 1)
		if len(lb) < 16 {
			return
		}
		line := string(lb)
		var covered []bool // bytes of the line a reported credential covers
		for pi := range secret.Patterns {
			if !set.Has(pi) {
				continue
			}
			sp := &secret.Patterns[pi]
			starts, ends := colCounter{line: line}, colCounter{line: line}
			for _, m := range sp.Matches(line) {
				col := starts.col(m[0])
				k := [2]int{i + 1, col}
				if seen[k] {
					continue
				}
				endLine, end := i+1, secret.TokenEnd(line, m[1])
				endCol := ends.col(end)
				if secret.FromRuleset(pi) && slices.Contains(covered[min(m[0], len(covered)):min(end, len(covered))], true) {
					continue // a built-in or earlier rule found this credential
				}
				seen[k] = true
				covered = cover(covered, line, m[0], end, sp.PEM)
				if sp.PEM {
					var endByte int
					endLine, endByte = pemEnd(f, i+1, line, m[1])
					endCol = runeCol(f.Line(endLine), endByte)
					if endLine == i+1 {
						endCol = runeCol(line, endByte)
					}
				}
				out = append(out, SecretSpan{Line: i + 1, Col: col, EndLine: endLine, EndCol: endCol, What: sp.What})
			}
		}
	})
	// Values with escapes (\u005f, \/) or folded across lines match only
	// once decoded: the whole scalar is then the secret.
	for _, t := range trees {
		node.WalkKeys(t, func(n, pk *yaml.Node) {
			if !node.IsString(n) || len(n.Value) < 16 || n.Line == 0 || !secret.MayHold(n.Value) {
				return
			}
			what := ""
			set := secret.Candidates(n.Value)
			for pi := range secret.Patterns {
				if set.Has(pi) && len(secret.Patterns[pi].Matches(n.Value)) > 0 {
					what = secret.Patterns[pi].What
					break
				}
			}
			if what == "" {
				return
			}
			sp := nodeSpan(f, n)
			for _, o := range out {
				if posLess(o.Line, o.Col, sp.EndLine, sp.EndCol) && posLess(sp.Line, sp.Col, o.EndLine, o.EndCol) {
					return // the text scan found it (to the token's end)
				}
			}
			sp.What = what
			out = append(out, sp)
		})
	}
	for _, t := range trees {
		node.Walk(t, func(n, pk *yaml.Node) {
			if pk == nil || !node.IsString(n) || len(n.Value) < 16 || !secretKey(pk.Value) || secretRefKey.MatchString(pk.Value) {
				return
			}
			s := n.Value
			if len(s) < 16 || strings.ContainsAny(s, " \t\n") || secret.LooksLikePlaceholder(s) || digestRe.MatchString(s) || Entropy(s) < 3.5 {
				return
			}
			end := load.EndOf(f, n)
			for _, o := range out {
				if o.Line == n.Line && o.Col < end.Col && n.Column < o.EndCol {
					return // the pattern scan already found this credential
				}
			}
			out = append(out, SecretSpan{Line: n.Line, Col: n.Column, EndLine: n.Line, EndCol: end.Col, What: "a high-entropy value under " + diag.QuoteFull(pk.Value), ByKey: true})
		})
	}
	return lineSecrets(f, trees, embeddedSecrets(f, trees, out))
}

// nodeSpan is the source extent of a scalar: its quoted or plain text on
// one line, or every line of a block or multi-line scalar, whole.
func nodeSpan(f *load.File, n *yaml.Node) SecretSpan {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		if l, c, ok := quotedEnd(f, n); ok && l > n.Line {
			return SecretSpan{Line: n.Line, Col: n.Column, EndLine: l, EndCol: c}
		}
	}
	end := load.EndOf(f, n)
	lines := strings.Count(strings.TrimRight(n.Value, "\n"), "\n")
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		lines++ // the content starts below the indicator
	}
	if lines == 0 && end.Line == n.Line && end.Col > n.Column {
		return SecretSpan{Line: n.Line, Col: n.Column, EndLine: n.Line, EndCol: end.Col}
	}
	// A scalar over several lines: to the end of its last line. Folded
	// and plain multi-line scalars join lines, so look further, to the
	// next line that is indented no deeper than the scalar's key.
	last := n.Line + lines
	nl := len(f.LineStarts())
	if n.Style&yaml.LiteralStyle == 0 {
		for last < nl {
			next := f.Line(last + 1)
			trim := strings.TrimLeft(next, " ")
			if trim != "" && len(next)-len(trim) < n.Column-1 && n.Style&(yaml.FoldedStyle) == 0 {
				break
			}
			if trim != "" && n.Style&yaml.FoldedStyle != 0 && len(next)-len(trim) == 0 {
				break
			}
			if last-n.Line > lines+1000 {
				break
			}
			last++
			if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && strings.ContainsAny(trim, `"'`) {
				break
			}
		}
	}
	last = min(last, max(nl, n.Line))
	return SecretSpan{Line: n.Line, Col: n.Column, EndLine: last, EndCol: utf8.RuneCountInString(f.Line(last)) + 1}
}

// quotedEnd finds the closing quote of a quoted scalar, which may be lines
// below its opening one: a double-quoted scalar continues over a line
// ending in \ or simply folds, and its value holds no newline that would
// tell. It returns the line and the column just past the quote; not ok
// when the scalar is not found closed within 1,000 lines.
func quotedEnd(f *load.File, n *yaml.Node) (line, col int, ok bool) {
	text, at, ok := f.LineAt(n.Line, n.Column)
	if !ok || at >= len(text) || (text[at] != '"' && text[at] != '\'') {
		return 0, 0, false
	}
	q := text[at]
	nl := len(f.LineStarts())
	for l, i := n.Line, at+1; l <= nl && l-n.Line <= 1000; l, i = l+1, 0 {
		if l > n.Line {
			text = f.LineBytes(l)
		}
		for ; i < len(text); i++ {
			switch {
			case q == '"' && text[i] == '\\':
				i++ // an escape; at the end of a line, it goes on on the next
			case text[i] == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
				i++ // '' stands for '
			case text[i] == q:
				if l == n.Line {
					return l, n.Column + utf8.RuneCount(text[at:i+1]), true
				}
				return l, utf8.RuneCount(text[:i+1]) + 1, true
			}
		}
	}
	return 0, 0, false
}

// MayHoldSecret reports whether a file's content may hold a credential
// FindSecrets would locate: false means none can be found in it.
func MayHoldSecret(data []byte) bool {
	return secret.MayHoldBytes(data) || mayEmbedBytes(data)
}

// MaskFile returns data, the content of a file of kind k at path, with
// every credential FindSecrets locates in its text and in its parsed
// values (a token split over the lines of a quoted scalar) replaced by
// asterisks, for outputs that print file content other than snippets
// (fix --diff).
func MaskFile(path string, k load.Kind, data []byte) []byte {
	out, _ := maskFile(path, k, data)
	return out
}

// MaskFiles is MaskFile of two versions of a file (a fix's before and
// after), each also masked of the text of the credentials located in the
// other: a fix may move one where it is no longer found as one.
func MaskFiles(from, to string, k load.Kind, before, after []byte) ([]byte, []byte) {
	b, bs := maskFile(from, k, before)
	a, as := maskFile(to, k, after)
	return maskTexts(b, as), maskTexts(a, bs)
}

// maskTexts replaces every occurrence in data of each text (of 8 bytes or
// more) with asterisks.
func maskTexts(data []byte, texts []string) []byte {
	for _, t := range texts {
		if len(t) < 8 || !bytes.Contains(data, []byte(t)) {
			continue
		}
		data = bytes.ReplaceAll(data, []byte(t), bytes.Repeat([]byte("*"), utf8.RuneCountInString(t)))
	}
	return data
}

// maskFile is MaskFile, also returning the text of each credential it
// masked (as written on each of its lines).
func maskFile(path string, k load.Kind, data []byte) ([]byte, []string) {
	if !MayHoldSecret(data) {
		return data, nil
	}
	f := &load.File{Path: path, Kind: k, Data: data}
	d, _ := load.Parse(f, load.FormatOf(k, path), load.DefaultLimits)
	trees := docTrees(d)
	spans := FindSecrets(f, trees)
	d.Release()
	if len(spans) == 0 {
		return data, nil
	}
	var texts []string
	lines := strings.SplitAfter(string(data), "\n")
	for _, sp := range spans {
		for l := sp.Line; l <= max(sp.EndLine, sp.Line) && l <= len(lines); l++ {
			text := lines[l-1]
			body := strings.TrimRight(text, "\r\n")
			r := []rune(body)
			a, b := 0, len(r)
			if l == sp.Line {
				a = sp.Col - 1
			}
			if l == sp.EndLine {
				b = min(b, sp.EndCol-1)
			}
			if a = max(a, 0); a < b {
				texts = append(texts, strings.TrimSpace(strings.Trim(strings.TrimSpace(string(r[a:b])), `"'`)))
			}
			for i := max(a, 0); i < b; i++ {
				r[i] = '*'
			}
			lines[l-1] = string(r) + text[len(body):]
		}
	}
	return []byte(strings.Join(lines, "")), texts
}

// DocSecrets are the credentials FindSecrets locates in d's file, parsed
// into d (or not: every line is text then).
func DocSecrets(d *load.Document) []SecretSpan {
	if d.File.Data == nil || !MayHoldSecret(d.File.Data) {
		return nil
	}
	return FindSecrets(d.File, docTrees(d))
}

// secretDocs are the documents RL005 looks for credentials in: the
// unit's (docRoots), and a run's workflow-state.json, which no rule checks
// otherwise but RL505 and status quote.
func secretDocs(p *Pass) []*load.Document {
	docs := docRoots(p)
	if p.Run != nil && p.Run.WorkflowState != nil {
		docs = append(docs, p.Run.WorkflowState)
	}
	return docs
}

// located holds the credentials FindSecrets locates in each of a unit's
// documents (in secretDocs' order), computed once for RL005 and for the
// engine, which masks them in every output whether RL005 runs or not.
var located = NewResult("located-secrets", func(p *Pass) [][]SecretSpan {
	docs := secretDocs(p)
	out := make([][]SecretSpan, len(docs))
	for i, d := range docs {
		if d.File.Data == nil {
			continue
		}
		trees := docTrees(d)
		out[i] = FindSecrets(d.File, trees)
	}
	return out
})

func runSecrets(p *Pass) {
	spans := located.Of(p)
	for i, d := range secretDocs(p) {
		secretInName(p, d.File)
		for _, s := range spans[i] {
			if secretAllowed(p.Opts.SecretAllow, d.File, s) {
				continue
			}
			p.ReportAt(d.File, diag.Pos{Line: s.Line, Col: s.Col}, diag.Pos{Line: s.EndLine, Col: s.EndCol},
				fmt.Sprintf("%s is stored here (value hidden); remove it from the file and rotate the credential", s.What), WithSecret())
		}
	}
}

// secretInName reports a credential in the name of the file f (its last
// path element: a folder's name would be reported for each file in it).
// The name reaches every report as the finding's path, masked there as
// all text is; secrets.allow applies to it as to a value.
func secretInName(p *Pass, f *load.File) {
	name := path.Base(f.Path)
	what, sp, ok := secret.Find(name)
	if !ok || allowedValue(p.Opts.SecretAllow, name[sp[0]:sp[1]]) {
		return
	}
	p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{},
		fmt.Sprintf("%s is in this file's name (value hidden); rename the file and rotate the credential", what))
}

// allowedValue reports whether a located credential's value matches one
// of the configured secrets.allow regexes.
func allowedValue(allow []string, val string) bool {
	for _, pat := range allow {
		re, ok := allowRes.Load(pat)
		if !ok {
			c, err := regexp.Compile(pat)
			if err != nil {
				continue
			}
			re, _ = allowRes.LoadOrStore(pat, c)
		}
		if re.(*regexp.Regexp).MatchString(val) {
			return true
		}
	}
	return false
}

// SecretsToMask returns, by file path, the credentials located in the
// files of p's unit (while its documents are in hand) that no output may
// show: every one that has a credential's shape, and each found by its
// entropy under a credential key unless secrets.allow says it is no
// secret. Whether RL005 runs, is reported, ignored or suppressed does not
// matter: those hide a finding, never a secret.
func SecretsToMask(p *Pass) map[string][]SecretSpan {
	var out map[string][]SecretSpan
	spans := located.Of(p)
	for i, d := range secretDocs(p) {
		for _, s := range spans[i] {
			if s.ByKey && secretAllowed(p.Opts.SecretAllow, d.File, s) {
				continue
			}
			if out == nil {
				out = map[string][]SecretSpan{}
			}
			out[d.File.Path] = append(out[d.File.Path], s)
		}
	}
	return out
}

// allowRes caches the compiled secrets.allow regexes (validated when the
// configuration was read), so no file compiles one.
var allowRes sync.Map // pattern -> *regexp.Regexp

// secretAllowed reports whether a located secret's value matches one of
// the configured secrets.allow regexes.
func secretAllowed(allow []string, f *load.File, s SecretSpan) bool {
	if len(allow) == 0 {
		return false
	}
	line := []rune(f.Line(s.Line))
	a, b := s.Col-1, s.EndCol-1
	if s.EndLine != s.Line {
		b = len(line) // a block: its first line decides
	}
	if a < 0 || b > len(line) || a >= b {
		return false
	}
	return allowedValue(allow, strings.Trim(string(line[a:b]), `"'`))
}

// docTrees are the parsed trees of a document FindSecrets searches: its
// root, and each line's value of a JSONL file.
func docTrees(d *load.Document) []*yaml.Node {
	var trees []*yaml.Node
	if d.Root != nil {
		trees = append(trees, d.Root)
	}
	for _, l := range d.Lines {
		if l.Node != nil {
			trees = append(trees, l.Node)
		}
	}
	return trees
}

// isAre is the verb for a count of n.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// countOf writes n of a noun in the number it takes: "1 phase", "3 phases",
// "2 open boxes", "4 entries". A message counts in words, not "phase(s)".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "x") || strings.HasSuffix(noun, "s") {
		return fmt.Sprintf("%d %ses", n, noun)
	}
	if k := len(noun); k > 1 && noun[k-1] == 'y' && !strings.ContainsRune("aeiou", rune(noun[k-2])) {
		return fmt.Sprintf("%d %sies", n, noun[:k-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// them is the pronoun for n things.
func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
