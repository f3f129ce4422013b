package lazyre

import (
	"sync"
	"testing"
)

func TestLazy(t *testing.T) {
	r := New(`^a(b+)$`)
	if r.re != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _ = r.MatchString("abb") }()
	}
	wg.Wait()
	if !r.MatchString("abbb") || r.MatchString("ac") {
		t.Fatal("wrong match")
	}
	if got := r.FindStringSubmatch("abb"); len(got) != 2 || got[1] != "bb" {
		t.Fatalf("submatch %q", got)
	}
	if got := r.ReplaceAllString("ab", "x"); got != "x" {
		t.Fatalf("replace %q", got)
	}
}
