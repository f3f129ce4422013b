package rules

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/node"
)

// Style checks of the resumption section (SPEC §0: style is opt-in). The
// seeds suggest a vocabulary and a sentence form; no reader depends on
// them, so these rules run only when a repository asks for them.

var (
	ActivityVocabulary = &Rule{Code: code.ActivityVocabulary, Name: "activity-vocabulary", Severity: diag.SevWarning, Kinds: orch, Family: "orchestration", OptIn: true,
		Summary: "current_activity outside the seed's vocabulary (opt-in style check)", Run: runActivityVocabulary}
	AgentSummaryForm = &Rule{Code: code.AgentSummaryForm, Name: "agent-summary-form", Severity: diag.SevWarning, Kinds: orch, Family: "orchestration", OptIn: true,
		Summary: "an agent summary not of the form \"STATUS. text.\" (opt-in style check)", Run: runAgentSummaryForm}
)

func init() { Register(ActivityVocabulary, AgentSummaryForm) }

func runActivityVocabulary(p *Pass) {
	rs := recoveryOf(p)
	if rs == nil {
		return
	}
	cav := rs.CurrentActivity.Node
	ca, ok := node.Str(cav)
	if !ok || unfilled(p.Doc.File, ca) {
		return
	}
	ca = strings.TrimSpace(ca)
	switch {
	case strings.EqualFold(ca, "idle"), strings.EqualFold(ca, "compaction-recovery"),
		activityPhase.MatchString(ca), activityGate.MatchString(ca):
		return
	}
	p.Report(p.Doc.File, cav, diag.FitClip(func(w int) string {
		vocab := "phase-N-agent-execution, qg-N-iteration-M, compaction-recovery, idle"
		if w < 60 {
			vocab = "phase-N-agent-execution, idle, …"
		}
		return fmt.Sprintf("current_activity %s is outside the vocabulary (%s): put prose in next_step", diag.QuoteTo(ca, max(w, 40)), vocab)
	}))
}

// summaryForm is seed 000's `{agent_id}: "{status}. {key_finding_or_output}."`.
var summaryForm = lazyre.New(`^[A-Z][A-Z0-9_-]*(?: [A-Z0-9_-]+)*\.\s+\S.*\.$`)

func runAgentSummaryForm(p *Pass) {
	_, av := agentSummaries(p)
	if !node.IsMap(av) {
		return
	}
	f := p.Doc.File
	node.Pairs(av, func(k, v *yaml.Node) {
		s, ok := node.Str(v)
		if !ok || unfilled(f, s) {
			return
		}
		if !summaryForm.MatchString(strings.TrimSpace(s)) {
			p.Report(f, v, fmt.Sprintf("summary of %s is not of the form \"STATUS. text.\", e.g. \"DONE. 403 files modified.\"", k.Value))
		}
	})
}
