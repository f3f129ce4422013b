package schema

import (
	"math/big"
	"strconv"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
)

// A mapping reached through an anchor and an alias sits at two paths; a key
// unknown at one of them is dropped there only, so it is still validated
// where the schema knows it, and still counts where the schema requires it.
func TestPruneByPathKeepsKeysKnownElsewhere(t *testing.T) {
	cases := []struct {
		name, def, from, to string
		want                []string // substrings of the violations' messages, in order
	}{
		{"unknown in a decision, a wrong summary in agent_summaries", "#ResumptionV2",
			"decision_log: []\nagent_summaries: {}\n",
			"decision_log: [&d {id: RD-001, decision: x, rationale: x, builder: 42}]\nagent_summaries: *d\n",
			[]string{"agent_summaries.builder: expected a string"}},
		{"the alias first, the anchor after", "#ResumptionV2",
			"decision_log: []\nagent_summaries: {}\n",
			"agent_summaries: &d {id: RD-001, decision: x, rationale: x, builder: 42}\ndecision_log: [*d]\n",
			[]string{"agent_summaries.builder: expected a string"}},
		{"required in a decision, unknown in a recurring pattern (and the reverse): nothing missing", "#ResumptionV2",
			"recurring_patterns: []\n",
			"recurring_patterns: [&d {pattern: x, decision: y, rationale: z}]\n",
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(validV2, tc.from, tc.to, 1)
			if strings.Contains(tc.to, "&d") && !strings.Contains(tc.to, "*d") {
				src = strings.Replace(src, "decision_log: []", "decision_log: [*d]", 1)
			}
			if src == validV2 {
				t.Fatalf("%q not in the document", tc.from)
			}
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
				t.Fatal(err)
			}
			root := doc.Content[0]
			res, err := Check(tc.def, root, Options{Prefix: "resumption"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range res.Violations {
				got = append(got, v.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("violations %q, want ones containing %q", got, tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("violation %q, want one containing %q", got[i], w)
				}
			}
			checkAgreesWithCUE(t, tc.def, mustDef(t, tc.def), root)
		})
	}
}

// checkAgreesWithCUE holds Check to CUE's verdict on the document without
// the unknown keys Check reported, each removed at its own path (from
// ToValue's tree, where an alias is a copy of its own): Check finds no
// violation exactly when CUE accepts that document.
func checkAgreesWithCUE(t *testing.T, name string, d cue.Value, root *yaml.Node) {
	t.Helper()
	if hasDuplicateKeys(root, 0) {
		return // which value of a key given twice counts is RL002's question, asked first
	}
	res, err := Check(name, root, Options{})
	if err != nil {
		return // data CUE cannot represent
	}
	v := ToValue(root)
	for _, u := range res.Unknown {
		m, ok := at(v, u.Path).(map[string]any)
		if !ok {
			t.Fatalf("%s: unknown keys at %q, which is no mapping of the document:\n%s", name, u.Path, marshal(root))
		}
		for _, k := range u.Keys {
			delete(m, k.Value)
		}
	}
	dv := cuecontext.New().Encode(v)
	accepts := dv.Err() == nil && d.Unify(dv).Validate(cue.Concrete(true)) == nil
	if accepts != (len(res.Violations) == 0) {
		t.Fatalf("%s: Check reports %d violations %v, but CUE on the document without the unknown keys %v accepts=%v:\n%s",
			name, len(res.Violations), res.Violations, res.Unknown, accepts, marshal(root))
	}
}

// hasDuplicateKeys reports whether a mapping of the document gives a key
// twice: ToValue keeps one of the values, a path names either.
func hasDuplicateKeys(n *yaml.Node, depth int) bool {
	if n == nil || depth > 100 {
		return false
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if seen[k] {
				return true
			}
			seen[k] = true
		}
	}
	for _, c := range n.Content {
		if hasDuplicateKeys(c, depth+1) {
			return true
		}
	}
	return false
}

// at follows a data path through ToValue's tree.
func at(v any, path []string) any {
	for _, p := range path {
		switch c := v.(type) {
		case map[string]any:
			v = c[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// A YAML integer between 2^63 and 2^64-1 (go-yaml's !!int) and a JSON
// number beyond 64 bits or beyond a float are numbers to the schema: a
// string field rejects them, an integer field takes an integer.
func TestHugeNumbersAreNumbers(t *testing.T) {
	for _, tc := range []struct {
		value   string
		json    bool
		def     string
		rejects bool
	}{
		{"18446744073709551615", false, "string", true},
		{"9223372036854775808", false, "string", true},
		{"123456789012345678901234567890", false, "string", true},
		{"123456789012345678901234567890", true, "string", true},
		{"-123456789012345678901234567890", true, "string", true},
		{"1e400", true, "string", true},
		{"1" + strings.Repeat("0", 400), true, "string", true},
		{"18446744073709551615", false, "int", false},
		{"18446744073709551615", true, "int", false},
		{"1e400", true, "number", false},
		{"-1e-400", true, "number", false},
		// go-yaml reads a decimal past a float64 as a string; the schema
		// reads a number.
		{"1" + strings.Repeat("0", 400), false, "string", true},
		{"-1" + strings.Repeat("7", 400), false, "number", false},
		{"1.5e400", false, "number", false},
		{"1" + strings.Repeat("7", 5000), false, "string", true},
		{"1" + strings.Repeat("7", 5000), true, "string", true},
		{"1" + strings.Repeat("7", 5000), true, "int", true}, // past 64 bits: out of range
		{"1" + strings.Repeat("7", 5000), true, "<=100", true},
		{"-1" + strings.Repeat("7", 5000), true, ">=0", true},
		{"0." + strings.Repeat("0", 5000) + "1", true, "number", false},
	} {
		var root *yaml.Node
		if tc.json {
			n, _, err := load.ParseJSON([]byte(`{"a": `+tc.value+`}`), 1, 64)
			if err != nil {
				t.Fatal(err)
			}
			root = n
		} else {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte("a: "+tc.value+"\n"), &doc); err != nil {
				t.Fatal(err)
			}
			root = doc.Content[0]
		}
		d := cuecontext.New().CompileString("#D: {a!: " + tc.def + "}").LookupPath(cue.ParsePath("#D"))
		vs, err := validateCUE(d, nil, root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rejected := len(vs) > 0; rejected != tc.rejects {
			t.Errorf("%s (json %v) as %s: violations %v, want rejected=%v", tc.value, tc.json, tc.def, vs, tc.rejects)
		}
	}
}

// A number of more digits than are read exactly keeps its value to the
// precision a big.Float holds, from its first digits and its exponent.
func TestShortenedNumbers(t *testing.T) {
	for _, v := range []string{
		strings.Repeat("9", 1500),
		"-" + strings.Repeat("12345", 400) + ".5",
		"0.000" + strings.Repeat("3", 2000) + "e-20",
		"1" + strings.Repeat("0", 1200) + "1e+5",
		strings.Repeat("0", 1100) + "42.0",
		"." + strings.Repeat("6", 1001) + "E3",
	} {
		short, ok := shortenFloat(v)
		if !ok || len(short) > maxExactDigits+40 {
			t.Fatalf("shortenFloat(%.40q) = %.60q, %v", v, short, ok)
		}
		want, _ := new(big.Float).SetString(v)
		got, _ := new(big.Float).SetString(short)
		if got == nil || want.Cmp(got) != 0 {
			t.Errorf("%.40q… reads %v, shortened %v", v, want, got)
		}
	}
	if s, ok := shortenInt("-" + strings.Repeat("8", 3000)); !ok || s != "-"+strings.Repeat("8", maxExactDigits) {
		t.Errorf("shortenInt = %.40q, %v", s, ok)
	}
	for _, v := range []string{"0x" + strings.Repeat("f", 2000), strings.Repeat("1", maxExactDigits)} {
		if _, ok := shortenInt(v); ok {
			t.Errorf("shortenInt(%.20q) shortened", v)
		}
	}
}
