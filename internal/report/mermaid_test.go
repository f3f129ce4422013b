package report

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/agentrun"
	"github.com/resumelint/resumelint/internal/diag"
)

// hostileNames are texts a file may hold that Mermaid would read as
// markup: a directive (which Mermaid applies wherever it is, a comment
// line included), HTML, the end of a label, a line break, a Markdown
// string, and entity codes of its own.
var hostileNames = []string{
	"%%{init: {'theme':'dark','themeCSS':'.failed,.in_progress{display:none}'}}%%",
	"<script>alert(1)</script><img src=x onerror=alert(1)>",
	`A"]; click x "javascript:alert(1)"; y["`,
	"one\ntwo\r%% three",
	"`**bold**`",
	"#quot; #60; &lt; &amp;",
}

var mermaidEntity = regexp.MustCompile(`#(\w+);`)

// mermaidShown is what Mermaid shows for a label's text: its entity
// codes decoded (the ones mermaidText writes).
func mermaidShown(s string) string {
	named := map[string]string{"quot": `"`, "lt": "<", "gt": ">", "amp": "&"}
	return mermaidEntity.ReplaceAllStringFunc(s, func(m string) string {
		name := m[1 : len(m)-1]
		if n, err := strconv.Atoi(name); err == nil {
			return string(rune(n))
		}
		return named[name]
	})
}

// checkMermaid fails on file text that reaches the diagram as markup: a
// "%" (a directive or a comment) other than a line's own "%%" comment
// start, HTML other than the labels' <br/>, an "&", a backtick, or a label
// with a quote of its own; and on a name the labels do not show as is.
func checkMermaid(t *testing.T, what, name, out string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		l := strings.TrimSpace(line)
		body := strings.TrimPrefix(l, "%% ")
		if strings.Contains(body, "%") {
			t.Errorf("%s: a %% in %q", what, l)
		}
		body = strings.NewReplacer("<br/>", "", "-->", "").Replace(body)
		if strings.ContainsAny(body, "<>&`") {
			t.Errorf("%s: markup in %q", what, l)
		}
		if !strings.HasPrefix(l, "%%") && strings.Contains(l, "\"") && strings.Count(l, "\"") != 2 {
			t.Errorf("%s: a label with a quote of its own: %q", what, l)
		}
	}
	if !strings.Contains(mermaidShown(out), diag.Safe(name)) {
		t.Errorf("%s: %q is not shown as is:\n%s", what, name, out)
	}
}

func TestRecoveryMermaidCarriesNoMarkup(t *testing.T) {
	for _, name := range hostileNames {
		r := &Recovery{Workflows: []WorkflowState{{ID: name, Status: name,
			Pipelines: []PipelineState{{Key: "p", ID: name, Phases: []PhaseState{{Num: 1, Name: name, Status: name, State: "in_progress"}}}},
			Gates:     []GateState{{ID: name, Name: name, Status: name, State: "done"}},
			Barriers:  []GateState{{ID: "b1", Name: name, Status: name, State: "pending"}},
		}}, Projects: []ProjectState{{Kind: "project", ID: name, Phase: name, Progress: name, NextAction: name, State: "in_progress"}},
			Finished: []FinishedRecord{{Path: name + "/ORCHESTRATION.yaml", ID: name, Why: name}}}
		var b bytes.Buffer
		if err := RecoveryMermaid(&b, r, diag.Mask); err != nil {
			t.Fatal(err)
		}
		checkMermaid(t, "workflows", name, b.String())
	}
}

func TestStatusMermaidCarriesNoMarkup(t *testing.T) {
	for _, name := range hostileNames {
		t1 := &agentrun.Task{ID: "T1", Title: name}
		t2 := &agentrun.Task{ID: name, Title: name, Deps: []string{"T1"}}
		r := &agentrun.Run{ID: name, Tasks: []*agentrun.Task{t1, t2}, ByID: map[string]*agentrun.Task{"T1": t1, name: t2},
			States: map[string]agentrun.State{"T1": agentrun.Done}}
		st := &agentrun.Status{RunID: name, SkippedLines: []agentrun.StatusSkipped{{Path: name + "/events/a.jsonl", Line: 3, Reason: name}}}
		var b bytes.Buffer
		if err := StatusMermaid(&b, r, st, diag.Mask); err != nil {
			t.Fatal(err)
		}
		checkMermaid(t, "run", name, b.String())
	}
}

// A credential is masked before it is escaped: written as entity codes,
// the mask of the output as a whole would no longer find it.
func TestMermaidMasksBeforeEscaping(t *testing.T) {
	secret := "p%40ss#w0rd<&>"
	mask := func(s string) string { return strings.ReplaceAll(s, secret, "****") }
	r := &Recovery{Workflows: []WorkflowState{{ID: "deploy with " + secret, Status: "ACTIVE"}}}
	var b bytes.Buffer
	if err := RecoveryMermaid(&b, r, mask); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "deploy with ****") {
		t.Errorf("the credential is not masked:\n%s", b.String())
	}
}

// The list of several incomplete runs, asked for as Mermaid, is a
// flowchart whose labels carry no markup from the runs' folder names.
func TestRunListMermaidCarriesNoMarkup(t *testing.T) {
	for _, name := range hostileNames {
		last := name
		runs := []agentrun.RunSummary{{RunID: name, Phase: 2, TasksDone: 1, TasksTotal: 3, LastActivity: &last}, {RunID: "r2", Phase: 1}}
		var b bytes.Buffer
		if err := RunList(&b, "mermaid", ".agent-memory/runs", runs, diag.Mask); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(b.String(), "flowchart TD\n") {
			t.Fatalf("not a flowchart:\n%s", b.String())
		}
		checkMermaid(t, "run list", name, b.String())
	}
}
