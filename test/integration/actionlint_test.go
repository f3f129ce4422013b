//go:build integration

// Package integration_test checks the files that integrate resumelint with
// CI systems: the GitHub workflow and the composite Action, linted with
// actionlint, and the pre-commit hook patterns.
package integration_test

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// actionlint is run with `go run pkg@version`, outside this module, so it
// never enters go.mod. Fetching it needs the network, so these tests build
// only with the integration tag: go test -tags integration ./test/integration
const actionlint = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"

// runActionlint runs actionlint on files (relative to dir); it skips the
// test only when actionlint cannot be fetched because the module proxy is
// unreachable.
func runActionlint(t *testing.T, dir string, files ...string) (string, int) {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	args := append([]string{"run", actionlint, "-no-color", "-shellcheck=", "-pyflakes="}, files...)
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		args[4] = "-shellcheck=" + sc
	}
	cmd := exec.Command(gobin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.String(), 0
	case errors.As(err, &ee) && ee.ExitCode() == 1 && out.Len() > 0:
		return out.String(), 1 // actionlint found problems
	}
	if !proxyReachable(t) {
		t.Skipf("the Go module proxy is unreachable, so %s cannot be fetched: %v\n%s", actionlint, err, stderr.String())
	}
	t.Fatalf("go run %s: %v\n%s%s", actionlint, err, out.String(), stderr.String())
	return "", 0
}

// proxyReachable reports whether the first network GOPROXY answers.
func proxyReachable(t *testing.T) bool {
	out, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		return false
	}
	for _, p := range strings.FieldsFunc(strings.TrimSpace(string(out)), func(r rune) bool { return r == ',' || r == '|' }) {
		if p == "off" {
			return false
		}
		if p == "direct" || !strings.HasPrefix(p, "http") {
			continue
		}
		c := &http.Client{Timeout: 10 * time.Second}
		resp, err := c.Get(strings.TrimSuffix(p, "/") + "/github.com/rhysd/actionlint/@v/list")
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) || strings.Contains(err.Error(), "dial") {
				return false
			}
			t.Logf("GOPROXY %s: %v", p, err)
			return false
		}
		resp.Body.Close()
		return true
	}
	return false
}

func TestWorkflowsPassActionlint(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, ".github", "workflows", "*.yml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows under .github/workflows: %v", err)
	}
	var rel []string
	for _, f := range files {
		r, _ := filepath.Rel(repoRoot, f)
		rel = append(rel, filepath.ToSlash(r))
	}
	// The workflows use the Action with `uses: ./`: actionlint also checks
	// action.yml's metadata and the inputs given to it there.
	if out, code := runActionlint(t, repoRoot, rel...); code != 0 {
		t.Errorf("actionlint found problems in the workflows:\n%s", out)
	}
}

// TestActionStepsPassActionlint lints the composite Action's steps:
// actionlint does not lint action metadata files itself, so the steps are
// put in a workflow_call workflow declaring the Action's inputs, which
// gives its expressions, contexts, scripts and the actions it uses the
// checks a workflow gets.
func TestActionStepsPassActionlint(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Name   string `yaml:"name"`
		Inputs map[string]struct {
			Description string `yaml:"description"`
			Required    bool   `yaml:"required"`
			Default     string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string      `yaml:"using"`
			Steps []yaml.Node `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" || len(action.Runs.Steps) == 0 {
		t.Fatalf("action.yml: runs.using %q with %d steps, want a composite action", action.Runs.Using, len(action.Runs.Steps))
	}
	inputs := map[string]any{}
	for name, in := range action.Inputs {
		if in.Description == "" {
			t.Errorf("action.yml: input %s has no description", name)
		}
		inputs[name] = map[string]any{"type": "string", "required": in.Required, "default": in.Default, "description": in.Description}
	}
	for i := range action.Runs.Steps {
		var shell struct {
			Run   string `yaml:"run"`
			Shell string `yaml:"shell"`
		}
		if err := action.Runs.Steps[i].Decode(&shell); err == nil && shell.Run != "" && shell.Shell == "" {
			t.Errorf("action.yml: step %d runs a script without `shell:` (required in composite actions)", i+1)
		}
	}
	wf := map[string]any{
		"name": "action steps",
		"on":   map[string]any{"workflow_call": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": action.Runs.Steps}},
	}
	out, err := yaml.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".github", "workflows", "action-steps.yml"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	if res, code := runActionlint(t, dir, ".github/workflows/action-steps.yml"); code != 0 {
		t.Errorf("actionlint found problems in action.yml's steps:\n%s\nin the workflow built from them:\n%s", res, out)
	}
}

// TestActionlintFindsProblems makes sure the checks above can fail.
func TestActionlintFindsProblems(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n"
	if err := os.WriteFile(filepath.Join(dir, ".github", "workflows", "bad.yml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := runActionlint(t, dir, ".github/workflows/bad.yml"); code != 1 || !strings.Contains(out, "nope") {
		t.Errorf("actionlint accepted a bad workflow (exit %d):\n%s", code, out)
	}
}
