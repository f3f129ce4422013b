package cli

import (
	"encoding/json"

	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookRepo writes a small repository with a broken ORCHESTRATION.yaml, a
// clean precompact state, a file of no known kind and a configuration
// that parses as YAML but that the schema rejects.
func hookRepo(t testing.TB, badConfig bool) string {
	dir := t.TempDir()
	files := map[string]string{
		".git/HEAD":                              "ref: refs/heads/main\n",
		"ORCHESTRATION.yaml":                     "workflow:\n  id: \"demo-20260220-001\"\n  status: \"ACTIVE\"\nresumption:\n  recovery_state:\n    workflow_status: \"RUNNING\"\n",
		"00-system/.cache/precompact_state.json": `{"active_project_id": "07-example-project", "confidence": "high", "detection_method": "transcript", "timestamp": "2026-02-20T16:41:00Z"}`,
		"src/main.go":                            "package main\n",
	}
	if badConfig {
		files[".resumelint.yaml"] = "fail_on: sometimes\n"
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func hookEvent(cwd, event, tool, file string) string {
	ev := map[string]any{"session_id": "s", "transcript_path": "/t.jsonl", "cwd": cwd, "hook_event_name": event}
	if tool != "" {
		ev["tool_name"] = tool
		ev["tool_input"] = map[string]any{"file_path": file}
	}
	switch event {
	case "SessionStart":
		ev["source"] = "compact"
	case "PreCompact":
		ev["trigger"] = "auto"
	}
	data, _ := json.Marshal(ev)
	return string(data)
}

// TestHookContract checks Claude Code's protocol for every answer: exit
// code 2 has findings on stderr and nothing on stdout (Claude Code ignores
// stdout then); exit code 0 has nothing on stderr, and stdout is empty or
// one JSON object whose hookSpecificOutput names the event; exit code 1 is
// a problem for the user, with stderr and no stdout. No other code occurs.
func TestHookContract(t *testing.T) {
	dir := hookRepo(t, false)
	outside := t.TempDir()
	cases := []struct {
		name, event string
		want        int
	}{
		{"broken write", hookEvent(dir, "PostToolUse", "Write", filepath.Join(dir, "ORCHESTRATION.yaml")), 2},
		{"clean edit", hookEvent(dir, "PostToolUse", "Edit", filepath.Join(dir, "00-system/.cache/precompact_state.json")), 0},
		{"unknown kind", hookEvent(dir, "PostToolUse", "MultiEdit", filepath.Join(dir, "src/main.go")), 0},
		{"outside", hookEvent(dir, "PostToolUse", "Write", filepath.Join(outside, "ORCHESTRATION.yaml")), 0},
		{"other tool", hookEvent(dir, "PostToolUse", "Read", filepath.Join(dir, "ORCHESTRATION.yaml")), 0},
		{"precompact", hookEvent(dir, "PreCompact", "", ""), 0},
		{"session start", hookEvent(dir, "SessionStart", "", ""), 0},
		{"other event", hookEvent(dir, "Notification", "", ""), 0},
		{"not json", "{", 1},
		{"empty", "", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := run(t, dir, tc.event, "hook")
			if code != tc.want {
				t.Fatalf("exit %d, want %d (stdout %q, stderr %q)", code, tc.want, stdout, stderr)
			}
			switch code {
			case 2:
				if stdout != "" || stderr == "" {
					t.Errorf("exit 2: stdout %q (want none), stderr %q (want findings)", stdout, stderr)
				}
				for _, line := range strings.Split(strings.TrimSpace(stderr), "\n")[1:] {
					if !strings.HasPrefix(line, "  ") && !strings.Contains(line, ": error ") {
						t.Errorf("exit 2: line %q is not path:line:col: error CODE name: message", line)
					}
				}
			case 0:
				if stderr != "" {
					t.Errorf("exit 0: stderr %q, want none", stderr)
				}
				if stdout == "" {
					return
				}
				var out map[string]json.RawMessage
				if err := json.Unmarshal([]byte(stdout), &out); err != nil || strings.Count(stdout, "\n") != 1 {
					t.Fatalf("exit 0: stdout is not one JSON object: %q", stdout)
				}
				for k := range out {
					if k != "systemMessage" && k != "hookSpecificOutput" {
						t.Errorf("exit 0: unexpected key %q", k)
					}
				}
				if raw, ok := out["hookSpecificOutput"]; ok {
					var hso struct{ HookEventName, AdditionalContext string }
					if err := json.Unmarshal(raw, &hso); err != nil || hso.HookEventName != "SessionStart" || hso.AdditionalContext == "" {
						t.Errorf("hookSpecificOutput %s: want hookEventName SessionStart and a context", raw)
					}
				}
			case 1:
				if stdout != "" || stderr == "" {
					t.Errorf("exit 1: stdout %q, stderr %q", stdout, stderr)
				}
			}
		})
	}
}

// A file of no known kind is answered without validating the
// configuration (which needs the CUE schemas): a configuration the schema
// rejects is only noticed when a state file is written.
func TestHookUnknownKindSkipsSchemas(t *testing.T) {
	dir := hookRepo(t, true)
	code, stdout, stderr := run(t, dir, hookEvent(dir, "PostToolUse", "Write", filepath.Join(dir, "src/main.go")), "hook")
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("unknown kind: exit %d, stdout %q, stderr %q; want 0 and nothing", code, stdout, stderr)
	}
	code, _, stderr = run(t, dir, hookEvent(dir, "PostToolUse", "Write", filepath.Join(dir, "ORCHESTRATION.yaml")), "hook")
	if code != 1 || !strings.Contains(stderr, ".resumelint.yaml") {
		t.Errorf("state file with a bad configuration: exit %d, stderr %q; want 1 and the configuration error", code, stderr)
	}
}

// Control characters from a file never reach the agent's terminal raw.
func TestHookEscapesControlCharacters(t *testing.T) {
	dir := hookRepo(t, false)
	p := filepath.Join(dir, "ORCHESTRATION.yaml")
	if err := os.WriteFile(p, []byte("workflow:\n  id: \"demo\"\n  status: \"ACTIVE\"\nresumption:\n  recovery_state:\n    workflow_status: \"RUN\\e[2J\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, dir, hookEvent(dir, "PostToolUse", "Write", p), "hook")
	if code != 2 || strings.ContainsRune(stderr, 0x1b) {
		t.Errorf("exit %d, stderr %q: want 2 and no raw escape character", code, stderr)
	}
}

// BenchmarkHookUnknownKind is the answer to a write of a file resumelint
// does not check (most writes of a session): SPEC §9 P4 sets 10 ms for
// the whole process; this is the part after process start.
func BenchmarkHookUnknownKind(b *testing.B) {
	dir := hookRepo(b, false)
	ev := hookEvent(dir, "PostToolUse", "Edit", filepath.Join(dir, "src/main.go"))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if code, _, _ := runB(dir, ev); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkHookStateFile is a write of a broken ORCHESTRATION.yaml.
func BenchmarkHookStateFile(b *testing.B) {
	dir := hookRepo(b, false)
	ev := hookEvent(dir, "PostToolUse", "Edit", filepath.Join(dir, "ORCHESTRATION.yaml"))
	for i := 0; i < b.N; i++ {
		if code, _, _ := runB(dir, ev); code != 2 {
			b.Fatalf("exit %d", code)
		}
	}
}

func runB(dir, stdin string) (int, string, string) {
	var out, errb strings.Builder
	c := &Command{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Cwd: dir, Getenv: func(string) string { return "" }}
	return c.Main([]string{"hook"}), out.String(), errb.String()
}
