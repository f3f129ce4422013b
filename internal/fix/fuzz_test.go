package fix

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// FuzzMigrate: any YAML gives a migration whose edits apply; a result that
// passes the nothing-lost check migrates no further.
func FuzzMigrate(f *testing.F) {
	paths, _ := filepath.Glob("testdata/migrate/*.yaml")
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("resumption:\n  last_checkpoint: x\n"))
	f.Add([]byte("resumption:\n  current_state: |\n    a\n    # b\n  next_step: c"))
	f.Add([]byte("resumption: {last_checkpoint: x}\n"))
	f.Add([]byte("---\nresumption:\n  next_step: x\n...\n"))
	f.Add([]byte("a: &x 1\nresumption:\n  next_step: *x\n  recovery_state:\n    x: 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		f := &load.File{Path: "ORCHESTRATION.yaml", Data: data}
		if _, ok := load.CheckBytes(f, load.DefaultLimits); !ok {
			return
		}
		doc, _ := load.Parse(f, load.FormatYAML, load.DefaultLimits)
		if doc.Root == nil {
			return
		}
		m := Migrate(doc)
		if m.Fix == nil {
			return
		}
		out, err := Apply(f.Data, m.Fix.Edits)
		if err != nil {
			t.Fatalf("the migration's own edits do not apply: %v", err)
		}
		if Verify(f.Path, load.FormatYAML, f.Data, out, m.Fix.Drops) != nil {
			return // refused: the file is left untouched
		}
		doc2, _ := load.Parse(&load.File{Path: f.Path, Data: out}, load.FormatYAML, load.DefaultLimits)
		if m2 := Migrate(doc2); m2.Fix != nil {
			t.Fatalf("a verified migration is not final:\n%s", out)
		}
	})
}

// FuzzApply: Apply never panics and keeps the bytes outside the edits.
func FuzzApply(f *testing.F) {
	f.Add([]byte("a: 1\nb: 2\n"), 2, 3, "x", 5, 0, "y")
	f.Add([]byte(""), 0, 0, "z", 0, 0, "w")
	f.Fuzz(func(t *testing.T, data []byte, o1, l1 int, s1 string, o2, l2 int, s2 string) {
		out, err := Apply(data, nil)
		if err != nil || string(out) != string(data) {
			t.Fatal("no edits changed the text")
		}
		out, err = Apply(data, []diag.TextEdit{{Offset: o1, Length: l1, NewText: s1}, {Offset: o2, Length: l2, NewText: s2}})
		if err != nil {
			return
		}
		lo := min(o1, o2)
		if string(out[:lo]) != string(data[:lo]) {
			t.Fatal("bytes before the first edit changed")
		}
	})
}
