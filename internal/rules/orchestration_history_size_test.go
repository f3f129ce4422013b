package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// A decision naming a phase no pipeline defines names the defined phases
// within one message's length, however many there are: a file of n
// phases and n such decisions writes n short findings, not n × n numbers.
func TestDecisionUnknownPhaseMessageBounded(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("workflow:\n  id: demo\npipelines:\n  main:\n    phases:\n")
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(&sb, "      - {id: %d, name: P%d, status: COMPLETE}\n", i, i)
	}
	sb.WriteString("resumption:\n  recovery_state:\n    updated_at: \"2026-02-20T21:00:00Z\"\n  decision_log:\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&sb, "    - {id: RD-%03d, affects_phases: [9999], applied: true}\n", i)
	}
	d := parsed(t, "ORCHESTRATION.yaml", sb.String())
	n := 0
	for _, fd := range runRule(Lookup("RL110"), d, t.TempDir()) {
		if !strings.Contains(fd.Message, "affects phase 9999") {
			continue
		}
		n++
		if len([]rune(fd.Message)) > diag.MaxMessage || !strings.Contains(fd.Message, "define phases 1, 2, 3") || !strings.HasSuffix(fd.Message, "more") {
			t.Fatalf("message of %d characters: %.200q", len(fd.Message), fd.Message)
		}
	}
	if n != 20 {
		t.Errorf("%d findings for the unknown phase, want 20", n)
	}
}
