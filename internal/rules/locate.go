package rules

import (
	"slices"
	"sort"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// A finding's identity (diag.Fingerprint) is the document path of the node
// it was reported at and a hash of that node's content, so it survives
// lines moving above it. Report takes both while the unit's documents are
// in hand, through the unit's locator (shared in its Results).

// walkMax is the number of findings in one document (or JSONL line) up to
// which each is placed by walking it (no allocation); past it an index of
// every node is built once (most documents with findings have one or two).
const walkMax = 8

// locator places findings on the documents of one unit.
type locator struct {
	docs map[string]*docPlaces // by display path
	// hashes are the content hashes taken, by node: many findings on one
	// large node (a block scalar holding thousands of secrets) hash it
	// once, not once each.
	hashes map[*yaml.Node]string
}

// docPlaces is what the locator keeps of one document.
type docPlaces struct {
	d      *load.Document
	walked int
	ix     *nodeIndex
	lines  map[int]*linePlaces // JSONL: by line number
}

// linePlaces is what the locator keeps of one line of a JSONL document:
// each is placed on its own, the nodes of a line all starting on it.
type linePlaces struct {
	i      int // the line's entry in the document's Lines
	walked int
	ix     *nodeIndex
}

func newLocator(u load.Unit) *locator {
	l := &locator{docs: map[string]*docPlaces{}}
	add := func(d *load.Document) {
		if d != nil && d.File != nil && (d.Root != nil || len(d.Lines) > 0) {
			l.docs[d.File.Path] = &docPlaces{d: d}
		}
	}
	switch u := u.(type) {
	case *load.Document:
		add(u)
	case *load.Bundle:
		for _, d := range u.Artifacts {
			add(d)
		}
	case *load.AgentRun:
		add(u.TaskGraph)
		for _, d := range u.Events {
			add(d)
		}
	}
	return l
}

// locator returns the unit's locator, made on first use.
func (rs *Results) locator(u load.Unit) *locator {
	if rs.loc == nil {
		rs.loc = newLocator(u)
	}
	return rs.loc
}

// place gives fd the node path and content hash of the node it was
// reported at: the outermost node starting at its start, else the last
// node starting before it, else the first node; keys stand for their
// entries, and a path the rule named (WithNodePath) is kept. A finding in
// a Markdown body has no node (inBody). It returns
// false when that node depends on the lines of the unit's other findings
// (a JSONL line with no node at or before the start), which Place settles.
func (l *locator) place(fd *diag.Finding) bool {
	if fd.Start.Line == 0 || fd.NodeHash != "" {
		return true
	}
	dp := l.docs[fd.Path]
	if dp == nil || dp.inBody(fd.Start) {
		return true
	}
	n, path, ok := dp.at(fd.Start)
	if ok && n != nil {
		l.mark(fd, n, path)
	}
	return ok
}

func (l *locator) mark(fd *diag.Finding, n *yaml.Node, path string) {
	if fd.NodePath == "" {
		fd.NodePath = path
	}
	h, ok := l.hashes[n]
	if !ok {
		h = contentHash(n)
		if l.hashes == nil {
			l.hashes = map[*yaml.Node]string{}
		}
		l.hashes[n] = h
	}
	fd.NodeHash = h
}

// inBody reports whether p is in a Markdown document's body, or on the
// line closing its front matter: no node of the front matter is there,
// and the last one before it (progress, last_updated) changes with every
// session. A finding there is identified by its message (diag.Fingerprint).
func (dp *docPlaces) inBody(p diag.Pos) bool {
	return dp.d.FrontMatter && dp.d.BodyLine > 0 && p.Line >= dp.d.BodyLine-1
}

// at returns the node at p and its path; false for a JSONL position whose
// line has no node at or before it.
func (dp *docPlaces) at(p diag.Pos) (*yaml.Node, string, bool) {
	if dp.d.Root != nil {
		if dp.ix == nil && dp.walked < walkMax {
			dp.walked++
			n, path := walkTo(dp.d.Root, nil, 0, p)
			return n, path, true
		}
		if dp.ix == nil {
			dp.ix = newNodeIndex(dp.d.Root, nil, 0)
		}
		n, path := dp.ix.node(p)
		return n, path, true
	}
	lp := dp.line(p.Line)
	if lp == nil {
		return nil, "", false
	}
	var n *yaml.Node
	var path string
	if lp.ix == nil && lp.walked < walkMax {
		lp.walked++
		n, path = walkTo(nil, dp.d.Lines[lp.i:lp.i+1], lp.i, p)
	} else {
		n, path = dp.lineIndex(lp).node(p)
	}
	if n == nil || n.Line > p.Line || n.Line == p.Line && n.Column > p.Col {
		return nil, "", false // the line's first node, after p
	}
	return n, path, true
}

// line returns the JSONL line numbered ln, or nil if the document has
// none there.
func (dp *docPlaces) line(ln int) *linePlaces {
	if lp, ok := dp.lines[ln]; ok {
		return lp
	}
	ls := dp.d.Lines
	i := sort.Search(len(ls), func(i int) bool { return ls[i].Line >= ln })
	var lp *linePlaces
	if i < len(ls) && ls[i].Line == ln {
		lp = &linePlaces{i: i}
	}
	if dp.lines == nil {
		dp.lines = map[int]*linePlaces{}
	}
	dp.lines[ln] = lp
	return lp
}

func (dp *docPlaces) lineIndex(lp *linePlaces) *nodeIndex {
	if lp.ix == nil {
		lp.ix = newNodeIndex(nil, dp.d.Lines[lp.i:lp.i+1], lp.i)
	}
	return lp.ix
}

// node returns the entry at p (nodeIndex.at) and its path.
func (ix *nodeIndex) node(p diag.Pos) (*yaml.Node, string) {
	e := ix.at(p)
	if e < 0 {
		return nil, ""
	}
	return ix.entries[e].n, ix.path(e)
}

// Place gives the findings in fs on the unit's documents that Report did
// not place (the loader's, an internal error's, and those whose node
// depends on the lines of other findings) their node, as Report does. A
// JSONL document is indexed only at the lines that have findings: an
// events file can hold hundreds of thousands of lines. The engine calls it
// once the unit's rules ran, before the documents are released.
func (rs *Results) Place(u load.Unit, fs []diag.Finding) {
	if u == nil {
		return
	}
	l := rs.locator(u)
	var wanted map[string][]int // JSONL documents: the lines with findings
	for i := range fs {
		if dp := l.docs[fs[i].Path]; dp != nil && dp.d.Root == nil {
			if wanted == nil {
				wanted = map[string][]int{}
			}
			wanted[fs[i].Path] = append(wanted[fs[i].Path], fs[i].Start.Line)
		}
	}
	var nodeful map[string][]int // of those, the lines with a node, made on first need
	for i := range fs {
		fd := &fs[i]
		if l.place(fd) {
			continue
		}
		dp := l.docs[fd.Path]
		ls, done := nodeful[fd.Path]
		if !done {
			ls = dp.nodeful(wanted[fd.Path])
			if nodeful == nil {
				nodeful = map[string][]int{}
			}
			nodeful[fd.Path] = ls
		}
		if n, path := dp.among(ls, fd.Start); n != nil {
			l.mark(fd, n, path)
		}
	}
}

// nodeful returns, sorted and once each, the lines of ls that hold a node.
func (dp *docPlaces) nodeful(ls []int) []int {
	slices.Sort(ls)
	ls = slices.Compact(ls)
	out := ls[:0]
	for _, ln := range ls {
		if lp := dp.line(ln); lp != nil && dp.d.Lines[lp.i].Node != nil {
			out = append(out, ln)
		}
	}
	return out
}

// among returns the node at p when only the JSONL lines ls (sorted, each
// with a node) are indexed and p's line has no node at or before p: the
// last node of the last line before p's, else the first node of the first
// line.
func (dp *docPlaces) among(ls []int, p diag.Pos) (*yaml.Node, string) {
	if len(ls) == 0 {
		return nil, ""
	}
	k := sort.SearchInts(ls, p.Line)
	ln, last := ls[0], false
	if k > 0 {
		ln, last = ls[k-1], true
	}
	ix := dp.lineIndex(dp.line(ln))
	e := ix.byPos[0]
	if last {
		e = ix.byPos[len(ix.byPos)-1]
	}
	return ix.entries[e].n, ix.path(e)
}
