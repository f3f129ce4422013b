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
	"github.com/resumelint/resumelint/internal/rules"
)

// Scope is the configuration that applies to one file's findings.
type Scope struct {
	// Settings select the rules and their severities (engine.Active).
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

// Apply filters res in place: res.Findings keeps what no setting,
// suppression or ignore hides, plus RL007's findings; res.Sources gains
// the files those name.
func (st *Stage) Apply(res *engine.Result) {
	run := st.For("")
	// Suppressions only: the ignore list is applied per file below.
	sup := config.NewFilter(nil, "", "")
	sup.Active = func(code string) bool {
		r := rules.Lookup(code)
		if r == nil {
			return len(run.Settings.Only) == 0 || run.Settings.Only[code]
		}
		return engine.Active(r, run.Settings.Only, run.Settings.Severity, run.Settings.Opts.Base != nil)
	}
	byPath := map[string][]diag.Finding{}
	for _, fd := range res.Findings {
		byPath[fd.Path] = append(byPath[fd.Path], fd)
	}
	out := make([]diag.Finding, 0, len(res.Findings))
	for _, path := range slices.Sorted(maps.Keys(byPath)) {
		sc := st.For(path)
		fs := byPath[path]
		kept := fs[:0]
		for i := range fs {
			if sc.Settings.Finish(&fs[i]) {
				kept = append(kept, fs[i])
			}
		}
		src := sourceOf(res, path)
		kept = sc.unignored(sup.PostFile(src, kept))
		if len(kept) == 0 && src != nil && res.Sources[path] == src {
			delete(res.Sources, path) // no snippet needed
		}
		out = append(out, kept...)
	}
	// Files without findings may hold suppressions that hid nothing.
	for _, path := range slices.Sorted(maps.Keys(res.Kept)) {
		if _, ok := byPath[path]; !ok {
			sup.PostFile(res.Kept[path], nil)
		}
	}
	unused, files := sup.PostRun()
	for _, f := range files {
		if src := res.Sources[f.Path]; src == nil || !src.HasLines() {
			res.Sources[f.Path] = f
		}
	}
	for i := range unused {
		sc := st.For(unused[i].Path)
		if sc.Settings.Finish(&unused[i]) && !sc.ignored(&unused[i]) {
			out = append(out, unused[i])
		}
	}
	res.Findings = out
	sort.SliceStable(res.Findings, func(i, j int) bool { return diag.Less(&res.Findings[i], &res.Findings[j]) })
}

// ignored reports whether the scope's ignore list hides fd.
func (sc *Scope) ignored(fd *diag.Finding) bool {
	return sc.Config != nil && len(sc.Config.Ignore) > 0 && sc.Config.Ignored(fd, config.RootRel(sc.Root, sc.Cwd, fd.Path))
}

// unignored drops the findings the scope's ignore list hides.
func (sc *Scope) unignored(fs []diag.Finding) []diag.Finding {
	return slices.DeleteFunc(fs, func(fd diag.Finding) bool { return sc.ignored(&fd) })
}

// sourceOf returns the file a path names in a run: one with findings, or
// one that kept lines past its unit.
func sourceOf(res *engine.Result, path string) *load.File {
	if f := res.Sources[path]; f != nil {
		return f
	}
	return res.Kept[path]
}
