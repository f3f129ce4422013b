// Package filter is the one stage a run's raw findings pass through after
// the engine, in order: the rule selection and severity settings
// (--enable, --disable, the configuration's rules:), inline suppressions
// and the configuration's ignore list, then the suppressions that hid
// nothing (RL007). Baselines apply to what it returns.
package filter

import (
	"maps"
	"slices"
	"sort"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/par"
	"github.com/resumelint/resumelint/internal/rules"
)

// Scope is the configuration that applies to one file's findings.
type Scope struct {
	// Settings select the rules and their severities (their
	// rules.Selection, the value the engine ran with).
	Settings *engine.Settings
	// Config gives the ignore list; Root and Cwd anchor its globs.
	Config    *config.Config
	Root, Cwd string
}

// Stage filters the findings of one run. For chooses the scope of a
// file by its display path ("" for findings about no file), so nested
// configurations can apply to their own subtrees; today every file of a
// run shares one.
type Stage struct {
	For func(path string) *Scope
}

// onEveryCoreFindings is how many findings a run has before the filter
// works on every core.
var onEveryCoreFindings = 4096

// Apply filters res in place: res.Findings keeps what no setting,
// suppression or ignore hides, plus RL007's findings. The suppressions
// are the files' directives the engine returns (res.Directives).
func (st *Stage) Apply(res *engine.Result) {
	run := st.For("")
	// Suppressions only: the ignore list is applied per file below.
	sup := config.NewFilter(nil, "", "")
	sup.Active = func(code string) bool { return run.Settings.Selection.ActiveCode(code, run.Settings.HasBase()) }
	// The engine's findings come sorted, so each file's are one run of the
	// slice: they are filtered in place, run by run, without a copy.
	all := res.Findings
	if byPath := func(i, j int) bool { return all[i].Path < all[j].Path }; !sort.SliceIsSorted(all, byPath) {
		sort.SliceStable(all, byPath)
	}
	// One run of the slice per file. The runs are filtered on every core
	// when they are many, each within its own range (PostFile's copy
	// comes back into it, so no run's copy outlives it), then joined in
	// order.
	var runs [][2]int
	var paths []string // of the runs, in order
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].Path == all[i].Path {
			j++
		}
		runs = append(runs, [2]int{i, j})
		paths = append(paths, all[i].Path)
		i = j
	}
	type filtered struct {
		kept      int // the run's first kept findings
		unchecked []diag.Finding
	}
	done := make([]filtered, len(runs))
	filterRun := func(r int) {
		i, j, path := runs[r][0], runs[r][1], paths[r]
		sc := st.For(path)
		kept := all[i:i]
		for k := i; k < j; k++ {
			if sc.finish(&all[k]) {
				kept = append(kept, all[k])
			}
		}
		kept, done[r].unchecked = sc.unignored(sup.PostFile(path, res.Directives[path], kept))
		done[r].kept = copy(all[i:j], kept)
	}
	if len(all) >= onEveryCoreFindings {
		par.Each(len(runs), 16, filterRun)
	} else {
		for r := range runs {
			filterRun(r)
		}
	}
	out := all[:0]
	for r := range done {
		i := runs[r][0]
		out = append(out, all[i:i+done[r].kept]...) // moves left: out ends at or before i
		res.Unchecked = append(res.Unchecked, done[r].unchecked...)
	}
	clear(all[len(out):]) // no stale copies keep strings alive
	// Files without findings may hold suppressions that hid nothing.
	for _, path := range slices.Sorted(maps.Keys(res.Directives)) {
		if _, found := slices.BinarySearch(paths, path); !found {
			sup.PostFile(path, res.Directives[path], nil)
		}
	}
	unused := sup.PostRun()
	if !run.Settings.Opts.NoSnippets {
		directiveSnippets(out, unused, res.Directives)
	}
	for i := range unused {
		// RL007 names what a directive lists as it is written: its text
		// is made safe as the engine makes every other finding's.
		diag.SafeText(&unused[i])
		sc := st.For(unused[i].Path)
		if sc.finish(&unused[i]) && !sc.ignored(&unused[i]) {
			out = append(out, unused[i])
		}
	}
	// RL125 standing on a workflow makes its other live findings wait on
	// closing it (rules.WithoutQuestioned), only once it is known to stand.
	var notes []string
	out, notes = rules.WithoutQuestioned(out, res.Records)
	res.Notes = append(res.Notes, notes...)
	res.Findings = out
	diag.Sort(out)
}

// finish applies the scope's selection to fd: false when its rule is off.
func (sc *Scope) finish(fd *diag.Finding) bool {
	return sc.Settings.Selection.Finish(fd, sc.Settings.HasBase())
}

// ignored reports whether the scope's ignore list hides fd.
func (sc *Scope) ignored(fd *diag.Finding) bool {
	return sc.Config != nil && len(sc.Config.Ignore) > 0 && sc.Config.Ignored(fd, config.RootRel(sc.Root, sc.Cwd, fd.Path))
}

// unignored drops the findings the scope's ignore list hides, and returns
// apart those of them that say a file was not checked at all (they are
// still reported as unchecked files).
func (sc *Scope) unignored(fs []diag.Finding) (kept, unchecked []diag.Finding) {
	kept = slices.DeleteFunc(fs, func(fd diag.Finding) bool {
		if !sc.ignored(&fd) {
			return false
		}
		if config.Unchecked(fd.Code) {
			unchecked = append(unchecked, fd)
		}
		return true
	})
	return kept, unchecked
}

// directiveSnippets gives the findings without a snippet, in a file with
// a suppression that hid nothing, the line of a directive they sit on.
func directiveSnippets(fs, unused []diag.Finding, dirs map[string][]load.Directive) {
	reported := map[string]bool{}
	for _, u := range unused {
		reported[u.Path] = true
	}
	if len(reported) == 0 {
		return
	}
	for i := range fs {
		fd := &fs[i]
		if fd.HasSnippet || !reported[fd.Path] {
			continue
		}
		for _, d := range dirs[fd.Path] {
			if d.Line == fd.Start.Line {
				fd.Snippet, fd.HasSnippet = d.LineText, true
				break
			}
		}
	}
}
