package cli

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/load"
)

// `resumelint fix` is `resumelint lint --fix` (SPEC §4, §5).
func init() {
	subcommands["fix"] = func(c *Command, args []string) (int, error) {
		return c.lintAs("fix", append([]string{"--fix"}, args...))
	}
}

// maxFixRounds bounds the lint-and-fix passes: a fix that conflicted with
// another, or that a first fix made possible (ids numbered in a log the
// migration just created), applies on a later pass.
const maxFixRounds = 10

// fixFile is one file carried through the fix passes, in memory.
type fixFile struct {
	file   *load.File // as discovered: kind, paths
	read   []byte     // the bytes read in the first pass
	data   []byte     // the text after the fixes so far
	path   string     // display path now (a rename changes it)
	osPath string
	fixes  int
	notes  map[string]string // rule code -> why its fix was not applied
}

func (ff *fixFile) changed() bool { return ff.path != ff.file.Path || !bytes.Equal(ff.read, ff.data) }

func (ff *fixFile) note(code, why string) {
	if ff.notes == nil {
		ff.notes = map[string]string{}
	}
	ff.notes[code] = why
}

// fix runs lint passes over the files in memory, applying the allowed
// fixes of each pass, until nothing more applies. With --diff it prints
// the changes as a unified diff and writes nothing; with --fix it writes
// each changed file once, lints again and prints what remains.
func (c *Command) fix(disc *load.Discovery, extra []*load.File, s engine.Settings, lf *lintFlags, cf *configFlags, lc *lintConfig, failOn diag.Severity) (int, error) {
	if !lf.diff && len(extra) > 0 {
		return ExitUsage, usagef("--fix cannot write a file read from stdin; use --diff to see its fixes")
	}
	allowed := func(fx *diag.Fix) bool {
		return fx != nil && (len(fx.Edits) > 0 || fx.RenameTo != "") &&
			(fx.Applicability == diag.FixSafe || (fx.Applicability == diag.FixUnsafe && lf.unsafeFixes))
	}
	s.KeepData = true // the fixes edit the bytes the run read
	run := func(d *load.Discovery, ex []*load.File) *engine.Result { return engine.Run(d, ex, lc.freshFilter(s)) }
	// Findings a baseline hides are left as they are, like suppressed ones.
	var base *config.Baseline
	if cf.baseline != "" {
		var err error
		if base, err = config.ReadBaseline(osPathOf(c.Cwd, cf.baseline), cf.baseline); err != nil {
			return ExitUsage, err
		}
	}
	visible := func(res *engine.Result) []diag.Finding {
		if base == nil {
			return res.Findings
		}
		kept, _ := base.Filter(res.Findings, lc.rel)
		return kept
	}

	res := run(disc, extra)
	byPath := map[string]*fixFile{}
	var files []*fixFile
	for _, f := range append(append([]*load.File(nil), extra...), disc.Files...) {
		if f.Data == nil {
			continue
		}
		ff := &fixFile{file: f, read: f.Data, data: f.Data, path: f.Path, osPath: f.OSPath}
		byPath[f.Path] = ff
		files = append(files, ff)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].file.Path < files[j].file.Path })

	for round := 0; round < maxFixRounds; round++ {
		offered := map[*fixFile][]*diag.Finding{}
		fds := visible(res)
		for i := range fds {
			fd := &fds[i]
			if ff := byPath[fd.Path]; ff != nil && allowed(fd.Fix) {
				offered[ff] = append(offered[ff], fd)
			}
		}
		applied := 0
		for _, ff := range files {
			if fds := offered[ff]; len(fds) > 0 {
				applied += applyPass(c.Cwd, ff, fds, byPath)
			}
		}
		if applied == 0 {
			break
		}
		res = run(passDiscovery(disc, byPath), passFiles(files))
	}

	if lf.diff {
		return c.printDiff(files)
	}

	written, nFixes := 0, 0
	writeErr := map[string]string{}
	for _, ff := range files {
		if !ff.changed() {
			continue
		}
		newPath := ""
		if ff.path != ff.file.Path {
			newPath = ff.osPath
		}
		if err := fix.WriteFile(ff.file.OSPath, newPath, ff.read, ff.data); err != nil {
			fmt.Fprintf(c.Stderr, "resumelint: %s: %v\n", ff.file.Path, err)
			writeErr[ff.file.Path] = err.Error()
			ff.path, ff.osPath = ff.file.Path, ff.file.OSPath
			continue
		}
		written++
		nFixes += ff.fixes
	}

	// Lint again what is on disk now.
	final := &load.Discovery{Folders: disc.Folders, Unknown: disc.Unknown}
	for _, f := range disc.Files {
		nf := &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit}
		for _, x := range files {
			if x.file == f {
				nf.Path, nf.OSPath = x.path, x.osPath
			}
		}
		final.Files = append(final.Files, nf)
	}
	sort.Slice(final.Files, func(i, j int) bool { return final.Files[i].Path < final.Files[j].Path })
	res = run(final, nil)
	notes := map[string]map[string]string{}
	for _, ff := range files {
		if ff.notes != nil {
			notes[ff.path] = ff.notes
		}
	}
	for i := range res.Findings {
		fd := &res.Findings[i]
		if !allowed(fd.Fix) {
			continue
		}
		why := writeErr[fd.Path]
		if why == "" {
			why = notes[fd.Path][fd.Code]
		}
		if why != "" {
			fd.Message += " (fix not applied: " + why + ")"
		}
	}
	code, err := c.finish(res, lf, cf, lc, failOn)
	out := c.Stdout
	if lf.format != "text" {
		out = c.Stderr
	}
	switch {
	case nFixes == 0:
		fmt.Fprintln(out, "0 fixes applied.")
	default:
		fmt.Fprintf(out, "%s applied in %s.\n", plural(nFixes, "fix", "fixes"), plural(written, "file", "files"))
	}
	return code, err
}

// applyPass applies the fixes offered for one file in one pass: those that
// do not overlap, whose result keeps every value (fix.Verify). It returns
// how many were applied.
func applyPass(cwd string, ff *fixFile, fds []*diag.Finding, byPath map[string]*fixFile) int {
	fixes := make([]*diag.Fix, len(fds))
	codeOf := map[*diag.Fix]string{}
	for i, fd := range fds {
		fixes[i] = fd.Fix
		if _, ok := codeOf[fd.Fix]; !ok {
			codeOf[fd.Fix] = fd.Code
		}
	}
	var picked []*diag.Fix
	for _, ch := range fix.Select(fixes) {
		switch ch.Outcome {
		case fix.Applied:
			picked = append(picked, ch.Fix)
		case fix.Conflict:
			ff.note(codeOf[ch.Fix], "it overlaps the "+codeOf[ch.With]+" fix")
		}
	}
	// A rename needs its new name free, on disk and among the files, in a
	// folder that exists.
	kept := picked[:0]
	for _, p := range picked {
		if p.RenameTo != "" {
			target := osPathOf(cwd, p.RenameTo)
			if _, err := os.Lstat(target); err == nil || byPath[p.RenameTo] != nil {
				ff.note(codeOf[p], p.RenameTo+" already exists")
				continue
			}
			if fi, err := os.Stat(filepath.Dir(target)); err != nil || !fi.IsDir() {
				ff.note(codeOf[p], "the folder "+path.Dir(p.RenameTo)+" does not exist")
				continue
			}
		}
		kept = append(kept, p)
	}
	picked = kept
	if len(picked) == 0 {
		return 0
	}
	format := load.FormatOf(ff.file.Kind, ff.path)
	try := func(fs []*diag.Fix) ([]byte, error) {
		out, err := fix.Apply(ff.data, fix.Edits(fs))
		if err != nil {
			return nil, err
		}
		if len(fix.Edits(fs)) == 0 {
			return out, nil
		}
		return out, fix.Verify(ff.path, format, ff.data, out, fix.Drops(fs))
	}
	out, err := try(picked)
	if err != nil {
		// Find the fixes that fail alone; apply the others.
		var ok []*diag.Fix
		for _, p := range picked {
			if _, err := try([]*diag.Fix{p}); err != nil {
				ff.note(codeOf[p], err.Error())
			} else {
				ok = append(ok, p)
			}
		}
		if len(ok) == 0 {
			return 0
		}
		if out, err = try(ok); err != nil {
			for _, p := range ok {
				ff.note(codeOf[p], err.Error())
			}
			return 0
		}
		picked = ok
	}
	ff.data = out
	for _, p := range picked {
		if p.RenameTo != "" {
			delete(byPath, ff.path)
			ff.path, ff.osPath = p.RenameTo, osPathOf(cwd, p.RenameTo)
			byPath[ff.path] = ff
		}
		delete(ff.notes, codeOf[p])
	}
	ff.fixes += len(picked)
	return len(picked)
}

// osPathOf turns a display path (relative to the working directory) into
// an OS path.
func osPathOf(cwd, display string) string {
	p := filepath.FromSlash(display)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(cwd, p)
}

// passDiscovery is the discovery of a later pass: the files carried in
// memory come as already-read files (passFiles); the rest as found.
func passDiscovery(d *load.Discovery, carried map[string]*fixFile) *load.Discovery {
	out := &load.Discovery{Folders: d.Folders, Unknown: d.Unknown}
	inMemory := map[*load.File]bool{}
	for _, ff := range carried {
		inMemory[ff.file] = true
	}
	for _, f := range d.Files {
		if !inMemory[f] {
			out.Files = append(out.Files, &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit})
		}
	}
	return out
}

func passFiles(files []*fixFile) []*load.File {
	out := make([]*load.File, len(files))
	for i, ff := range files {
		f := ff.file
		out[i] = &load.File{Path: ff.path, OSPath: ff.osPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Data: ff.data}
	}
	return out
}

// printDiff prints every change as a unified diff, renames as git shows
// them, and exits 1 when there is any.
func (c *Command) printDiff(files []*fixFile) (int, error) {
	var sb strings.Builder
	nFiles, nFixes := 0, 0
	for _, ff := range files {
		if !ff.changed() {
			continue
		}
		nFiles++
		nFixes += ff.fixes
		from, to := ff.file.Path, ff.path
		if from != to {
			fmt.Fprintf(&sb, "diff --git a/%s b/%s\n", from, to)
			if bytes.Equal(ff.read, ff.data) {
				sb.WriteString("similarity index 100%\n")
			}
			fmt.Fprintf(&sb, "rename from %s\nrename to %s\n", from, to)
		}
		sb.WriteString(fix.Unified("a/"+from, "b/"+to, ff.read, ff.data))
	}
	if _, err := fmt.Fprint(c.Stdout, sb.String()); err != nil {
		return ExitInternal, err
	}
	if nFiles == 0 {
		fmt.Fprintln(c.Stderr, "resumelint: 0 fixes to apply.")
		return ExitOK, nil
	}
	fmt.Fprintf(c.Stderr, "resumelint: %s to apply in %s (--diff: nothing written).\n", plural(nFixes, "fix", "fixes"), plural(nFiles, "file", "files"))
	return ExitFindings, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// freshFilter returns settings with a new suppression filter: each pass
// is a run of its own, and a filter remembers the suppressions it saw.
func (lc *lintConfig) freshFilter(s engine.Settings) engine.Settings {
	f := config.NewFilter(lc.cfg, lc.root, lc.cwd)
	f.Active = lc.filter.Active
	s.PostFile, s.PostRun = f.PostFile, f.PostRun
	return s
}
