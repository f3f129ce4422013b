package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A credential no parsed value holds (a comment, a file that is not
// parsed) is masked in every output, and a fix that moves one from a value
// into a comment neither prints it nor stops RL005 from reporting it.
func TestSecretOutsideValues(t *testing.T) {
	const tok = "Tq9vR2mXw8LpZ4sK7yH1nB6cF3dJ0gA5"
	const pw = "Gh7kP2vQ9xWm"
	leaks := func(s string) bool { return strings.Contains(s, tok[4:12]) || strings.Contains(s, pw) }

	t.Run("not UTF-8", func(t *testing.T) {
		dir := t.TempDir()
		data := "workflow:\n  id: x\nresumption:\n  password: " + tok + " \xff\n  next: \"https://ci:" + pw + "@h.example.net\"\n"
		if err := os.WriteFile(filepath.Join(dir, "ORCHESTRATION.yaml"), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"text", "json", "sarif", "github"} {
			code, out, errs := run(t, dir, "", "lint", "--format", format, "--now", "2026-12-07T00:00:00Z", "ORCHESTRATION.yaml")
			if code != 1 || !strings.Contains(out, "RL004") || leaks(out+errs) {
				t.Errorf("%s: exit %d, output shows the credential or no RL004:\n%s%s", format, code, out, errs)
			}
		}
	})

	t.Run("moved into a comment by fix", func(t *testing.T) {
		dir := t.TempDir()
		write := func(name, text string) {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("skills/orchestration/templates/ORCHESTRATION.template.yaml", "resumption:\n  recovery_state:\n    workflow_status: \"ACTIVE\"\n")
		write("ORCHESTRATION.yaml", `workflow:
  id: "deploy-20260601-001"
  status: "ACTIVE"
pipelines:
  main:
    phases:
      - {id: 1, name: "Build", status: "IN_PROGRESS"}
quality_gates:
  qg-1: {status: "PENDING"}
resumption:
  last_checkpoint: null
  current_state: "Rerun the deploy: export DOCS_API_TOKEN=`+tok+` then open https://docs:`+pw+`@preview.example.net"
  next_step: "Deploy the preview"
  current_activity: "phase-1-agent-execution"
  updated_at: "2026-06-10T09:00:00Z"
`)
		_, before, _ := run(t, dir, "", "lint", "--format", "json", "ORCHESTRATION.yaml")
		if n := strings.Count(before, `"RL005"`); n != 2 {
			t.Fatalf("before: %d RL005 findings, want 2:\n%s", n, before)
		}
		_, out, errs := run(t, dir, "", "fix", "--diff", "ORCHESTRATION.yaml")
		if !strings.Contains(out, "+  # current_state (v1.0): ") || leaks(out+errs) {
			t.Errorf("fix --diff shows the credential, or no migration:\n%s%s", out, errs)
		}
		run(t, dir, "", "fix", "ORCHESTRATION.yaml")
		_, after, _ := run(t, dir, "", "lint", "--format", "json", "ORCHESTRATION.yaml")
		if n := strings.Count(after, `"RL005"`); n != 2 || strings.Contains(after, `"RL101"`) {
			t.Errorf("after the fix: %d RL005 findings, want 2 (the credential is in a comment now), and no RL101:\n%s", n, after)
		}
	})
}
