package cli

import (
	"bufio"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/load"
)

// listFiles answers --list-files: one line per unit the run would check,
// "PATH<TAB>KIND<TAB>CONFIG", sorted by path; folders (bundles, agent
// runs) end in "/", and CONFIG is the configuration file governing the
// unit or "(defaults)". Nothing is checked; a file or folder whose name
// alone does not tell it from another system's of that name (an
// ORCHESTRATION routing table, a site's _resume.md, a job folder beside a
// TASK_SPEC.json) is read to tell, and left out where lint would skip it,
// with the same note on stderr (and lint's exit 2 when nothing is left).
// Every field is masked and escaped, and a tab inside one is shown as \t,
// so a line splits on tabs into exactly three fields.
func (c *Command) listFiles(d *load.Discovery, extra []*load.File, lf *lintFlags, lc *lintConfig) (int, error) {
	type unit struct{ path, kind, config string }
	var units []unit
	skipped := &engine.Result{}
	add := func(disp string, kind load.Kind, osPath string, isDir bool) {
		units = append(units, unit{disp, string(kind), c.governing(lc.set.ForPath(osPath, isDir))})
	}
	for _, f := range d.Files {
		if s := otherSystems(f, load.Abs(c.Cwd, f.OSPath)); s != nil {
			skipped.Skipped = append(skipped.Skipped, *s)
			continue
		}
		add(f.Path, f.Kind, f.OSPath, false)
	}
	for _, f := range d.Folders {
		if s := otherFolder(f); s != nil {
			skipped.Skipped = append(skipped.Skipped, *s)
			continue
		}
		add(strings.TrimSuffix(f.Path, "/")+"/", f.Kind, f.OSPath, true)
	}
	for _, f := range extra {
		if s := otherSystems(f, load.Abs(c.Cwd, f.OSPath)); s != nil {
			skipped.Skipped = append(skipped.Skipped, *s)
			continue
		}
		add(f.Path, f.Kind, load.Abs(c.Cwd, f.OSPath), false)
	}
	if len(units) == 0 && len(skipped.Skipped) > 0 {
		// Everything that matched a kind's name is another system's:
		// lint checks nothing and says so (exit 2); so does the listing.
		if code, err, done := c.onlySkipped(skipped, extra, lf, lc); done {
			return code, err
		}
	}
	c.reportSkips(skipped, lf, lc)
	sort.SliceStable(units, func(i, j int) bool { return units[i].path < units[j].path })
	w := bufio.NewWriter(c.Stdout)
	for _, u := range units {
		w.WriteString(listField(u.path) + "\t" + listField(u.kind) + "\t" + listField(u.config) + "\n")
	}
	if err := w.Flush(); err != nil {
		return ExitInternal, err
	}
	return ExitOK, nil
}

// otherSystems reads and parses a file of a kind whose name other systems
// use too, and returns the skip lint would make of it, or nil. A file
// that cannot be read stays listed: lint reports it.
func otherSystems(f *load.File, abs string) *load.Skip {
	switch f.Kind {
	case load.KindOrchestration, load.KindResumeContext, load.KindPrecompact:
	default:
		return nil
	}
	if f.Data == nil {
		if _, ok := load.Read(f, load.DefaultLimits); !ok {
			return nil
		}
		defer f.Release()
	}
	doc, probs := load.Parse(f, load.FormatOf(f.Kind, f.Path), load.DefaultLimits)
	if why := load.OtherSystems(abs, doc, probs); why != "" {
		return &load.Skip{Path: f.Path, Kind: f.Kind, Reason: why}
	}
	return nil
}

// otherFolder is the skip lint would make of a bundle or agent-run folder
// of another format (a job cache beside a TASK_SPEC.json, another tool's
// runs/ folder), or nil.
func otherFolder(f *load.Folder) *load.Skip {
	var why string
	switch f.Kind {
	case load.KindBundle:
		b, _ := load.LoadBundle(f, load.DefaultLimits)
		why = b.OtherFormat()
		for _, d := range b.Artifacts {
			d.File.Release()
		}
	case load.KindAgentRun:
		why = load.NotAgentRun(f)
	}
	if why == "" {
		return nil
	}
	return &load.Skip{Path: strings.TrimSuffix(f.Path, "/") + "/", Kind: f.Kind, Reason: why}
}

// governing names a scope's configuration file as the user would type it
// from the working directory, or "(defaults)".
func (c *Command) governing(sc *config.Scope) string {
	if sc == nil || sc.OSPath == "" {
		return "(defaults)"
	}
	return load.Display(c.Cwd, sc.OSPath)
}

// listField is one field of a --list-files line: through the one output
// path (diag.SafeLine), with its tabs shown as \t.
func listField(s string) string {
	return strings.ReplaceAll(diag.SafeLine(s), "\t", `\t`)
}
