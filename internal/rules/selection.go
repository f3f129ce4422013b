package rules

import (
	"maps"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
)

// Selection decides which rules run and at which severity: the engine
// asks it which rules to run, the filter stage which findings to keep and
// at which severity, so the two never disagree. Configuration parsing
// (internal/config) and the command line's flags fill it.
type Selection struct {
	// Severity overrides by rule code; SevOff disables a rule.
	Severity map[string]diag.Severity
	// Only, when non-empty, limits the run to these codes (--enable).
	Only map[string]bool
}

// Active reports whether rule r runs, given whether the run has a base
// revision: --enable limits the run to what it names; an opt-in rule runs
// only when named there or given a severity; a rule that needs a base runs
// only with one.
func (s Selection) Active(r *Rule, hasBase bool) bool {
	if r.NeedsBase && !hasBase {
		return false
	}
	if len(s.Only) > 0 && !s.Only[r.Code] {
		return false
	}
	sev, set := s.Severity[r.Code]
	if set && sev == diag.SevOff {
		return false
	}
	return !r.OptIn || set || s.Only[r.Code]
}

// ActiveCode is Active for a code that may name no rule of the catalog
// (a suppression's): such a code runs unless --enable leaves it out.
func (s Selection) ActiveCode(c string, hasBase bool) bool {
	r := Lookup(c)
	if r == nil {
		return len(s.Only) == 0 || s.Only[c]
	}
	return s.Active(r, hasBase)
}

// Selected reports whether a code is neither disabled nor left out by
// --enable: whether a run could have reported it (baselines).
func (s Selection) Selected(c string) bool {
	if v, ok := s.Severity[c]; ok && v == diag.SevOff {
		return false
	}
	return s.Only == nil || s.Only[c]
}

// Finish gives a finding its rule's name and severity (the rule's default
// unless the finding or the selection sets one); it returns false when the
// rule does not run.
func (s Selection) Finish(fd *diag.Finding, hasBase bool) bool {
	if fd.Code == code.Internal {
		return true
	}
	r := Lookup(fd.Code)
	if r == nil {
		return true
	}
	if !s.Active(r, hasBase) {
		return false
	}
	fd.Name = r.Name
	if fd.Severity == diag.SevOff {
		fd.Severity = r.Severity
	}
	if sev, ok := s.Severity[r.Code]; ok {
		if sev == diag.SevOff {
			return false
		}
		fd.Severity = sev
	}
	return true
}

// Clone returns a selection with maps of its own.
func (s Selection) Clone() Selection {
	return Selection{Severity: maps.Clone(s.Severity), Only: maps.Clone(s.Only)}
}
