package cli

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// `resumelint fix` is `resumelint lint --fix` (SPEC §4, §5).
func init() {
	subcommands["fix"] = func(c *Command, args []string) (int, error) {
		return c.lintAs("fix", append([]string{"--fix"}, args...))
	}
}

// fix runs the fixes of a lint (fix.Fixer): with --diff it prints the
// changes as a unified diff and writes nothing; with --fix it writes each
// changed file once, lints again and prints what remains. Both tell, per
// file, what was applied and what was skipped and why.
func (c *Command) fix(disc *load.Discovery, extra []*load.File, s engine.Settings, lf *lintFlags, cf *configFlags, lc *lintConfig, failOn diag.Severity) (int, error) {
	if !lf.diff && len(extra) > 0 {
		return ExitUsage, usagef("--fix cannot write a file read from stdin; use --diff to see its fixes")
	}
	s.KeepData = true // the fixes edit the bytes the run read
	run := func(d *load.Discovery, ex []*load.File) *engine.Result { return lc.run(d, ex, s) }
	visible, err := c.baselineFilter(cf, lc)
	if err != nil {
		return ExitUsage, err
	}

	res := run(disc, extra)
	if code, err, done := c.onlySkipped(res, extra, lf, lc); done {
		return code, err
	}
	var read []*load.File
	for _, f := range append(append([]*load.File(nil), extra...), disc.Files...) {
		if f.Data != nil && !lf.evidence[f.OSPath] {
			read = append(read, f)
		}
	}
	fixer := &fix.Fixer{Cwd: c.Cwd, Unsafe: lf.unsafeFixes, Files: s.Files,
		Lint: func(mem []*load.File) []diag.Finding { return visible(run(passDiscovery(disc, read), mem)) }}
	files := fixer.Run(read, visible(res))
	if lf.diff {
		fix.Report(c.Stderr, files, "would apply")
		return c.printDiff(files)
	}

	writeFailed := 0
	written, nFixes := fix.WriteAll(files, func(ff *fix.File, err error) {
		fmt.Fprintf(c.Stderr, "resumelint: %s: %s\n", diag.Safe(ff.File.Path), diag.SafeLines(err.Error()))
		writeFailed++
	})
	s.Files.Wrote(changedPaths(files)...)
	if written > 0 {
		s.Files.Wrote(fix.Links(files)...) // a link reads what was written to its target
	}
	// Lint again what is on disk now; what remains fixable is what a
	// second `fix` would apply.
	final := fixedDiscovery(disc, files)
	after := run(final, nil)
	ls := s
	ls.KeepData = false
	c.settleFixes(after, final, nil, ls, lc, visible)
	code, err := c.finish(after, lf, cf, lc, failOn)
	if writeFailed > 0 && code == ExitOK {
		// A fix that could not be written is not done: the gate must
		// not pass as if it were, even when only warnings remain.
		code = ExitFindings
	}
	out := c.Stdout
	if lf.format != "text" {
		out = c.Stderr
	}
	fix.Report(out, files, "applied")
	switch {
	case nFixes == 0:
		fmt.Fprintln(out, "0 fixes applied.")
	default:
		fmt.Fprintf(out, "%s applied in %s.\n", plural(nFixes, "fix", "fixes"), plural(written, "file", "files"))
	}
	return code, err
}

// changedPaths are the OS paths a fix changed or renamed, under both
// names: what the command read of them is out of date.
func changedPaths(files []*fix.File) []string {
	var out []string
	for _, ff := range files {
		if ff.Changed() {
			out = append(out, ff.File.OSPath, ff.OSPath)
		}
	}
	return out
}

// baselineFilter returns the findings of a run that count for the fixes:
// findings a baseline hides are left as they are, like suppressed ones.
func (c *Command) baselineFilter(cf *configFlags, lc *lintConfig) (func(*engine.Result) []diag.Finding, error) {
	if cf.baseline == "" {
		return func(res *engine.Result) []diag.Finding { return res.Findings }, nil
	}
	osPath := load.Abs(c.Cwd, cf.baseline)
	base, err := config.ReadBaseline(osPath, cf.baseline, load.RootFor(lc.root, osPath))
	if err != nil {
		return nil, err
	}
	return func(res *engine.Result) []diag.Finding {
		kept, _ := base.Filter(res.Findings, lc.rel)
		return kept
	}, nil
}

// fixedDiscovery is the discovery of the files on disk after the fixes
// were written, renamed files under their new names.
func fixedDiscovery(disc *load.Discovery, files []*fix.File) *load.Discovery {
	final := &load.Discovery{Folders: disc.Folders, Unknown: disc.Unknown}
	for _, f := range disc.Files {
		nf := &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Root: f.Root}
		for _, x := range files {
			if x.File == f {
				nf.Path, nf.OSPath = x.Path, x.OSPath
			}
		}
		final.Files = append(final.Files, nf)
	}
	slices.SortFunc(final.Files, func(a, b *load.File) int { return strings.Compare(a.Path, b.Path) })
	carryContext(final, disc)
	return final
}

// carryContext gives a later pass the context units of d, as found (each
// pass reads them afresh, as it reads the units).
func carryContext(out, d *load.Discovery) {
	for _, f := range d.Context {
		out.Context = append(out.Context, &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Root: f.Root})
	}
	out.ContextFolders = d.ContextFolders
}

// passDiscovery is the discovery of a later pass: the files carried in
// memory come as already-read files (the Fixer's); the rest as found.
func passDiscovery(d *load.Discovery, carried []*load.File) *load.Discovery {
	out := &load.Discovery{Folders: d.Folders, Unknown: d.Unknown}
	inMemory := map[*load.File]bool{}
	for _, f := range carried {
		inMemory[f] = true
	}
	for _, f := range d.Files {
		if !inMemory[f] {
			out.Files = append(out.Files, &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Root: f.Root})
		}
	}
	carryContext(out, d)
	return out
}

// printDiff prints every change as a unified diff, renames as git shows
// them, and exits 1 when there is any.
func (c *Command) printDiff(files []*fix.File) (int, error) {
	var sb strings.Builder
	nFiles, nFixes := 0, 0
	for _, ff := range files {
		if !ff.Changed() {
			continue
		}
		nFiles++
		nFixes += ff.Fixes
		from, to := ff.File.Path, ff.Path
		if from != to {
			fmt.Fprintf(&sb, "diff --git a/%s b/%s\n", diag.Safe(from), diag.Safe(to))
			if bytes.Equal(ff.Read, ff.Data) {
				sb.WriteString("similarity index 100%\n")
			}
			fmt.Fprintf(&sb, "rename from %s\nrename to %s\n", diag.Safe(from), diag.Safe(to))
		}
		// Secrets masked on both sides (what lint never prints, the diff
		// does not either), content escaped as text output is; no line
		// can pass for a workflow command (" ::error" is one).
		before, after := rules.MaskFiles(from, to, ff.File.Kind, ff.Read, ff.Data)
		d := fix.Unified("a/"+from, "b/"+to, before, after)
		for _, line := range strings.SplitAfter(d, "\n") {
			// A CRLF line's CR stays raw, so the diff applies (git apply,
			// patch) to the file it shows: before the line feed it moves
			// nothing on a terminal.
			body := strings.TrimSuffix(line, "\n")
			if len(body) < len(line) {
				body = strings.TrimSuffix(body, "\r")
			}
			sb.WriteString(diag.SafeLine(body))
			sb.WriteString(line[len(body):])
		}
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

func plural(n int, one, many string) string { return fix.Plural(n, one, many) }

// settleFixes makes a run's safe fixes say what `fix` would do with them
// (fix.Settle): the fixes it would turn down or cannot apply stop counting
// as safe in every report. Only files with a safe fix are carried, read
// again (mem gives the bytes of files read from stdin); a run with none
// costs nothing. The repository is linted around them as `fix` lints it.
func (c *Command) settleFixes(res *engine.Result, disc *load.Discovery, mem []*load.File, s engine.Settings, lc *lintConfig, visible func(*engine.Result) []diag.Finding) {
	want := fix.Candidates(res.Findings)
	if len(want) == 0 {
		return
	}
	var files, carried []*load.File
	for _, f := range mem {
		if want[f.Path] {
			files = append(files, f)
		}
	}
	for _, f := range disc.Files {
		if !want[f.Path] {
			continue
		}
		nf := &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Root: f.Root}
		if _, ok := s.Files.Read(nf, s.Opts.Limits); ok && nf.Data != nil {
			files = append(files, nf)
			carried = append(carried, f)
		}
	}
	fixer := &fix.Fixer{Cwd: c.Cwd, Files: s.Files,
		Lint: func(m []*load.File) []diag.Finding { return visible(lc.run(passDiscovery(disc, carried), m, s)) }}
	fix.Settle(fixer, files, visible(res))
}

// allFindings counts every finding of a run (no baseline).
func allFindings(res *engine.Result) []diag.Finding { return res.Findings }

// stdinCopies keeps the bytes of the files read from stdin, which a run
// releases, for settleFixes: as the run reads them, after a byte-order
// mark (RL004), which the offsets of their fixes do not count, and which
// the never-worse check puts back (load.File.BOM).
func stdinCopies(extra []*load.File) []*load.File {
	out := make([]*load.File, len(extra))
	for i, f := range extra {
		data, mark := bytes.CutPrefix(f.Data, utf8BOM)
		out[i] = &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Root: f.Root, Data: slices.Clone(data), BOM: mark}
	}
	return out
}

// utf8BOM is the byte-order mark the loader strips from a file it reads.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}
