package integration_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionStep is the composite Action's "Run resumelint" step as
// action.yml declares it.
type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Shell            string            `yaml:"shell"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	Run              string            `yaml:"run"`
}

type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// resumelintBinary builds the command once for the tests of this file.
func resumelintBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "resumelint-action-test")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "resumelint")
		cmd := exec.Command("go", "build", "-o", builtBin, "./cmd/resumelint")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("building resumelint: %v", buildErr)
	}
	return builtBin
}

// actionRun is one run of the step's script and what it left behind.
type actionRun struct {
	code            int
	stdout, stderr  string
	outputs         map[string]string
	summary         string
	calls           [][]string // the arguments of every resumelint process
	workDir, tmpDir string
}

// runActionStep runs the "Run resumelint" step of action.yml as GitHub
// Actions does: its script in a file, run by `bash --noprofile --norc -eo
// pipefail FILE` in the step's working directory, with the step's env
// (its ${{ }} expressions resolved from inputs and the defaults of
// action.yml) and GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP files.
// resumelint is on the PATH as a wrapper that records its arguments and
// runs the binary built from this checkout; nothing is downloaded.
func runActionStep(t *testing.T, inputs map[string]string) *actionRun {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the wrapper that records resumelint's arguments is a shell script")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	action, step := lintStep(t, inputs)
	resolve := stepResolver(t, action, inputs)

	tmp := t.TempDir()
	run := &actionRun{tmpDir: tmp, outputs: map[string]string{}}
	script := filepath.Join(tmp, "step.sh")
	if err := os.WriteFile(script, []byte(step.Run), 0o644); err != nil {
		t.Fatal(err)
	}
	wrapDir, callDir := filepath.Join(tmp, "wrap"), filepath.Join(tmp, "calls")
	for _, d := range []string{wrapDir, callDir, filepath.Join(tmp, "runner")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	wrapper := "#!/usr/bin/env bash\nf=$(mktemp \"$RESUMELINT_CALLS/call.XXXXXX\")\nprintf '%s\\0' \"$@\" > \"$f\"\nexec \"$RESUMELINT_REAL\" \"$@\"\n"
	if err := os.WriteFile(filepath.Join(wrapDir, "resumelint"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	ghOutput, ghSummary := filepath.Join(tmp, "github_output"), filepath.Join(tmp, "step_summary")
	for _, f := range []string{ghOutput, ghSummary} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	run.workDir = resolve(step.WorkingDirectory)
	if run.workDir == "" {
		run.workDir = "."
	}
	if !filepath.IsAbs(run.workDir) {
		run.workDir = filepath.Join(root, run.workDir) // relative to the workspace
	}
	env := []string{
		"PATH=" + wrapDir + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + tmp,
		"GITHUB_ACTIONS=true",
		"GITHUB_OUTPUT=" + ghOutput,
		"GITHUB_STEP_SUMMARY=" + ghSummary,
		"GITHUB_WORKSPACE=" + root,
		"RUNNER_TEMP=" + filepath.Join(tmp, "runner"),
		"SOURCE_DATE_EPOCH=1782000000",
		"RESUMELINT_REAL=" + resumelintBinary(t),
		"RESUMELINT_CALLS=" + callDir,
	}
	for k, v := range step.Env {
		env = append(env, k+"="+resolve(v))
	}
	cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = run.workDir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		run.code = ee.ExitCode()
	default:
		t.Fatal(err)
	}
	run.stdout, run.stderr = stdout.String(), stderr.String()

	readStepResults(t, run, ghOutput, ghSummary, callDir)
	return run
}

// lintStep reads action.yml and returns it with its bash step of id lint,
// failing the test when there is none or when inputs names an input that
// action.yml does not declare.
func lintStep(t *testing.T, inputs map[string]string) (*actionFile, *actionStep) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action actionFile
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	var step *actionStep
	for i := range action.Runs.Steps {
		if action.Runs.Steps[i].ID == "lint" {
			step = &action.Runs.Steps[i]
		}
	}
	if step == nil || step.Shell != "bash" || step.Run == "" {
		t.Fatalf("action.yml has no bash step with id lint: %+v", step)
	}
	for name := range inputs {
		if _, ok := action.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
	}
	return &action, step
}

// stepResolver returns a function that resolves the ${{ }} expressions of
// a value of the lint step as GitHub Actions does for a push: inputs.NAME
// from inputs or the input's default in action.yml, and the github
// context. Any other expression, or an undeclared input, fails the test:
// the step would read something this test does not provide.
func stepResolver(t *testing.T, action *actionFile, inputs map[string]string) func(string) string {
	t.Helper()
	github := map[string]string{"github.event_name": "push", "github.base_ref": "", "github.sha": ""}
	return contextResolver(t, action, inputs, github, map[string]map[string]string{}) // no step ran before
}

// contextResolver resolves as stepResolver does, from the github context
// given and from the outputs of the steps that ran (steps.ID.outputs.NAME,
// empty for a step that did not run).
func contextResolver(t *testing.T, action *actionFile, inputs, github map[string]string, steps map[string]map[string]string) func(string) string {
	t.Helper()
	expr := regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)
	stepOutput := regexp.MustCompile(`^steps\.([a-z-]+)\.outputs\.([a-z-]+)$`)
	return func(v string) string {
		return expr.ReplaceAllStringFunc(v, func(m string) string {
			name := expr.FindStringSubmatch(m)[1]
			if in, ok := strings.CutPrefix(name, "inputs."); ok {
				decl, ok := action.Inputs[in]
				if !ok {
					t.Fatalf("action.yml: the lint step reads undeclared input %s", in)
				}
				if v, ok := inputs[in]; ok {
					return v
				}
				return decl.Default
			}
			if v, ok := github[name]; ok {
				return v
			}
			if m := stepOutput.FindStringSubmatch(name); m != nil {
				return steps[m[1]][m[2]]
			}
			t.Fatalf("action.yml: the lint step uses ${{ %s }}, which this test does not provide", name)
			return ""
		})
	}
}

// readStepResults records in run what the step left behind: the outputs
// it wrote to GITHUB_OUTPUT (each once), its step summary and the
// arguments of each resumelint call. RUNNER_TEMP must be left empty.
func readStepResults(t *testing.T, run *actionRun, ghOutput, ghSummary, callDir string) {
	t.Helper()
	out, _ := os.ReadFile(ghOutput)
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			if _, dup := run.outputs[k]; dup {
				t.Errorf("output %s written twice:\n%s", k, out)
			}
			run.outputs[k] = v
		}
	}
	sum, _ := os.ReadFile(ghSummary)
	run.summary = string(sum)
	calls, _ := filepath.Glob(filepath.Join(callDir, "call.*"))
	for _, c := range calls {
		data, _ := os.ReadFile(c)
		run.calls = append(run.calls, strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00"))
	}
	if left, _ := filepath.Glob(filepath.Join(run.tmpDir, "runner", "*")); len(left) > 0 {
		t.Errorf("the step left files in RUNNER_TEMP: %v", left)
	}
}

// The project's own CI lints examples/broken with the Action and expects
// exit code 1 (.github/workflows/ci.yml, job examples).
func TestActionOnBrokenExamples(t *testing.T) {
	sarif := filepath.Join(t.TempDir(), "results", "examples.sarif")
	r := runActionStep(t, map[string]string{"args": "examples/broken", "sarif-file": sarif, "base": "none"})
	if r.code != 1 || r.outputs["exit-code"] != "1" {
		t.Fatalf("step exit %d, outputs %v; want 1 and exit-code=1\nstdout:\n%s\nstderr:\n%s", r.code, r.outputs, r.stdout, r.stderr)
	}
	// One resumelint process wrote every report.
	if len(r.calls) != 1 {
		t.Fatalf("resumelint ran %d times: %q", len(r.calls), r.calls)
	}
	if !slices.Contains(r.calls[0], "sarif="+sarif) || !slices.Contains(r.calls[0], "github") {
		t.Errorf("resumelint arguments: %q", r.calls[0])
	}

	// Annotations on stdout, one per finding, repository-relative paths.
	annot := regexp.MustCompile(`(?m)^::(error|warning) file=examples/broken/[^,]+,line=\d+,col=\d+,.*title=RL\d{3} [a-z-]+::.+$`)
	annotations := annot.FindAllString(r.stdout, -1)
	if len(annotations) == 0 || !strings.Contains(r.stdout, "::error file=examples/broken/ORCHESTRATION.yaml,line=") {
		t.Fatalf("no annotations on stdout:\n%s", r.stdout)
	}

	// The SARIF file from the same run: the same findings.
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatalf("no SARIF file: %v", err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("SARIF file: %v", err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != len(annotations) {
		t.Fatalf("SARIF: version %s, %d runs, results vs %d annotations:\n%s", log.Version, len(log.Runs), len(annotations), data)
	}
	for _, res := range log.Runs[0].Results {
		loc := res.Locations[0].PhysicalLocation
		if !strings.HasPrefix(loc.ArtifactLocation.URI, "examples/broken/") || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine < 1 {
			t.Errorf("SARIF result %s at %+v", res.RuleID, loc)
		}
		if !strings.Contains(r.stdout, "title="+res.RuleID+" ") {
			t.Errorf("SARIF result %s has no annotation", res.RuleID)
		}
	}

	// The step summary: counts per rule and per file, then the findings.
	for _, want := range []string{"### resumelint: ", "| Findings | Rule | Severity |", "[RL102](", "| Errors | Warnings | File |",
		"examples/broken/ORCHESTRATION.yaml |", "#### Findings", "- **error** examples/broken/ORCHESTRATION.yaml\\:"} {
		if !strings.Contains(r.summary, want) {
			t.Errorf("step summary lacks %q:\n%s", want, r.summary)
		}
	}
}

func TestActionOnCleanExamples(t *testing.T) {
	r := runActionStep(t, map[string]string{"args": "examples/clean", "base": "none"})
	if r.code != 0 || r.outputs["exit-code"] != "0" || r.stdout != "" {
		t.Fatalf("step exit %d, outputs %v, stdout %q; want 0, exit-code=0 and no annotations\nstderr:\n%s", r.code, r.outputs, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.summary, "### resumelint: no problems") {
		t.Errorf("step summary:\n%s", r.summary)
	}
	// step-summary: false writes none.
	r = runActionStep(t, map[string]string{"args": "examples/clean", "base": "none", "step-summary": "false"})
	if r.code != 0 || r.summary != "" || slices.Contains(r.calls[0], "-o") {
		t.Errorf("step-summary false: exit %d, summary %q, arguments %q", r.code, r.summary, r.calls[0])
	}
}

// A glob in args reaches resumelint as written, quoted or not, even where
// bash would have expanded it.
func TestActionPassesGlobsUnexpanded(t *testing.T) {
	work := t.TempDir()
	for _, ex := range []string{"broken", "clean"} {
		cmd := exec.Command("cp", "-R", filepath.Join(repoRoot, "examples", ex), filepath.Join(work, ex))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cp: %v\n%s", err, out)
		}
	}
	// Without globstar bash reads ** as *: it would replace the pattern
	// with these two files (and resumelint would see no glob).
	if m, _ := filepath.Glob(filepath.Join(work, "*", "ORCHESTRATION*.yaml")); len(m) != 2 {
		t.Fatalf("the test needs files bash's glob would match: %v", m)
	}
	for _, args := range []string{
		`**/ORCHESTRATION*.yaml --fail-on warning`,
		`'**/ORCHESTRATION*.yaml' --fail-on "warning"`,
		"  **/ORCHESTRATION*.yaml\n--fail-on\twarning\n",
	} {
		r := runActionStep(t, map[string]string{"args": args, "working-directory": work, "base": "none", "format": "text"})
		if len(r.calls) != 1 {
			t.Fatalf("args %q: resumelint ran %d times\n%s", args, len(r.calls), r.stderr)
		}
		got := r.calls[0]
		if tail := got[len(got)-3:]; !slices.Equal(tail, []string{"**/ORCHESTRATION*.yaml", "--fail-on", "warning"}) {
			t.Errorf("args %q reached resumelint as %q", args, got)
		}
		// resumelint matched the glob itself: both workflow files.
		if r.code != 1 || !strings.Contains(r.stdout, "broken/ORCHESTRATION.yaml:") || !strings.Contains(r.stdout, " of 2 files.") {
			t.Errorf("args %q: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// A usage error is exit code 2, written as the output too; an unclosed
// quote in args is one.
func TestActionUsageErrors(t *testing.T) {
	r := runActionStep(t, map[string]string{"args": "no-such-folder/", "base": "none"})
	if r.code != 2 || r.outputs["exit-code"] != "2" || !strings.Contains(r.stderr, "no such file") {
		t.Errorf("missing path: exit %d, outputs %v\n%s", r.code, r.outputs, r.stderr)
	}
	if !strings.Contains(r.summary, "### resumelint: exit code 2") {
		t.Errorf("step summary: %q", r.summary)
	}
	r = runActionStep(t, map[string]string{"args": `"examples/broken`, "base": "none"})
	if r.code != 2 || r.outputs["exit-code"] != "2" || len(r.calls) != 0 || !strings.Contains(r.stdout, "::error title=resumelint::the args input does not split") {
		t.Errorf("unclosed quote: exit %d, outputs %v, %d calls\n%s%s", r.code, r.outputs, len(r.calls), r.stdout, r.stderr)
	}
}
