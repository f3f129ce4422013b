package hook

import (
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// A folder named like a GitHub workflow command cannot make a line of a
// hook's answer one: the path that starts a finding's line shows its
// first colon as \x3a, as lint's text report does, and a credential in a
// path is masked.
func TestFindingLineStartsNoWorkflowCommand(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"::add-mask::INJ7/.jerry/checkpoints/cx-001-checkpoint.json", `\x3a:add-mask::INJ7/.jerry/checkpoints/cx-001-checkpoint.json:3:17: error RL201 checkpoint-schema:`},
		{"  ::warning::x/ORCHESTRATION.yaml", `  \x3a:warning::x/ORCHESTRATION.yaml:3:17: error RL201 checkpoint-schema:`},
		{"::error\x1b[2J::x/ORCHESTRATION.yaml", `\x3a:error\x1b[2J::x/ORCHESTRATION.yaml:3:17: error RL201 checkpoint-schema:`},
		{"runs/ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2/task-graph.json", `runs/****:3:17: error RL201 checkpoint-schema:`},
	} {
		fd := &diag.Finding{Code: "RL201", Name: "checkpoint-schema", Severity: diag.SevError, Path: tc.path,
			Start: diag.Pos{Line: 3, Col: 17}, Message: "event_id: not a string",
			Fix: &diag.Fix{Applicability: diag.FixSafe, Description: "quote it"}}
		got := FindingLine(fd)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("FindingLine(%q) = %q, want it to start %q", tc.path, got, tc.want)
		}
		for _, line := range strings.Split(got, "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
				t.Errorf("FindingLine(%q): line %q starts a workflow command", tc.path, line)
			}
		}
	}
}
