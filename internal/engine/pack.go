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
// collector's memory limit counted (12 MiB at 4x the benchmark).
type stringPack struct {
	mu sync.Mutex
	b  *strings.Builder
}

// packBlock is the size of a block; a unit whose strings take more than a
// quarter of one keeps its own.
const packBlock = 64 << 10

// pack moves the strings of fs into the current block.
func (p *stringPack) pack(fs []diag.Finding) {
	n := 0
	for i := range fs {
		n += len(fs[i].Message) + len(fs[i].NodePath) + len(fs[i].NodeHash)
	}
	if n == 0 || n > packBlock/4 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.b == nil || p.b.Cap()-p.b.Len() < n {
		p.b = new(strings.Builder)
		p.b.Grow(packBlock)
	}
	start := p.b.Len()
	for i := range fs {
		p.b.WriteString(fs[i].Message)
		p.b.WriteString(fs[i].NodePath)
		p.b.WriteString(fs[i].NodeHash)
	}
	all := p.b.String()[start:]
	take := func(s *string) {
		*s, all = all[:len(*s)], all[len(*s):]
	}
	for i := range fs {
		take(&fs[i].Message)
		take(&fs[i].NodePath)
		take(&fs[i].NodeHash)
	}
}
