package engine

import (
	"testing"

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

func TestAnnotateNodePaths(t *testing.T) {
	const text = `workflow:
  id: demo
resumption:
  decision_log:
    - id: RD-001
      gate: qg-9
  recovery_state:
    updated_at: "2026-02-20 21:00"
`
	d := parsed(t, "ORCHESTRATION.yaml", text)
	fs := []diag.Finding{
		{Code: "RL006", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 8, Col: 17}},
		{Code: "RL110", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 6, Col: 13}},
		{Code: "RL100", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 1, Col: 1}},
		{Code: "RL102", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 4, Col: 3}, NodePath: "set by the rule"},
		{Code: "RL107", Path: "other.yaml", Start: diag.Pos{Line: 1, Col: 1}},
	}
	annotate(fs, []*load.Document{d})
	want := []string{"resumption.recovery_state.updated_at", "resumption.decision_log[0].gate", "", "set by the rule", ""}
	for i, w := range want {
		if fs[i].NodePath != w {
			t.Errorf("finding %d: node path %q, want %q", i, fs[i].NodePath, w)
		}
	}
	if fs[0].NodeHash == "" || fs[2].NodeHash == "" || fs[3].NodeHash == "" || fs[4].NodeHash != "" {
		t.Errorf("hashes: %q %q %q %q", fs[0].NodeHash, fs[2].NodeHash, fs[3].NodeHash, fs[4].NodeHash)
	}

	// Lines inserted above move the positions, not the identities.
	moved := parsed(t, "ORCHESTRATION.yaml", "# header\n\n"+text)
	gs := []diag.Finding{
		{Code: "RL006", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 10, Col: 17}},
		{Code: "RL100", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 1, Col: 1}},
	}
	annotate(gs, []*load.Document{moved})
	if diag.Fingerprint(&gs[0], "x") != diag.Fingerprint(&fs[0], "x") || diag.Fingerprint(&gs[1], "x") != diag.Fingerprint(&fs[2], "x") {
		t.Errorf("fingerprints changed with the lines: %+v / %+v", gs, fs)
	}

	// Another value at the same place is another finding.
	changed := parsed(t, "ORCHESTRATION.yaml", text[:len(text)-7]+`22:00"`+"\n")
	hs := []diag.Finding{{Code: "RL006", Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 8, Col: 17}}}
	annotate(hs, []*load.Document{changed})
	if hs[0].NodePath != fs[0].NodePath || hs[0].NodeHash == fs[0].NodeHash {
		t.Errorf("a changed value kept its hash: %+v", hs[0])
	}
}

func TestAnnotateJSONLines(t *testing.T) {
	f := &load.File{Path: "events/a/1.jsonl", Data: []byte("{\"event\": \"task_started\"}\n\n{\"event\": \"nope\"}\n")}
	d, _ := load.Parse(f, load.FormatJSONL, load.DefaultLimits)
	fs := []diag.Finding{{Code: "RL503", Path: f.Path, Start: diag.Pos{Line: 3, Col: 11}}}
	annotate(fs, []*load.Document{d})
	if fs[0].NodePath != "[1].event" {
		t.Errorf("node path %q", fs[0].NodePath)
	}
}

// The walk that places a few findings agrees with the index that places
// many, at every position of documents with merges, flow style and lines.
func TestLocateAgreesWithIndex(t *testing.T) {
	docs := []*load.Document{
		parsed(t, "ORCHESTRATION.yaml", `# header
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
`),
	}
	f := &load.File{Path: "events/a/1.jsonl", Data: []byte("{\"event\": \"task_started\"}\n\n{\"event\": \"nope\", \"task_id\": \"T-1\"}\n")}
	jl, _ := load.Parse(f, load.FormatJSONL, load.DefaultLimits)
	docs = append(docs, jl)
	for _, d := range docs {
		for _, lines := range []map[int]bool{nil, {3: true}} {
			ix := newNodeIndex(d, lines)
			for line := 0; line <= 16; line++ {
				for col := 0; col <= 30; col++ {
					p := diag.Pos{Line: line, Col: col}
					n, path := locate(d, lines, p)
					e := ix.at(p)
					if e < 0 {
						if n != nil {
							t.Errorf("%s %v: locate found %q, the index nothing", d.File.Path, p, path)
						}
						continue
					}
					if n != ix.entries[e].n || path != ix.path(e) {
						t.Errorf("%s %v: locate %q (line %d), index %q (line %d)", d.File.Path, p, path, n.Line, ix.path(e), ix.entries[e].n.Line)
					}
				}
			}
		}
	}
}
