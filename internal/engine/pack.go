package engine

import (
	"strings"
	"sync"

	"github.com/resumelint/resumelint/internal/diag"
)

// stringPack keeps the strings of a run's findings (message, node path
// and hash) together in large blocks. They live until the report; made
// one by one among the parse trees' short-lived objects, each kept a page
// of the heap mostly empty and unusable for anything bigger, which the
// collector's memory limit counted (12 MiB at 4x the benchmark). Each
// block is held by one unit at a time, taken from a sync.Pool (whose
// per-processor cache needs no lock): one lock for every unit's strings
// made the workers wait on each other.
type stringPack struct {
	blocks sync.Pool // *strings.Builder with room left
}

// packBlock is the size of a block; a unit whose strings take more than a
// quarter of one keeps its own.
const packBlock = 64 << 10

// pack moves the strings of fs into a block.
func (p *stringPack) pack(fs []diag.Finding) {
	n := 0
	for i := range fs {
		n += len(fs[i].Message) + len(fs[i].NodePath) + len(fs[i].NodeHash)
	}
	if n == 0 || n > packBlock/4 {
		return
	}
	b, _ := p.blocks.Get().(*strings.Builder)
	if b == nil || b.Cap()-b.Len() < n {
		b = new(strings.Builder)
		b.Grow(packBlock)
	}
	defer p.blocks.Put(b)
	start := b.Len()
	for i := range fs {
		b.WriteString(fs[i].Message)
		b.WriteString(fs[i].NodePath)
		b.WriteString(fs[i].NodeHash)
	}
	all := b.String()[start:]
	take := func(s *string) {
		*s, all = all[:len(*s)], all[len(*s):]
	}
	for i := range fs {
		take(&fs[i].Message)
		take(&fs[i].NodePath)
		take(&fs[i].NodeHash)
	}
}
