package rules

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

// step is one labelled level of a document path: a key, or a list index
// with its list (seq), which names the item by its content (itemKey).
type step struct {
	label string
	index int
	seq   *yaml.Node
}

// walkEntries visits the nodes newNodeIndex lists, in its order (document
// order, outer nodes first, keys before their values), with the steps
// leading to each: root's, then those of lines, which start at entry base
// of the document's Lines; visit returns false to stop the walk.
func walkEntries(root *yaml.Node, lines []load.JSONLine, base int, visit func(n *yaml.Node, steps []step) bool) {
	var steps []step
	var rec func(n *yaml.Node) bool
	rec = func(n *yaml.Node) bool {
		if n == nil {
			return true
		}
		if !visit(n, steps) {
			return false
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				steps = append(steps, step{k.Value, -1, nil})
				if !visit(k, steps) || !rec(n.Content[i+1]) {
					return false
				}
				steps = steps[:len(steps)-1]
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				steps = append(steps, step{"", i, n})
				if !rec(c) {
					return false
				}
				steps = steps[:len(steps)-1]
			}
		}
		return true
	}
	if root != nil && !rec(root) {
		return
	}
	for i, l := range lines {
		steps = append(steps[:0], step{"", base + i, nil})
		if !rec(l.Node) {
			return
		}
	}
}

// walkTo returns what nodeIndex.at would, and its path, by walking the
// nodes walkEntries visits: the outermost node starting at p, else the
// last node (in position order) starting before it, else the first node.
func walkTo(root *yaml.Node, lines []load.JSONLine, base int, p diag.Pos) (*yaml.Node, string) {
	less := func(n *yaml.Node, line, col int) bool { return n.Line < line || n.Line == line && n.Column < col }
	before, first := -1, -1
	var beforeN, firstN, exactN *yaml.Node
	var exactPath string
	ord := -1
	walkEntries(root, lines, base, func(n *yaml.Node, steps []step) bool {
		ord++
		if n.Line == p.Line && n.Column == p.Col {
			exactN, exactPath = n, renderSteps(steps)
			return false
		}
		if less(n, p.Line, p.Col) && (beforeN == nil || !less(n, beforeN.Line, beforeN.Column)) {
			before, beforeN = ord, n
		}
		if firstN == nil || less(n, firstN.Line, firstN.Column) {
			first, firstN = ord, n
		}
		return true
	})
	if exactN != nil {
		return exactN, exactPath // the usual case: one walk
	}
	target := before
	if target < 0 {
		target = first
	}
	if target < 0 {
		return nil, ""
	}
	var found *yaml.Node
	var path string
	ord = -1
	walkEntries(root, lines, base, func(n *yaml.Node, steps []step) bool {
		ord++
		if ord < target {
			return true
		}
		found, path = n, renderSteps(steps)
		return false
	})
	return found, path
}

// renderSteps renders a document path as nodeIndex.path does.
func renderSteps(steps []step) string {
	var sb strings.Builder
	for _, e := range steps {
		switch {
		case e.index >= 0:
			writeItem(&sb, e.seq, e.index)
		case e.label == "":
		default:
			if sb.Len() > 0 && !strings.HasPrefix(e.label, "[") { // as before: baselines keep their fingerprints
				sb.WriteByte('.')
			}
			sb.WriteString(e.label)
		}
	}
	return sb.String()
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
	// items are the item keys of the lists paths went through (itemKeys).
	items map[*yaml.Node][]string
}

// newNodeIndex indexes the nodes walkEntries visits.
func newNodeIndex(root *yaml.Node, lines []load.JSONLine, base int) *nodeIndex {
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
	rec(root, -1, "", -1)
	for i, l := range lines {
		rec(l.Node, -1, "", base+i)
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
			if k := ix.itemKey(e.parent, e.index); k != "" {
				sb.WriteString(k)
			} else {
				sb.WriteString(strconv.Itoa(e.index))
			}
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
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:8]) // 16 hex digits, without keeping the other 48

}

// writeItem writes the step to item i of the list seq: its content key
// (itemKey) when it has one, else its index. A JSONL line (no list) is
// its index: an events file only grows at its end.
func writeItem(sb *strings.Builder, seq *yaml.Node, i int) {
	sb.WriteByte('[')
	if k := itemKey(seq, i); k != "" {
		sb.WriteString(k)
	} else {
		sb.WriteString(strconv.Itoa(i))
	}
	sb.WriteByte(']')
}

// itemKey names item i of the list seq by its content, so that a finding
// on the item, or inside it, keeps its identity when items are inserted,
// removed or reordered around it (a files_to_read entry added at the top,
// a phase inserted): a scalar by its value, a mapping by the value of its
// identifying key (idKey). An item whose content repeats earlier in the
// list gets its occurrence number. The key is a hash (the value may be a
// credential) marked with '=', which no index holds. An item with no such
// content (a list, a mapping without an identifying key) is "": it keeps
// its index.
func itemKey(seq *yaml.Node, i int) string {
	keys := itemKeys(seq)
	if i < 0 || i >= len(keys) {
		return ""
	}
	return keys[i]
}

// itemKeys is itemKey of every item of the list seq, in one pass.
func itemKeys(seq *yaml.Node) []string {
	for seq != nil && seq.Kind == yaml.AliasNode {
		seq = seq.Alias
	}
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return nil
	}
	keys := make([]string, len(seq.Content))
	seen := map[string]int{}
	for i, c := range seq.Content {
		if id := itemIdentity(c); id != "" {
			seen[id]++
			keys[i] = renderItemKey(id, seen[id])
		}
	}
	return keys
}

// renderItemKey is the key of the nth item of a list with identity id.
func renderItemKey(id string, n int) string {
	sum := sha256.Sum256([]byte(id))
	k := "=" + hex.EncodeToString(sum[:6])
	if n > 1 {
		k += "#" + strconv.Itoa(n)
	}
	return k
}

// itemKey returns the key (itemKey) of item i of the list at entry seq,
// the list's keys taken once: a list of thousands of items with a finding
// each is named in one pass.
func (ix *nodeIndex) itemKey(seq, i int) string {
	if seq < 0 {
		return "" // a JSONL line
	}
	n := ix.entries[seq].n
	keys, ok := ix.items[n]
	if !ok {
		keys = itemKeys(n)
		if ix.items == nil {
			ix.items = map[*yaml.Node][]string{}
		}
		ix.items[n] = keys
	}
	if i < len(keys) {
		return keys[i]
	}
	return ""
}

// itemIdentity is what names a list item (itemKey): a scalar's tag and
// value, a mapping's identifying key and its scalar value; "" for others.
func itemIdentity(n *yaml.Node) string {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n == nil {
		return ""
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return "v\x00" + n.ShortTag() + "\x00" + n.Value
	case yaml.MappingNode:
		if k, v := idKey(n); v != nil {
			return "k\x00" + k + "\x00" + v.Value
		}
	}
	return ""
}

// idKey returns a mapping's identifying key and its scalar value: "id",
// else the first key ending in "_id" (event_id, checkpoint_id, agent_id),
// else "name"; nil when it has none with a non-empty scalar value.
func idKey(m *yaml.Node) (string, *yaml.Node) {
	val := func(want func(string) bool) (string, *yaml.Node) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			for v != nil && v.Kind == yaml.AliasNode {
				v = v.Alias
			}
			if want(k.Value) && v != nil && v.Kind == yaml.ScalarNode && v.Value != "" && v.Tag != "!!null" {
				return k.Value, v
			}
		}
		return "", nil
	}
	for _, want := range []func(string) bool{
		func(k string) bool { return k == "id" },
		func(k string) bool { return strings.HasSuffix(k, "_id") },
		func(k string) bool { return k == "name" },
	} {
		if k, v := val(want); v != nil {
			return k, v
		}
	}
	return "", nil
}
