package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadApplies(t *testing.T) {
	p := writeConfig(t, `
kinds:
  orchestration: {globs: ["state/ORCH.yaml"], exclude: ["archive/**"]}
exclude: ["vendor-docs/**"]
rules: {RL107: warning, no-duplication: off}
staleness: {max_age: 3d, run_max_age: 36h}
bundle: {base: repo, supported_validator_semvers: ["1.0.0"], forbidden: ["logs/**"]}
secrets: {allow: ["^sk-test-"]}
ignore:
  - {path: "fixtures/**/*.json", rules: [RL005, secret-leak]}
  - {path: "old/**"}
fail_on: warning
`)
	cfg, err := loadAt(p)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Severity["RL107"] != diag.SevWarning || cfg.Severity["RL317"] != diag.SevOff {
		t.Errorf("severities = %v", cfg.Severity)
	}
	if cfg.MaxAge != 72*time.Hour || cfg.RunMaxAge != 36*time.Hour {
		t.Errorf("max ages = %v, %v", cfg.MaxAge, cfg.RunMaxAge)
	}
	if cfg.Bundle.Base != "repo" || len(cfg.Bundle.Semvers) != 1 || cfg.Bundle.Forbidden[0] != "logs/**" {
		t.Errorf("bundle = %+v", cfg.Bundle)
	}
	if len(cfg.SecretAllow) != 1 || cfg.FailOn != diag.SevWarning {
		t.Errorf("secrets %v, fail_on %v", cfg.SecretAllow, cfg.FailOn)
	}
	if cfg.Ignore[0].Codes["RL005"] != true || len(cfg.Ignore[0].Codes) != 1 || cfg.Ignore[1].Codes != nil {
		t.Errorf("ignore = %+v", cfg.Ignore)
	}
	cl := cfg.Classifier("/repo")
	if cl.FileKind("/repo/state/ORCH.yaml") != load.KindOrchestration || cl.FileKind("/repo/ORCHESTRATION.yaml") != load.KindUnknown {
		t.Errorf("globs not anchored at the root: %v", cl.Globs[load.KindOrchestration])
	}
}

func TestLoadErrorsHavePositions(t *testing.T) {
	cases := []struct{ text, want string }{
		{"rulez: {}\n", `.resumelint.yaml:1:1: unknown key "rulez" at the top level`},
		{"rules:\n  RL107: loud\n", `.resumelint.yaml:2:10: rules.RL107: "loud" is not one of error, warning, off`},
		{"rules:\n  RL999: off\n", `.resumelint.yaml:2:3: rules: no rule is called "RL999"`},
		{"staleness:\n  max_age: 3 days\n", `.resumelint.yaml:2:12: staleness.max_age: "3 days" does not match the pattern`},
		{"secrets:\n  allow: [\"(sk-\"]\n", `.resumelint.yaml:2:11: secrets.allow: "(sk-" is not a valid regular expression: missing closing )`},
		{"ignore:\n  - rules: [RL005]\n", `.resumelint.yaml:2:5: ignore[0]: missing required key path`},
		{"kinds:\n  agent-run: {globs: [\"x\"]}\n", `unknown key "globs" in kinds.agent-run`},
		{"fail_on: info\n", `.resumelint.yaml:1:10: fail_on: "info" is not one of error, warning`},
		{"rules: [\n", `.resumelint.yaml:`},
		{"a: 1\na: 2\n", `.resumelint.yaml:2:1: key "a" is repeated`},
		{"exclude: [\"/legacy/**\"]\n", `.resumelint.yaml:1:11: exclude: "/legacy/**" is an absolute path, which matches nothing`},
		{"ignore:\n  - path: \"../other/**\"\n", `.resumelint.yaml:2:11: ignore[0].path: "../other/**" leads out of the folder`},
	}
	for _, c := range cases {
		_, err := loadAt(writeConfig(t, c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

// TestUnknownRuleReportedOnce: a rules key of no rule's form (RL9999, a
// name with an underscore) is one problem, said once, with the hint.
func TestUnknownRuleReportedOnce(t *testing.T) {
	for _, key := range []string{"RL9999", "stale_resumption"} {
		_, err := loadAt(writeConfig(t, "rules:\n  "+key+": off\n"))
		if err == nil {
			t.Fatalf("%s: no error", key)
		}
		msg := err.Error()
		if strings.Count(msg, key) != 1 || !strings.Contains(msg, "no rule is called") {
			t.Errorf("%s: want one problem naming it, got:\n%s", key, msg)
		}
	}
	// A key of no rule's form that names a rule in another case keeps the
	// schema's one problem.
	_, err := loadAt(writeConfig(t, "rules:\n  Stale-Resumption: off\n"))
	if err == nil || strings.Count(err.Error(), "Stale-Resumption") != 1 {
		t.Errorf("Stale-Resumption: want one problem, got %v", err)
	}
}

// TestLoadErrorIsOneLinePerProblem: regexp echoes an invalid pattern as
// written; a line break in it is shown escaped, so the error has one line
// per problem and the configuration starts none of its own.
func TestLoadErrorIsOneLinePerProblem(t *testing.T) {
	_, err := loadAt(writeConfig(t, "secrets:\n  allow: [\"[\\n::error::RE\", \"\\e]0;pwned\\a(x\"]\n"))
	if err == nil {
		t.Fatal("no error for two invalid patterns")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines for two problems:\n%s", len(lines), err)
	}
	for i, want := range []string{"missing closing ]: `[\\n::error::RE`", "missing closing ): `\\x1b]0;pwned\\x07(x`"} {
		if !strings.HasSuffix(lines[i], want) {
			t.Errorf("line %d: %q, want it to end %q", i+1, lines[i], want)
		}
	}
}

func TestEmptyConfig(t *testing.T) {
	cfg, err := loadAt(writeConfig(t, "# nothing configured yet\n"))
	if err != nil || cfg == nil {
		t.Fatalf("empty config: %v", err)
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"72h": 72 * time.Hour, "14d": 14 * 24 * time.Hour, "1d12h": 36 * time.Hour, "90m": 90 * time.Minute} {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0h", "3 days", "999999999999d"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) accepted", in)
		}
	}
}

func TestFilterExcludes(t *testing.T) {
	cfg := &Config{Exclude: []string{"archive"}, Kinds: map[load.Kind]KindConfig{load.KindCheckpoint: {Exclude: []string{"**/cx-9*.json"}}}}
	d := &load.Discovery{
		Files: []*load.File{
			{Path: "archive/ORCHESTRATION.yaml", Kind: load.KindOrchestration},
			{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration},
			{Path: ".jerry/checkpoints/cx-901.json", Kind: load.KindCheckpoint},
			{Path: ".jerry/checkpoints/cx-001.json", Kind: load.KindCheckpoint},
		},
		Folders: []*load.Folder{{Path: "archive/run1", Kind: load.KindBundle}},
	}
	cfg.Filter(d, "/repo", "/repo")
	var got []string
	for _, f := range d.Files {
		got = append(got, f.Path)
	}
	if strings.Join(got, " ") != "ORCHESTRATION.yaml .jerry/checkpoints/cx-001.json" || len(d.Folders) != 0 {
		t.Errorf("kept %v and %d folders", got, len(d.Folders))
	}
}

// Patterns written with a leading "./" (as a kind's globs may be) match
// as without it: an exclude or ignore path so written matched nothing.
func TestDotSlashPatterns(t *testing.T) {
	cfg, err := loadAt(writeConfig(t, "exclude: [\"./archive\"]\nkinds:\n  checkpoint: {exclude: [\"./.jerry/checkpoints/cx-9*.json\"]}\nignore:\n  - {path: \"./legacy/**\", rules: [RL107]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := &load.Discovery{Files: []*load.File{
		{Path: "archive/ORCHESTRATION.yaml", Kind: load.KindOrchestration},
		{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration},
		{Path: ".jerry/checkpoints/cx-901.json", Kind: load.KindCheckpoint},
	}}
	cfg.Filter(d, "/repo", "/repo")
	if len(d.Files) != 1 || d.Files[0].Path != "ORCHESTRATION.yaml" {
		t.Errorf("kept %d files: %+v", len(d.Files), d.Files)
	}
	if !cfg.Ignored(&diag.Finding{Code: "RL107"}, "legacy/ORCHESTRATION.yaml") {
		t.Error("ignore path ./legacy/** hides nothing under legacy/")
	}
}

func TestRootRel(t *testing.T) {
	root := filepath.FromSlash("/repo")
	if got := RootRel(root, filepath.Join(root, "sub"), "a/b.yaml"); got != "sub/a/b.yaml" {
		t.Errorf("RootRel = %q", got)
	}
	if got := RootRel(root, root, "../x.yaml"); got != "../x.yaml" {
		t.Errorf("outside the root: %q", got)
	}
}

// TestDocumentedExampleLoads keeps the example of docs/configuration.md valid.
func TestDocumentedExampleLoads(t *testing.T) {
	data, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), "```yaml\n")
	example, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("docs/configuration.md has no yaml example")
	}
	cfg, err := loadAt(writeConfig(t, example))
	if err != nil {
		t.Fatalf("the documented example is invalid:\n%v", err)
	}
	if cfg.Severity["RL317"] != diag.SevOff || len(cfg.Ignore) != 2 || cfg.FailOn != diag.SevWarning {
		t.Errorf("documented example read as %+v", cfg)
	}
}

// loadAt loads the configuration at p, reads confined to its folder.
func loadAt(p string) (*Config, error) { return Load(p, ".resumelint.yaml", filepath.Dir(p)) }

// A list of globs is bounded: each path is matched against each pattern.
// The pattern past the bound is reported where it is, once.
func TestLoadBoundsGlobLists(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("exclude:\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&sb, "  - \"gen/%d/**\"\n", i)
	}
	_, err := loadAt(writeConfig(t, sb.String()))
	if err == nil || strings.Count(err.Error(), "\n") != 0 || !strings.Contains(err.Error(), ".resumelint.yaml:130:5: exclude: more than 128 patterns") {
		t.Errorf("got %v, want one error at the 129th pattern", err)
	}
	sb.Reset()
	sb.WriteString("exclude:\n")
	for i := 0; i < 128; i++ {
		fmt.Fprintf(&sb, "  - \"gen/%d/**\"\n", i)
	}
	if _, err := loadAt(writeConfig(t, sb.String())); err != nil {
		t.Errorf("128 patterns: %v", err)
	}
}

// TestLoadErrorMasksWrittenCredentials: a value the configuration quotes
// in its error may hold a credential written inside it, which no
// pattern finds alone (a URL's password); it is masked, as in findings.
func TestLoadErrorMasksWrittenCredentials(t *testing.T) {
	_, err := loadAt(writeConfig(t, "kinds:\n  orchestration:\n    globs: [\"https://deploybot:Tr0ub4dorPassw0rd99@git.example.com/{\"]\nexclude: [\"{https://ci:Xk29fLq83vNp7@build.example.com/\"]\n"))
	if err == nil {
		t.Fatal("no error for two invalid globs")
	}
	for _, pw := range []string{"Tr0ub4dorPassw0rd99", "Xk29fLq83vNp7"} {
		if strings.Contains(err.Error(), pw) {
			t.Errorf("the error shows the password %s:\n%s", pw, err)
		}
	}
	if !strings.Contains(err.Error(), "is not a valid glob pattern") {
		t.Errorf("the error no longer names the problem:\n%s", err)
	}
}
