package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/cli"
	"github.com/resumelint/resumelint/internal/rules"
)

// README.md holds generated blocks between <!-- NAME:start --> and
// <!-- NAME:end --> markers: the rules table (from the registry), the
// usage text (from -h) and the output of the main command. TestReadme
// fails when one is not current; `go test ./cmd/resumelint -run TestReadme
// -update` rewrites them (read the diff).

// readmeBlocks returns each generated block's content by marker name.
func readmeBlocks(t *testing.T) map[string]string {
	return map[string]string{
		"rules":  rulesTable(),
		"usage":  usageText(t),
		"output": "```console\n$ go run ./cmd/resumelint lint examples/\n" + runCLI(t, "lint", "examples/") + "exit status 1\n```\n",
	}
}

// rulesTable renders the catalog as a Markdown table, one row per rule.
func rulesTable() string {
	var sb strings.Builder
	sb.WriteString("| code | name | severity | fix | kinds | what it reports |\n")
	sb.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rules.All() {
		kinds := "all"
		if len(r.Kinds) > 0 {
			var ks []string
			for _, k := range r.Kinds {
				ks = append(ks, string(k))
			}
			kinds = strings.Join(ks, ", ")
		}
		fmt.Fprintf(&sb, "| [%s](docs/rules/%s.md) | %s | %s | %s | %s | %s |\n",
			r.Code, r.Code, r.Name, r.Severity, string(r.Fix), kinds, strings.ReplaceAll(r.Summary, "|", `\|`))
	}
	return sb.String()
}

// runCLI runs resumelint in-process from the repository root with a
// plain environment and returns stdout followed by stderr.
func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := map[string]string{"NO_COLOR": "1"}
	c := &cli.Command{Stdout: &stdout, Stderr: &stderr, Cwd: moduleRoot(t), Getenv: func(k string) string { return env[k] }}
	c.Main(args)
	return stdout.String() + stderr.String()
}

func usageText(t *testing.T) string {
	return "```console\n$ resumelint -h\n" + runCLI(t, "-h") + "\n$ resumelint lint -h\n" + runCLI(t, "lint", "-h") + "```\n"
}

// replaceBlock replaces the text between the markers of block name.
func replaceBlock(t *testing.T, doc, name, content string) string {
	t.Helper()
	start, end := "<!-- "+name+":start -->\n", "<!-- "+name+":end -->"
	i := strings.Index(doc, start)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q … %q block", strings.TrimSpace(start), end)
	}
	return doc[:i+len(start)] + content + doc[j:]
}

func TestReadme(t *testing.T) {
	path := filepath.Join(moduleRoot(t), "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	want := got
	for _, name := range []string{"rules", "usage", "output"} {
		want = replaceBlock(t, want, name, readmeBlocks(t)[name])
	}
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the generated blocks of %s", path)
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if gl[i] != wl[i] {
			t.Fatalf("README.md is not current from line %d:\n  have %q\n  want %q\nrun: go test ./cmd/resumelint -run TestReadme -update (and read the diff)", i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("README.md is not current (it has %d lines, want %d); run: go test ./cmd/resumelint -run TestReadme -update", len(gl), len(wl))
}

// The README shows the commands that work, and its test command is the
// one CI runs.
func TestReadmeCommands(t *testing.T) {
	root := moduleRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"go run ./cmd/resumelint lint examples/", "go test ./...", "go install ./cmd/resumelint"} {
		if !bytes.Contains(readme, []byte("\n"+cmd+"\n")) {
			t.Errorf("README.md does not show the command line %q", cmd)
		}
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(ci, []byte("\ngo test ./...\n")) {
		t.Errorf(".ci/run does not run the README's test command %q", "go test ./...")
	}
	if fi, err := os.Stat(filepath.Join(root, ".ci", "run")); err == nil && fi.Mode()&0o111 == 0 {
		t.Errorf(".ci/run is not executable")
	}
}

// The README names the Go version go.mod requires, exactly.
func TestReadmeGoVersion(t *testing.T) {
	root := moduleRoot(t)
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go ([0-9.]+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "Go " + string(m[1]) + " or later"
	if !bytes.Contains(readme, []byte(want)) {
		t.Errorf("README.md does not say %q (the go directive of go.mod)", want)
	}
}

// Every file glob of the release archives matches a file: goreleaser fails
// the release on a glob that matches nothing.
func TestGoreleaserFiles(t *testing.T) {
	root := moduleRoot(t)
	data, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Archives []struct {
			Files []string `yaml:"files"`
		} `yaml:"archives"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range cfg.Archives {
		for _, g := range a.Files {
			n++
			m, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(g)))
			if err != nil || len(m) == 0 {
				t.Errorf(".goreleaser.yaml: archive file glob %q matches nothing (err %v)", g, err)
			}
		}
	}
	if n == 0 {
		t.Error(".goreleaser.yaml: no archive files (LICENSE and README.md belong in every archive)")
	}
}
