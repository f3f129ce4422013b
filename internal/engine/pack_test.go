package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// Packing moves the strings, never changes them, across blocks and for
// units too big to pack.
func TestStringPackKeepsStrings(t *testing.T) {
	p := &stringPack{}
	var all, want [][]diag.Finding
	for u := 0; u < 400; u++ {
		var fs []diag.Finding
		for i := 0; i < u%7; i++ {
			fs = append(fs, diag.Finding{
				Message:  fmt.Sprintf("unit %d finding %d: %s", u, i, strings.Repeat("é", u%13)),
				NodePath: fmt.Sprintf("resumption.files_to_read[%d]", i),
				NodeHash: fmt.Sprintf("%016x", u*100+i),
			})
		}
		if u == 399 {
			fs = append(fs, diag.Finding{Message: strings.Repeat("x", packBlock)})
		}
		want = append(want, append([]diag.Finding(nil), fs...))
		p.pack(fs)
		all = append(all, fs)
	}
	for u := range all {
		for i := range all[u] {
			g, w := all[u][i], want[u][i]
			if g.Message != w.Message || g.NodePath != w.NodePath || g.NodeHash != w.NodeHash {
				t.Fatalf("unit %d finding %d: %q %q %q, want %q %q %q", u, i, g.Message, g.NodePath, g.NodeHash, w.Message, w.NodePath, w.NodeHash)
			}
		}
	}
}
