package rules

import "testing"

// colCounter gives runeCol's answer whatever order offsets come in.
func TestColCounterAgreesWithRuneCol(t *testing.T) {
	line := `{"a":"résumé ghp_x","b":"«ghp_y»","c":"ghp_z"}`
	c := colCounter{line: line}
	for _, b := range []int{0, 5, 9, 9, 30, 12, 50, len(line), 3} {
		if got, want := c.col(b), runeCol(line, b); got != want {
			t.Errorf("col(%d) = %d, want %d", b, got, want)
		}
	}
}
