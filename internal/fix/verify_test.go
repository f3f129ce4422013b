package fix

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

func TestVerify(t *testing.T) {
	const before = "a: \"one two three\"\nb: [x, y]\nc: 3\n"
	tests := []struct {
		name, after string
		drops       []string
		format      load.Format
		err         string
	}{
		{"unchanged", before, nil, load.FormatYAML, ""},
		{"moved", "b: [x, y]\nnested:\n  a: \"one two three\"\n  c: 3\n", nil, load.FormatYAML, ""},
		{"added", before + "d: null\n", nil, load.FormatYAML, ""},
		{"a value dropped", "a: \"one two three\"\nb: [x]\nc: 3\n", nil, load.FormatYAML, `lose the value "y"`},
		{"a key dropped", "a: \"one two three\"\nb: [x, y]\n3: c\n", nil, load.FormatYAML, ""},
		{"a declared drop", "a: \"one two three\"\nb: [x, y]\nc: 4\n", []string{"3"}, load.FormatYAML, ""},
		{"a duplicate counts", "a: \"one two three\"\nb: [x, x]\nc: 3\n", nil, load.FormatYAML, `"y"`},
		{"prose kept as a comment", "# a was: one two three\nb: [x, y]\nc: 3\n", []string{"a"}, load.FormatYAML, ""},
		{"prose kept in a wrapped comment", "# a was: one two\n#   three\nb: [x, y]\nc: 3\n", []string{"a"}, load.FormatYAML, ""},
		{"a token is not prose", "a: \"one two three\"\nb: [x]  # y\nc: 3\n", nil, load.FormatYAML, `"y"`},
		{"does not parse", "a: [\n", nil, load.FormatYAML, "would not parse"},
		{"a new duplicate key", before + "c: 3\n", nil, load.FormatYAML, "new problem"},
		{"several lost", "z: 1\n", nil, load.FormatYAML, "values"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Verify("o.yaml", tc.format, []byte(before), []byte(tc.after), tc.drops)
			if tc.err == "" {
				if err != nil {
					t.Fatalf("unexpected: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
		})
	}
	t.Run("prose already in a comment does not count", func(t *testing.T) {
		b := "# one two three\na: \"one two three\"\n"
		if err := Verify("o.yaml", load.FormatYAML, []byte(b), []byte("# one two three\nb: 1\n"), []string{"a"}); err == nil {
			t.Fatal("the pre-existing comment hid a lost value")
		}
	})
	t.Run("markdown body must not change", func(t *testing.T) {
		b := "---\nx: 1\n---\nbody\n"
		if err := Verify("resume-context.md", load.FormatMarkdown, []byte(b), []byte("---\nx: 1\n---\nBODY\n"), nil); err == nil {
			t.Fatal("a changed body passed")
		}
	})
	t.Run("json", func(t *testing.T) {
		b := `{"a": {"b": 1}, "c": "d"}`
		if err := Verify("p.json", load.FormatJSON, []byte(b), []byte(`{"b": 1, "c": "d"}`), []string{"a"}); err != nil {
			t.Fatal(err)
		}
		if err := Verify("p.json", load.FormatJSON, []byte(b), []byte(`{"b": 1, "c": "d",}`), []string{"a"}); err == nil {
			t.Fatal("invalid JSON passed")
		}
	})
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ORCHESTRATION.yaml")
	old := []byte("a: 1\n")
	if err := os.WriteFile(p, old, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile("", p, "", old, []byte("a: 2\n")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(got) != "a: 2\n" {
		t.Errorf("content %q", got)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	if err := WriteFile("", p, "", old, []byte("a: 3\n")); !errors.Is(err, ErrChanged) {
		t.Errorf("a file changed since it was read: err = %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "a: 2\n" {
		t.Errorf("a changed file was overwritten: %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}

	t.Run("byte-order mark kept", func(t *testing.T) {
		b := filepath.Join(dir, "bom.yaml")
		os.WriteFile(b, append([]byte{0xEF, 0xBB, 0xBF}, "x: 1\n"...), 0o644)
		if err := WriteFile("", b, "", []byte("x: 1\n"), []byte("x: 2\n")); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(b)
		if !bytes.Equal(got, append([]byte{0xEF, 0xBB, 0xBF}, "x: 2\n"...)) {
			t.Errorf("got %q", got)
		}
	})
	t.Run("rename", func(t *testing.T) {
		from := filepath.Join(dir, "_resume.md")
		to := filepath.Join(dir, "resume-context.md")
		os.WriteFile(from, []byte("---\nx: 1\n---\n"), 0o600)
		if err := WriteFile("", from, to, []byte("---\nx: 1\n---\n"), []byte("---\nx: 1\n---\n")); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(from); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the old name still exists")
		}
		if fi, err := os.Stat(to); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
			t.Errorf("renamed file: %v %v", fi, err)
		}
		os.WriteFile(from, []byte("y: 2\n"), 0o644)
		if err := WriteFile("", from, to, []byte("y: 2\n"), []byte("y: 3\n")); err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("rename onto an existing file: err = %v", err)
		}
		if got, _ := os.ReadFile(to); string(got) != "---\nx: 1\n---\n" {
			t.Errorf("the existing file was overwritten: %q", got)
		}
	})
}

// TestWriteAllSaysNotWrittenOnce: a fix that cannot be written is skipped
// with the write's reason, which says "not written" once, and adds nothing
// (fix --unsafe-fixes lists no finding it would have added).
func TestWriteAllSaysNotWrittenOnce(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ORCHESTRATION.yaml")
	if err := os.WriteFile(p, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]func(){
		"changed on disk": func() { os.WriteFile(p, []byte("a: 9\n"), 0o600) },
		"read-only":       func() { os.WriteFile(p, []byte("a: 1\n"), 0o600); os.Chmod(p, 0o400) },
	}
	for name, prepare := range cases {
		prepare()
		ff := &File{File: &load.File{Path: "ORCHESTRATION.yaml", OSPath: p}, Read: []byte("a: 1\n"), Data: []byte("a: 2\n"),
			Path: "ORCHESTRATION.yaml", OSPath: p, Applied: []string{"RL112 set count to 2"}, Adds: []diag.Finding{{Code: "RL010"}}}
		WriteAll([]*File{ff}, func(*File, error) {})
		why := ff.Skipped["RL112 set count to 2"]
		if strings.Count(why, "not written") != 1 {
			t.Errorf("%s: %q", name, why)
		}
		if len(ff.Adds) != 0 {
			t.Errorf("%s: a fix not written still adds %v", name, ff.Adds)
		}
		os.Chmod(p, 0o600)
	}
}
