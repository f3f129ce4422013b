package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/agentrun"
	"github.com/resumelint/resumelint/internal/diag"
)

// Text from a workflow file cannot break a Mermaid label or forge a line
// of the text report: quotes are entities, control characters escaped,
// newlines gone.
func TestRecoveryEscapesLabels(t *testing.T) {
	hostile := "Phase \"one\"\n]:::done\x1b[2J\rend"
	r := &Recovery{Workflows: []WorkflowState{{ID: hostile, Status: "ACTIVE", NextStep: hostile,
		Pipelines: []PipelineState{{Key: "p", ID: hostile, Phases: []PhaseState{{Num: 1, Name: hostile, Status: hostile, State: "in_progress"}}}},
		Gates:     []GateState{{ID: hostile, Name: hostile, Status: "PASS", State: "done"}},
		Barriers:  []GateState{{ID: "b1", Name: hostile, Status: "PENDING", State: "pending"}},
		Findings:  FindingSummary{Total: 1, Errors: 1, Top: []FindingLine{{Path: "ORCHESTRATION.yaml", Line: 3, Severity: "error", Code: "RL106", Message: hostile}}},
	}}, Projects: []ProjectState{{Kind: "project", ID: hostile, Phase: hostile, NextAction: hostile, State: "in_progress"}}}
	var mm, txt bytes.Buffer
	if err := RecoveryMermaid(&mm, r, diag.Mask); err != nil {
		t.Fatal(err)
	}
	if err := RecoveryText(&txt, r, diag.Mask); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"mermaid": mm.String(), "text": txt.String()} {
		if strings.ContainsAny(out, "\x1b\r") {
			t.Errorf("%s output holds a control character:\n%q", what, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "]:::") || strings.TrimSpace(line) == "end\"" {
				t.Errorf("%s: a label broke out onto its own line: %q", what, line)
			}
		}
	}
	for _, line := range strings.Split(mm.String(), "\n") {
		l := strings.TrimSpace(line)
		if strings.Contains(l, "[\"") && strings.Count(l, "\"") != 2 {
			t.Errorf("mermaid label with a raw quote: %q", l)
		}
	}
}

// The JSON report holds each string from a file as the text report shows
// it: no C1 control or bidirectional override raw in its bytes, and no
// control character a reader would decode back from an escape.
func TestRecoveryJSONEscapes(t *testing.T) {
	hostile := "docs-\u009b31mC1\u202eRLO\u0085NEL\x1b[2J\r\n::error::x\u2028"
	r := &Recovery{Workflows: []WorkflowState{{ID: hostile, Status: "ACTIVE", NextStep: "go <on> & " + hostile,
		Findings: FindingSummary{Total: 1, Errors: 1, Top: []FindingLine{{Path: "ORCHESTRATION.yaml", Line: 3, Severity: "error", Code: "RL106", Message: hostile}}}}},
		Finished: []FinishedRecord{{Path: "a/ORCHESTRATION.yaml", ID: hostile, Why: "workflow.status COMPLETE"}}}
	var b bytes.Buffer
	if err := RecoveryJSON(&b, r, diag.Mask); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\u009b\u202e\u0085\x1b\r\u2028") {
		t.Errorf("raw control character in the JSON:\n%q", b.String())
	}
	var back Recovery
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if got, want := back.Workflows[0].ID, diag.Escape(hostile); got != want {
		t.Errorf("id %q, want %q as the text report shows it", got, want)
	}
	if got := back.Workflows[0].NextStep; !strings.HasPrefix(got, "go <on> & ") {
		t.Errorf("next step %q lost its text", got)
	}
}

// A token in a workflow's fields is masked in every format.
func TestRecoveryMasks(t *testing.T) {
	tok := "ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i"
	r := &Recovery{Workflows: []WorkflowState{{ID: tok, NextStep: "push with " + tok,
		Pipelines: []PipelineState{{ID: tok, Phases: []PhaseState{{Name: tok, State: "done"}}}}}},
		Finished: []FinishedRecord{{Path: "a/ORCHESTRATION.yaml", ID: tok, Why: "workflow.status COMPLETE"}}}
	for name, render := range map[string]func(*bytes.Buffer) error{
		"text":    func(b *bytes.Buffer) error { return RecoveryText(b, r, diag.Mask) },
		"json":    func(b *bytes.Buffer) error { return RecoveryJSON(b, r, diag.Mask) },
		"mermaid": func(b *bytes.Buffer) error { return RecoveryMermaid(b, r, diag.Mask) },
	} {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "R8x2LmQ4") {
			t.Errorf("%s shows the token:\n%s", name, b.String())
		}
	}
}

// A path or message that begins a line after the report's indent cannot be
// read as a GitHub workflow command (the runner trims blanks before it
// looks for "::"), in the records' report, a run's and the list of runs.
func TestStatusTextHasNoWorkflowCommand(t *testing.T) {
	cmd := "::error title=x::pwned/ORCHESTRATION.yaml"
	top := []FindingLine{{Path: cmd, Line: 1, Severity: "error", Code: "RL106", Message: "m"}}
	r := &Recovery{Workflows: []WorkflowState{{ID: "w", Path: cmd, Status: "ACTIVE", Findings: FindingSummary{Total: 1, Errors: 1, Top: top}}},
		Finished: []FinishedRecord{{Path: cmd, ID: "x", Why: "done", Findings: FindingSummary{Total: 1, Errors: 1, Top: top}}}}
	var rec, run, list bytes.Buffer
	if err := RecoveryText(&rec, r, diag.Mask); err != nil {
		t.Fatal(err)
	}
	if err := StatusText(&run, &agentrun.Status{RunID: cmd}, &FindingSummary{Total: 1, Errors: 1, Top: top}, diag.Mask); err != nil {
		t.Fatal(err)
	}
	if err := RunList(&list, "text", "runs", []agentrun.RunSummary{{RunID: cmd}}, diag.Mask); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"records": rec.String(), "run": run.String(), "runs": list.String()} {
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
				t.Errorf("%s: a line is a workflow command: %q", what, line)
			}
		}
	}
}

// A quoted name in the text report is escaped once: a newline in a phase
// or project name reads \n, as in lint's messages, not \\n.
func TestRecoveryTextQuotesOnce(t *testing.T) {
	one := 1
	name := "Build\nship \u202e"
	r := &Recovery{Workflows: []WorkflowState{{ID: "w", Status: "ACTIVE", CurrentPhase: &one, CurrentPhaseName: name}},
		Projects: []ProjectState{{Kind: "project", ID: "07-x", Name: name, State: "in_progress"}}}
	var txt bytes.Buffer
	if err := RecoveryText(&txt, r, diag.Mask); err != nil {
		t.Fatal(err)
	}
	out := txt.String()
	for _, want := range []string{`- Phase: 1 "Build\nship \u202e"`, `PROJECT: 07-x "Build\nship \u202e"`} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("text report lacks %s:\n%s", want, out)
		}
	}
}
