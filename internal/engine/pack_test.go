package engine

import (
	"fmt"
	"strings"
	"sync"
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

// Units pack on every core at once: no unit's strings may land in bytes
// another unit writes.
func TestStringPackOnEveryCore(t *testing.T) {
	p := &stringPack{}
	var wg sync.WaitGroup
	errs := make(chan string, 8*500+8)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range 500 {
				fs := []diag.Finding{{Message: fmt.Sprintf("worker %d unit %d", w, u), NodePath: "resumption.files_to_read[0]", NodeHash: fmt.Sprintf("%016x", w*1000+u)}}
				p.pack(fs)
				if fs[0].Message != fmt.Sprintf("worker %d unit %d", w, u) || fs[0].NodeHash != fmt.Sprintf("%016x", w*1000+u) {
					errs <- fmt.Sprintf("worker %d unit %d: %q %q", w, u, fs[0].Message, fs[0].NodeHash)
					return
				}
				defer func(fd diag.Finding, u int) {
					if fd.Message != fmt.Sprintf("worker %d unit %d", w, u) {
						errs <- fmt.Sprintf("worker %d unit %d changed to %q", w, u, fd.Message)
					}
				}(fs[0], u)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
