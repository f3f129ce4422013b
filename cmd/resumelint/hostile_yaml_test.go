package main

import (
	"strings"
	"testing"
)

// Hostile YAML that readers take differently, or that shares one node
// between places the schema treats differently: each is a finding and a
// non-zero exit, never a pass.

// decisionWithBuilder anchors the first decision, which holds a key no
// decision has; agent_summaries then names it, where every key is an
// agent and every value must be a string.
func decisionWithBuilder(t *testing.T, doc string) string {
	doc = strings.Replace(doc, "  decision_log:\n    - id: \"RD-001\"\n", "  decision_log:\n    - &rd1\n      id: \"RD-001\"\n      builder: 42\n", 1)
	return replaceSection(t, doc, "  agent_summaries:\n", "  compaction_events:", "  agent_summaries: *rd1\n\n")
}

func TestHostileSharedNodeHidesNoError(t *testing.T) {
	t.Run("a key unknown in a decision is an agent's summary", func(t *testing.T) {
		dir := t.TempDir()
		p := withOrchestration(t, dir, decisionWithBuilder(t, validOrchestration))
		code, fs := lintJSON(t, dir, p)
		if code != 1 || len(findingsWith(fs, "RL102", "agent_summaries.builder: expected a string")) != 1 || len(findingsWith(fs, "RL010", "builder")) != 1 {
			t.Fatalf("exit %d, want 1, the wrong summary (RL102) and the unknown key in the decision (RL010); got %v", code, fs)
		}
	})
	t.Run("keys required in one place and unknown in the other are not missing", func(t *testing.T) {
		doc := strings.Replace(validOrchestration, "    recurring_patterns:\n      - pattern:", "    recurring_patterns:\n      - &shared\n        decision: \"Keep the old URL scheme\"\n        rationale: \"External links\"\n        pattern:", 1)
		doc = replaceSection(t, doc, "  decision_log:\n", "  agent_summaries:", "  decision_log:\n    - *shared\n\n")
		dir := t.TempDir()
		p := withOrchestration(t, dir, doc)
		code, fs := lintJSON(t, dir, p)
		if len(findingsWith(fs, "RL102", "missing")) != 0 || len(findingsWith(fs, "RL010", "")) != 2 {
			t.Fatalf("exit %d, want no missing keys and two RL010 findings; got %v", code, fs)
		}
	})
	t.Run("configuration", func(t *testing.T) {
		dir := t.TempDir()
		withOrchestration(t, dir, validOrchestration)
		write(t, dir, ".resumelint.yaml", "kinds:\n  orchestration: &kind\n    globs: \"**/ORCHESTRATION.yaml\"\n  agent-run: *kind\n")
		r := runBounded(t, dir, "lint")
		if r.code != 2 || !strings.Contains(r.stderr, "kinds.orchestration.globs: expected a list") {
			t.Fatalf("exit %d, want 2 and the wrong globs named; stderr: %s", r.code, r.stderr)
		}
	})
}
