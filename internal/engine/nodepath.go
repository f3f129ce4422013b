package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// annotate gives each finding of a parsed document the document path of
// the node it was reported at and a hash of that node's content, so its
// identity (diag.Fingerprint) survives lines moving above it. One walk per
// document that has findings.
func annotate(fs []diag.Finding, docs []*load.Document) {
	if len(fs) == 0 {
		return
	}
	byPath := map[string]*load.Document{}
	for _, d := range docs {
		if d != nil && d.File != nil && (d.Root != nil || len(d.Lines) > 0) {
			byPath[d.File.Path] = d
		}
	}
	// JSONL documents are indexed only at the lines that have findings: an
	// events file can hold hundreds of thousands of lines.
	wanted := map[string]map[int]bool{}
	for i := range fs {
		if wanted[fs[i].Path] == nil {
			wanted[fs[i].Path] = map[int]bool{}
		}
		wanted[fs[i].Path][fs[i].Start.Line] = true
	}
	indexes := map[string]*nodeIndex{}
	for i := range fs {
		fd := &fs[i]
		d := byPath[fd.Path]
		if d == nil || fd.NodeHash != "" || fd.Start.Line == 0 {
			continue
		}
		ix := indexes[fd.Path]
		if ix == nil {
			ix = newNodeIndex(d, wanted[fd.Path])
			indexes[fd.Path] = ix
		}
		e := ix.at(fd.Start)
		if e < 0 {
			continue
		}
		if fd.NodePath == "" {
			fd.NodePath = ix.path(e)
		}
		fd.NodeHash = contentHash(ix.entries[e].n)
	}
}

type nodeEntry struct {
	line, col int
	n         *yaml.Node
	parent    int    // index of the enclosing entry, -1 at a root
	label     string // a mapping key, or "" for a list item
	index     int    // a list item's index, -1 for a key; labels are rendered only for the paths findings need
}

// nodeIndex lists a document's nodes (keys stand for their entries) and
// their order by position.
type nodeIndex struct {
	entries []nodeEntry
	byPos   []int // entry indexes sorted by position, outer nodes first
}

func newNodeIndex(d *load.Document, lines map[int]bool) *nodeIndex {
	ix := &nodeIndex{}
	var rec func(n *yaml.Node, parent int, label string, index int)
	rec = func(n *yaml.Node, parent int, label string, index int) {
		if n == nil {
			return
		}
		me := len(ix.entries)
		ix.entries = append(ix.entries, nodeEntry{line: n.Line, col: n.Column, n: n, parent: parent, label: label, index: index})
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				// The key stands for its entry: the same path as its value.
				ix.entries = append(ix.entries, nodeEntry{line: k.Line, col: k.Column, n: k, parent: me, label: k.Value, index: -1})
				rec(n.Content[i+1], me, k.Value, -1)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				rec(c, me, "", i)
			}
		}
	}
	if d.Root != nil {
		rec(d.Root, -1, "", -1)
	}
	for i, l := range d.Lines {
		if lines == nil || lines[l.Line] {
			rec(l.Node, -1, "", i)
		}
	}
	ix.byPos = make([]int, len(ix.entries))
	for i := range ix.byPos {
		ix.byPos[i] = i
	}
	sort.SliceStable(ix.byPos, func(i, j int) bool {
		a, b := ix.entries[ix.byPos[i]], ix.entries[ix.byPos[j]]
		if a.line != b.line {
			return a.line < b.line
		}
		return a.col < b.col
	})
	return ix
}

// at returns the entry reported at p: the outermost node starting there,
// else the last node starting before it, else the first node; -1 if none.
func (ix *nodeIndex) at(p diag.Pos) int {
	if len(ix.byPos) == 0 {
		return -1
	}
	i := sort.Search(len(ix.byPos), func(i int) bool {
		e := ix.entries[ix.byPos[i]]
		return e.line > p.Line || (e.line == p.Line && e.col >= p.Col)
	})
	if i < len(ix.byPos) {
		if e := ix.entries[ix.byPos[i]]; e.line == p.Line && e.col == p.Col {
			return ix.byPos[i]
		}
	}
	if i > 0 {
		return ix.byPos[i-1]
	}
	return ix.byPos[0]
}

// path renders an entry's document path, e.g. resumption.decision_log[2].id.
func (ix *nodeIndex) path(i int) string {
	var chain []int
	for ; i >= 0; i = ix.entries[i].parent {
		if e := ix.entries[i]; e.label != "" || e.index >= 0 {
			chain = append(chain, i)
		}
	}
	var sb strings.Builder
	for j := len(chain) - 1; j >= 0; j-- {
		e := ix.entries[chain[j]]
		if e.index >= 0 {
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(e.index))
			sb.WriteByte(']')
			continue
		}
		if sb.Len() > 0 && !strings.HasPrefix(e.label, "[") { // as before: baselines keep their fingerprints
			sb.WriteByte('.')
		}
		sb.WriteString(e.label)
	}
	return sb.String()
}

// contentHash hashes a node's own content, not its position: a scalar's
// tag and value, a mapping's keys, a list's kind. Deeper content stays out
// so a finding on a section keeps its identity when an entry deep inside
// changes.
func contentHash(n *yaml.Node) string {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	h := sha256.New()
	if n != nil {
		switch n.Kind {
		case yaml.MappingNode:
			h.Write([]byte("map"))
			for i := 0; i+1 < len(n.Content); i += 2 {
				h.Write([]byte{0})
				h.Write([]byte(n.Content[i].Value))
			}
		case yaml.SequenceNode:
			h.Write([]byte("seq"))
		default:
			h.Write([]byte(n.ShortTag()))
			h.Write([]byte{0})
			h.Write([]byte(n.Value))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
