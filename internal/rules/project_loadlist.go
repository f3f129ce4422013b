package rules

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// RL314: a files_to_load list as nexus's SessionStart reads it. Its hook
// does not parse YAML: it takes the list with a regular expression (the
// one below, unchanged in every version of session_start.py that reads
// resume-context.md), which stops at the first line that is not an item.
// A comment line inside the list ("# Planning documents") therefore ends
// what it loads: the entries after it are never loaded, with no error.

// nexusLoadListRe is session_start.py's multi-line files_to_load reading.
var nexusLoadListRe = lazyre.New(`files_to_load:\s*\n((?:\s*-\s*.+\n?)+)`)

// nexusLoadListHook is the text of that expression in the hook: where the
// hook holds it, the list is read so.
const nexusLoadListHook = `files_to_load:\s*\n((?:\s*-\s*.+\n?)+)`

// nexusItemRe counts the items of the part the expression takes.
var nexusItemRe = lazyre.New(`(?m)^\s*-\s*\S`)

// commentCutsLoadList reports the first comment line inside a block
// files_to_load list that SessionStart's reading stops at, naming how many
// entries it leaves unloaded.
func commentCutsLoadList(p *Pass, pr *Project, v *yaml.Node) {
	d := p.Doc
	data := d.File.Data
	if pr == nil || pr.Root == "" || v.Style&yaml.FlowStyle != 0 || len(v.Content) == 0 || data == nil {
		return
	}
	keyLine := 0
	node.Pairs(d.Root, func(k, val *yaml.Node) {
		if val == v {
			keyLine = k.Line
		}
	})
	if keyLine == 0 || commentLine(d.File, keyLine+1, v.Content[len(v.Content)-1].Line) == 0 {
		return // no comment in the list: nothing to cut it
	}
	type key struct{ root string }
	if !perRun(p.Index, key{pr.Root}, func() bool {
		return hookHolds(p, filepath.Join(pr.Root, ".claude", "hooks", "session_start.py"), nexusLoadListHook)
	}) {
		return
	}
	loaded := 0
	if m := nexusLoadListRe.Regexp().FindSubmatchIndex(data); m != nil && lineOfOffset(d.File.LineStarts(), m[0]) == keyLine {
		loaded = len(nexusItemRe.Regexp().FindAllIndex(data[m[2]:m[3]], -1))
	}
	if loaded >= len(v.Content) {
		return
	}
	// The comment between the last entry it loads and the next one.
	from := keyLine
	if loaded > 0 {
		from = v.Content[loaded-1].Line
	}
	if ln := commentLine(d.File, from+1, v.Content[loaded].Line); ln > 0 {
		col := bytes.IndexByte(d.File.LineBytes(ln), '#') + 1
		after := len(v.Content) - loaded
		p.ReportAt(d.File, diag.Pos{Line: ln, Col: col}, diag.Pos{}, fmt.Sprintf("SessionStart reads files_to_load only up to this comment line, so the %s after it %s not loaded: move the list's comments above it", countOf(after, "entry"), isAre(after)))
	}
}

// commentLine is the first line from from up to (not including) to that
// holds only a comment, or 0.
func commentLine(f *load.File, from, to int) int {
	for ln := from; ln < to; ln++ {
		text := f.LineBytes(ln)
		if i := bytes.IndexByte(text, '#'); i >= 0 && len(bytes.TrimSpace(text[:i])) == 0 {
			return ln
		}
	}
	return 0
}

// lineOfOffset is the 1-based line holding byte offset off.
func lineOfOffset(starts []int, off int) int {
	return sort.Search(len(starts), func(i int) bool { return starts[i] > off })
}
