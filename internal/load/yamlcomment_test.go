package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// commentCases are YAML documents with the comments a parser sees in them
// (each from its '#' to the end of its line, trailing blanks trimmed).
var commentCases = []struct {
	name, doc string
	want      []string
}{
	{"plain", "a: 1 # one\n# two\nb: x#y # three\n", []string{"# one", "# two", "# three"}},
	{"double quoted", "a: \"x # not\" # yes\nb: \"\\\" # not\"\n", []string{"# yes"}},
	{"single quoted", "a: 'it''s # not' # yes\n", []string{"# yes"}},
	{"quoted over lines", "a: \"first\n  # resumelint:ignore-file RL005\n  last\" # yes\nb: 'x\n  # not'\n", []string{"# yes"}},
	{"escaped break", "a: \"x\\\n  # not\"\n", nil},
	{"literal", "a: |\n  # resumelint:ignore-file RL005\n  text\n# yes\nb: 1\n", []string{"# yes"}},
	{"folded header comment", "a: >- # yes\n  # not\n\n   # not\n  # not\nb: 1\n", []string{"# yes"}},
	{"empty block scalar", "a:\n  b: |\n  # yes\n  c: 1\n", []string{"# yes"}},
	{"block in sequence", "- - key: |\n      # not\n     # yes\n", []string{"# yes"}},
	{"block in sequence, content at the key", "- key: |\n   # not\n  # yes\n", []string{"# yes"}},
	{"explicit indentation", "a:\n  b: |2\n     # not\n    # not\n  # yes\n", []string{"# yes"}},
	{"leading blank lines", "a: |\n\n  \n    # not\n  # yes\n", []string{"# yes"}},
	{"a longer leading blank line sets the indentation", "a: |\n      \n    # yes\n", []string{"# yes"}},
	{"top-level block", "--- |\n # not\n# yes\n", []string{"# yes"}},
	{"flow", "a: [x, \"# not\", 'y # not' # yes\n  , z] # yes2\nb: {k: v #yes3\n  }\n", []string{"# yes", "# yes2", "#yes3"}},
	{"plain continuation", "a: foo\n  \"bar\nb: \"x # not\"\n", nil},
	{"plain continuation in flow", "a: [foo\n  \"bar, b]\nc: \"x # not\"\n", nil},
	{"plain continuation ends at a comment", "a: foo\n  # yes\n  b: 1\n", []string{"# yes"}},
	{"tags and anchors", "a: !!str &x |\n  # not\nb: *x # yes\n", []string{"# yes"}},
	{"document markers", "a: 1\n--- # yes\nb: |\n  # not\n... # yes2\n", []string{"# yes", "# yes2"}},
	{"front matter style", "title: \"x\"\nlist:\n  - |\n    # not\n  # yes\n", []string{"# yes"}},
	{"line separator", "a: x\u2028# yes\nb: \"y\u2028# not\"\n", []string{"# yes"}},
	{"carriage returns", "a: \"x\r# not\" # yes\r\nb: |\r  # not\r# yes2\r", []string{"# yes", "# yes2"}},
}

func commentTexts(data []byte, offs []int) []string {
	var out []string
	for _, o := range offs {
		end, _ := yamlLineEnd(data, o)
		out = append(out, strings.TrimRight(string(data[o:end]), " \t"))
	}
	return out
}

func TestYAMLComments(t *testing.T) {
	for _, c := range commentCases {
		got := commentTexts([]byte(c.doc), yamlComments([]byte(c.doc)))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: comments %q, want %q", c.name, got, c.want)
		}
		checkCommentsAgainstYAML(t, []byte(c.doc))
	}
}

// TestDirectivesOnlyInComments: a suppression written inside a value
// (quoted, over lines, a block scalar) is no directive, in YAML files
// and in front matter; the real comments around it are.
func TestDirectivesOnlyInComments(t *testing.T) {
	for _, c := range []struct {
		kind  Kind
		path  string
		doc   string
		lines []int
	}{
		{KindOrchestration, "ORCHESTRATION.yaml", "a: \"x\n  # resumelint:ignore-file RL005 -- hidden\n  y\"\nb: |\n  # resumelint:ignore-file RL005 -- hidden\n# resumelint:ignore-file RL006 -- real\nc: 'x # resumelint:ignore RL005 -- hidden' # resumelint:ignore RL006 -- real\n", []int{6, 7}},
		{KindResumeContext, "resume-context.md", "---\nnext_action: |\n  # resumelint:ignore-file RL005 -- hidden\n# resumelint:ignore-file RL006 -- real\n---\n# resumelint:ignore-file RL001 -- body\n", []int{4}},
	} {
		f := &File{Path: c.path, Kind: c.kind, Data: []byte(c.doc)}
		CheckBytes(f, DefaultLimits)
		var lines []int
		for _, d := range f.Directives {
			lines = append(lines, d.Line)
		}
		if !reflect.DeepEqual(lines, c.lines) {
			t.Errorf("%s: directives on lines %v, want %v", c.path, lines, c.lines)
		}
	}
}

// checkCommentsAgainstYAML holds yamlComments to go.yaml.in/yaml/v3 on a
// document it accepts: overwriting every comment found leaves every node
// as it was (so none lies in a value), and every comment the parser
// attaches to a node is found.
func checkCommentsAgainstYAML(t *testing.T, data []byte) {
	t.Helper()
	before, err := decodeAll(data)
	if err != nil {
		return
	}
	offs := yamlComments(data)
	masked := bytes.Clone(data)
	for _, o := range offs {
		if data[o] != '#' {
			t.Fatalf("%q: comment at %d does not start with #", data, o)
		}
		end, _ := yamlLineEnd(data, o)
		for i := o + 1; i < end; i++ {
			masked[i] = 'x'
		}
	}
	after, err := decodeAll(masked)
	if err != nil {
		t.Fatalf("%q: overwriting the comments %q breaks the document: %v", data, commentTexts(data, offs), err)
	}
	if a, b := dump(before), dump(after); a != b {
		t.Fatalf("%q: overwriting the comments %q changes a value:\n%s\n---\n%s", data, commentTexts(data, offs), a, b)
	}
	found := map[string]int{}
	for _, c := range commentTexts(data, offs) {
		found[c]++
	}
	for _, c := range parserComments(before) {
		if found[c] == 0 {
			t.Fatalf("%q: the parser's comment %q is not found (found %q)", data, c, commentTexts(data, offs))
		}
		found[c]--
	}
}

func decodeAll(data []byte) (docs []*yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return docs, nil
			}
			return nil, err
		}
		docs = append(docs, &n)
	}
}

// dump prints nodes without their comments.
func dump(docs []*yaml.Node) string {
	var sb strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if depth > 200 {
			return
		}
		fmt.Fprintf(&sb, "%*s%d %d:%d %q %q %q %d\n", depth, "", n.Kind, n.Line, n.Column, n.Tag, n.Value, n.Anchor, n.Style)
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	for _, d := range docs {
		walk(d, 0)
	}
	return sb.String()
}

func parserComments(docs []*yaml.Node) []string {
	var out []string
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				if l = strings.TrimRight(l, " \t\r"); l != "" {
					out = append(out, l)
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	for _, d := range docs {
		walk(d)
	}
	return out
}

// FuzzYAMLComments explores documents the parser accepts for a comment
// that yamlComments places inside a value, or misses.
func FuzzYAMLComments(f *testing.F) {
	for _, c := range commentCases {
		f.Add([]byte(c.doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) || len(data) > 4096 || bytes.IndexByte(data, 0) >= 0 {
			return
		}
		checkCommentsAgainstYAML(t, data)
	})
}

// TestYAMLCommentsGenerated holds yamlComments to the parser on
// documents built from the constructs comments hide in: nested block
// collections, block scalars with and without indentation indicators,
// quoted and plain scalars over several lines, flow collections, tags,
// anchors and document markers, each with text that looks like a comment.
func TestYAMLCommentsGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		var sb strings.Builder
		genBlock(r, &sb, 0, 3)
		checkCommentsAgainstYAML(t, []byte(sb.String()))
	}
}

var genScalars = []string{
	"x", "x # c", "\"q # in\"", "'s # in'", "\"multi\n  # in\n  line\"", "'multi\n  # in'",
	"plain\n  more", "plain\n  # c", "[a, \"# in\", b] # c", "{k: v, # c\n  j: 'w'}", "!!str t", "&a v # c", "*a",
	"\"esc\\\" # in\"", "a#b", "[a\n  \"b, c]", "plain\n  \"tail", "\n  # c\n  \"x\"",
}

var genHeaders = []string{"|", ">", "|-", ">+", "|2", "|1-", "| # c", ">- # c"}

// genBlock writes a block mapping or sequence at indentation ind.
func genBlock(r *rand.Rand, sb *strings.Builder, ind, depth int) {
	pad := strings.Repeat(" ", ind)
	seq := r.IntN(3) == 0
	for i := range 1 + r.IntN(3) {
		if r.IntN(4) == 0 {
			fmt.Fprintf(sb, "%s# c%d\n", strings.Repeat(" ", r.IntN(ind+3)), i)
		}
		lead := fmt.Sprintf("%sk%d:", pad, i)
		if seq {
			lead = pad + "-"
		}
		switch k := r.IntN(5); {
		case k == 0 && depth > 0:
			if seq && r.IntN(2) == 0 {
				sb.WriteString(pad + "- ")
				genInline(r, sb, ind+2, depth-1)
				continue
			}
			sb.WriteString(lead + "\n")
			genBlock(r, sb, ind+r.IntN(3)+boolInt(!seq), depth-1)
		case k == 1:
			fmt.Fprintf(sb, "%s %s\n", lead, genHeaders[r.IntN(len(genHeaders))])
			for range r.IntN(4) {
				fmt.Fprintf(sb, "%s# in\n", strings.Repeat(" ", ind+1+r.IntN(3)))
			}
			if r.IntN(3) == 0 {
				fmt.Fprintf(sb, "%s# c\n", strings.Repeat(" ", r.IntN(ind+2)))
			}
		default:
			fmt.Fprintf(sb, "%s %s\n", lead, strings.ReplaceAll(genScalars[r.IntN(len(genScalars))], "\n", "\n"+pad))
		}
	}
	if r.IntN(10) == 0 {
		sb.WriteString("--- # c\n")
	}
}

// genInline writes a mapping that starts after `- `, its first key on
// the entry's line.
func genInline(r *rand.Rand, sb *strings.Builder, ind, depth int) {
	var inner strings.Builder
	genBlock(r, &inner, ind, depth)
	sb.WriteString(strings.TrimLeft(inner.String(), " "))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// BenchmarkYAMLComments: the scan a file holding a suppression marker
// costs, on a 300-line workflow record.
func BenchmarkYAMLComments(b *testing.B) {
	var sb strings.Builder
	for i := range 30 {
		fmt.Fprintf(&sb, "phase_%d:\n  id: %d # the phase\n  name: \"Phase %d # not a comment\"\n  notes: |\n    # not a comment\n    text\n  agents:\n    - id: a%d\n      status: COMPLETE\n# resumelint:ignore RL006 -- why\n", i, i, i, i)
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		yamlComments(data)
	}
}
