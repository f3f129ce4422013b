package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletionBash checks the bash script's syntax (bash -n) and that
// it completes commands, flags, rule codes and --format values.
func TestCompletionBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	script := completionScript(t, "bash")
	if b, err := exec.Command(bash, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, b)
	}
	cases := map[string]string{
		"resumelint li":                     "lint",
		"resumelint --exit-z":               "--exit-zero",
		"resumelint lint --enable RL10":     "RL107",
		"resumelint status --format me":     "mermaid",
		"resumelint fix --list-f":           "--list-files",
		"resumelint explain stale-res":      "stale-resumption",
		"resumelint completion fi":          "fish",
		"resumelint bundle verify --exit-z": "--exit-zero",
		"resumelint help bund":              "bundle",
	}
	for line, want := range cases {
		words := strings.Fields(line)
		prog := "source " + script + "\nCOMP_WORDS=(" + strings.Join(words, " ") + ")\nCOMP_CWORD=" +
			string(rune('0'+len(words)-1)) + "\n_resumelint\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
		cmd := exec.Command(bash, "-c", prog)
		cmd.Dir = t.TempDir()
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, b)
		}
		if !strings.Contains("\n"+string(b), "\n"+want+"\n") {
			t.Errorf("%s: completions %q lack %q", line, b, want)
		}
	}
}

// completionScript writes the completion script for shell to a file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &out, Cwd: t.TempDir(), Getenv: func(string) string { return "" }}
	if code := c.Main([]string{"completion", shell}); code != ExitOK {
		t.Fatalf("completion %s: exit %d: %s", shell, code, out.String())
	}
	script := filepath.Join(t.TempDir(), "resumelint."+shell)
	if err := os.WriteFile(script, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return script
}

// TestCompletionFish sources the fish script in fish and asks fish itself
// (complete -C) what it completes, where fish is installed.
func TestCompletionFish(t *testing.T) {
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Skip("fish not installed")
	}
	script := completionScript(t, "fish")
	cases := map[string]string{
		"resumelint li":                 "lint",
		"resumelint lint --format ":     "sarif",
		"resumelint status --format ":   "mermaid",
		"resumelint explain RL10":       "RL107",
		"resumelint lint --exit-z":      "--exit-zero",
		"resumelint completion fi":      "fish",
		"resumelint lint --enable RL10": "RL104",
	}
	for line, want := range cases {
		cmd := exec.Command(fish, "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, line)
		cmd.Dir = t.TempDir()
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, b)
		}
		found := false
		for _, l := range strings.Split(string(b), "\n") {
			if strings.SplitN(l, "\t", 2)[0] == want {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: completions %q lack %q", line, b, want)
		}
	}
}

// TestCompletionZshSyntax parses the zsh script with zsh -n, where zsh is
// installed.
func TestCompletionZshSyntax(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		t.Skip("zsh not installed")
	}
	script := completionScript(t, "zsh")
	if b, err := exec.Command(zsh, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s", err, b)
	}
}
