package load

import (
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// YAML that readers take differently is a finding, never a pass: a key
// repeated through an alias or a second <<, a key that is a collection, and
// a tag no safe loader constructs (or one its value does not fit) are
// findings at their position. A refused file (RL001) is not checked further.
func TestParseYAMLReadersDisagree(t *testing.T) {
	cases := []struct {
		name, src string
		code      string
		pos       diag.Pos
		message   string
	}{
		{"an alias as a key repeats the anchored key",
			"resumption:\n  &k recovery_state:\n    workflow_status: ACTIVE\n  *k :\n    workflow_status: BOGUS\n",
			"RL002", diag.Pos{Line: 4, Col: 3}, `key "recovery_state" is repeated (first at line 2)`},
		{"an alias of a value as a key",
			"workflow:\n  name: &k recovery_state\nresumption:\n  recovery_state: {}\n  *k : {}\n",
			"RL002", diag.Pos{Line: 5, Col: 3}, `key "recovery_state" is repeated (first at line 4)`},
		{"an integer key spelled twice",
			"score_history:\n  1: [0.8]\n  0x1: [0.9]\n",
			"RL002", diag.Pos{Line: 3, Col: 3}, `key "0x1" is repeated (first at line 2)`},
		{"a boolean key spelled twice",
			"flags:\n  true: a\n  True: b\n",
			"RL002", diag.Pos{Line: 3, Col: 3}, `key "True" is repeated (first at line 2)`},
		{"a repeated merge key",
			"defaults: &d {a: 1}\nother: &o {a: 2}\nresumption:\n  <<: *d\n  <<: *o\n",
			"RL002", diag.Pos{Line: 5, Col: 3}, "the merge key << is repeated (first at line 4)"},
		{"!!merge on a key of another name",
			"defaults: &d {a: 1}\nresumption:\n  !!merge extra: *d\n",
			"RL001", diag.Pos{Line: 3, Col: 3}, "the tag !!merge on a key other than <<"},
		{"a local tag",
			"resumption:\n  next_step: !custom run\n",
			"RL001", diag.Pos{Line: 2, Col: 14}, "the tag !custom is not a YAML type"},
		{"a language tag",
			"resumption:\n  next_step: !!python/object/apply:os.system [\"touch /tmp/x\"]\n",
			"RL001", diag.Pos{Line: 2, Col: 14}, "the tag !!python/object/apply:os.system is not a YAML type"},
		{"a language tag in long form",
			"resumption:\n  next_step: !<tag:yaml.org,2002:python/name:os.system> x\n",
			"RL001", diag.Pos{Line: 2, Col: 14}, "the tag !!python/name:os.system is not a YAML type"},
		{"a tag that is a token, masked before it is clipped",
			"resumption:\n  next_step: !eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLW9mLXRoZQ run\n",
			"RL001", diag.Pos{Line: 2, Col: 14}, "the tag !**** is not a YAML type"},
		{"a tag on a mapping",
			"resumption: !ruby/object:Gem::Installer\n  a: 1\n",
			"RL001", diag.Pos{Line: 1, Col: 13}, "the tag !ruby/object:Gem::Installer is not a YAML type"},
		{"a scalar tag on a mapping",
			"resumption: !!str {a: 1}\n",
			"RL001", diag.Pos{Line: 1, Col: 13}, "the tag !!str does not apply to a mapping"},
		{"a value its tag does not fit",
			"resumption:\n  current_phase: !!int two\n",
			"RL001", diag.Pos{Line: 2, Col: 18}, "the value does not fit its tag !!int"},
		{"a key that is a list",
			"resumption:\n  ? [builder]\n  : x\n",
			"RL001", diag.Pos{Line: 2, Col: 5}, "a key that is a list"},
		{"a key that is a mapping",
			"resumption:\n  {}: x\n",
			"RL001", diag.Pos{Line: 2, Col: 3}, "a key that is a mapping"},
		{"an alias of a mapping as a key",
			"defaults: &d {a: 1}\nresumption:\n  *d : x\n",
			"RL001", diag.Pos{Line: 3, Col: 3}, "a key that is a mapping"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, probs := parseText(t, "ORCHESTRATION.yaml", tc.src, FormatYAML)
			if len(probs) != 1 || probs[0].Code != tc.code || probs[0].Start != tc.pos || !strings.Contains(probs[0].Message, tc.message) {
				t.Fatalf("findings %s, want one %s at %v with %q", codesOf(probs), tc.code, tc.pos, tc.message)
			}
			if refused := doc.Root == nil; refused != (tc.code == "RL001") {
				t.Errorf("root %v: an RL001 file is not checked further, an RL002 one is", doc.Root)
			}
			// The same in front matter.
			md := "---\n" + tc.src + "---\n# Resume\n"
			_, probs = parseText(t, "resume-context.md", md, FormatMarkdown)
			if len(probs) != 1 || probs[0].Code != tc.code || probs[0].Start.Line != tc.pos.Line+1 {
				t.Errorf("in front matter: findings %s, want one %s at line %d", codesOf(probs), tc.code, tc.pos.Line+1)
			}
		})
	}
}

// The tags safe loaders construct, on the nodes they apply to, pass.
func TestParseYAMLStandardTagsPass(t *testing.T) {
	src := "a: !!str 12\nb: !!int \"7\"\nc: !!float 1\nd: !!bool true\ne: !!null ~\nf: !!timestamp 2026-02-20T21:00:00Z\n" +
		"g: !!binary aGk=\nh: !!map {x: 1}\ni: !!seq [1]\nj: !!set {x}\nk: ! text\n<<: {z: 1}\nl: {!!merge <<: {y: 1}}\n"
	doc, probs := parseText(t, "ORCHESTRATION.yaml", src, FormatYAML)
	if len(probs) != 0 || doc.Root == nil {
		t.Fatalf("findings %s", codesOf(probs))
	}
}
