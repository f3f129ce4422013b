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
	var out bytes.Buffer
	c := &Command{Stdout: &out, Stderr: &out, Cwd: t.TempDir(), Getenv: func(string) string { return "" }}
	if code := c.Main([]string{"completion", "bash"}); code != ExitOK {
		t.Fatalf("completion bash: exit %d: %s", code, out.String())
	}
	script := filepath.Join(t.TempDir(), "resumelint.bash")
	if err := os.WriteFile(script, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
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
