package load

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// A memo serves a second read of the same file from the first read's
// bytes (BOM and all, so the findings are the same), keeps files apart by
// root, and past its budget lets files be read again.
func TestReadMemo(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "a.yaml")
	big := filepath.Join(dir, "b.yaml")
	if err := os.WriteFile(small, []byte("\xEF\xBB\xBFa: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, 8<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	reads := map[string]int{}
	OnRead = func(p string) { mu.Lock(); reads[p]++; mu.Unlock() }
	defer func() { OnRead = nil }()
	lim := DefaultLimits
	lim.Reads = NewReadMemo(4 << 10) // room for the small file's buffer only
	for range 3 {
		for _, p := range []string{small, big} {
			f := &File{Path: filepath.Base(p), OSPath: p, Root: dir}
			probs, _ := Read(f, lim)
			if p == small && (len(probs) != 1 || string(f.Data) != "a: 1\n") {
				t.Errorf("%s: %q, %v", p, f.Data, probs)
			}
			f.Release()
		}
	}
	other := &File{Path: "a.yaml", OSPath: small, Root: filepath.Dir(dir)}
	Read(other, lim)
	if reads[small] != 2 || reads[big] != 3 {
		t.Errorf("reads %v: want the small file read once per root, the big one every time", reads)
	}
}
