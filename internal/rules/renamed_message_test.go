package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// RL314's one finding for many renamed entries stays within the message
// limit however many entries and however long (or hostile) their names.
func TestRenamedMessageShort(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8000} {
		var olds, alts []string
		for i := 0; i < n; i++ {
			olds = append(olds, fmt.Sprintf("doc-%05d-long-name-\x1b[31m.md", i))
			alts = append(alts, fmt.Sprintf("01-doc-%05d-long-name-\x1b[31m.md", i))
		}
		msg := renamedMessage(olds, alts)
		if l := len([]rune(diag.Escape(msg))); l > diag.MaxMessage || strings.ContainsRune(msg, 0x1b) {
			t.Errorf("%d entries: %d runes: %q", n, l, msg)
		}
	}
}
