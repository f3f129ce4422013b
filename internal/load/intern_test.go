package load

import (
	"fmt"
	"sync"
	"testing"
	"unsafe"
)

// TestInternKeyIsACopy: whatever the table holds, internKey returns the
// key's bytes as they were, never the caller's buffer, and a key seen
// before as the same string.
func TestInternKeyIsACopy(t *testing.T) {
	buf := []byte("resumption")
	a := internKey(buf)
	copy(buf, "XXXXXXXXXX")
	if a != "resumption" {
		t.Fatalf("the interned key changed with the buffer: %q", a)
	}
	b := internKey([]byte("resumption"))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("the same key twice: two strings")
	}
	long := make([]byte, maxInterned+1)
	for i := range long {
		long[i] = 'k'
	}
	if s := internKey(long); s != string(long) {
		t.Errorf("a long key: %q", s)
	}
	// More keys than slots: every answer is still the key.
	for i := range 3 * len(keySlots) {
		k := []byte(fmt.Sprintf("key_%d", i%5000))
		if s := internKey(k); s != string(k) {
			t.Fatalf("key %q: got %q", k, s)
		}
	}
}

// TestInternKeyOnEveryCore: the table is shared by the parsers of every
// worker (run with -race).
func TestInternKeyOnEveryCore(t *testing.T) {
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20000 {
				k := []byte(fmt.Sprintf("k%d", (i*7+w)%3000))
				if s := internKey(k); s != string(k) {
					t.Errorf("key %q: got %q", k, s)
					return
				}
			}
		}()
	}
	wg.Wait()
}
