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

func TestHostileYAMLReadersDisagree(t *testing.T) {
	cases := map[string]struct {
		edit          func(doc string) string
		code, message string
	}{
		"an alias as a key repeats recovery_state": {func(doc string) string {
			doc = strings.Replace(doc, "resumption:\n  recovery_state:\n", "resumption:\n  &rs recovery_state:\n", 1)
			return strings.Replace(doc, "  files_to_read:\n", "  *rs :\n    workflow_status: \"RESUMING\"\n  files_to_read:\n", 1)
		}, "RL002", `key "recovery_state" is repeated`},
		"a repeated merge key": {func(doc string) string {
			doc = strings.Replace(doc, "workflow:\n", "defaults: &a {next_step: \"a\"}\noverrides: &b {next_step: \"b\"}\nworkflow:\n", 1)
			return strings.Replace(doc, "  recovery_state:\n", "  recovery_state:\n    <<: *a\n    <<: *b\n", 1)
		}, "RL002", "the merge key << is repeated"},
		"!!merge on a key of another name": {func(doc string) string {
			doc = strings.Replace(doc, "workflow:\n", "defaults: &a {workflow_status: \"DONE\"}\nworkflow:\n", 1)
			return strings.Replace(doc, "  recovery_state:\n", "  recovery_state:\n    !!merge defaults: *a\n", 1)
		}, "RL001", "the tag !!merge on a key other than <<"},
		"a custom tag": {func(doc string) string {
			return strings.Replace(doc, "    next_step: \"Run", "    next_step: !custom \"Run", 1)
		}, "RL001", "the tag !custom is not a YAML type"},
		"a language tag that runs a command": {func(doc string) string {
			return strings.Replace(doc, "    next_step: \"Run ps-writer-001 on the remaining 14 pages\"", "    next_step: !!python/object/apply:os.system [\"touch pwned\"]", 1)
		}, "RL001", "the tag !!python/object/apply:os.system is not"},
		"a key that is a list": {func(doc string) string {
			return strings.Replace(doc, "  agent_summaries:\n", "  agent_summaries:\n    ? [builder]\n    : \"x\"\n", 1)
		}, "RL001", "a key that is a list"},
		"a key that is a mapping in a closed section": {func(doc string) string {
			return strings.Replace(doc, "  recovery_state:\n", "  recovery_state:\n    {}: x\n", 1)
		}, "RL001", "a key that is a mapping"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			doc := tc.edit(validOrchestration)
			if doc == validOrchestration {
				t.Fatal("the edit changed nothing")
			}
			dir := t.TempDir()
			p := withOrchestration(t, dir, doc)
			code, fs := lintJSON(t, dir, p)
			if code != 1 || len(findingsWith(fs, tc.code, tc.message)) != 1 {
				t.Fatalf("exit %d, want 1 and one %s finding naming %q; got %v", code, tc.code, tc.message, fs)
			}
		})
	}
	t.Run("configuration", func(t *testing.T) {
		for _, cfg := range []string{"rules: !!python/object/apply:os.system [\"touch pwned\"]\n", "rules:\n  ? [RL107]\n  : off\n", "rules: &r {RL107: \"off\"}\n*r : {RL108: \"off\"}\n"} {
			dir := t.TempDir()
			withOrchestration(t, dir, validOrchestration)
			write(t, dir, ".resumelint.yaml", cfg)
			if r := runBounded(t, dir, "lint"); r.code != 2 || !strings.Contains(r.stderr, ".resumelint.yaml:") {
				t.Errorf("%q: exit %d, want 2 and the problem at its position; stderr: %s", cfg, r.code, r.stderr)
			}
		}
	})
}
