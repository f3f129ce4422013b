package schema

import (
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/test/golden"
)

// allDefs are the definitions the linter validates documents against.
var allDefs = []string{"#ResumptionV2", "#ResumptionV1", "#Checkpoint", "#RuntimeCheckpoint", "#PrecompactState",
	"#ResumeContext", "#TaskSpec", "#Status", "#OutputHashes", "#TaskGraph", "#Event", "#Config"}

// cueAccepts is CUE's own verdict, without the fast path.
func cueAccepts(d cue.Value, root *yaml.Node) bool {
	dv := cuecontext.New().Encode(ToValue(root))
	return dv.Err() == nil && d.Unify(dv).Validate(cue.Concrete(true)) == nil
}

func mustDef(tb testing.TB, name string) cue.Value {
	tb.Helper()
	d, err := Def(name)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// unknowns lists the nodes of a checker that fall back to CUE, with the
// data path that leads to each.
func unknowns(c *checker, at string, out *[]string, depth int) {
	if depth > 50 {
		return
	}
	switch c.op {
	case opUnknown:
		*out = append(*out, fmt.Sprintf("%s: %s", at, c.why))
	case opAnd, opOr:
		for i, s := range c.subs {
			unknowns(s, fmt.Sprintf("%s(%v arm %d)", at, c.op, i), out, depth+1)
		}
	case opList:
		if c.elem != nil {
			unknowns(c.elem, at+"[]", out, depth+1)
		}
	case opStruct:
		for i, s := range c.vals {
			unknowns(s, at+"."+c.names[i], out, depth+1)
		}
		for _, p := range c.patterns {
			unknowns(p.val, at+".[pattern]", out, depth+1)
		}
	}
}

func (op checkOp) String() string {
	return [...]string{"unknown", "kinds", "literal", "bound", "regex", "and", "or", "list", "struct", "any"}[op]
}

// Every definition compiles completely: a construct the compiler does not
// know silently sends every document of that kind through CUE again.
func TestFastPathCompiles(t *testing.T) {
	for _, def := range allDefs {
		var out []string
		unknowns(fastChecker(def), def, &out, 0)
		for _, u := range out {
			t.Errorf("falls back to CUE: %s", u)
		}
	}
}

type corpusDoc struct {
	name string     // file (and archive) it came from
	def  string     // the definition its kind is checked against, or ""
	root *yaml.Node // as the linter parses it
	src  []byte     // the file's bytes, for fuzz seeds
	json bool       // src is JSON
}

var (
	corpusOnce sync.Once
	corpus     []corpusDoc
	corpusErr  error
)

// loadCorpus parses every document of examples/ and of the golden cases with
// the linter's own parsers; invalid documents are kept (they are the
// differential test's other half).
func loadCorpus(tb testing.TB) []corpusDoc {
	tb.Helper()
	corpusOnce.Do(func() {
		corpusErr = filepath.WalkDir("../../examples", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			corpus = append(corpus, docsOf(p, b)...)
			return nil
		})
		if corpusErr != nil {
			return
		}
		archives, _ := filepath.Glob("../../testdata/golden/*.txtar")
		for _, a := range archives {
			ar, err := golden.Archive(a)
			if err != nil {
				corpusErr = err
				return
			}
			for _, f := range ar.Files {
				corpus = append(corpus, docsOf(filepath.Base(a)+":"+f.Name, f.Data)...)
			}
		}
	})
	if corpusErr != nil {
		tb.Fatal(corpusErr)
	}
	return corpus
}

var artifactDefs = map[string]string{
	"precompact_state.json": "#PrecompactState", "resume-context.md": "#ResumeContext",
	"TASK_SPEC.json": "#TaskSpec", "STATUS.json": "#Status", "OUTPUT_HASHES.json": "#OutputHashes",
	"task-graph.json": "#TaskGraph", ".resumelint.yaml": "#Config",
}

func docsOf(name string, data []byte) []corpusDoc {
	base := path.Base(filepath.ToSlash(name))
	if i := strings.LastIndex(base, ":"); i >= 0 {
		base = base[i+1:]
	}
	var format load.Format
	switch path.Ext(base) {
	case ".yaml", ".yml":
		format = load.FormatYAML
	case ".json":
		format = load.FormatJSON
	case ".jsonl":
		format = load.FormatJSONL
	case ".md":
		format = load.FormatMarkdown
	default:
		return nil
	}
	doc, _ := load.Parse(&load.File{Path: name, Data: data}, format, load.DefaultLimits)
	isJSON := format == load.FormatJSON
	if format == load.FormatJSONL {
		var out []corpusDoc
		for _, l := range doc.Lines {
			if l.Node != nil {
				out = append(out, corpusDoc{name: fmt.Sprintf("%s:%d", name, l.Line), def: "#Event", root: l.Node, src: []byte(lineOf(data, l.Line)), json: true})
			}
		}
		return out
	}
	if doc.Root == nil {
		return nil
	}
	def := artifactDefs[base]
	switch {
	case def == "#ResumeContext" || format == load.FormatMarkdown:
		return []corpusDoc{{name: name, def: def, root: doc.Root, src: marshal(doc.Root)}}
	case def == "" && isJSON && has(doc.Root, "event_id"):
		def = "#Checkpoint"
	case def == "" && isJSON && has(doc.Root, "checkpoint_id"):
		def = "#RuntimeCheckpoint"
	}
	out := []corpusDoc{{name: name, def: def, root: doc.Root, src: data, json: isJSON}}
	if r := valueOf(doc.Root, "resumption"); r != nil && r.Kind == yaml.MappingNode {
		d := "#ResumptionV1"
		if has(r, "recovery_state") {
			d = "#ResumptionV2"
		}
		out = append(out, corpusDoc{name: name + ":resumption", def: d, root: r, src: marshal(r)})
	}
	return out
}

func lineOf(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n-1 < len(lines) {
		return lines[n-1]
	}
	return ""
}

func marshal(n *yaml.Node) []byte {
	b, err := yaml.Marshal(n)
	if err != nil {
		return nil
	}
	return b
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func has(m *yaml.Node, key string) bool { return valueOf(m, key) != nil }

// Over every document of the examples and golden cases, against every
// definition, the fast path says "valid" exactly when CUE does: never when
// CUE disagrees (that would hide findings), and always when CUE accepts
// (otherwise the fast path is not taken for real files).
func TestFastPathCorpus(t *testing.T) {
	docs := loadCorpus(t)
	taken := map[string]int{}
	for _, def := range allDefs {
		d := mustDef(t, def)
		for _, doc := range docs {
			fast, slow := fastValid(def, doc.root), cueAccepts(d, doc.root)
			switch {
			case fast && !slow:
				t.Errorf("%s against %s: the fast path accepts what CUE rejects:\n%s", doc.name, def, marshal(doc.root))
			case slow && !fast:
				t.Errorf("%s against %s: CUE accepts but the fast path does not decide it", doc.name, def)
			case fast && doc.def == def:
				taken[def]++
			}
		}
	}
	for _, def := range allDefs {
		if taken[def] == 0 {
			t.Errorf("no valid %s document in the corpus takes the fast path", def)
		}
	}
	t.Logf("%d documents; valid ones by kind: %v", len(docs), taken)
}

// The fast path is taken for valid documents of every kind, through
// Validate, and gives the same (empty) answer the CUE path gives.
func TestFastPathTaken(t *testing.T) {
	docs := loadCorpus(t)
	for _, def := range allDefs {
		t.Run(strings.TrimPrefix(def, "#"), func(t *testing.T) {
			n := 0
			for _, doc := range docs {
				if doc.def != def || !cueAccepts(mustDef(t, def), doc.root) {
					continue
				}
				n++
				if !fastValid(def, doc.root) {
					t.Errorf("%s: valid, but the fast path is not taken", doc.name)
				}
				vs, err := Validate(def, doc.root, Options{Prefix: "x"})
				if err != nil || len(vs) != 0 {
					t.Errorf("%s: Validate = %v, %v", doc.name, vs, err)
				}
			}
			if n == 0 {
				t.Fatalf("no valid %s document in the corpus", def)
			}
		})
	}
}

// classify must see every scalar exactly as ToValue hands it to CUE.
func TestClassifyMatchesToValue(t *testing.T) {
	for _, s := range []string{"1", "-1", "0", "-0", "+3", "0x1F", "0o17", "017", "1_000", "1.5", "-0.0", "1e3", "1E400", ".5",
		".inf", "-.Inf", ".nan", "99999999999999999999", "18446744073709551615", "-9223372036854775809", "!!float 1e400", "!!float -1e-400", "-9223372036854775808", "9223372036854775808",
		"true", "True", "FALSE", "yes", "on", "null", "~", "Null", "", `""`, `"1"`, "'true'", "2026-01-01",
		"2026-01-01T00:00:00Z", "2026-01-01 10:00:00", "!!int abc", "!!int 1.5", "!!float x", "!!float 3", "!!bool maybe",
		"!!bool yes", "!!str 1", "!!null x", "!!binary aGk=", "!!timestamp x", "!custom 1", "{}", "[]", "[1, a]", "*a"} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte("a: &a 7\nv: "+s+"\n"), &doc); err != nil {
			t.Logf("%s: %v", s, err)
			continue
		}
		n := doc.Content[0].Content[3]
		_, sc := classify(n)
		var got any
		switch sc.kind {
		case kNull:
			got = nil
		case kBool:
			got = sc.b
		case kInt:
			got = sc.i
			if sc.huge {
				got = "huge int"
			}
		case kFloat:
			got = sc.f
			if sc.huge {
				got = "huge float"
			}
		case kString:
			got = sc.s
		case kStruct:
			got = "struct"
		case kList:
			got = "list"
		}
		want := ToValue(n)
		switch want.(type) {
		case *big.Int:
			want = "huge int"
		case *big.Float:
			want = "huge float"
		case map[string]any:
			want = "struct"
		case []any:
			want = "list"
		}
		if fmt.Sprintf("%T %#v", got, got) != fmt.Sprintf("%T %#v", want, want) {
			t.Errorf("%s: classify = %T %#v, ToValue = %T %#v", s, got, got, want, want)
		}
	}
}

// fastPathConstruct is a schema of one definition #D, a document, and
// whether the compiler understands the schema (compiles) and the compiled
// checker accepts the document (fast).
type fastPathConstruct struct {
	name, schema, data string
	compiles, fast     bool
}

// fastPathConstructs are the cases of TestFastPathConstructs: each CUE
// construct the compiler understands, at the edges of what it accepts, and
// the constructs it leaves to CUE. Kept apart from the test, which only
// runs them, so the list reads as one table.
var fastPathConstructs = []fastPathConstruct{
	{"kinds", `#D: {s!: string, i!: int, f!: float, n!: number, b!: bool, z!: null}`, `{s: x, i: 1, f: 1.5, n: 2, b: true, z: null}`, true, true},
	{"int is not float", `#D: {f!: float}`, `{f: 1}`, true, false},
	{"float is not int", `#D: {i!: int}`, `{i: 1.0}`, true, false},
	{"number takes both", `#D: {a!: [...number]}`, `{a: [1, 1.5, -0.0, 1e3]}`, true, true},
	{"bounds", `#D: {a!: [...(number & >=0 & <=1)]}`, `{a: [0, 1, 1.0, 0.5, -0.0, 0.0]}`, true, true},
	{"above a bound", `#D: {a!: number & <=1}`, `{a: 1.0000000000000002}`, true, false},
	{"strict bounds", `#D: {a!: int & >0 & <3}`, `{a: 3}`, true, false},
	{"regex", `#D: {a!: string & =~"^x[0-9]$"}`, `{a: x1}`, true, true},
	{"regex on a number", `#D: {a!: =~"^1"}`, `{a: 1}`, true, false},
	{"unquoted timestamp", `#D: {t!: =~"^[0-9]{4}-"}`, `{t: 2026-01-01T00:00:00Z}`, true, true},
	{"out-of-range int is a number, not a string", `#D: {a!: string}`, `{a: !!int 99999999999999999999}`, true, false},
	{"out-of-range int is an int", `#D: {a!: int}`, `{a: 18446744073709551615}`, true, true},
	{"a number past float64 is a float", `#D: {a!: float}`, `{a: !!float 1e400}`, true, true},
	{"a long plain number is a float", `#D: {a!: float}`, `{a: 99999999999999999999}`, true, true},
	{"nan is a string", `#D: {a!: number}`, `{a: .nan}`, true, false},
	{"enum", `#D: {a!: "x" | "y"}`, `{a: y}`, true, true},
	{"enum miss", `#D: {a!: "x" | "y"}`, `{a: z}`, true, false},
	{"int literal", `#D: {a!: 1 | true | null}`, `{a: 1}`, true, true},
	{"nullable", `#D: {a!: null | (number & >=0)}`, `{a: null}`, true, true},
	{"unknown key", `#D: {a?: int}`, `{b: 1}`, true, false},
	{"open struct", `#D: {a?: int, ...}`, `{b: [x]}`, true, true},
	{"open value", `#D: {c?: {...}}`, `{c: {d: {e: 1}}}`, true, true},
	{"any-key pattern", `#D: {[string]: int}`, `{a: 1, "b c": 2, "": 3}`, true, true},
	{"regex pattern", `#D: {[=~"^x"]: int}`, `{xa: 1, y: 2}`, true, false},
	{"pattern and field", `#D: {a?: int, [=~"^a"]: >=0}`, `{a: -1}`, true, false},
	{"missing required", `#D: {a!: int, b?: int}`, `{b: 1}`, true, false},
	{"missing regular", `#D: {a: int}`, `{}`, true, false},
	{"regular present", `#D: {a: int}`, `{a: 2}`, true, true},
	{"string or struct", `#D: {a!: [...(string | {p!: string, ...})]}`, `{a: [x, {p: y, q: 1}]}`, true, true},
	{"ambiguous structs", `#D: {a!: {b?: int} | {c?: int}}`, `{a: {}}`, true, false},
	{"ambiguous lists", `#D: {a!: [...{b?: int}] | [...{c?: int}]}`, `{a: [{}]}`, true, false},
	{"empty list", `#D: {a!: []}`, `{a: []}`, true, true},
	{"empty list only", `#D: {a!: []}`, `{a: [1]}`, true, false},
	{"null is not a struct", `#D: {a!: {}}`, `{a: null}`, true, false},
	{"merge key", `#D: {a!: int, b!: int}`, "b: 2\n<<: {a: 1}\n", true, true},
	{"merge of a list is ignored", `#D: {a!: int, b!: int}`, "b: 2\n<<: [{a: 1}]\n", true, false},
	{"alias", `#D: {a!: [...int], b!: [...int]}`, "a: &x [1]\nb: *x\n", true, true},
	{"repeated key", `#D: {a!: int}`, "a: 1\na: x\n", true, false},
	{"key like a definition", `#D: {a?: int}`, `{"#a": 1}`, true, false},
	{"float literal", `#D: {a!: 1.5}`, `{a: 1.5}`, false, false},
	{"fixed list", `#D: {a!: [int, ...string]}`, `{a: [1]}`, false, false},
	{"default", `#D: {a?: *1 | int}`, `{a: 1}`, false, true}, // the int arm decides a concrete scalar
	{"comprehension", `#D: {a?: int, if a != _|_ {b!: string}}`, `{a: 1}`, false, false},
	{"sibling reference", `#D: {a!: int, b!: a}`, `{a: 1, b: 2}`, false, false},
	{"let", `#D: {let x = int, a?: x}`, `{a: 1}`, false, false},
	{"builtin", "import \"strings\"\n#D: {a!: strings.MinRunes(3)}", `{a: xy}`, false, false},
	{"not equal", `#D: {a!: int & !=3}`, `{a: 3}`, false, false},
	{"string bound", `#D: {a!: string & >"b"}`, `{a: a}`, false, false},
	{"top", `#D: {a!: _, b?: _}`, `{a: 1, b: [{c: x}]}`, true, true},
	{"hidden field", `#D: {_h: int, a?: int}`, `{a: 1}`, false, false},
	{"embedding", "#X: {a?: int}\n#D: {#X, c?: int}", `{c: 1}`, false, false},
	{"closed by close()", `#D: close({a?: int})`, `{a: 1}`, false, false},
	{"reference to a bad definition", "#X: {a?: int, if a != _|_ {b!: int}}\n#D: {x?: #X}", `{x: {a: 1}}`, false, false},
	{"field shadowing a type", `#D: {int?: string, a?: int}`, `{a: x}`, false, false},
	{"recursive", `#D: {n?: #D, a?: int}`, `{a: 1}`, false, true},
	{"recursion taken", `#D: {n?: #D, a?: int}`, `{n: {a: 1}}`, false, false},
	{"branching recursion", `#D: {l?: #D, r?: #D, s?: [...#D]}`, `{}`, false, true},
	{"conjoined structs", "#X: {a?: int, ...}\n#D: #X & {b?: int}", `{a: 1}`, false, false},
	{"negative literal", `#D: {a!: -1 | 2}`, `{a: -1}`, true, true},
	{"negative bound", `#D: {a!: int & >=-2}`, `{a: -3}`, true, false},
	{"quoted label", `#D: {"a-b"!: int}`, `{a-b: 1}`, true, true},
	{"nested disjunction", `#D: {a!: ("x" | "y") | "z"}`, `{a: z}`, true, true},
	{"any list", `#D: {a!: [...]}`, `{a: [1]}`, false, false},
	{"declared in parts", "#D: {a?: int}\n#D: {b?: int}", `{a: 1}`, false, false},
	{"top-level field", "x: int\n#D: {a?: int}", `{a: 1}`, false, false},
	{"unknown value, known struct", `#D: {a?: int & !=3, b?: int}`, `{b: 1}`, false, true},
	{"unknown value taken", `#D: {a?: int & !=3, b?: int}`, `{a: 1}`, false, false},
}

// The compiler on its own: what it understands compiles completely and
// decides documents; everything else compiles to "unknown" and decides
// nothing. Each case also checks the answer against CUE.
func TestFastPathConstructs(t *testing.T) {
	for _, tc := range fastPathConstructs {
		t.Run(tc.name, func(t *testing.T) {
			v := cuecontext.New().CompileString(tc.schema)
			if v.Err() != nil {
				t.Fatal(v.Err())
			}
			d := v.LookupPath(cue.ParsePath("#D"))
			c := newDefSyntax(parseSchema(t, tc.schema)).def("#D")
			var out []string
			unknowns(c, "#D", &out, 0)
			if compiles := len(out) == 0; compiles != tc.compiles {
				t.Errorf("compiles = %v, want %v (%v)", compiles, tc.compiles, out)
			}
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.data), &doc); err != nil {
				t.Fatal(err)
			}
			root := doc.Content[0]
			fast, slow := c.accepts(root, 0), cueAccepts(d, root)
			if fast != tc.fast {
				t.Errorf("fast = %v, want %v", fast, tc.fast)
			}
			if fast && !slow {
				t.Errorf("the fast path accepts what CUE rejects")
			}
			if tc.fast != slow && tc.compiles {
				t.Errorf("CUE says %v: the case expects the compiled checker to agree", slow)
			}
		})
	}
}

// Over the corpus documents after a few structural mutations each (the
// fuzz target's, with fixed seeds), the fast path never accepts what CUE
// rejects. Most mutations break a document; the log says how many stayed
// valid, so the check is known to bite.
func TestFastPathMutations(t *testing.T) {
	docs := loadCorpus(t)
	defs := make([]cue.Value, len(allDefs))
	for i, name := range allDefs {
		defs[i] = mustDef(t, name)
	}
	rounds := 8
	if testing.Short() {
		rounds = 2
	}
	checked, accepted := 0, 0
	for i, doc := range docs {
		for r := range rounds {
			root := copyNode(doc.root, 0)
			mutate(root, uint64(i*rounds+r)*0x9e3779b97f4a7c15+uint64(r%4+1))
			for j, name := range allDefs {
				if !fastValid(name, root) {
					continue
				}
				accepted++
				if !cueAccepts(defs[j], root) {
					t.Errorf("%s, mutation %d, against %s: the fast path accepts what CUE rejects:\n%s", doc.name, r, name, marshal(root))
				}
			}
			checked++
		}
	}
	t.Logf("%d mutated documents, %d (document, definition) pairs the fast path accepted and CUE confirmed", checked, accepted)
}

// FuzzFastPath checks the one property the fast path must never break:
// whenever it says a document is valid, CUE finds no violation. Inputs are
// documents (YAML, or JSON through the linter's parser) that go through a
// few structural mutations chosen by mut: scalars swapped for values and
// types each schema cares about, keys added, renamed and removed, merge
// keys, aliases, collections emptied or replaced. Every definition is tried.
func FuzzFastPath(f *testing.F) {
	for i, d := range loadCorpus(f) {
		if len(d.src) > 0 && len(d.src) < 20000 {
			f.Add(d.src, uint64(i)*0x9e3779b97f4a7c15, d.json)
		}
	}
	defs := make([]cue.Value, len(allDefs))
	for i, name := range allDefs {
		defs[i] = mustDef(f, name)
	}
	f.Fuzz(func(t *testing.T, src []byte, mut uint64, asJSON bool) {
		root := parseFuzz(src, asJSON)
		if root == nil || countNodes(root, 0) > 3000 {
			return
		}
		mutate(root, mut)
		if countNodes(root, 0) > 3000 {
			return
		}
		for i, name := range allDefs {
			if fastValid(name, root) && !cueAccepts(defs[i], root) {
				vs, err := validateCUE(defs[i], nil, root, Options{})
				t.Fatalf("%s: the fast path accepts what CUE rejects (%v %v):\n%s", name, vs, err, marshal(root))
			}
			// What Check validates once the unknown keys are pruned (by
			// path: mutations share nodes between places) is what CUE
			// says of the document without them.
			checkAgreesWithCUE(t, name, defs[i], root)
		}
	})
}

func parseFuzz(src []byte, asJSON bool) *yaml.Node {
	if asJSON {
		n, _, err := load.ParseJSON(src, 1, 64)
		if err != nil {
			return nil
		}
		return n
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// fuzzScalars are values and tags the schemas care about (and a few that
// ToValue turns into something else than they look like).
var fuzzScalars = [][2]string{
	{"", "!!str"}, {"x", "!!str"}, {"0", "!!int"}, {"-1", "!!int"}, {"1", "!!int"}, {"2", "!!int"}, {"3", "!!int"},
	{"1.0", "!!float"}, {"0.5", "!!float"}, {"1.5", "!!float"}, {"-0.0", "!!float"}, {"1e400", "!!float"},
	{".nan", "!!float"}, {"0x10", "!!int"}, {"1_000", "!!int"}, {"99999999999999999999", "!!int"}, {"abc", "!!int"},
	{"null", "!!null"}, {"~", "!!null"}, {"true", "!!bool"}, {"false", "!!bool"}, {"maybe", "!!bool"},
	{"2026-02-17T12:34:56Z", "!!timestamp"}, {"2026-02-17", "!!str"}, {"2026-13-45", "!!str"}, {"1", "!!str"},
	{"CX-001", "!!str"}, {"CX-1", "!!str"}, {"RD-001", "!!str"}, {"cx-001", "!!str"}, {"{UPDATED}", "!!str"},
	{"sha256:" + strings.Repeat("ab", 32), "!!str"}, {"sha256:" + strings.Repeat("AB", 32), "!!str"},
	{"auto", "!!str"}, {"manual", "!!str"}, {"ACTIVE", "!!str"}, {"COMPLETED", "!!str"}, {"success", "!!str"},
	{"pass", "!!str"}, {"error", "!!str"}, {"warning", "!!str"}, {"off", "!!str"}, {"high", "!!str"},
	{"execution", "!!str"}, {"transcript", "!!str"}, {"task_started", "!!str"}, {"compaction", "!!str"},
	{"1.0.0", "!!str"}, {"3/8 tasks complete", "!!str"}, {"07-example", "!!str"}, {"RL107", "!!str"},
	{"no-duplication", "!!str"}, {"72h", "!!str"}, {"repo", "!!str"}, {"qg-1", "!!str"},
}

// fuzzKeys are keys to add or rename to: the fields of every definition,
// and some no definition has.
func fuzzKeys() []string {
	keys := map[string]bool{"zz_extra": true, "#a": true, "_h": true, "": true, "decisions": true, "version": true}
	var walk func(c *checker, depth int)
	walk = func(c *checker, depth int) {
		if c == nil || depth > 30 {
			return
		}
		for _, n := range c.names {
			keys[n] = true
		}
		for _, s := range c.subs {
			walk(s, depth+1)
		}
		walk(c.elem, depth+1)
		for _, s := range c.vals {
			walk(s, depth+1)
		}
		for _, p := range c.patterns {
			walk(p.val, depth+1)
		}
	}
	for _, d := range allDefs {
		walk(fastChecker(d), 0)
	}
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var fuzzKeyList = sync.OnceValue(fuzzKeys)

// splitmix64 is the generator mutate draws its choices from: the same
// seed makes the same mutations, which TestFastPathMutations relies on.
type splitmix64 struct{ r uint64 }

// next returns a number in [0, n).
func (g *splitmix64) next(n int) int {
	g.r += 0x9e3779b97f4a7c15
	z := g.r
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z % uint64(n))
}

// mutate applies up to four structural mutations chosen by the bits of mut.
func mutate(root *yaml.Node, mut uint64) {
	rng := &splitmix64{r: mut}
	keys := fuzzKeyList()
	for range mut % 5 {
		var all []*yaml.Node
		collect(root, &all, 0)
		if len(all) == 0 {
			return
		}
		n := all[rng.next(len(all))]
		other := all[rng.next(len(all))]
		mutateNode(n, other, rng, keys)
	}
	scalarKeys(root, 0)
}

// mutateNode applies one mutation, chosen by rng, to n, taking other (a
// node of the same tree) as the value to copy, merge or share and keys as
// the names of new or renamed keys. A mutation that does not fit n leaves
// it as it is.
func mutateNode(n, other *yaml.Node, rng *splitmix64, keys []string) {
	switch rng.next(11) {
	case 0, 1: // a scalar value and tag the schemas care about, or another scalar's
		if n.Kind != yaml.ScalarNode {
			return
		}
		if other.Kind == yaml.ScalarNode && rng.next(3) == 0 {
			n.Value, n.Tag = other.Value, other.Tag
		} else {
			s := fuzzScalars[rng.next(len(fuzzScalars))]
			n.Value, n.Tag = s[0], s[1]
		}
		n.Style = 0
	case 2: // another shape
		*n = *[]*yaml.Node{
			{Kind: yaml.MappingNode, Tag: "!!map"},
			{Kind: yaml.SequenceNode, Tag: "!!seq"},
			{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"},
			copyNode(other, 0),
			{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{copyNode(other, 0)}},
		}[rng.next(5)]
	case 3: // drop an entry or element
		if len(n.Content) >= 2 && n.Kind == yaml.MappingNode {
			i := rng.next(len(n.Content)/2) * 2
			n.Content = append(n.Content[:i:i], n.Content[i+2:]...)
		} else if len(n.Content) >= 1 && n.Kind == yaml.SequenceNode {
			i := rng.next(len(n.Content))
			n.Content = append(n.Content[:i:i], n.Content[i+1:]...)
		}
	case 4: // add an entry or element
		v := copyNode(other, 0)
		if rng.next(2) == 0 {
			s := fuzzScalars[rng.next(len(fuzzScalars))]
			v = &yaml.Node{Kind: yaml.ScalarNode, Value: s[0], Tag: s[1]}
		}
		addChild(n, v, rng, keys)
	case 5: // rename a key
		if n.Kind == yaml.MappingNode && len(n.Content) >= 2 {
			k := n.Content[rng.next(len(n.Content)/2)*2]
			k.Value, k.Tag, k.Style = keys[rng.next(len(keys))], "!!str", 0
		}
	case 6: // merge another mapping in
		if n.Kind == yaml.MappingNode {
			k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!merge", Value: "<<"}
			v := copyNode(other, 0)
			if rng.next(2) == 0 {
				v = &yaml.Node{Kind: yaml.AliasNode, Alias: v}
			}
			n.Content = append(n.Content, k, v)
		}
	case 7: // repeat a key with another value
		if n.Kind == yaml.MappingNode && len(n.Content) >= 2 {
			i := rng.next(len(n.Content)/2) * 2
			n.Content = append(n.Content, copyNode(n.Content[i], 0), copyNode(other, 0))
		}
	case 8: // reach a value through an alias
		c := copyNode(n, 0)
		*n = yaml.Node{Kind: yaml.AliasNode, Alias: c}
	case 9: // share another node: an alias to it in n's place
		if other != n && other.Kind != yaml.AliasNode && !reaches(other, n, 0) {
			*n = yaml.Node{Kind: yaml.AliasNode, Alias: other}
		}
	case 10: // share another node under a new key or as a new item
		if other.Kind == yaml.AliasNode || reaches(other, n, 0) {
			return
		}
		addChild(n, &yaml.Node{Kind: yaml.AliasNode, Alias: other}, rng, keys)
	}
}

// addChild adds v to a mapping, under a key drawn from keys, or to a
// sequence; anything else is left as it is.
func addChild(n, v *yaml.Node, rng *splitmix64, keys []string) {
	switch n.Kind {
	case yaml.MappingNode:
		k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: keys[rng.next(len(keys))]}
		n.Content = append(n.Content, k, v)
	case yaml.SequenceNode:
		n.Content = append(n.Content, v)
	}
}

// scalarKeys makes a mutated tree's keys what the parser makes them
// (load's treeCheck.keys): an alias of a scalar becomes a copy of it, and
// a key that is a collection, which the parser refuses (RL001), a string.
func scalarKeys(n *yaml.Node, depth int) {
	if n == nil || depth > 100 || n.Kind == yaml.AliasNode {
		return
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 {
			k := c
			for k != nil && k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k != nil && k.Kind == yaml.ScalarNode && k != c {
				kc := *k
				kc.Anchor = ""
				n.Content[i] = &kc
			} else if k == nil || k.Kind != yaml.ScalarNode {
				n.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprintf("key%d", i)}
			}
			continue
		}
		scalarKeys(c, depth+1)
	}
}

// reaches reports whether to is from or lies under it, aliases followed:
// an alias from to to from would then be a cycle.
func reaches(from, to *yaml.Node, depth int) bool {
	if from == nil || depth > 100 {
		return true // too deep to tell: as good as a cycle
	}
	if from == to {
		return true
	}
	if from.Kind == yaml.AliasNode {
		return reaches(from.Alias, to, depth+1)
	}
	for _, c := range from.Content {
		if reaches(c, to, depth+1) {
			return true
		}
	}
	return false
}

// collect lists the nodes of a tree, not following aliases.
func collect(n *yaml.Node, out *[]*yaml.Node, depth int) {
	if n == nil || depth > 100 {
		return
	}
	*out = append(*out, n)
	if n.Kind == yaml.AliasNode {
		return
	}
	for _, c := range n.Content {
		collect(c, out, depth+1)
	}
}

// copyNode deep-copies a node, expanding aliases, so no mutation can make
// a cycle.
func copyNode(n *yaml.Node, depth int) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil || depth > 40 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = copyNode(x, depth+1)
	}
	return &c
}

// withoutEntry must leave what removeAt leaves of the ToValue tree, or
// refuse; the original tree stays as it was.
func TestWithoutEntry(t *testing.T) {
	cases := []struct {
		name, data string
		path       []string
		refused    bool
	}{
		{"top-level key", "a: 1\nb: {c: 2}\n", []string{"a"}, false},
		{"nested key", "a: 1\nb: {c: 2, d: 3}\n", []string{"b", "c"}, false},
		{"inside a list", "l:\n  - {x: 1, y: 2}\n  - {x: 3}\n", []string{"l", "1", "x"}, false},
		{"repeated key, last wins", "a: {x: 1}\na: {x: 2, y: 3}\n", []string{"a", "y"}, false},
		{"repeated key removed", "a: 1\nb: 2\na: 3\n", []string{"a"}, false},
		{"through an alias", "base: &b {x: 1, y: 2}\nuse: *b\n", []string{"use", "x"}, false},
		{"beside a merge, under a direct key", "base: &b {k: {x: 1}}\nm:\n  <<: *b\n  k: {x: 2, y: 3}\n", []string{"m", "k", "y"}, false},
		{"a key a merge may also supply", "base: &b {x: 1}\nm:\n  <<: *b\n  x: 2\n", []string{"m", "x"}, true},
		{"a key only a merge supplies", "base: &b {k: {x: 1}}\nm:\n  <<: *b\n", []string{"m", "k", "x"}, true},
		{"missing key", "a: 1\n", []string{"b"}, true},
		{"index out of range", "l: [1]\n", []string{"l", "3", "x"}, true},
		{"path ends at a list item", "l: [1, 2]\n", []string{"l", "0"}, true},
		{"through a scalar", "a: 1\n", []string{"a", "b"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.data), &doc); err != nil {
				t.Fatal(err)
			}
			root := doc.Content[0]
			before := string(marshal(root))
			got := withoutEntry(root, tc.path)
			if after := string(marshal(root)); after != before {
				t.Errorf("the original changed:\n%s\nwas\n%s", after, before)
			}
			if tc.refused {
				if got != nil {
					t.Errorf("want a refusal, got\n%s", marshal(got))
				}
				return
			}
			if got == nil {
				t.Fatal("refused")
			}
			want := ToValue(root)
			if !removeAt(want, tc.path) {
				t.Fatal("removeAt refused: bad case")
			}
			if !reflect.DeepEqual(ToValue(got), want) {
				t.Errorf("ToValue = %v, want %v", ToValue(got), want)
			}
		})
	}
}

// sameViolations compares what validateCUE reports with and without the
// fast checker's shortcut after a pass.
func sameViolations(a, b []Violation) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Node != b[i].Node || a[i].Key != b[i].Key || a[i].Message != b[i].Message || !reflect.DeepEqual(a[i].Path, b[i].Path) {
			return false
		}
	}
	return true
}

// eachInvalidMutation calls check with every corpus document, mutated
// rounds times, that its definition's fast checker rejects.
func eachInvalidMutation(t *testing.T, rounds int, check func(name string, round int, d cue.Value, fast *checker, root *yaml.Node)) {
	t.Helper()
	for i, doc := range loadCorpus(t) {
		if doc.def == "" {
			continue
		}
		d := mustDef(t, doc.def)
		fast := fastChecker(doc.def)
		for r := range rounds {
			root := copyNode(doc.root, 0)
			mutate(root, uint64(i*rounds+r)*0x9e3779b97f4a7c15+uint64(r%4+1))
			if !fast.accepts(root, 0) {
				check(doc.name, r, d, fast, root)
			}
		}
	}
}

// The shortcut (the fast checker proving the rest valid once offending
// entries are removed) reports exactly what CUE's further passes report.
func TestValidateShortcutAgreesWithCUE(t *testing.T) {
	rounds := 4
	if testing.Short() {
		rounds = 1
	}
	compared, shortcut := 0, 0
	eachInvalidMutation(t, rounds, func(name string, r int, d cue.Value, fast *checker, root *yaml.Node) {
		slow, err1 := validateCUE(d, nil, root, Options{})
		quick, err2 := validateCUE(d, fast, root, Options{})
		if (err1 == nil) != (err2 == nil) || !sameViolations(slow, quick) {
			t.Errorf("%s, mutation %d: with the shortcut %v (%v), CUE alone %v (%v):\n%s", name, r, quick, err2, slow, err1, marshal(root))
		}
		compared++
		if len(slow) > 0 {
			shortcut++
		}
	})
	if compared == 0 {
		t.Fatal("no invalid document compared")
	}
	t.Logf("%d invalid documents compared, %d with violations", compared, shortcut)
}

// FuzzValidateShortcut checks that validateCUE reports the same with the
// fast checker's shortcut as with CUE alone, and validateNarrowed the same
// as both, on mutated documents checked against the definition of their
// kind.
func FuzzValidateShortcut(f *testing.F) {
	for i, d := range loadCorpus(f) {
		if d.def != "" && len(d.src) > 0 && len(d.src) < 20000 {
			f.Add(d.src, uint64(i)*0x9e3779b97f4a7c15, d.json, uint8(slices.Index(allDefs, d.def)))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, mut uint64, asJSON bool, def uint8) {
		name := allDefs[int(def)%len(allDefs)]
		root := parseFuzz(src, asJSON)
		if root == nil || countNodes(root, 0) > 3000 {
			return
		}
		mutate(root, mut)
		fast := fastChecker(name)
		if countNodes(root, 0) > 3000 || fast.accepts(root, 0) {
			return
		}
		d := mustDef(t, name)
		slow, err1 := validateCUE(d, nil, root, Options{})
		quick, err2 := validateCUE(d, fast, root, Options{})
		if (err1 == nil) != (err2 == nil) || !sameViolations(slow, quick) {
			t.Fatalf("%s: with the shortcut %v (%v), CUE alone %v (%v):\n%s", name, quick, err2, slow, err1, marshal(root))
		}
		if parts, err3 := validateNarrowed(d, fast, root, Options{}); (err3 == nil) != (err2 == nil) || !sameViolations(parts, quick) {
			t.Fatalf("%s: in parts %v (%v), whole %v (%v):\n%s", name, parts, err3, quick, err2, marshal(root))
		}
	})
}

// parseSchema parses a one-file schema for the compiler.
func parseSchema(t *testing.T, src string) []*ast.File {
	t.Helper()
	f, err := parser.ParseFile("schema.cue", src)
	if err != nil {
		t.Fatal(err)
	}
	return []*ast.File{f}
}

// Validating a document's failing parts alone reports exactly what
// validating it whole does.
func TestNarrowedValidationAgreesWithWhole(t *testing.T) {
	rounds := 6
	if testing.Short() {
		rounds = 2
	}
	compared, split := 0, 0
	eachInvalidMutation(t, rounds, func(name string, r int, d cue.Value, fast *checker, root *yaml.Node) {
		whole, err1 := validateCUE(d, fast, root, Options{Prefix: "p"})
		parts, err2 := validateNarrowed(d, fast, root, Options{Prefix: "p"})
		if (err1 == nil) != (err2 == nil) || !sameViolations(whole, parts) {
			t.Errorf("%s, mutation %d: in parts %v (%v), whole %v (%v):\n%s", name, r, parts, err2, whole, err1, marshal(root))
		}
		compared++
		if ps := failingParts(fast, root, nil, 0, nil); len(ps) > 1 || len(ps[0].base) > 0 {
			split++
		}
	})
	if split == 0 {
		t.Fatal("no document was split into parts")
	}
	t.Logf("%d invalid documents compared, %d validated in parts", compared, split)
}

// Two errors inside one entry of a part (two items of one score list):
// the entry is dropped for the first, and the second, now under a
// dropped entry, must not end the search for the part's other errors (a
// missing key, an unknown one) that CUE reports once the entry is gone.
func TestNarrowedSecondErrorUnderDroppedEntry(t *testing.T) {
	const doc = `recovery_state:
    last_checkpoint: "CP-001"
    current_phase: 2
    current_phase_name: "Content Migration"
    workflow_status: "ACTIVE"
    current_activity: "phase-2-agent-execution"
    next_step: "Run ps-writer-001 on the remaining 14 pages"
    context_fill_at_update: 0.42
    updated_at: "2026-02-20T21:00:00Z"
    cross_session_portable: true
    ephemeral_references: false
files_to_read:
    - path: "ORCHESTRATION_PLAN.md"
      priority: 1
      purpose: "Strategic context: agents, phases, gate criteria."
      sections: ["phase-2"]
    - path: "ORCHESTRATION.yaml"
      priority: 2
      purpose: "This file. Read the resumption section first."
quality_trajectory:
    gates_completed: ["qg-1"]
    gates_remaining: ["qg-2", "qg-final"]
    current_gate: null
    sha256:ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB: null
    score_history:
        qg-1: [RD-001, 0.93, "2026-02-17"]
    lowest_dimension: "evidence_quality"
    total_iterations_used: 2
    total_iterations_budget: 9
defect_summary:
    total_defects_found: 3
    total_defects_resolved: 3
    unresolved_defects: []
    recurring_patterns:
        - pattern: "Broken relative links after the move"
          gates_affected: ["qg-1"]
          resolution: "Link checker added to the migration script"
    last_gate_primary_defect: null
decision_log:
    - id: "RD-001"
      timestamp: "2026-02-19T17:30:00Z"
      gate: "qg-1"
      iteration: 2
      decision: "Keep the old URL scheme behind redirects"
      rationale: "External sites link to the old pages."
      affects_phases: [2]
      applied: true
agent_summaries:
    ps-researcher-001: "PASS. 42 pages inventoried, 6 orphans flagged."
compaction_events:
    count: 0
    events: []
`
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Fatal(err)
	}
	root := n.Content[0]
	d, fast := mustDef(t, "#ResumptionV2"), fastChecker("#ResumptionV2")
	if ps := failingParts(fast, root, nil, 0, nil); len(ps) != 1 || len(ps[0].base) == 0 {
		t.Fatalf("parts %v: want one part below the root", ps)
	}
	whole, err1 := validateCUE(d, fast, root, Options{Prefix: "p"})
	parts, err2 := validateNarrowed(d, fast, root, Options{Prefix: "p"})
	if err1 != nil || err2 != nil || len(whole) != 4 || !sameViolations(whole, parts) {
		t.Errorf("in parts %v (%v), whole %v (%v)", parts, err2, whole, err1)
	}
}
