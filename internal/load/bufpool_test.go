package load

import (
	"bytes"
	"path/filepath"
	"testing"
)

func TestBufPool(t *testing.T) {
	for _, n := range []int{1, 100, 4096, 4097, 300 << 10, 1 << 20} {
		b, pooled := getBuf(n)
		if !pooled || len(b) != 0 || cap(b) < n || cap(b) > max(2*n, 4096) {
			t.Fatalf("getBuf(%d): len %d cap %d pooled %v", n, len(b), cap(b), pooled)
		}
		b = append(b, "hello"...)
		putBuf(b)
		if !bytes.Equal(b[:cap(b)], bytes.Repeat([]byte{0xFF}, cap(b))) {
			t.Errorf("getBuf(%d): a buffer handed back still holds its bytes", n)
		}
	}
	if b, pooled := getBuf(1<<20 + 1); pooled || cap(b) != 1<<20+1 {
		t.Errorf("a buffer over 1 MiB: cap %d, pooled %v", cap(b), pooled)
	}
	putBuf(make([]byte, 5000)) // not a pool's size: ignored
}

// A released file hands its buffer back and shows nothing of it: what
// a finding prints it took before.
func TestReleaseHandsBufferBack(t *testing.T) {
	p := writeFile(t, filepath.Join(t.TempDir(), "ORCHESTRATION.yaml"), "a: 1\nb: 2\n")
	f := &File{Path: "ORCHESTRATION.yaml", OSPath: p, Root: filepath.Dir(p)}
	if _, ok := Read(f, DefaultLimits); !ok || f.buf == nil {
		t.Fatal("the read did not use a pooled buffer")
	}
	buf := f.buf
	f.Release()
	if f.buf != nil || f.Data != nil {
		t.Error("the file still holds its bytes")
	}
	if buf[0] != 0xFF {
		t.Error("the buffer was not handed back")
	}
	if line, ok := f.Snippet(2); ok {
		t.Errorf("released file still shows line 2: %q", line)
	}
}
