package cli

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/resumelint/resumelint/internal/load"
)

// RESUMELINT_YAML_PARSER=yaml.v3 parses with go.yaml.in/yaml/v3's decoder
// alone (the fast parser is never tried), and what a lint prints is the
// same byte for byte in every format; any other value is a usage error.
func TestYAMLParserVariable(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	var fast atomic.Int64
	load.OnFastParse = func() { fast.Add(1) }
	defer func() { load.OnFastParse = nil }()
	run := func(parser string, args ...string) (int, string, string) {
		var out, errb strings.Builder
		env := map[string]string{load.YAMLParserVar: parser, "SOURCE_DATE_EPOCH": "1782000000", "NO_COLOR": "1"}
		c := &Command{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Cwd: dir, Getenv: func(k string) string { return env[k] }}
		return c.Main(args), out.String(), errb.String()
	}
	for _, format := range []string{"text", "json", "sarif"} {
		args := []string{"lint", "--format", format, "."}
		fast.Store(0)
		wantCode, want, wantErr := run("", args...)
		if fast.Load() == 0 {
			t.Fatalf("%s: the default run never tried the fast parser", format)
		}
		for _, parser := range []string{"fast", "yaml.v3"} {
			fast.Store(0)
			code, out, errb := run(parser, args...)
			if tried := fast.Load(); (parser == "yaml.v3") != (tried == 0) {
				t.Errorf("%s, %s: the fast parser was tried %d times", format, parser, tried)
			}
			if code != wantCode || out != want || errb != wantErr {
				t.Errorf("%s, %s: exit %d, output differs from the default's (exit %d):\n%s%s", format, parser, code, wantCode, out, errb)
			}
		}
	}
	for _, bad := range []string{"yaml", "FAST", "v3", " fast"} {
		code, out, errb := run(bad, "lint", ".")
		if code != ExitUsage || out != "" || !strings.Contains(errb, "use fast (the default) or yaml.v3") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", bad, code, out, errb)
		}
	}
}
