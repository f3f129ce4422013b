package engine

import (
	"encoding/binary"
	"strings"
	"sync"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/rules"
)

// findingPack keeps a run's findings from their unit to the report as
// records in large blocks: each finding's fields as varints, its strings
// (message, node path and hash) inline, the decoded strings pointing into
// the block; paths and snippets, which findings share, by index. A
// diag.Finding is 200 bytes before its strings, a record about 20: at 8x
// the findings benchmark (48,800 findings) the run kept 9 MB of
// structures through its units, beside everything else it keeps, and the
// collector's memory limit counted them. A finding with related locations
// or a fix is kept whole (few are).
//
// Made one by one among the parse trees' short-lived objects, each
// finding's strings kept a page of the heap mostly empty and unusable for
// anything bigger, which the limit counted too (12 MiB at 4x the
// benchmark). Each block is held by one unit at a time, taken from a
// sync.Pool (whose per-processor cache needs no lock): one lock for every
// unit made the workers wait on each other.
type findingPack struct {
	blocks  sync.Pool // *strings.Builder with room left
	scratch sync.Pool // *[]byte a unit's records are made in
}

// packBlock is the size of a block; a unit whose records take more than a
// quarter of one keeps its own.
const packBlock = 64 << 10

// packed are a unit's findings: n records, the paths and snippets they
// name by index into strs, and the findings kept whole. Small: one is
// kept for every unit with findings.
type packed struct {
	recs  string
	strs  []string
	whole *[]diag.Finding
	n     int
}

// packing is a unit's packed while its records are made.
type packing struct {
	packed
	whole    []diag.Finding
	pathList []int           // the paths' indexes in strs, while few
	pathAt   map[string]int  // the same, once there are many
	snipAt   map[snipKey]int // snippets' indexes
}

// snipKey is where a snippet was taken: the findings on one line share
// their line's text (thousands on one minified JSON line), which is
// stored once, as it was kept once.
type snipKey struct{ path, line, n int }

// The flags byte that starts a record.
const (
	recSecret     = 1 << iota
	recHasSnippet // Finding.HasSnippet
	recWhole      // the finding is whole[i]: the record holds i alone
	recRuleName   // Name is the rule's, not in the record
	recLive       // Finding.Live
)

// pack turns fs into records; nil when there are none. A nil pack keeps
// them in memory of their own.
func (p *findingPack) pack(fs []diag.Finding) *packed {
	if len(fs) == 0 {
		return nil
	}
	out := &packing{packed: packed{n: len(fs)}}
	var buf *[]byte
	if p != nil {
		buf, _ = p.scratch.Get().(*[]byte)
	}
	if buf == nil {
		buf = new([]byte)
	}
	b := (*buf)[:0]
	for i := range fs {
		b = out.record(b, &fs[i])
	}
	if p == nil || len(b) > packBlock/4 {
		out.recs = string(b)
	} else {
		out.recs = p.put(b)
	}
	*buf = b[:0]
	if p != nil && cap(b) <= packBlock {
		p.scratch.Put(buf)
	}
	// What is kept, without the packing's maps and lists.
	kept := out.packed
	if len(out.whole) > 0 {
		whole := out.whole // not &out.whole, which would keep out
		kept.whole = &whole
	}
	return &kept
}

// put copies b into a block and returns it as a string of that block.
func (p *findingPack) put(b []byte) string {
	blk, _ := p.blocks.Get().(*strings.Builder)
	if blk == nil || blk.Cap()-blk.Len() < len(b) {
		blk = new(strings.Builder)
		blk.Grow(packBlock)
	}
	defer p.blocks.Put(blk)
	start := blk.Len()
	blk.Write(b)
	return blk.String()[start:]
}

// record appends the record of fd to b.
func (u *packing) record(b []byte, fd *diag.Finding) []byte {
	var flags byte
	if fd.Related != nil || fd.Fix != nil {
		u.whole = append(u.whole, *fd)
		return binary.AppendUvarint(append(b, recWhole), uint64(len(u.whole)-1))
	}
	if fd.Secret {
		flags |= recSecret
	}
	if fd.HasSnippet {
		flags |= recHasSnippet
	}
	if fd.Live {
		flags |= recLive
	}
	if r := rules.Lookup(fd.Code); r != nil && r.Name == fd.Name {
		flags |= recRuleName
	}
	b = append(b, flags)
	b = binary.AppendVarint(b, int64(fd.Severity))
	path := u.pathIndex(fd.Path)
	b = binary.AppendUvarint(b, uint64(path))
	b = binary.AppendUvarint(b, uint64(u.snipIndex(path, fd.Start.Line, fd.Snippet)))
	for _, v := range [...]int{fd.Start.Line, fd.Start.Col, fd.End.Line, fd.End.Col} {
		b = binary.AppendVarint(b, int64(v))
	}
	b = appendString(b, fd.Code)
	if flags&recRuleName == 0 {
		b = appendString(b, fd.Name)
	}
	for _, s := range [...]string{fd.Message, fd.NodePath, fd.NodeHash} {
		b = appendString(b, s)
	}
	return b
}

// pathIndex is the index of path in u.strs, added when new: a unit's
// findings name a file or a few (a run's folder, thousands).
func (u *packing) pathIndex(path string) int {
	if u.pathAt == nil {
		for _, i := range u.pathList {
			if u.strs[i] == path {
				return i
			}
		}
		i := u.add(path)
		if u.pathList = append(u.pathList, i); len(u.pathList) >= 8 {
			u.pathAt = make(map[string]int, 16)
			for _, j := range u.pathList {
				u.pathAt[u.strs[j]] = j
			}
		}
		return i
	}
	if i, ok := u.pathAt[path]; ok {
		return i
	}
	i := u.add(path)
	u.pathAt[path] = i
	return i
}

// add appends s to u.strs and returns its index.
func (u *packing) add(s string) int {
	u.strs = append(u.strs, s)
	return len(u.strs) - 1
}

// snipIndex is 0 for no snippet, else 1 + the index of s in u.strs,
// taken on line of the path indexed path: the same text there is stored
// once. The comparison is of strings most often the same one, which Go
// tells apart without reading them.
func (u *packing) snipIndex(path, line int, s string) int {
	if s == "" {
		return 0
	}
	k := snipKey{path, line, len(s)}
	if i, ok := u.snipAt[k]; ok && u.strs[i] == s {
		return i + 1
	}
	if u.snipAt == nil {
		u.snipAt = map[snipKey]int{}
	}
	i := u.add(s)
	u.snipAt[k] = i
	return i + 1
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// unpack writes the findings into out, which holds u.n of them. Their
// strings are the records'.
func (u *packed) unpack(out []diag.Finding) {
	r := recReader{s: u.recs}
	for i := range out[:u.n] {
		flags := r.s[r.at]
		r.at++
		if flags&recWhole != 0 {
			out[i] = (*u.whole)[r.uvarint()]
			continue
		}
		fd := diag.Finding{Secret: flags&recSecret != 0, HasSnippet: flags&recHasSnippet != 0, Live: flags&recLive != 0}
		fd.Severity = diag.Severity(r.varint())
		fd.Path = u.strs[r.uvarint()]
		if s := r.uvarint(); s > 0 {
			fd.Snippet = u.strs[s-1]
		}
		fd.Start.Line, fd.Start.Col = int(r.varint()), int(r.varint())
		fd.End.Line, fd.End.Col = int(r.varint()), int(r.varint())
		fd.Code = r.str()
		if flags&recRuleName != 0 {
			fd.Name = rules.Lookup(fd.Code).Name
		} else {
			fd.Name = r.str()
		}
		fd.Message, fd.NodePath, fd.NodeHash = r.str(), r.str(), r.str()
		out[i] = fd
	}
}

// recReader reads the records of a packed.
type recReader struct {
	s  string
	at int
}

func (r *recReader) uvarint() uint64 {
	var v uint64
	for shift := 0; ; shift += 7 {
		c := r.s[r.at]
		r.at++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
}

func (r *recReader) varint() int64 {
	u := r.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (r *recReader) str() string {
	n := int(r.uvarint())
	s := r.s[r.at : r.at+n]
	r.at += n
	return s
}
