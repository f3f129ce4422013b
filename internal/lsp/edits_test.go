package lsp

import (
	"bytes"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
)

// naiveChanges applies edits one by one to the whole text, as
// applyRangeChange does: the reference applyRangeChanges must match.
func naiveChanges(text []byte, changes []rangeChange, limit int) ([]byte, bool) {
	for _, ch := range changes {
		text = applyRangeChange(text, ch.r, ch.text)
		if len(text) > limit {
			return nil, true
		}
	}
	return text, false
}

var editPieces = []string{"a", "b", "\n", "\r\n", "\r", "é", "😀", "水", "xyz", "\n\n", ""}

func randText(rng *rand.Rand, n int) string {
	var sb strings.Builder
	for range n {
		sb.WriteString(editPieces[rng.Intn(len(editPieces))])
	}
	return sb.String()
}

func randPos(rng *rand.Rand, lines int) position {
	p := position{Line: rng.Intn(lines + 2), Character: rng.Intn(12)}
	switch rng.Intn(20) {
	case 0:
		p.Line = -1
	case 1:
		p.Character = -1
	case 2:
		p.Character = 1 << 20
	}
	return p
}

// TestApplyRangeChanges: a batch of edits, each against the text the
// previous left, gives exactly the text one-by-one application gives,
// with chunks small enough that edits cross them, lines span them and
// a CRLF is split between two.
func TestApplyRangeChanges(t *testing.T) {
	defer func(n int) { chunkSize = n }(chunkSize)
	rng := rand.New(rand.NewSource(1))
	for _, size := range []int{1, 2, 3, 7, 64} {
		chunkSize = size
		for iter := range 400 {
			text := []byte(randText(rng, rng.Intn(60)))
			var changes []rangeChange
			for range rng.Intn(30) + 1 {
				lines := bytes.Count(text, []byte{'\n'}) + 1
				changes = append(changes, rangeChange{lspRange{randPos(rng, lines), randPos(rng, lines)}, randText(rng, rng.Intn(4))})
			}
			limit := 1 << 20
			if iter%10 == 0 {
				limit = len(text) + 5
			}
			want, wantOver := naiveChanges(bytes.Clone(text), changes, limit)
			got, gotOver := applyRangeChanges(bytes.Clone(text), changes, limit)
			if !bytes.Equal(got, want) || gotOver != wantOver {
				t.Fatalf("chunk %d, text %q, changes %+v:\ngot  %q %v\nwant %q %v", size, text, changes, got, gotOver, want, wantOver)
			}
		}
	}
}

// TestApplyRangeChangesInvalidUTF8: bytes not from JSON are edited as
// they are.
func TestApplyRangeChangesInvalidUTF8(t *testing.T) {
	text := []byte("a\xe2\x82\nb\xff\n")
	ch := []rangeChange{{lspRange{position{0, 2}, position{1, 1}}, "Z"}, {lspRange{position{0, 0}, position{0, 1}}, "\x80"}}
	want, _ := naiveChanges(bytes.Clone(text), ch, 1<<20)
	got, _ := applyRangeChanges(bytes.Clone(text), ch, 1<<20)
	if !bytes.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRangeChangesAreNotQuadratic: one message's edits walk the text's
// chunks, not its bytes: 2000 edits to a 4 MiB text allocate a few chunks
// each, not a copy of the text each (8 GiB).
func TestRangeChangesAreNotQuadratic(t *testing.T) {
	text := bytes.Repeat([]byte("line of text\n"), (4<<20)/13)
	changes := make([]rangeChange, 2000)
	for i := range changes {
		changes[i] = rangeChange{lspRange{position{i * 100, 3}, position{i * 100, 5}}, "x"}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, _ := applyRangeChanges(text, changes, maxMessage)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<20 {
		t.Errorf("%d edits to %d bytes allocated %d bytes", len(changes), len(text), n)
	}
	want, _ := naiveChanges(bytes.Clone(text), changes[:50], maxMessage)
	got50, _ := applyRangeChanges(text, changes[:50], maxMessage)
	if !bytes.Equal(got50, want) || len(got) != len(text)-len(changes) {
		t.Error("the edits' result differs from one-by-one application")
	}
}

func benchEdits(b *testing.B, k int) {
	text := bytes.Repeat([]byte("line of text\n"), (8<<20)/13)
	edit := rangeChange{lspRange{position{0, 0}, position{0, 0}}, "x"}
	changes := make([]rangeChange, k)
	for i := range changes {
		changes[i] = edit
	}
	b.ResetTimer()
	for range b.N {
		applyRangeChanges(text, changes, maxMessage)
	}
}

// BenchmarkRangeChanges: an 8 MiB document, one didChange of N and 4N
// edits.
func BenchmarkRangeChanges(b *testing.B) {
	for _, k := range []int{2000, 8000} {
		b.Run(fmt.Sprint(k), func(b *testing.B) { benchEdits(b, k) })
	}
}
