package rules

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/model"
)

func yamlNode(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return n.Content[0]
}

func TestSameNode(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"{a: 1, b: [x, y]}", "# note\nb: [x, 'y']\na: 1", true},
		{"t: 2026-02-20T10:00:00Z", `t: "2026-02-20T10:00:00Z"`, true},
		{"s: 0.90", "s: 0.9", true},
		{"s: 1", "s: 1.0", true},
		{"v: '1.0'", "v: 1.0", false},
		{"a: null", "a: ~", true},
		{"a: [x, y]", "a: [y, x]", false},
		{"a: {b: 1}", "a: {b: 1, c: 2}", false},
		{"a: true", "a: 'true'", false},
		{"a: True", "a: true", true},
	} {
		if got := sameNode(yamlNode(t, c.a), yamlNode(t, c.b)); got != c.same {
			t.Errorf("sameNode(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

func TestMatchEntries(t *testing.T) {
	for _, c := range []struct {
		base, head string
		want       string // pairs / removed / added, as base or head indexes
	}{
		// Append by id.
		{"[{id: A}, {id: B}]", "[{id: A}, {id: B}, {id: C}]", "0-0 1-1 / / 2"},
		// A removed entry, whatever its position.
		{"[{id: A}, {id: B}, {id: C}]", "[{id: A}, {id: C}]", "0-0 2-1 / 1 /"},
		// Reordered entries keep their partners.
		{"[{id: A}, {id: B}]", "[{id: B}, {id: A}]", "0-1 1-0 / /"},
		// Entries without ids pair by position.
		{"[{d: x}, {d: y}]", "[{d: x}, {d: y}, {d: z}]", "0-0 1-1 / / 2"},
		{"[{d: x}, {d: y}]", "[{d: x}]", "0-0 / 1 /"},
		// An id given to an entry that had none pairs by position.
		{"[{d: x}]", "[{id: RD-001, d: x}]", "0-0 / /"},
		// A renamed id pairs by position and is then a change.
		{"[{id: A}]", "[{id: Z}]", "0-0 / /"},
		// A repeated id pairs its entries in order, each once.
		{"[{id: A}, {id: A}, {id: A}]", "[{id: A}, {id: B}, {id: A}]", "0-0 1-2 / 2 / 1"},
	} {
		pairs, removed, added := matchEntries(yamlNode(t, c.base).Content, yamlNode(t, c.head).Content)
		var ps, rs, as []string
		for _, p := range pairs {
			ps = append(ps, fmt.Sprintf("%d-%d", p[0], p[1]))
		}
		for _, i := range removed {
			rs = append(rs, fmt.Sprint(i))
		}
		for _, j := range added {
			as = append(as, fmt.Sprint(j))
		}
		got := strings.TrimSpace(strings.Join(ps, " ") + " / " + strings.Join(rs, " ") + " / " + strings.Join(as, " "))
		got = strings.Join(strings.Fields(got), " ")
		if want := strings.Join(strings.Fields(c.want), " "); got != want {
			t.Errorf("matchEntries(%s, %s) = %q, want %q", c.base, c.head, got, want)
		}
	}
}

// BenchmarkMatchEntriesRepeatedID pairs a list of one id repeated, the
// shape that once cost a rescan per entry.
func BenchmarkMatchEntriesRepeatedID(b *testing.B) {
	src := "[" + strings.Repeat("{id: R}, ", 20000) + "{id: R}]"
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		b.Fatal(err)
	}
	list := n.Content[0].Content
	for b.Loop() {
		matchEntries(list, list)
	}
}

func TestEntryChanges(t *testing.T) {
	for _, c := range []struct {
		base, head string
		want       string // the change descriptions, "; "-joined
	}{
		{"{id: RD-001, applied: false}", "{id: RD-001, applied: true}", ""},
		{"{id: RD-001}", "{id: RD-001, applied: true}", ""},
		{"{id: RD-001, applied: true}", "{id: RD-001, applied: false}", "applied was true, now false"},
		{"{id: CX-001, acknowledged: false}", "{id: CX-001, acknowledged: true, acknowledged_at: '2026-02-20T10:00:00Z'}", ""},
		{"{id: CX-001, acknowledged: true}", "{id: CX-001, acknowledged: true, acknowledged_at: '2026-02-20T10:00:00Z'}", "acknowledged_at was added"},
		{"{decision: keep}", "{id: RD-001, decision: keep}", ""},
		{"{id: RD-001, decision: keep, rationale: r}", "{id: RD-001, decision: drop}", `decision was "keep", now "drop"; rationale was removed`},
		{"{id: RD-001, affects_phases: [2]}", "{id: RD-001, affects_phases: [2, 3]}", "affects_phases was a list, now a list"},
		{`"PASS. ok."`, `"FAIL. no."`, `was "PASS. ok.", now "FAIL. no."`},
	} {
		var ds []string
		for _, ch := range entryChanges(yamlNode(t, c.base), yamlNode(t, c.head)) {
			ds = append(ds, ch.Desc)
		}
		if got := strings.Join(ds, "; "); got != c.want {
			t.Errorf("entryChanges(%s, %s) = %q, want %q", c.base, c.head, got, c.want)
		}
	}
}

func TestWasNowShowsTheDifference(t *testing.T) {
	b := yamlNode(t, `"PASS. All 25 dependencies are Apache-2.0 compatible, none needs a NOTICE entry."`)
	h := yamlNode(t, `"PASS. All 26 dependencies are Apache-2.0 compatible, none needs a NOTICE entry."`)
	got := wasNow(b, h)
	if !strings.Contains(got, "25") || !strings.Contains(got, "26") {
		t.Errorf("wasNow hides the change: %s", got)
	}
	long := strings.Repeat("x", 80)
	b = yamlNode(t, `"`+long+`a"`)
	h = yamlNode(t, `"`+long+`b"`)
	if got := wasNow(b, h); !strings.Contains(got, `xa"`) || !strings.Contains(got, `xb"`) || len(got) > 120 {
		t.Errorf("wasNow at the end of long strings: %s", got)
	}
}

func TestUpdatedAtRewritten(t *testing.T) {
	for _, c := range []struct {
		base, head string
		rewritten  bool
		judged     bool
	}{
		{`{updated_at: "2026-02-20T10:00:00Z"}`, `{updated_at: "2026-02-20T11:00:00Z"}`, true, true},
		{`{updated_at: "2026-02-20T10:00:00Z"}`, `{updated_at: "2026-02-20T10:00:00Z"}`, false, true},
		{`{updated_at: "2026-02-20T10:00:00Z"}`, `{updated_at: "2026-02-20T12:00:00+02:00"}`, false, true},
		{`{updated_at: 2026-02-20T10:00:00Z}`, `{updated_at: "2026-02-20T10:00:01Z"}`, true, true},
		{`{}`, `{updated_at: "2026-02-20T10:00:00Z"}`, true, true},
		{`{updated_at: "2026-02-20T10:00:00Z"}`, `{}`, false, false},
		{`{updated_at: "{UPDATED}"}`, `{updated_at: "{UPDATED_AT}"}`, true, true},
	} {
		rw, hu, _ := updatedAtRewritten(model.StrOf(yamlNode(t, c.base), "updated_at"), model.StrOf(yamlNode(t, c.head), "updated_at"))
		if rw != c.rewritten || (hu != nil) != c.judged {
			t.Errorf("updatedAtRewritten(%s, %s) = %v, judged %v; want %v, %v", c.base, c.head, rw, hu != nil, c.rewritten, c.judged)
		}
	}
}

func TestNewlyChecked(t *testing.T) {
	base := "# Steps\n- [x] 1.1 a\n- [ ] 1.2 b\n- [ ] 1.3 c\n* [X] 2.1 done twice\n"
	head := "# Steps\n- [x] 1.1 a\n- [x] 1.2 b\n- [ ] 1.3 c\n* [X] 2.1 done twice\n* [X] 2.1 done twice\n  - [x] nested\n"
	n, first, line := newlyChecked([]byte(base), []byte(head))
	if n != 3 || first != "- [x] 1.2 b" || line != 3 {
		t.Errorf("newlyChecked = %d, %q, line %d; want 3, \"- [x] 1.2 b\", line 3", n, first, line)
	}
	if n, _, _ := newlyChecked([]byte(head), []byte(base)); n != 0 {
		t.Errorf("unchecking items is not progress: got %d", n)
	}
	if n, _, _ := newlyChecked(nil, []byte("- [x] done\n")); n != 1 {
		t.Errorf("a new steps.md with a checked item: got %d", n)
	}
}

func TestPhaseAndAgentStatesReadRealShapes(t *testing.T) {
	// Phases as a map with agents as a map (PROJ-009's shape), and as a
	// list with agents as a list or one `agent:` (PROJ-005, PROJ-008).
	root := yamlNode(t, `
pipelines:
  pipeline_a:
    phases:
      phase_1:
        name: "Evidence"
        status: "COMPLETED"
        agents:
          ps-researcher-001: {status: "COMPLETED"}
  engineering:
    phases:
      - id: "eng-phase-1"
        status: "IN_PROGRESS"
        agent: "eng-architect-001"
      - id: 2
        status: "PENDING"
        agents:
          - {id: "eng-lead-001", status: "DONE"}
agents:
  - {id: "eng-lead-001", status: "PLANNED"}
quality_gates:
  - id: "QG_B1"
    iteration_scores: [{iteration: 1, score: 0.8}, {iteration: 2, score: 0.9}]
`)
	var ph []string
	for _, e := range phaseStates(orchestrationDoc(root)).list {
		ph = append(ph, e.Label+"="+e.Status)
	}
	if got, want := strings.Join(ph, " | "), `pipelines.pipeline_a.phases.phase_1 "Evidence"=COMPLETED | pipelines.engineering.phases[0]=IN_PROGRESS | pipelines.engineering.phases[1]=PENDING`; got != want {
		t.Errorf("phases:\n got %s\nwant %s", got, want)
	}
	ag := agentStates(orchestrationDoc(root))
	var as []string
	for _, e := range ag.list {
		as = append(as, e.Key+"="+e.Status)
	}
	if got, want := strings.Join(as, " "), "ps-researcher-001=COMPLETED eng-architect-001=IN_PROGRESS eng-lead-001=DONE"; got != want {
		t.Errorf("agents: got %s, want %s", got, want)
	}
	g := gateIterations(orchestrationDoc(root)).byKey["qg-b1"]
	if g == nil || len(g.Iters) != 2 || g.Label != "quality_gates[0].iteration_scores of gate QG_B1" {
		t.Errorf("gates: %+v", g)
	}
}
