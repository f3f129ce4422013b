package rules

import (
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Inline suppressions (SPEC §7). The comments are read and matched by
// internal/config after every rule ran, so this rule has no Run of its own:
// whether a suppression hid anything is known only at the end of a run.

var UnusedSuppression = &Rule{Code: code.UnusedSuppression, Name: "unused-suppression", Severity: diag.SevWarning, Fix: diag.FixSafe, Family: "suppression",
	Kinds:   []load.Kind{load.KindOrchestration, load.KindResumeContext},
	Summary: "a resumelint:ignore comment that suppresses nothing, names no rule, or gives no reason"}

func init() { Register(UnusedSuppression) }
