package load

import "testing"

// A suppression's captured edits remove it (its line when it stands
// alone) or span it for rewriting, whatever the line breaks; a file whose
// breaks cannot be edited gets none.
func TestDirectiveEdits(t *testing.T) {
	tests := []struct {
		name, in, removed, replaced string
	}{
		{"own line", "a: 1\n# resumelint:ignore RL107 -- old\nb: 2\n", "a: 1\nb: 2\n", "a: 1\nX\nb: 2\n"},
		{"indented own line", "a:\n  # resumelint:ignore RL107 -- x\n  b: 2\n", "a:\n  b: 2\n", "a:\n  X\n  b: 2\n"},
		{"end of line", "a: 1  # resumelint:ignore RL107 -- x\nb: 2\n", "a: 1\nb: 2\n", "a: 1  X\nb: 2\n"},
		{"CRLF", "a: 1  # resumelint:ignore RL107 -- x\r\nb: 2\r\n", "a: 1\r\nb: 2\r\n", "a: 1  X\r\nb: 2\r\n"},
	}
	apply := func(data string, off, length int) string { return data[:off] + "X" + data[off+length:] }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &File{Path: "ORCHESTRATION.yaml", Kind: KindOrchestration, Data: []byte(tc.in)}
			f.captureDirectives()
			if len(f.Directives) != 1 {
				t.Fatalf("%d directives, want 1", len(f.Directives))
			}
			d := f.Directives[0]
			if d.Remove == nil || d.Replace == nil {
				t.Fatal("no edits")
			}
			removed := tc.in[:d.Remove.Offset] + tc.in[d.Remove.Offset+d.Remove.Length:]
			if removed != tc.removed {
				t.Errorf("removed: %q, want %q", removed, tc.removed)
			}
			if got := apply(tc.in, d.Replace.Offset, d.Replace.Length); got != tc.replaced {
				t.Errorf("replaced: %q, want %q", got, tc.replaced)
			}
		})
	}
	f := &File{Path: "ORCHESTRATION.yaml", Kind: KindOrchestration, Data: []byte("a: 1  # resumelint:ignore RL107 -- x\rb: 2\r")}
	f.captureDirectives()
	if len(f.Directives) != 1 || f.Directives[0].Remove != nil {
		t.Errorf("a file with bare CR breaks gets its directive and no edit: %+v", f.Directives)
	}
}
