package load

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/test/golden"
)

// fastSeeds are written as the state files are: banners, quoted and plain
// scalars, nulls, flow lists, compact and indentless sequences, CRLF,
// non-ASCII text. Each is taken by the fast parser.
var fastSeeds = []string{
	"big: 18446744073709551615\nbigger: 123456789012345678901234567890\nneg: -9223372036854775809\n",
	`# ORCHESTRATION.yaml
# Machine-readable state for workflow sao-crosspoll-20260110-001
schema_version: "2.0.0"

workflow:
  id: "sao-crosspoll-20260110-001"
  status: ACTIVE   # ACTIVE | PAUSED | COMPLETE
  patterns: [SEQUENTIAL, "CONCURRENT", 'BARRIER_SYNC']
  constraints:
    max_agent_nesting: 1
    file_persistence: true
    ratio: 0.85
    empty_list: []
    empty_map: {}

pipelines:
  main:
    phases:
      - id: 1
        name: "Research"
        started_at: 2026-01-10T08:00:00Z
        completed_at: null
        notes: ~
        agents:
        - id: researcher-1
          inputs:
            - "ORCHESTRATION_PLAN.md"
            -   WORKTRACKER.md
          summary: 'It''s done: see output.md'
      - id: 2
        agents:
          -
            id: writer-2
          - 
        blockers:
resumption:
  last_checkpoint: CX-003
  files_to_read: ["projects/PROJ-001/PLAN.md", projects/PROJ-001/WORKTRACKER.md]
  decision_log:
    - at: 2026-01-10 09:30
      decision: use {placeholder} paths, not [brackets]
      url: https://example.com/a#b?c=d:e
`,
	"a: 1\r\nb:\r\n  - x\r\n  - \"y\"\r\n",
	"名前: \"値\" # コメント\nkey: naïve café\nlist: [\"ü\", é]\n",
	"- a\n- b: 1\n  c: [1, 2.5, -3, 0x1F, .inf]\n-   d: yes\n    e: off\n",
	"resumption:\n  recovery_state:\n    updated_at: 2026-02-20T21:00:00Z\n    phase: '3'\n",
	"key:\n# comment at column 0\n  child: 1\n\n\n  other: 2\n",
	"k:\n- a\n- b\nj: 1\n",
	"nested:\n  - key:\n    - a\n    - b\n    other: x\n",
	"a: -1\nb: -x\nc: 'x' # c\nd: \"\" \ne: ''\n",
	"   indented: 1\n   doc: 2\n",
	"x: 1",
	"a: |\n  block\n  text\n",
	"a: >-\n  folded\n",
	`tasks:
  - id: T-1
    description: >
      Audit all direct and transitive dependencies for Apache 2.0
      compatibility.

      Render an explicit PASS or BLOCK verdict:
        - PASS when every licence is compatible
        - BLOCK otherwise
      # not a comment: text of the scalar
    notes: |+
      kept


  # a comment ending the scalar
    status: DONE
  - |-
    stripped
    text
  - >+
    folded keep

  - | # a comment after the header
     more indented
      still more
`,
	"a: |\r\n  crlf\r\n  lines\r\n",
	"a: >\n  no final break",
	"a: |\n\n\n  after empty lines\n\n",
	"- a: >\n    x\n     y\n    z\n  b: 1\n",
}

// notFastSeeds are left to the decoder (the fast parser says so).
var notFastSeeds = []string{
	"a: |2\n  indicated\n",
	"a: |\n  \n  leading spaces\n",
	"a: |\nb: 1\n",
	"a: &x 1\nb: *x\n",
	"<<: {a: 1}\n",
	"a: !!str 1\n",
	"a: \"esc\\n\"\n",
	"a: plain\n  continued\n",
	"a: 'two\n  lines'\n",
	"---\na: 1\n",
	"a: 1\n---\nb: 2\n",
	"? complex\n: value\n",
	"a: {b: 1}\n",
	"a: [[1]]\n",
	"a:\tb\n",
	"\"quoted key\": 1\n",
	"a: b: c\n",
	"just a scalar\n",
	"",
	"# only a comment\n",
	"a: 1\n  b: 2\n",
	"- - a\n",
	"a: [1, ]\n",
	"a: 1\rb: 2\n",
	// What readers take differently: left to the decoder and checkTree.
	"&k a: 1\n*k : 2\n",
	"a:\n  <<: {x: 1}\n  <<: {y: 2}\n",
	"!!merge a: {x: 1}\n",
	"a: !custom x\n",
	"a: !!python/object/apply:os.system [ls]\n",
	"? [b]\n: x\n",
	"{}: x\n",
	"a:\n  {}: x\n",
	"- ? [b]\n  : x\n",
}

// fastYAML is fastParse without the blocks (left to the collector).
func fastYAML(data []byte) (*yaml.Node, bool) {
	doc, _, ok := fastParse(data)
	return doc, ok
}

// decodeOne is what parseYAML's decoder path takes: one document and
// nothing after it.
func decodeOne(data []byte) (*yaml.Node, error) {
	var n, extra yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&n); err != nil {
		return nil, err
	}
	if err := dec.Decode(&extra); err != io.EOF {
		return nil, fmt.Errorf("a second document (%v)", err)
	}
	return &n, nil
}

// treeDiff describes the first difference between two trees, comments
// aside; "" when they are the same.
func treeDiff(a, b *yaml.Node, path string) string {
	if a == nil || b == nil {
		if a != b {
			return path + ": one side is nil"
		}
		return ""
	}
	x := fmt.Sprintf("%d %d %q %q %q %d:%d %d %v", a.Kind, a.Style, a.Tag, a.Value, a.Anchor, a.Line, a.Column, len(a.Content), a.Alias != nil)
	y := fmt.Sprintf("%d %d %q %q %q %d:%d %d %v", b.Kind, b.Style, b.Tag, b.Value, b.Anchor, b.Line, b.Column, len(b.Content), b.Alias != nil)
	if x != y {
		return fmt.Sprintf("%s: fast %s, decoder %s", path, x, y)
	}
	for i := range a.Content {
		if d := treeDiff(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// checkFast fails when the fast parser takes data and builds anything but
// the decoder's tree; it reports whether it took it.
func checkFast(t *testing.T, data []byte) bool {
	t.Helper()
	fast, ok := fastYAML(data)
	if !ok {
		return false
	}
	want, err := decodeOne(data)
	if err != nil {
		t.Fatalf("the fast parser took what the decoder refuses (%v):\n%s", err, data)
	}
	if d := treeDiff(fast, want, ""); d != "" {
		t.Fatalf("%s\n%s", d, data)
	}
	return true
}

// mutate changes data in a few places with the characters YAML reads.
func mutate(rng *rand.Rand, data []byte) []byte {
	const alphabet = " \n-:#'\"[],{}|>&*!?%@`\\\t\rab1.~"
	out := append([]byte(nil), data...)
	for n := 1 + rng.Intn(3); n > 0; n-- {
		i := 0
		if len(out) > 0 {
			i = rng.Intn(len(out) + 1)
		}
		switch op := rng.Intn(5); {
		case op == 0 && i < len(out): // delete
			out = append(out[:i], out[i+1:]...)
		case op == 1 && i < len(out): // replace
			out[i] = alphabet[rng.Intn(len(alphabet))]
		case op == 2: // indent or outdent the line i is on
			start := bytes.LastIndexByte(out[:i], '\n') + 1
			if rng.Intn(2) == 0 {
				out = append(out[:start], append([]byte("  "), out[start:]...)...)
			} else if start < len(out) && out[start] == ' ' {
				out = append(out[:start], out[start+1:]...)
			}
		default: // insert
			out = append(out[:i], append([]byte{alphabet[rng.Intn(len(alphabet))]}, out[i:]...)...)
		}
	}
	return out
}

// goldenYAML is every YAML file and front matter in the golden tests.
func goldenYAML(t *testing.T) [][]byte {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.txtar"))
	var out [][]byte
	for _, p := range paths {
		ar, err := golden.Archive(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			switch {
			case strings.HasSuffix(f.Name, ".yaml"), strings.HasSuffix(f.Name, ".yml"):
				out = append(out, f.Data)
			case strings.HasSuffix(f.Name, ".md") && bytes.HasPrefix(f.Data, []byte("---\n")):
				if end := bytes.Index(f.Data[4:], []byte("\n---")); end >= 0 {
					out = append(out, f.Data[4:4+end+1])
				}
			}
		}
	}
	if len(out) < 50 {
		t.Fatalf("only %d YAML documents in the golden tests", len(out))
	}
	return out
}

func TestFastYAMLAgreesWithDecoder(t *testing.T) {
	for _, s := range fastSeeds {
		if !checkFast(t, []byte(s)) {
			t.Errorf("the fast parser left this to the decoder:\n%s", s)
		}
	}
	for _, s := range notFastSeeds {
		if _, ok := fastYAML([]byte(s)); ok {
			t.Errorf("the fast parser took:\n%s", s)
		}
	}
	golden := goldenYAML(t)
	taken := 0
	for _, data := range golden {
		if checkFast(t, data) {
			taken++
		}
	}
	// Most state files are in the form the fast parser takes.
	if taken*2 < len(golden) {
		t.Errorf("the fast parser took %d of %d golden YAML documents", taken, len(golden))
	}
	rng := rand.New(rand.NewSource(1))
	corpus := append([][]byte(nil), golden...)
	for _, s := range fastSeeds {
		corpus = append(corpus, []byte(s))
	}
	tried, accepted := 0, 0
	for round := 0; round < 30; round++ {
		for _, data := range corpus {
			m := mutate(rng, data)
			tried++
			if checkFast(t, m) {
				accepted++
			}
		}
	}
	t.Logf("golden: %d of %d taken; mutations: %d of %d taken", taken, len(golden), accepted, tried)
}

// A tree built without comments gets the decoder's comments, on the same
// nodes.
func TestAddComments(t *testing.T) {
	data := []byte("# head\na: 1 # one\nb:\n  - x # ex\n# foot\n")
	doc, probs := Parse(&File{Path: "x.yaml", Data: data}, FormatYAML, DefaultLimits)
	if len(probs) > 0 || doc.Root == nil || !doc.uncommented {
		t.Fatalf("not built by the fast parser: %v", probs)
	}
	a := doc.Root.Content[1]
	if !doc.AddComments() {
		t.Fatal("AddComments failed")
	}
	want, _ := ParseWithComments(&File{Path: "x.yaml", Data: data}, FormatYAML, DefaultLimits)
	if doc.Root.Content[1] != a {
		t.Fatal("the nodes were replaced")
	}
	var walk func(x, y *yaml.Node)
	walk = func(x, y *yaml.Node) {
		if x.HeadComment != y.HeadComment || x.LineComment != y.LineComment || x.FootComment != y.FootComment {
			t.Errorf("line %d: comments %q %q %q, want %q %q %q", x.Line, x.HeadComment, x.LineComment, x.FootComment, y.HeadComment, y.LineComment, y.FootComment)
		}
		for i := range x.Content {
			walk(x.Content[i], y.Content[i])
		}
	}
	walk(doc.Root, want.Root)
	if want.Root.Content[1].LineComment != "# one" {
		t.Errorf("ParseWithComments: %q", want.Root.Content[1].LineComment)
	}
}

// FuzzFastYAML holds the fast parser to the decoder on any input.
func FuzzFastYAML(f *testing.F) {
	for _, s := range append(append([]string(nil), fastSeeds...), notFastSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, data)
	})
}

// BenchmarkYAML compares the fast parser with the decoder on a state file.
func BenchmarkYAML(b *testing.B) {
	data := []byte(fastSeeds[0])
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, ok := fastYAML(data); !ok {
				b.Fatal("not taken")
			}
		}
	})
	b.Run("decoder", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := decodeOne(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// pooledTrees are documents the fast parsers build in pooled blocks; the
// first key of each is "a".
var pooledTrees = []struct {
	path   string
	format Format
	src    string
}{
	{"x.yaml", FormatYAML, "a: 1\nb:\n  - {}\n  - c: [x, \"y\"]\n    d: |\n      text\n"},
	{"x.json", FormatJSON, `{"a": 1, "b": [{}, {"c": ["x", "y"], "d": null}], "e": true, "f": -1.5}`},
}

// Every node of a tree the fast parsers build sits in one of its
// document's blocks, so Release hands all of them back.
func TestTreesAreBuiltInBlocks(t *testing.T) {
	for _, tc := range pooledTrees {
		doc, _ := Parse(&File{Path: tc.path, Data: []byte(tc.src)}, tc.format, DefaultLimits)
		if doc.Root == nil {
			t.Fatalf("%s: no tree", tc.path)
		}
		inBlock := func(n *yaml.Node) bool {
			for _, b := range doc.pooled.nodes {
				for i := range b {
					if &b[i] == n {
						return true
					}
				}
			}
			return false
		}
		count := 0
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			count++
			if !inBlock(n) {
				t.Errorf("%s: node %q at %d:%d is not in a block", tc.path, n.Value, n.Line, n.Column)
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(doc.Root)
		if count < 10 {
			t.Errorf("%s: only %d nodes walked", tc.path, count)
		}
		doc.Release()
	}
}

// The fast YAML parser's lists of children sit in its document's list
// blocks, each with no room past its end, so an append to one (a fix
// adding a key) never writes into the next; Release clears them.
func TestYAMLListsAreBuiltInBlocks(t *testing.T) {
	src := "a: 1\nb:\n  - x\n  - y\nc:\n  d: 2\n  e: [3, 4]\n"
	doc, _ := Parse(&File{Path: "x.yaml", Data: []byte(src)}, FormatYAML, DefaultLimits)
	if doc.Root == nil || len(doc.pooled.lists) == 0 {
		t.Fatal("not built in pooled list blocks")
	}
	inBlock := func(c []*yaml.Node) bool {
		for _, b := range doc.pooled.lists {
			for i := range b {
				if &b[i] == &c[0] {
					return true
				}
			}
		}
		return false
	}
	var lists [][]*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if len(n.Content) > 0 {
			if !inBlock(n.Content) || cap(n.Content) != len(n.Content) {
				t.Errorf("the children of the node at %d:%d: in a block %v, len %d cap %d", n.Line, n.Column, inBlock(n.Content), len(n.Content), cap(n.Content))
			}
			lists = append(lists, n.Content)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc.Root)
	if len(lists) != 4 {
		t.Fatalf("%d lists of children, want 4", len(lists))
	}
	top := doc.Root
	next := top.Content[3] // b's sequence, listed before the top mapping's
	grown := append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "z"})
	if grown[0] != top.Content[0] || next.Content[0].Value != "x" {
		t.Error("an append to a list reached another")
	}
	doc.Release()
	for _, l := range lists {
		for _, c := range l {
			if c != nil {
				t.Fatalf("a released list still points at a node: %+v", c)
			}
		}
	}
}

// Nodes from the blocks cost no allocation of their own: parsing 200
// literals (no string to copy) and releasing the tree allocates only the
// parser and the growing list, whatever the number of nodes.
func TestJSONNodesAllocateNothing(t *testing.T) {
	data := []byte("[" + strings.Repeat("true, null, ", 100) + "false]")
	allocs := testing.AllocsPerRun(50, func() {
		doc, _ := Parse(&File{Path: "x.json", Data: data}, FormatJSON, DefaultLimits)
		doc.Release()
	})
	if allocs > 30 {
		t.Errorf("%v allocations per parse of 201 values", allocs)
	}
}

// A released document's nodes are cleared before they are handed out
// again: nothing stale is reachable from them, and a use after release
// finds zero nodes, not another file's.
func TestReleaseClearsNodes(t *testing.T) {
	for _, tc := range pooledTrees {
		doc, _ := Parse(&File{Path: tc.path, Data: []byte(tc.src)}, tc.format, DefaultLimits)
		if doc.Root == nil || len(doc.pooled.nodes) == 0 {
			t.Fatalf("%s: not built in pooled blocks", tc.path)
		}
		key := doc.Root.Content[0]
		if key.Value != "a" {
			t.Fatalf("%s: first key %+v", tc.path, key)
		}
		doc.Release()
		if doc.Root != nil || doc.pooled.nodes != nil || doc.pooled.lists != nil {
			t.Errorf("%s: the document still holds its tree", tc.path)
		}
		if key.Kind != 0 || key.Value != "" || key.Content != nil {
			t.Errorf("%s: a released node was not cleared: %+v", tc.path, key)
		}
		doc.Release() // twice is harmless
	}
	// JSON that does not parse gives its blocks back at once.
	if doc, _ := Parse(&File{Path: "x.json", Data: []byte(`{"a": [1, 2`)}, FormatJSON, DefaultLimits); doc.Root != nil || doc.pooled.nodes != nil {
		t.Error("a document without a tree holds blocks")
	}
	withComments, _ := ParseWithComments(&File{Path: "x.yaml", Data: []byte("a: 1\n")}, FormatYAML, DefaultLimits)
	root := withComments.Root
	withComments.Release() // the decoder's trees are left to the collector
	if withComments.Root != root || root.Content[0].Value != "a" {
		t.Error("a tree the fast parser did not build was released")
	}
}

// TestPlainTagIsShortTag: the fast parser's tag for a plain scalar is the
// decoder's, for the values its shortcuts answer (strings by their first
// character, decimal fractions) and the characters around them.
func TestPlainTagIsShortTag(t *testing.T) {
	values := []string{"0.92", "1.0", "01.5", "00.0", "1.", ".5", "1.2.3", "1..2", "-0.5", "+1.5", "1.5e3", "1_0.5",
		"123456789012.34", "1234567890123.45", "0x1.8", "2026.11", "1.0.0", "0.9a", "12", "0755", "08", "~", "true"}
	r := rand.New(rand.NewSource(1))
	const alphabet = "0123456789._-+eEx:TZ a"
	for range 20000 {
		b := make([]byte, 1+r.Intn(17))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		values = append(values, string(b))
	}
	for _, v := range values {
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: v}
		if got, want := plainTag(n), n.ShortTag(); got != want {
			t.Errorf("%q: plainTag %s, the decoder %s", v, got, want)
		}
	}
}
