package cli

import (
	"bufio"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// listFiles answers --list-files: one line per unit the run would check,
// "PATH<TAB>KIND<TAB>CONFIG", sorted by path; folders (bundles, agent
// runs) end in "/", and CONFIG is the configuration file governing the
// unit or "(defaults)". Nothing is read or checked. Every field is
// masked and escaped, and a tab inside one is shown as \t, so a line
// splits on tabs into exactly three fields.
func (c *Command) listFiles(d *load.Discovery, extra []*load.File, lc *lintConfig) (int, error) {
	type unit struct{ path, kind, config string }
	var units []unit
	add := func(disp string, kind load.Kind, osPath string, isDir bool) {
		units = append(units, unit{disp, string(kind), c.governing(lc.set.ForPath(osPath, isDir))})
	}
	for _, f := range d.Files {
		add(f.Path, f.Kind, f.OSPath, false)
	}
	for _, f := range d.Folders {
		add(strings.TrimSuffix(f.Path, "/")+"/", f.Kind, f.OSPath, true)
	}
	for _, f := range extra {
		add(f.Path, f.Kind, load.Abs(c.Cwd, f.OSPath), false)
	}
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
