package integration_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// prRepo is a pull request as GitHub Actions sees it: an upstream
// repository holding the base branch and the merge commit GitHub made for
// the event (refs/pull/1/merge), and a workspace checked out as
// actions/checkout does by default (that commit alone, depth 1).
type prRepo struct {
	upstream, workspace, mergeSHA string
	env                           []string
}

func (r *prRepo) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// editFile replaces old by new in a file of dir, failing when old is absent.
func editFile(t *testing.T, dir, name, old, new string) {
	t.Helper()
	p := filepath.Join(dir, name)
	data, err := os.ReadFile(p)
	if err != nil || !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s: no %q to replace (%v)", name, old, err)
	}
	if err := os.WriteFile(p, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// newPRRepo makes the base branch from examples/clean, applies change to a
// pull request branch, merges it as GitHub does, and then, when baseMoves,
// lets the base branch move on with a decision appended the way the
// protocol wants (what happens on a busy branch, or before a re-run of an
// old workflow run, whose github.sha stays the old merge commit).
func newPRRepo(t *testing.T, change func(dir string), baseMoves bool) *prRepo {
	t.Helper()
	tmp := t.TempDir()
	r := &prRepo{upstream: filepath.Join(tmp, "upstream.git"), workspace: filepath.Join(tmp, "ws")}
	r.env = append(os.Environ(), "HOME="+tmp, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	src := filepath.Join(tmp, "src")
	if err := os.CopyFS(src, os.DirFS(filepath.Join(repoRoot, "examples", "clean"))); err != nil {
		t.Fatal(err)
	}
	r.git(t, src, "init", "-q", "-b", "main")
	r.git(t, src, "add", "-A")
	r.git(t, src, "commit", "-qm", "state")
	r.git(t, src, "checkout", "-qb", "feature")
	change(src)
	r.git(t, src, "add", "-A")
	r.git(t, src, "commit", "-qm", "the pull request")
	r.git(t, src, "checkout", "-q", "--detach", "main")
	r.git(t, src, "merge", "-q", "--no-ff", "-m", "Merge feature into main", "feature")
	r.mergeSHA = r.git(t, src, "rev-parse", "HEAD")
	r.git(t, src, "checkout", "-q", "main")
	if baseMoves {
		editFile(t, src, "ORCHESTRATION.yaml", "      affects_phases: [3]\n      applied: false\n",
			"      affects_phases: [3]\n      applied: false\n    - id: \"RD-003\"\n      timestamp: \"2026-02-20T16:00:00Z\"\n"+
				"      decision: \"Freeze the glossary\"\n      rationale: \"Translators started.\"\n")
		editFile(t, src, "ORCHESTRATION.yaml", "updated_at: \"2026-02-20T15:25:00Z\"\n    cross", "updated_at: \"2026-02-20T16:00:00Z\"\n    cross")
		r.git(t, src, "commit", "-qam", "the base branch moves on")
	}
	r.git(t, tmp, "clone", "-q", "--bare", src, r.upstream)
	r.git(t, r.upstream, "update-ref", "refs/pull/1/merge", r.mergeSHA)
	r.git(t, r.upstream, "config", "uploadpack.allowReachableSHA1InWant", "true") // as GitHub allows
	if err := os.Mkdir(r.workspace, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git(t, r.workspace, "init", "-q")
	r.git(t, r.workspace, "remote", "add", "origin", r.upstream)
	r.git(t, r.workspace, "fetch", "-q", "--no-tags", "--depth=1", "origin", "+"+r.mergeSHA+":refs/remotes/pull/1/merge")
	r.git(t, r.workspace, "checkout", "-q", "--force", "refs/remotes/pull/1/merge")
	return r
}

// runPRSteps runs the steps of action.yml after the install steps (those
// that do not depend on how resumelint is installed) for a pull_request
// event whose github.sha is the merge commit, with the resumelint built
// from this checkout on the PATH. It returns the lint step's stdout and
// the Action's exit-code output.
func runPRSteps(t *testing.T, r *prRepo) (string, string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	action, _ := lintStep(t, nil)
	github := map[string]string{"github.event_name": "pull_request", "github.base_ref": "main", "github.sha": r.mergeSHA}
	steps := map[string]map[string]string{}
	resolve := contextResolver(t, action, nil, github, steps)
	tmp := t.TempDir()
	var lintOut string
	for i, s := range action.Runs.Steps {
		if s.Run == "" || s.ID == "source" || strings.Contains(s.If, "steps.source") {
			continue
		}
		if s.If != "" && !evalCondition(t, s.If, resolve) {
			continue
		}
		out := filepath.Join(tmp, "output"+string(rune('a'+i)))
		script := filepath.Join(tmp, "step.sh")
		if err := os.WriteFile(out, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bash, "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = filepath.Join(r.workspace, resolve(s.WorkingDirectory))
		cmd.Env = append(r.env, "PATH="+filepath.Dir(resumelintBinary(t))+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GITHUB_OUTPUT="+out, "RUNNER_TEMP="+tmp, "SOURCE_DATE_EPOCH=1782000000")
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+resolve(v))
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		outputs := map[string]string{}
		data, _ := os.ReadFile(out)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				outputs[k] = v
			}
		}
		if s.ID != "" {
			steps[s.ID] = outputs
		}
		if s.ID == "lint" {
			lintOut = stdout.String() + stderr.String()
			continue
		}
		if err != nil {
			t.Fatalf("step %q: %v\n%s%s", s.Name, err, stdout.String(), stderr.String())
		}
	}
	return lintOut, steps["lint"]["exit-code"]
}

// evalCondition evaluates the if: of a step, a conjunction of comparisons
// of a context with a string ("a == 'b' && c != ”"); anything else fails
// the test.
func evalCondition(t *testing.T, cond string, resolve func(string) string) bool {
	t.Helper()
	term := regexp.MustCompile(`^\s*([a-z][a-z0-9_.-]*)\s*(==|!=)\s*'([^']*)'\s*$`)
	for _, part := range strings.Split(cond, "&&") {
		m := term.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("action.yml: condition %q is not one this test evaluates", cond)
		}
		if (resolve("${{ "+m[1]+" }}") == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return true
}

// On pull_request the Action compares with the pull request's base: the
// first parent of the merge commit actions/checkout checked out, fetched
// into the shallow clone. When the base branch has moved on since that
// merge commit was made, comparing with origin/main would count the
// newer commits as undone by the pull request: a pull request that
// touches no state file would fail on RL601 and RL603.
func TestActionComparesWithThePullRequestsBase(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the steps run with bash")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	notes := func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, "NOTES.md"), []byte("notes\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dropRD001 := func(dir string) {
		editFile(t, dir, "ORCHESTRATION.yaml", "    - id: \"RD-001\"\n", "    - id: \"RD-009\"\n")
	}
	cases := []struct {
		name      string
		change    func(string)
		baseMoves bool
		wantCode  string
		want      []string
		notWant   []string
	}{
		{"untouched state, base moved on", notes, true, "0", nil, []string{"RL60"}},
		{"changed decision, base moved on", dropRD001, true, "1", []string{"RL601", "RD-001"}, []string{"RD-003"}},
		{"changed decision, base where it was", dropRD001, false, "1", []string{"RL601", "changed since origin/main"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, code := runPRSteps(t, newPRRepo(t, tc.change, tc.baseMoves))
			if code != tc.wantCode {
				t.Errorf("exit-code %q, want %q; log:\n%s", code, tc.wantCode, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("log lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out, w) {
					t.Errorf("log has %q:\n%s", w, out)
				}
			}
		})
	}
}
