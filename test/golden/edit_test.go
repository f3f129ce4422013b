package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const orchestration = `# PROJ-010 orchestration
workflow:
  id: "license-migration"   # stable id
  status: "ACTIVE"  # ACTIVE | PAUSED
  owner: 'ops'
quality:
  qg-2: [0.9595, 0.9505]
  threshold: 0.92
resumption:
  recovery_state:
    last_checkpoint: "CP-001"
    notes: |
      Resume at phase 3.
      Headers next.
    empty:
  files_to_read:
    - "ORCHESTRATION_PLAN.md"   # v1.0 form
    - path: "WORKTRACKER.md"
      priority: 2
outputs:
  report.md: "sha256:00"
`

const checkpoint = `{
  "event_id": "cx-001",
  "context_state": {
    "estimated_tokens_used": 177200,
    "acknowledged_at": "2026-02-16T16:05:00Z",
    "phases_remaining": [3, 4]
  }
}
`

func TestSet(t *testing.T) {
	for _, tc := range []struct {
		file, data, path, value string
		old, new                string // the one line that must change
	}{
		{"ORCHESTRATION.yaml", orchestration, "resumption.recovery_state.last_checkpoint", "CP-009",
			`    last_checkpoint: "CP-001"`, `    last_checkpoint: "CP-009"`},
		{"ORCHESTRATION.yaml", orchestration, "workflow.status", "PAUSED",
			`  status: "ACTIVE"  # ACTIVE | PAUSED`, `  status: "PAUSED"  # ACTIVE | PAUSED`},
		{"ORCHESTRATION.yaml", orchestration, "workflow.owner", "o'brien",
			`  owner: 'ops'`, `  owner: 'o''brien'`},
		{"ORCHESTRATION.yaml", orchestration, "quality.threshold", "0.95",
			`  threshold: 0.92`, `  threshold: 0.95`},
		{"ORCHESTRATION.yaml", orchestration, "quality.qg-2", "[0.9595, 0.95]",
			`  qg-2: [0.9595, 0.9505]`, `  qg-2: [0.9595, 0.95]`},
		{"ORCHESTRATION.yaml", orchestration, "quality.qg-2.1", "0.95",
			`  qg-2: [0.9595, 0.9505]`, `  qg-2: [0.9595, 0.95]`},
		{"ORCHESTRATION.yaml", orchestration, "resumption.files_to_read.0", "/tmp/PLAN.md",
			`    - "ORCHESTRATION_PLAN.md"   # v1.0 form`, `    - "/tmp/PLAN.md"   # v1.0 form`},
		{"ORCHESTRATION.yaml", orchestration, "resumption.files_to_read.1.priority", "3",
			`      priority: 2`, `      priority: 3`},
		{"ORCHESTRATION.yaml", orchestration, "resumption.recovery_state.empty", "CP-002",
			`    empty:`, `    empty: CP-002`},
		{"ORCHESTRATION.yaml", orchestration, "outputs.report.md", "sha256:ff",
			`  report.md: "sha256:00"`, `  report.md: "sha256:ff"`},
		{"cx-001.json", checkpoint, "event_id", "cx-002",
			`  "event_id": "cx-001",`, `  "event_id": "cx-002",`},
		{"cx-001.json", checkpoint, "context_state.estimated_tokens_used", "150000",
			`    "estimated_tokens_used": 177200,`, `    "estimated_tokens_used": 150000,`},
		{"cx-001.json", checkpoint, "context_state.acknowledged_at", "null",
			`    "acknowledged_at": "2026-02-16T16:05:00Z",`, `    "acknowledged_at": null,`},
		{"cx-001.json", checkpoint, "context_state.acknowledged_at", "2026-02-16T15:40:00Z",
			`    "acknowledged_at": "2026-02-16T16:05:00Z",`, `    "acknowledged_at": "2026-02-16T15:40:00Z",`},
		{"cx-001.json", checkpoint, "context_state.phases_remaining", "[2, 3, 4]",
			`    "phases_remaining": [3, 4]`, `    "phases_remaining": [2, 3, 4]`},
		{"cx-001.json", checkpoint, "context_state.phases_remaining.0", "2",
			`    "phases_remaining": [3, 4]`, `    "phases_remaining": [2, 4]`},
		{"resume-context.md", "---\nversion: 2\nstatus: \"active\"\n---\n\n# Resume\nstatus: active\n", "status", "done",
			`status: "active"`, `status: "done"`},
	} {
		t.Run(tc.file+":"+tc.path, func(t *testing.T) {
			got, err := Set(tc.file, []byte(tc.data), tc.path, tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Replace(tc.data, tc.old+"\n", tc.new+"\n", 1); string(got) != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// An edit that cannot be made says so: a case never runs on an input its
// script did not describe.
func TestSetRefuses(t *testing.T) {
	for _, tc := range []struct{ file, data, path, want string }{
		{"ORCHESTRATION.yaml", orchestration, "resumption.recovery_state.last_checkpoint_id", `no key "last_checkpoint_id" under "resumption.recovery_state"`},
		{"ORCHESTRATION.yaml", orchestration, "resumptoin.recovery_state", `no key "resumptoin"`},
		{"ORCHESTRATION.yaml", orchestration, "resumption.files_to_read.2", `no item "2" in the 2-item list`},
		{"ORCHESTRATION.yaml", orchestration, "resumption.files_to_read.x", `no item "x"`},
		{"ORCHESTRATION.yaml", orchestration, "workflow.id.x", `"workflow.id" is not a mapping or a list`},
		{"ORCHESTRATION.yaml", orchestration, "resumption.recovery_state", "block mapping"},
		{"ORCHESTRATION.yaml", orchestration, "resumption.recovery_state.notes", "block scalar"},
		{"ORCHESTRATION.yaml", orchestration, "", "empty path"},
		{"ORCHESTRATION.yaml", "a: [1\n", "a", "ORCHESTRATION.yaml:"},
		{"resume-context.md", "# Resume\n", "status", "no front matter"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			got, err := Set(tc.file, []byte(tc.data), tc.path, "v")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Set(%s) = %q, %v; want an error containing %q", tc.path, got, err, tc.want)
			}
		})
	}
}

func TestDel(t *testing.T) {
	for _, tc := range []struct{ path, gone string }{
		{"workflow.owner", "  owner: 'ops'\n"},
		{"resumption.recovery_state.notes", "    notes: |\n      Resume at phase 3.\n      Headers next.\n"},
		{"resumption.files_to_read.1", "    - path: \"WORKTRACKER.md\"\n      priority: 2\n"},
		{"resumption.files_to_read.0", "    - \"ORCHESTRATION_PLAN.md\"   # v1.0 form\n"},
		{"outputs", "outputs:\n  report.md: \"sha256:00\"\n"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			got, err := Del("ORCHESTRATION.yaml", []byte(orchestration), tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Replace(orchestration, tc.gone, "", 1); string(got) != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
	if _, err := Del("cx-001.json", []byte(checkpoint), "event_id"); err == nil || !strings.Contains(err.Error(), "flow collection") {
		t.Errorf("Del on JSON: %v, want a refusal", err)
	}
	if _, err := Del("ORCHESTRATION.yaml", []byte(orchestration), "resumption.files_to_read.1.path"); err == nil || !strings.Contains(err.Error(), "dash") {
		t.Errorf("Del of a key on a dash's line: %v, want a refusal", err)
	}
	if _, err := Del("ORCHESTRATION.yaml", []byte(orchestration), "workflow.missing"); err == nil {
		t.Error("Del of a missing key succeeded")
	}
}

func TestReplace(t *testing.T) {
	got, err := Replace("WORKTRACKER.md", []byte("# Tracker\n- [ ] one\n"), `- [ ] one`, `- [x] one\n- [ ] two`)
	if err != nil || string(got) != "# Tracker\n- [x] one\n- [ ] two\n" {
		t.Errorf("Replace = %q, %v", got, err)
	}
	for _, old := range []string{"three", "e", ""} {
		if _, err := Replace("WORKTRACKER.md", []byte("# Tracker\n- [ ] one\n"), old, "x"); err == nil {
			t.Errorf("Replace(%q) succeeded; want an error (missing, repeated or empty)", old)
		}
	}
}

func TestFields(t *testing.T) {
	got, err := Fields(`set F a.b 'Phase 3 - it''s done'  # why`)
	if want := []string{"set", "F", "a.b", "Phase 3 - it's done"}; err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Fields = %q, %v; want %q", got, err, want)
	}
	if _, err := Fields(`set F a 'open`); err == nil {
		t.Error("an unterminated quote was accepted")
	}
}

// Inputs gives corpus tests the files a case's setup leaves.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "fixtures"), 0o755); err != nil {
		t.Fatal(err)
	}
	fixture := "-- ORCHESTRATION.yaml --\n" + orchestration + "-- PLAN.md --\n# Plan\n"
	script := "fixture base p\nset p/ORCHESTRATION.yaml workflow.status PAUSED\nmv p/PLAN.md p/ORCHESTRATION_PLAN.md\nmv p q/archived\nrl 1 lint\n-- want.txt --\nx\n"
	for name, data := range map[string]string{"fixtures/base.txtar": fixture, "case.txtar": script} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Inputs(filepath.Join(dir, "case.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		if f.Name == "q/archived/ORCHESTRATION.yaml" && !strings.Contains(string(f.Data), `status: "PAUSED"`) {
			t.Errorf("the set was not applied:\n%s", f.Data)
		}
	}
	if got, want := strings.Join(names, " "), "want.txt q/archived/ORCHESTRATION.yaml q/archived/ORCHESTRATION_PLAN.md"; got != want {
		t.Errorf("Inputs = %s, want %s", got, want)
	}
}
