package filter

import (
	"testing"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// One pass over raw findings: a severity override, an inline suppression,
// an ignore glob, and the suppression that hid nothing (RL007).
func TestStageOrder(t *testing.T) {
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(
		"a: 1 # resumelint:ignore RL006 -- same line\nb: 2 # resumelint:ignore RL102 -- nothing here\nc: 3\n")}
	load.CheckBytes(f, load.DefaultLimits)
	res := &engine.Result{
		Findings: []diag.Finding{
			{Code: "RL006", Path: f.Path, Start: diag.Pos{Line: 1, Col: 4}, Severity: diag.SevWarning},
			{Code: "RL108", Path: f.Path, Start: diag.Pos{Line: 3, Col: 4}, Severity: diag.SevWarning},
			{Code: "RL107", Path: f.Path, Start: diag.Pos{Line: 3, Col: 4}, Severity: diag.SevError},
			{Code: "RL107", Path: "old/ORCHESTRATION.yaml", Start: diag.Pos{Line: 1, Col: 1}, Severity: diag.SevError},
		},
		Directives: map[string][]load.Directive{f.Path: f.Directives},
	}
	cfg := &config.Config{Ignore: []config.Ignore{{Path: "old/**"}}}
	s := &engine.Settings{Selection: rules.Selection{Severity: map[string]diag.Severity{"RL108": diag.SevOff, "RL107": diag.SevWarning}}}
	scope := &Scope{Settings: s, Config: cfg}
	(&Stage{For: func(string) *Scope { return scope }}).Apply(res)
	var got []string
	for _, fd := range res.Findings {
		got = append(got, fd.Code+"@"+fd.Severity.String())
	}
	want := []string{"RL007@warning", "RL107@warning"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %v, want %v", got, want)
	}
}
