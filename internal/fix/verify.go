package fix

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Verify checks the nothing-lost guarantee of SPEC §5 for a fixed file:
// after must parse (with no more parse problems than before), a Markdown
// body must be unchanged, and every scalar of before (keys and values,
// counted as a multiset) must still be in after, except those the fixes
// declared in drops. A prose value that became a comment counts as kept
// when the comments of after hold it once more than those of before.
func Verify(name string, format load.Format, before, after []byte, drops []string) error {
	bd, bp := parse(name, format, before)
	if bd.Root == nil {
		return fmt.Errorf("the file does not parse")
	}
	ad, ap := parse(name, format, after)
	if ad.Root == nil {
		msg := "the fixed file would not parse"
		if len(ap) > 0 {
			msg += fmt.Sprintf(" (line %d: %s)", ap[0].Start.Line, ap[0].Message)
		}
		return fmt.Errorf("%s", msg)
	}
	if len(ap) > len(bp) {
		return fmt.Errorf("the fixed file would have a new problem (line %d: %s)", ap[len(ap)-1].Start.Line, ap[len(ap)-1].Message)
	}
	if format == load.FormatMarkdown && bd.Body != ad.Body {
		return fmt.Errorf("the fix would change the Markdown body")
	}
	want, got := scalars(bd.Root), scalars(ad.Root)
	allowed := map[string]int{}
	for _, d := range drops {
		allowed[d]++
	}
	var bc, ac string
	var lost []string
	keys := make([]string, 0, len(want))
	for v := range want {
		keys = append(keys, v)
	}
	sort.Strings(keys)
	for _, v := range keys {
		missing := want[v] - got[v] - allowed[v]
		if missing <= 0 {
			continue
		}
		if isProse(v) {
			if bc == "" && ac == "" {
				bc, ac = commentText(bd.Root), commentText(ad.Root)
			}
			p := squash(v)
			if strings.Count(ac, p)-strings.Count(bc, p) >= missing {
				continue
			}
		}
		lost = append(lost, v)
	}
	if len(lost) > 0 {
		return fmt.Errorf("the fix would lose %s", describeLost(lost))
	}
	return newDirective(format, before, after)
}

// newDirective refuses a fix after which a resumelint directive suppresses
// a rule no directive of before did: text the fix moves into a comment
// (a prose value, a migrated section) must not start hiding findings. A
// fix may drop names from a directive (RL007's cleanup), never add one.
func newDirective(format load.Format, before, after []byte) error {
	if !bytes.Contains(after, []byte("resumelint:")) {
		return nil
	}
	had := map[string]int{}
	for _, d := range load.DirectivesIn(format, before) {
		for _, k := range directiveKeys(d) {
			had[k]++
		}
	}
	for _, d := range load.DirectivesIn(format, after) {
		for _, k := range directiveKeys(d) {
			if had[k]--; had[k] < 0 {
				return fmt.Errorf("the fix would write a resumelint directive into the file (line %d): text it moves reads as one", d.Line)
			}
		}
	}
	return nil
}

// directiveKeys are what a directive suppresses, one key per name.
func directiveKeys(d load.Directive) []string {
	if len(d.Names) == 0 {
		return []string{d.Verb}
	}
	keys := make([]string, len(d.Names))
	for i, n := range d.Names {
		keys[i] = d.Verb + " " + n
	}
	return keys
}

func parse(name string, format load.Format, data []byte) (*load.Document, []diag.Finding) {
	return load.ParseWithComments(&load.File{Path: name, Data: data}, format, load.DefaultLimits)
}

func describeLost(vs []string) string {
	q := make([]string, 0, 3)
	for i, v := range vs {
		if i == 3 {
			break
		}
		if len(v) > 60 {
			v = v[:57] + "..."
		}
		q = append(q, fmt.Sprintf("%q", v))
	}
	what := "the value " + q[0]
	if len(vs) > 1 {
		what = fmt.Sprintf("%d values (%s", len(vs), strings.Join(q, ", "))
		if len(vs) > 3 {
			what += ", ..."
		}
		what += ")"
	}
	return what
}

// isProse is a value worth keeping as a comment: words, not a token.
func isProse(v string) bool {
	return strings.ContainsAny(strings.TrimSpace(v), " \t\n")
}

// scalars counts every scalar's value under n (keys included).
func scalars(n *yaml.Node) map[string]int {
	out := map[string]int{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if n.Kind == yaml.ScalarNode {
			out[n.Value]++
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return out
}

// commentText is every comment under n, markers removed and whitespace
// squashed, so prose moved into comments can be found.
func commentText(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, ln := range strings.Split(c, "\n") {
				ln = strings.TrimSpace(ln)
				ln = strings.TrimPrefix(ln, "#")
				b.WriteString(ln)
				b.WriteByte(' ')
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return squash(b.String())
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
