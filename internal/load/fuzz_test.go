package load

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Fuzz targets for every parser entry. `go test` replays the seeds and the
// corpus in testdata/fuzz; `go test -fuzz=FuzzX` explores (see bench/fuzz).

func checkPositions(t *testing.T, n *yaml.Node, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	if n.Kind != yaml.DocumentNode && (n.Line < 1 || n.Column < 1) {
		t.Fatalf("node %q (kind %d) has no position", n.Value, n.Kind)
	}
	for _, c := range n.Content {
		checkPositions(t, c, seen)
	}
}

func FuzzParseYAML(f *testing.F) {
	for _, s := range []string{
		"resumption:\n  recovery_state:\n    updated_at: 2026-02-20T21:00:00Z\n",
		"a: &x [1, 2]\nb: *x\nc: {<<: {d: 1}}\n",
		"a: 1\na: 2\n",
		"- [[[[[]]]]]\n",
		"key: \"unterminated\n",
		"? complex\n: value\n",
		"a: |\n  block\n  text\n# comment\n",
		"resumption:\n  &k recovery_state: {a: 1}\n  *k : {a: 2}\n",
		"d: &d {a: 1}\no: &o {b: 2}\nm:\n  <<: *d\n  <<: *o\n",
		"d: &d {a: 1}\nm:\n  !!merge extra: *d\n",
		"a: !custom x\nb: !!python/object/apply:os.system [ls]\nc: !!int two\n",
		"? [builder]\n: x\n{}: y\n",
		"# only a comment\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := &File{Path: "ORCHESTRATION.yaml", Data: data, Kind: KindOrchestration}
		if _, ok := CheckBytes(file, DefaultLimits); !ok {
			return
		}
		doc, probs := Parse(file, FormatYAML, DefaultLimits)
		for _, p := range probs {
			if p.Start.Line < 1 || p.Code == "" {
				t.Fatalf("problem without position or code: %+v", p)
			}
		}
		if doc.Root != nil {
			checkPositions(t, doc.Root, map[*yaml.Node]bool{})
			readersAgree(t, doc.Root, map[*yaml.Node]bool{})
		}
		if doc.Empty && (doc.Root != nil || len(probs) > 0) {
			t.Fatalf("an empty document with a tree or findings: %v", probs)
		}
	})
}

// readersAgree fails on what a tree that passed parsing must not hold, as
// readers take it differently or refuse it: a key that is not a scalar
// (an alias of a scalar key is replaced by a copy of it), a tag no safe
// loader constructs, !!merge on a key other than <<.
func readersAgree(t *testing.T, n *yaml.Node, seen map[*yaml.Node]bool) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	if n.Kind == yaml.AliasNode {
		readersAgree(t, n.Alias, seen)
		return
	}
	if n.Kind != yaml.DocumentNode {
		if _, ok := yamlTagKinds[n.ShortTag()]; !ok {
			t.Fatalf("node %q at %d:%d passed with the tag %s", n.Value, n.Line, n.Column, n.ShortTag())
		}
		if n.ShortTag() == "!!merge" && n.Value != "<<" {
			t.Fatalf("!!merge on %q at %d:%d passed", n.Value, n.Line, n.Column)
		}
	}
	for i, c := range n.Content {
		if n.Kind == yaml.MappingNode && i%2 == 0 && c.Kind != yaml.ScalarNode {
			t.Fatalf("a key of kind %d at %d:%d passed", c.Kind, c.Line, c.Column)
		}
		readersAgree(t, c, seen)
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"checkpoint_id": "cx-001", "context_state": {"fill_percentage": 0.5, "tier": "LOW"}, "resumption_state": null}`,
		`{"a": 1, "a": 2}`,
		`[1, -0.5e10, true, false, null, "\u00e9\ud83d\ude00"]`,
		`{"a": [}`,
		`"x\q"`,
		`01`,
		"{\"a\":\n 1,\n \"b\": [\n]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, _, err := ParseJSON(data, 1, DefaultLimits.MaxDepth)
		var de *DepthError
		if errors.As(err, &de) {
			return
		}
		// Differential check against encoding/json on valid UTF-8 input:
		// both must agree on what is JSON.
		if utf8.Valid(data) && !bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) {
			if valid := json.Valid(data); valid != (err == nil) {
				t.Fatalf("encoding/json valid=%v, ours err=%v for %q", valid, err, data)
			}
		}
		if err == nil {
			checkPositions(t, n, map[*yaml.Node]bool{})
		} else {
			var je *JSONError
			if !errors.As(err, &je) || je.Pos.Line < 1 || je.Pos.Col < 1 {
				t.Fatalf("error without position: %v", err)
			}
		}
	})
}

func FuzzFrontMatter(f *testing.F) {
	for _, s := range []string{
		"---\nresume_schema_version: \"1.0\"\nproject_id: 07-x\n---\n# Validation Gate\n- [ ] a\n",
		"---\na: 1\n",
		"no front matter\n",
		"---\n---\n",
		"---\r\na: 1\r\n---\r\nbody\r\n",
		"---\na: [1\n---\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := &File{Path: "resume-context.md", Data: data, Kind: KindResumeContext}
		if _, ok := CheckBytes(file, DefaultLimits); !ok {
			return
		}
		doc, probs := Parse(file, FormatMarkdown, DefaultLimits)
		if doc.FrontMatter && doc.BodyLine < 3 {
			t.Fatalf("front matter body starts at line %d", doc.BodyLine)
		}
		if !doc.FrontMatter && len(probs) == 0 {
			t.Fatalf("no front matter and no finding")
		}
		if doc.Root != nil {
			checkPositions(t, doc.Root, map[*yaml.Node]bool{})
			if doc.Root.Line < 2 {
				t.Fatalf("front matter node on line %d, want >= 2", doc.Root.Line)
			}
		}
	})
}

func FuzzJSONL(f *testing.F) {
	for _, s := range []string{
		"{\"event\":\"task_started\",\"task_id\":\"t1\",\"timestamp\":\"2026-02-20T10:00:00Z\"}\n{\"event\":\"task_completed\",\"task_id\":\"t1\",\"timestamp\":\"2026-02-20T11:00:00Z\"}\n",
		"garbage\n{}\n\n[1]\n",
		"{\"a\":1}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := &File{Path: "events/a/x.jsonl", Data: data}
		doc, _ := Parse(file, FormatJSONL, DefaultLimits)
		want := 0
		for i, ln := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(ln)) > 0 {
				want++
				_ = i
			}
		}
		if len(doc.Lines) != want {
			t.Fatalf("%d lines parsed, want %d", len(doc.Lines), want)
		}
		for _, l := range doc.Lines {
			if (l.Node == nil) == (l.Err == nil) {
				t.Fatalf("line %d: want exactly one of node and error", l.Line)
			}
		}
	})
}
