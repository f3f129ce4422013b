package integration_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// installStep is a step of the composite Action with its condition.
type installStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
	Run              string            `yaml:"run"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
}

func actionSteps(t *testing.T) []installStep {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []installStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	return action.Runs.Steps
}

// TestActionInstallPaths checks how the Action gets its binary: one step
// (id source) chooses, and every build step runs only when it chose to
// build, the download only when it found a release; the build is of the
// action's own checkout, so a `uses:` pinned to a commit works before
// any release exists.
func TestActionInstallPaths(t *testing.T) {
	steps := actionSteps(t)
	var chose, built, downloaded bool
	for _, s := range steps {
		switch {
		case s.ID == "source":
			chose = true
		case strings.Contains(s.Run, "go install"):
			built = true
			if s.WorkingDirectory != "${{ github.action_path }}" || !strings.Contains(s.Run, "./cmd/resumelint") {
				t.Errorf("step %q builds in %q: want ./cmd/resumelint in ${{ github.action_path }}", s.Name, s.WorkingDirectory)
			}
			fallthrough
		case strings.Contains(s.Name, "build") || strings.Contains(s.Name, "Set up Go") || strings.Contains(s.Name, "PATH"):
			if !strings.HasPrefix(s.If, "steps.source.outputs.mode == 'build'") {
				t.Errorf("step %q runs if %q: want it only when the source step chose to build", s.Name, s.If)
			}
		case strings.Contains(s.Run, "releases/download"):
			downloaded = true
			if s.If != "steps.source.outputs.mode == 'download'" || !strings.Contains(s.Run, "checksums.txt") || !strings.Contains(s.Run, "-c expected.txt") {
				t.Errorf("step %q (if %q) must run only for a published release and check checksums.txt", s.Name, s.If)
			}
		}
	}
	if !chose || !built || !downloaded {
		t.Errorf("action.yml: choice %v, build %v, download %v; want all three", chose, built, downloaded)
	}
}

var inputExpr = regexp.MustCompile(`^\$\{\{ inputs\.([a-z-]+) \}\}$`)

// TestActionChoosesReleaseOnlyWhenPublished runs the source step's script
// with a curl that answers as GitHub would for a published release (200),
// a version never released (404) or no network (curl fails): only the
// first downloads, the second builds from the checkout with a warning,
// the third stops the step. A version that is not a tag never reaches
// curl.
func TestActionChoosesReleaseOnlyWhenPublished(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake curl is a shell script")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	var step *installStep
	for _, s := range actionSteps(t) {
		if s.ID == "source" {
			step = &s
		}
	}
	if step == nil {
		t.Fatal("action.yml has no step with id source")
	}
	cases := []struct {
		version, status string
		curlFails       bool
		wantCode        int
		wantMode        string
		wantCurl        bool
		wantLog         string
	}{
		{"", "", false, 0, "mode=build", false, ""},
		{"v1.2.0", "200", false, 0, "mode=download", true, ""},
		{"v1.2.0", "404", false, 0, "mode=build", true, "::warning title=resumelint::no release v1.2.0 is published"},
		{"v1.2.0-rc.1", "404", false, 0, "mode=build", true, "::warning"},
		{"v1.2.0", "000", true, 1, "", true, "::error title=resumelint::could not ask for release v1.2.0"},
		{"v1.2.0", "503", false, 1, "", true, "HTTP status 503"},
		{"v1.2.0/../../evil", "200", false, 1, "", false, "must be a release tag"},
		{"latest", "200", false, 1, "", false, "must be a release tag"},
	}
	for _, tc := range cases {
		dir := t.TempDir()
		bin := filepath.Join(dir, "bin")
		if err := os.Mkdir(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		calls := filepath.Join(dir, "curl-calls")
		curl := "#!/bin/sh\necho \"$@\" >> " + calls + "\nprintf %s \"$FAKE_STATUS\"\n"
		if tc.curlFails {
			curl += "exit 6\n"
		}
		if err := os.WriteFile(filepath.Join(bin, "curl"), []byte(curl), 0o755); err != nil {
			t.Fatal(err)
		}
		script := filepath.Join(dir, "step.sh")
		if err := os.WriteFile(script, []byte(step.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		output := filepath.Join(dir, "output")
		cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GITHUB_OUTPUT="+output, "FAKE_STATUS="+tc.status)
		for k, v := range step.Env {
			if m := inputExpr.FindStringSubmatch(v); m != nil && m[1] == "version" {
				v = tc.version
			}
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, _ := cmd.CombinedOutput()
		code := cmd.ProcessState.ExitCode()
		got, _ := os.ReadFile(output)
		_, err := os.Stat(calls)
		called := err == nil
		if code != tc.wantCode || strings.TrimSpace(string(got)) != tc.wantMode || called != tc.wantCurl || !strings.Contains(string(out), tc.wantLog) {
			t.Errorf("version %q, HTTP %s: exit %d, outputs %q, curl called %v, log:\n%s\nwant exit %d, %q, curl %v, log with %q",
				tc.version, tc.status, code, got, called, out, tc.wantCode, tc.wantMode, tc.wantCurl, tc.wantLog)
		}
	}
}

// TestActionSavesItsBuildAtOnce checks that the binary built from source
// is saved to the cache right after it is built, by a step of its own.
// actions/cache saves in its post step, which runs only when the whole
// job succeeded: the build of a run whose lint found problems (the job
// fails) was never kept, and every run rebuilt until one passed.
func TestActionSavesItsBuildAtOnce(t *testing.T) {
	steps := actionSteps(t)
	build, save, lint := -1, -1, -1
	var restore *installStep
	for i, s := range steps {
		name, _, _ := strings.Cut(s.Uses, "@")
		switch {
		case name == "actions/cache":
			t.Errorf("step %q uses actions/cache, which saves only when the job succeeds", s.Name)
		case name == "actions/cache/restore":
			restore = &steps[i]
		case name == "actions/cache/save":
			save = i
			if restore == nil || s.With["path"] != restore.With["path"] || s.With["key"] != "${{ steps."+restore.ID+".outputs.cache-primary-key }}" {
				t.Errorf("step %q saves %v: want the path and key the restore step looked up", s.Name, s.With)
			}
			if s.If != "steps.source.outputs.mode == 'build' && steps."+restore.ID+".outputs.cache-hit != 'true'" {
				t.Errorf("step %q runs if %q: want it after every build, and only then", s.Name, s.If)
			}
		case strings.Contains(s.Run, "go install"):
			build = i
		case s.ID == "lint":
			lint = i
		}
	}
	if restore == nil || !(build >= 0 && build < save && save < lint) {
		t.Errorf("action.yml: restore %v, build at step %d, save at %d, lint at %d: want the build saved before the lint runs", restore != nil, build, save, lint)
	}
}
