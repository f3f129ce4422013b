package load

import (
	"path/filepath"
	"strings"
	"testing"
)

func yamlDoc(t *testing.T, src string) *Document {
	t.Helper()
	doc, probs := Parse(&File{Path: "ORCHESTRATION.yaml", Data: []byte(src)}, FormatYAML, DefaultLimits)
	if len(probs) > 0 {
		t.Fatalf("parse: %v", probs)
	}
	return doc
}

func TestNotWorkflow(t *testing.T) {
	cases := []struct{ src, want string }{
		{"resumption:\n  recovery_state: {}\n", ""},
		{"workflow:\n  id: x\n", ""},
		{"checkpoints: {}\nother: 1\n", ""},
		{"", ""},           // empty: RL100's
		{"- a\n- b\n", ""}, // not a mapping: linted
		{"{}\n", ""},       // nothing to tell by
		{"version: 1\nagents: []\nphases:\n  - stages: []\n", "an agent routing table"},
		{"orchestration: {name: x}\nstate: {current: 2}\nphases: []\ngates: []\nagents: []\n", "a workflow's state in a layout of its own"},
		{"schema_version: \"1\"\nworkers: 4\nwaves: []\n", "a wave plan"},
		{"title: notes\n", "not a workflow's orchestration file"},
	}
	for _, c := range cases {
		got := NotWorkflow(yamlDoc(t, c.src).Root)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%q: got %q, want %q", c.src, got, c.want)
		}
	}
}

func TestBundleOtherFormat(t *testing.T) {
	const flat = `{"out\\a.txt": "715c42c3c892d33c6c4ed3e7ec134da42f5bf1ea86650ff18c0688b2f987d770"}`
	cases := []struct {
		name  string
		files map[string]string
		want  string // "" for a bundle, else a part of the reason
	}{
		{"seed", map[string]string{"STATUS.json": `{"status": "success", "cmp01": "pass"}`}, ""},
		{"hashes", map[string]string{"OUTPUT_HASHES.json": `{"hashes": {}}`}, ""},
		{"validator only", map[string]string{"OUTPUT_HASHES.json": `{"validator_semver": "1.0.0"}`}, ""},
		{"spec beside status", map[string]string{"TASK_SPEC.json": `{}`, "STATUS.json": `{"status": "succeeded"}`}, ""},
		{"seed spec alone", map[string]string{"TASK_SPEC.json": `{"expected_outputs": []}`}, ""},
		{"durable paths alone", map[string]string{"TASK_SPEC.json": `{"outputs": {"durable_paths": []}}`}, ""},
		{"unparsable", map[string]string{"STATUS.json": `{"status": `}, ""},
		{"pipeline step", map[string]string{
			"STATUS.json": `{"status": "succeeded", "exit_code": 0}`, "OUTPUT_HASHES.json": flat, "JOBSPEC.json": `{}`,
		}, `OUTPUT_HASHES.json is a flat {path: hash} map, STATUS.json has no cmp01 (status "succeeded"), JOBSPEC.json`},
		{"job cache", map[string]string{"OUTPUT_HASHES.json": flat, "JOBSPEC.json": `{}`}, "flat {path: hash} map, JOBSPEC.json"},
		{"unparsable beside a job", map[string]string{"OUTPUT_HASHES.json": `{`, "JOBSPEC.json": `{}`}, "does not parse"},
		{"other spec", map[string]string{"TASK_SPEC.json": `{"task_id": "t", "operation": "copy"}`, "RESULTS.json": `{}`}, "TASK_SPEC.json has no expected_outputs"},
		{"empty hashes file", map[string]string{"OUTPUT_HASHES.json": `{}`}, "OUTPUT_HASHES.json is empty"},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "b")
		for name, data := range c.files {
			writeFile(t, filepath.Join(dir, name), data)
		}
		b, _ := LoadBundle(&Folder{Kind: KindBundle, Path: "b", OSPath: dir, Root: dir}, DefaultLimits)
		got := b.OtherFormat()
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestIsFlatHashMap(t *testing.T) {
	cases := map[string]bool{
		`{"a": "715c42c3c892d33c6c4ed3e7ec134da42f5bf1ea86650ff18c0688b2f987d770"}`:        true,
		`{"a": "SHA256:715C42C3C892D33C6C4ED3E7EC134DA42F5BF1EA86650FF18C0688B2F987D770"}`: true,
		`{"hashes": "715c42c3c892d33c6c4ed3e7ec134da42f5bf1ea86650ff18c0688b2f987d770"}`:   false,
		`{"a": "715c"}`: false,
		`{"a": 1}`:      false,
		`{}`:            false,
		`[]`:            false,
	}
	for src, want := range cases {
		doc, _ := Parse(&File{Path: "x.json", Data: []byte(src)}, FormatJSON, DefaultLimits)
		if got := IsFlatHashMap(doc.Root); got != want {
			t.Errorf("%s: %v, want %v", src, got, want)
		}
	}
}
