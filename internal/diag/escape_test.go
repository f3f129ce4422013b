package diag

import "testing"

// RuneEscape is Escape of the one rune: "" exactly when it shows as
// itself.
func TestRuneEscapeIsEscapeOfOneRune(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		want := Escape(string(r))
		got := RuneEscape(r)
		if got == "" {
			got = string(r)
		}
		if got != want {
			t.Fatalf("RuneEscape(%U) = %q, Escape = %q", r, got, want)
		}
	}
}
