package rules

import (
	"testing"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
)

// One selection answers which rules run and what their findings become:
// a rule that does not run keeps none of its findings, and one that runs
// keeps them at the selection's severity.
func TestSelection(t *testing.T) {
	off, warn := diag.SevOff, diag.SevWarning
	cases := []struct {
		name    string
		sel     Selection
		rule    *Rule
		base    bool
		active  bool
		sev     diag.Severity // of a kept finding
		picked  bool          // Selected
		codeRun bool          // ActiveCode
	}{
		{"default", Selection{}, StaleResumption, false, true, StaleResumption.Severity, true, true},
		{"disabled", Selection{Severity: map[string]diag.Severity{StaleResumption.Code: off}}, StaleResumption, false, false, 0, false, false},
		{"overridden", Selection{Severity: map[string]diag.Severity{StaleResumption.Code: warn}}, StaleResumption, false, true, warn, true, true},
		{"enable leaves out", Selection{Only: map[string]bool{UnknownKey.Code: true}}, StaleResumption, false, false, 0, false, false},
		{"opt-in off", Selection{}, ActivityVocabulary, false, false, 0, true, false},
		{"opt-in enabled", Selection{Only: map[string]bool{ActivityVocabulary.Code: true}}, ActivityVocabulary, false, true, ActivityVocabulary.Severity, true, true},
		{"needs base, none", Selection{}, AppendOnly, false, false, 0, true, false},
		{"needs base, given", Selection{}, AppendOnly, true, true, AppendOnly.Severity, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.sel.Active(tc.rule, tc.base); got != tc.active {
				t.Errorf("Active = %v, want %v", got, tc.active)
			}
			fd := diag.Finding{Code: tc.rule.Code}
			kept := tc.sel.Finish(&fd, tc.base)
			if kept != tc.active || kept && (fd.Severity != tc.sev || fd.Name != tc.rule.Name) {
				t.Errorf("Finish = %v (%v %q), want %v (%v)", kept, fd.Severity, fd.Name, tc.active, tc.sev)
			}
			if got := tc.sel.Selected(tc.rule.Code); got != tc.picked {
				t.Errorf("Selected = %v, want %v", got, tc.picked)
			}
			if got := tc.sel.ActiveCode(tc.rule.Code, tc.base); got != tc.codeRun {
				t.Errorf("ActiveCode = %v, want %v", got, tc.codeRun)
			}
		})
	}
	internal := diag.Finding{Code: code.Internal}
	if !(Selection{Only: map[string]bool{"RL101": true}}).Finish(&internal, false) {
		t.Error("an internal error was dropped")
	}
}
