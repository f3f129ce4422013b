package cli

import "testing"

// TestListFieldEscapes: a --list-files field from the repository cannot
// move the cursor, start a line of its own or add a field.
func TestListFieldEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"ORCHESTRATION.yaml":           "ORCHESTRATION.yaml",
		"a\tb/ORCHESTRATION.yaml":      `a\tb/ORCHESTRATION.yaml`,
		"x\x1b[31m/ORCHESTRATION.yaml": `x\x1b[31m/ORCHESTRATION.yaml`,
		"x\n::error::forged":           `x\n::error::forged`,
		"::warning::y":                 `\x3a:warning::y`,
	} {
		if got := listField(in); got != want {
			t.Errorf("listField(%q) = %q, want %q", in, got, want)
		}
	}
}
