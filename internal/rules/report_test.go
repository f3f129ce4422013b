package rules

import (
	"reflect"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// TestReportCompleteWhenCalled: a finding is complete when reported, so
// the report methods return nothing a rule could patch afterwards.
func TestReportCompleteWhenCalled(t *testing.T) {
	for name, m := range map[string]any{
		"Pass.Report":       (*Pass).Report,
		"Pass.ReportAt":     (*Pass).ReportAt,
		"RepoPass.ReportAt": (*RepoPass).ReportAt,
	} {
		if n := reflect.TypeOf(m).NumOut(); n != 0 {
			t.Errorf("%s returns %d values: a rule could change its finding after reporting it", name, n)
		}
	}
}

// TestReportOptions: the options give the finding its related
// locations, fix, severity, node path and secret mark.
func TestReportOptions(t *testing.T) {
	r := &Rule{Code: "RL999", Name: "test-rule", Severity: diag.SevError}
	var out []diag.Finding
	p := NewPass(r, &Options{}, nil, &out)
	f := &load.File{Path: "a.yaml"}
	rel := diag.Related{Path: "b.yaml", Line: 2, Column: 3, Message: "other side"}
	fx := &diag.Fix{Applicability: diag.FixSafe, Description: "do it"}
	r.Run = func(p *Pass) {
		p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "plain")
		p.ReportAt(f, diag.Pos{Line: 4, Col: 2}, diag.Pos{Line: 4, Col: 9}, "full",
			WithRelated(rel), WithRelated(), WithFix(fx), WithFix(nil), WithSeverity(diag.SevWarning),
			WithNodePath("a.b"), WithSecret())
	}
	r.Check(p)
	if len(out) != 2 {
		t.Fatalf("got %d findings, want 2", len(out))
	}
	want0 := diag.Finding{Code: "RL999", Name: "test-rule", Severity: diag.SevError, Path: "a.yaml",
		Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 1}, Message: "plain"}
	if !reflect.DeepEqual(out[0], want0) {
		t.Errorf("plain finding = %+v, want %+v", out[0], want0)
	}
	want1 := diag.Finding{Code: "RL999", Name: "test-rule", Severity: diag.SevWarning, Path: "a.yaml",
		Start: diag.Pos{Line: 4, Col: 2}, End: diag.Pos{Line: 4, Col: 9}, Message: "full",
		Related: []diag.Related{rel}, Fix: fx, NodePath: "a.b", Secret: true}
	if !reflect.DeepEqual(out[1], want1) {
		t.Errorf("finding with options = %+v, want %+v", out[1], want1)
	}
}
