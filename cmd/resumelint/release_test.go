package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaserConfig is the part of .goreleaser.yaml the Action, the
// Dockerfile and `resumelint version` depend on.
type goreleaserConfig struct {
	Version int `yaml:"version"`
	Builds  []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
	} `yaml:"builds"`
	Archives []struct {
		Formats      []string `yaml:"formats"`
		NameTemplate string   `yaml:"name_template"`
	} `yaml:"archives"`
	Checksum struct {
		NameTemplate string `yaml:"name_template"`
		Algorithm    string `yaml:"algorithm"`
	} `yaml:"checksum"`
	Release struct {
		Header string `yaml:"header"`
		Footer string `yaml:"footer"`
	} `yaml:"release"`
}

func readGoreleaser(t *testing.T) goreleaserConfig {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg goreleaserConfig
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Version != 2 || len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf(".goreleaser.yaml: version %d, %d builds, %d archives; want goreleaser v2, one of each", cfg.Version, len(cfg.Builds), len(cfg.Archives))
	}
	return cfg
}

// TestGoreleaserTargets checks the release configuration without
// goreleaser (SPEC §8): static binaries of ./cmd/resumelint for linux,
// darwin and windows on amd64 and arm64, archives named as action.yml
// downloads them, a checksums.txt in SHA-256 as action.yml verifies it,
// and release notes that read right on the first tag too, when there is
// no previous tag to compare with.
func TestGoreleaserTargets(t *testing.T) {
	cfg := readGoreleaser(t)
	b := cfg.Builds[0]
	if b.Main != "./cmd/resumelint" || b.Binary != "resumelint" {
		t.Errorf("build: main %q, binary %q; want ./cmd/resumelint, resumelint", b.Main, b.Binary)
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") || !slices.Contains(b.Flags, "-trimpath") {
		t.Errorf("build: env %v, flags %v; want CGO_ENABLED=0 (static) and -trimpath", b.Env, b.Flags)
	}
	goos, goarch := slices.Sorted(slices.Values(b.Goos)), slices.Sorted(slices.Values(b.Goarch))
	if !slices.Equal(goos, []string{"darwin", "linux", "windows"}) || !slices.Equal(goarch, []string{"amd64", "arm64"}) {
		t.Errorf("build: goos %v, goarch %v; want darwin, linux, windows × amd64, arm64", goos, goarch)
	}
	a := cfg.Archives[0]
	action, err := os.ReadFile(filepath.Join(moduleRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if a.NameTemplate != "{{ .ProjectName }}_{{ .Os }}_{{ .Arch }}" || !slices.Equal(a.Formats, []string{"tar.gz"}) ||
		!strings.Contains(string(action), `archive="resumelint_${os}_${arch}.tar.gz"`) {
		t.Errorf("archives %q %v do not match the name action.yml downloads", a.NameTemplate, a.Formats)
	}
	if cfg.Checksum.NameTemplate != "checksums.txt" || cfg.Checksum.Algorithm != "sha256" ||
		!strings.Contains(string(action), `/checksums.txt"`) || !strings.Contains(string(action), "sha256sum -c") {
		t.Errorf("checksum %+v does not match what action.yml verifies", cfg.Checksum)
	}
	for _, notes := range []string{cfg.Release.Header, cfg.Release.Footer} {
		if strings.Contains(notes, ".PreviousTag") && !strings.Contains(notes, "{{ if .PreviousTag }}") {
			t.Errorf("release notes use .PreviousTag unguarded: the first tag has none\n%s", notes)
		}
	}
}

// TestGoreleaserLdflagsSetVersion builds resumelint with the -X flag of
// .goreleaser.yaml, the tag replaced by a test version: `resumelint
// version` prints it, so the flag names internal/version's variable.
func TestGoreleaserLdflagsSetVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds resumelint")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cfg := readGoreleaser(t)
	var x string
	for _, l := range cfg.Builds[0].Ldflags {
		if m := regexp.MustCompile(`-X (\S+=)\{\{ \.Tag \}\}`).FindStringSubmatch(l); m != nil {
			x = m[1]
		}
	}
	if x == "" {
		t.Fatalf(".goreleaser.yaml: no -X PATH.Version={{ .Tag }} in ldflags %q", cfg.Builds[0].Ldflags)
	}
	bin := filepath.Join(t.TempDir(), "resumelint")
	build := exec.Command(gobin, "build", "-trimpath", "-ldflags", "-X "+x+"v9.8.7-test", "-o", bin, "./cmd/resumelint")
	build.Dir = moduleRoot(t)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil || string(out) != "resumelint v9.8.7-test\n" {
		t.Errorf("resumelint version: %q (%v), want \"resumelint v9.8.7-test\\n\": ldflags %q set no version", out, err, x)
	}
}

// TestDocsPinWhatExists: no release, tag or image is published yet, so no
// setup the documentation offers may name one (a pre-commit rev, an
// Action ref, go install @version or @latest, a docker build #tag); each
// pins a commit SHA, and docs/ci.md says how to get one.
func TestDocsPinWhatExists(t *testing.T) {
	root := moduleRoot(t)
	files := []string{"README.md", "action.yml", ".pre-commit-hooks.yaml", "Dockerfile"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		files = append(files, filepath.Join("docs", filepath.Base(d)))
	}
	unpublished := regexp.MustCompile(`rev: v[0-9]|resumelint/resumelint@v[0-9]|cmd/resumelint@(v[0-9]|latest)|resumelint\.git#v[0-9]|version: v[0-9]`)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := unpublished.FindString(line); m != "" {
				t.Errorf("%s:%d: %q names a release that is not published: pin <commit-sha>\n%s", f, i+1, m, line)
			}
		}
	}
	ci, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rev: <commit-sha>", "uses: resumelint/resumelint@<commit-sha>", "RESUMELINT_COMMIT: <commit-sha>",
		"git ls-remote https://github.com/resumelint/resumelint HEAD", "verbose: true", "id: resumelint-system", "--no-files-ok"} {
		if !strings.Contains(string(ci), want) {
			t.Errorf("docs/ci.md does not say %q", want)
		}
	}
}
