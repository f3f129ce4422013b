package rules

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

func parsed(t *testing.T, path, text string) *load.Document {
	t.Helper()
	f := &load.File{Path: path, Data: []byte(text)}
	d, probs := load.Parse(f, load.FormatOf(load.KindOrchestration, path), load.DefaultLimits)
	if len(probs) > 0 {
		t.Fatalf("parse: %+v", probs)
	}
	return d
}

func parsedLines(t *testing.T, path, text string) *load.Document {
	t.Helper()
	d, _ := load.Parse(&load.File{Path: path, Data: []byte(text)}, load.FormatJSONL, load.DefaultLimits)
	return d
}

// reported has a rule report each finding of fs (ReportAt, with its node
// path as WithNodePath when set) over the unit u, then places the rest as
// the engine does once the unit's rules ran.
func reported(u load.Unit, fs []diag.Finding) []diag.Finding {
	var out []diag.Finding
	r := &Rule{Code: "RL999", Name: "test-rule", Severity: diag.SevError}
	r.Run = func(p *Pass) {
		for _, fd := range fs {
			var opts []Option
			if fd.NodePath != "" {
				opts = append(opts, WithNodePath(fd.NodePath))
			}
			p.ReportAt(&load.File{Path: fd.Path}, fd.Start, fd.End, fd.Code, opts...)
		}
	}
	p := NewPass(r, &Options{}, u, &out)
	p.Results = NewResults()
	r.Check(p)
	p.Results.Place(u, out)
	return out
}

const orchestration = `workflow:
  id: demo
resumption:
  decision_log:
    - id: RD-001
      gate: qg-9
  recovery_state:
    updated_at: "2026-02-20 21:00"
`

// TestReportNodePaths: a finding takes the path and content hash of the
// node it is reported at when it is reported, before the rule returns.
func TestReportNodePaths(t *testing.T) {
	d := parsed(t, "ORCHESTRATION.yaml", orchestration)
	var out []diag.Finding
	r := &Rule{Code: "RL999", Name: "test-rule", Severity: diag.SevError}
	var seen []diag.Finding
	r.Run = func(p *Pass) {
		updated := d.Root.Content[3].Content[3].Content[1]
		p.Report(d.File, updated, "stale")
		p.ReportAt(d.File, diag.Pos{Line: 6, Col: 13}, diag.Pos{}, "gate", WithNodePath("set by the rule"))
		p.ReportAt(&load.File{Path: "other.yaml"}, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "elsewhere")
		for _, fd := range p.pending {
			seen = append(seen, *fd)
		}
	}
	r.Check(NewPass(r, &Options{}, d, &out))
	want := []string{"resumption.recovery_state.updated_at", "set by the rule", ""}
	for i, w := range want {
		if seen[i].NodePath != w || out[i].NodePath != w {
			t.Errorf("finding %d: node path %q when reported, %q when returned, want %q", i, seen[i].NodePath, out[i].NodePath, w)
		}
	}
	if seen[0].NodeHash == "" || seen[1].NodeHash == "" || seen[2].NodeHash != "" {
		t.Errorf("hashes: %q %q %q", seen[0].NodeHash, seen[1].NodeHash, seen[2].NodeHash)
	}
}

func TestPlaceNodePaths(t *testing.T) {
	d := parsed(t, "ORCHESTRATION.yaml", orchestration)
	fs := reported(d, []diag.Finding{
		{Code: "RL006", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 8, Col: 17}},
		{Code: "RL110", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 6, Col: 13}},
		{Code: "RL100", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 1, Col: 1}},
		{Code: "RL102", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 4, Col: 3}, NodePath: "set by the rule"},
		{Code: "RL107", Path: "other.yaml", Start: diag.Pos{Line: 1, Col: 1}},
	})
	want := []string{"resumption.recovery_state.updated_at", "resumption.decision_log[" + rd001 + "].gate", "", "set by the rule", ""}
	for i, w := range want {
		if fs[i].NodePath != w {
			t.Errorf("finding %d: node path %q, want %q", i, fs[i].NodePath, w)
		}
	}
	if fs[0].NodeHash == "" || fs[2].NodeHash == "" || fs[3].NodeHash == "" || fs[4].NodeHash != "" {
		t.Errorf("hashes: %q %q %q %q", fs[0].NodeHash, fs[2].NodeHash, fs[3].NodeHash, fs[4].NodeHash)
	}

	// Lines inserted above move the positions, not the identities.
	moved := parsed(t, "ORCHESTRATION.yaml", "# header\n\n"+orchestration)
	gs := reported(moved, []diag.Finding{
		{Code: "RL006", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 10, Col: 17}},
		{Code: "RL100", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 1, Col: 1}},
	})
	if gs[0].NodePath != fs[0].NodePath || gs[0].NodeHash != fs[0].NodeHash || gs[1].NodeHash != fs[2].NodeHash {
		t.Errorf("identities changed with the lines: %+v / %+v", gs, fs)
	}

	// Another value at the same place is another finding.
	changed := parsed(t, "ORCHESTRATION.yaml", orchestration[:len(orchestration)-7]+`22:00"`+"\n")
	hs := reported(changed, []diag.Finding{{Code: "RL006", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 8, Col: 17}}})
	if hs[0].NodePath != fs[0].NodePath || hs[0].NodeHash == fs[0].NodeHash {
		t.Errorf("a changed value kept its hash: %+v", hs[0])
	}
}

// rd001 is how a node path names the decision_log entry of id RD-001.
var rd001 = itemKey(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Content: []*yaml.Node{
	{Kind: yaml.ScalarNode, Value: "id"}, {Kind: yaml.ScalarNode, Tag: "!!str", Value: "RD-001"}}}}}, 0)

// TestListItemIdentity: a finding on a list item, or inside one, keeps
// its identity when items are inserted or removed before it (a
// files_to_read entry added at the top, a phase inserted), and two items
// of one list never share it.
func TestListItemIdentity(t *testing.T) {
	const before = `resumption:
  files_to_read:
    - "PLAN.md"
    - "EN-902 enabler specification"
    - "PLAN.md"
  phases:
    - id: 1
      status: COMPLETE
    - id: 2
      status: PENDING
    - {status: PENDING}
`
	const after = `resumption:
  files_to_read:
    - "NEW.md"
    - "PLAN.md"
    - "EN-902 enabler specification"
    - "PLAN.md"
  phases:
    - id: 0
      status: COMPLETE
    - id: 1
      status: COMPLETE
    - id: 2
      status: PENDING
    - {status: PENDING}
`
	at := func(text string, pos ...diag.Pos) []diag.Finding {
		var in []diag.Finding
		for _, p := range pos {
			in = append(in, diag.Finding{Code: "RL113", Path: "ORCHESTRATION.yaml", Start: p})
		}
		return reported(parsed(t, "ORCHESTRATION.yaml", text), in)
	}
	// The description, the second PLAN.md, phase 2's status.
	b := at(before, diag.Pos{Line: 4, Col: 7}, diag.Pos{Line: 5, Col: 7}, diag.Pos{Line: 10, Col: 15})
	a := at(after, diag.Pos{Line: 5, Col: 7}, diag.Pos{Line: 6, Col: 7}, diag.Pos{Line: 13, Col: 15})
	for i := range b {
		if diag.Fingerprint(&a[i], "x") != diag.Fingerprint(&b[i], "x") {
			t.Errorf("finding %d: %q became %q", i, b[i].NodePath, a[i].NodePath)
		}
	}
	// An item with nothing to name it by keeps its index.
	if f := at(before, diag.Pos{Line: 11, Col: 7}); f[0].NodePath != "resumption.phases[2]" {
		t.Errorf("a phase without an id: %q", f[0].NodePath)
	}
	// The two PLAN.md entries, and the two pending phases, stay apart.
	c := at(before, diag.Pos{Line: 3, Col: 7}, diag.Pos{Line: 5, Col: 7}, diag.Pos{Line: 9, Col: 7}, diag.Pos{Line: 11, Col: 7})
	seen := map[string]string{}
	for _, f := range c {
		if p, ok := seen[f.NodePath]; ok {
			t.Errorf("two items share %q (%s)", f.NodePath, p)
		}
		seen[f.NodePath] = f.NodePath
	}
}

// TestPlaceLoaderFindings: findings the loader reported on the unit's
// documents get their node when the unit's rules ran, as the rules' do.
func TestPlaceLoaderFindings(t *testing.T) {
	d := parsed(t, "ORCHESTRATION.yaml", orchestration)
	fs := []diag.Finding{{Code: "RL007", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 5, Col: 9}}}
	NewResults().Place(d, fs)
	if fs[0].NodePath != "resumption.decision_log["+rd001+"].id" || fs[0].NodeHash == "" {
		t.Errorf("loader finding: %+v", fs[0])
	}
}

func TestPlaceJSONLines(t *testing.T) {
	d := parsedLines(t, "events/a/1.jsonl", "{\"event\": \"task_started\"}\n\n{\"event\": \"nope\"}\n")
	run := &load.AgentRun{Events: []*load.Document{d}}
	fs := reported(run, []diag.Finding{{Code: "RL503", Path: d.File.Path, Start: diag.Pos{Line: 3, Col: 11}}})
	if fs[0].NodePath != "[1].event" {
		t.Errorf("node path %q", fs[0].NodePath)
	}
}

// TestPlaceJSONLinesWithoutNode: a finding on a JSONL line that has no
// node at or before it stands for the last node of the nearest line above
// with a finding, else the first node of the first line with one; such a
// line's findings wait for every finding of the unit.
func TestPlaceJSONLinesWithoutNode(t *testing.T) {
	d := parsedLines(t, "events/a/1.jsonl", "{\"event\": \"task_started\", \"task_id\": \"T-1\"}\n{\"event\": \"task_done\"}\n{not json\n{\"event\": \"x\"}\n")
	run := &load.AgentRun{Events: []*load.Document{d}}
	at := func(line, col int) diag.Finding {
		return diag.Finding{Code: "RL503", Path: d.File.Path, Start: diag.Pos{Line: line, Col: col}}
	}
	for _, c := range []struct {
		fs   []diag.Finding
		want string // of the first finding
	}{
		{[]diag.Finding{at(3, 2)}, ""},
		{[]diag.Finding{at(3, 2), at(1, 1)}, "[0].task_id"},
		{[]diag.Finding{at(3, 2), at(2, 12)}, "[1].event"},
		{[]diag.Finding{at(3, 2), at(4, 2)}, "[3]"},
		{[]diag.Finding{at(4, 2), at(2, 2)}, "[3].event"},
		{[]diag.Finding{at(9, 1), at(4, 2)}, "[3].event"},
	} {
		fs := reported(run, c.fs)
		if fs[0].NodePath != c.want || (c.want == "") != (fs[0].NodeHash == "") {
			t.Errorf("%v: node path %q (hash %q), want %q", c.fs, fs[0].NodePath, fs[0].NodeHash, c.want)
		}
	}
}

// TestPlaceManyFindings: past walkMax findings a document is placed
// through its index, which agrees with the walk.
func TestPlaceManyFindings(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("resumption:\n  decision_log:\n")
	for i := range 30 {
		fmt.Fprintf(&sb, "    - id: RD-%03d\n      gate: g%d\n", i, i)
	}
	d := parsed(t, "ORCHESTRATION.yaml", sb.String())
	var fs []diag.Finding
	for l := 1; l <= 62; l++ {
		fs = append(fs, diag.Finding{Code: "RL999", Path: d.File.Path, Start: diag.Pos{Line: l, Col: 7}})
	}
	got := reported(d, fs)
	for i := range got {
		n, path := walkTo(d.Root, nil, 0, got[i].Start)
		if got[i].NodePath != path || got[i].NodeHash != contentHash(n) {
			t.Errorf("%v: %q, walk %q", got[i].Start, got[i].NodePath, path)
		}
	}
}

// The walk that places a few findings agrees with the index that places
// many, at every position of documents with merges, flow style and lines.
func TestWalkAgreesWithIndex(t *testing.T) {
	d := parsed(t, "ORCHESTRATION.yaml", `# header
defaults: &d
  owner: ps-architect
  tags: [a, {b: c}]
workflow:
  <<: *d
  id: demo
resumption:
  decision_log:
    - {id: RD-001, decision: keep}
    -   id: RD-002
        rationale: "quoted
          over two lines"
  files_to_read: [a.md, b.md]
`)
	jl := parsedLines(t, "events/a/1.jsonl", "{\"event\": \"task_started\"}\n\n{\"event\": \"nope\", \"task_id\": \"T-1\"}\n")
	type part struct {
		root  bool
		lines []load.JSONLine
		base  int
	}
	for _, pt := range []part{{root: true}, {lines: jl.Lines}, {lines: jl.Lines[1:], base: 1}} {
		root := d.Root
		if !pt.root {
			root = nil
		}
		ix := newNodeIndex(root, pt.lines, pt.base)
		for line := 0; line <= 16; line++ {
			for col := 0; col <= 30; col++ {
				p := diag.Pos{Line: line, Col: col}
				n, path := walkTo(root, pt.lines, pt.base, p)
				e := ix.at(p)
				if e < 0 {
					if n != nil {
						t.Errorf("%v: the walk found %q, the index nothing", p, path)
					}
					continue
				}
				if n != ix.entries[e].n || path != ix.path(e) {
					t.Errorf("%v: walk %q (line %d), index %q (line %d)", p, path, n.Line, ix.path(e), ix.entries[e].n.Line)
				}
			}
		}
	}
}
