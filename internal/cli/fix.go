package cli

import (
	"bytes"
	"fmt"
	"io"
	"maps"
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
	"github.com/resumelint/resumelint/internal/rules"
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
	// applied lists the fixes applied, in order; skipped says why the
	// others offered in the last pass were not (by fixLabel).
	applied []string
	skipped map[string]string
	// rejected holds the fixes the never-worse check turned down (by
	// fixKey), with the reason: they are not tried again in this run.
	rejected map[string]string
	// adds are the findings the unsafe fixes applied added (--unsafe-fixes).
	adds []diag.Finding
}

func (ff *fixFile) changed() bool { return ff.path != ff.file.Path || !bytes.Equal(ff.read, ff.data) }

func (ff *fixFile) skip(label, why string) {
	if ff.skipped == nil {
		ff.skipped = map[string]string{}
	}
	ff.skipped[label] = why
}

// offer is one fix offered for a file in a pass, with the code of the
// first finding that carries it.
type offer struct {
	code string
	fix  *diag.Fix
}

func (o offer) label() string { return fixLabel(o.code, o.fix) }

func fixLabel(code string, fx *diag.Fix) string {
	if fx.Description == "" {
		return code
	}
	return code + " " + fx.Description
}

// fixKey tells one fix from another by what it does, not where: a fix
// turned down stays turned down while it would make the same change.
func fixKey(code string, fx *diag.Fix) string {
	var sb strings.Builder
	sb.WriteString(code + "\x00" + fx.Description + "\x00" + fx.RenameTo)
	for _, e := range fx.Edits {
		sb.WriteString("\x00" + e.NewText)
	}
	return sb.String()
}

// candidate is the text a pass would give one file: the fixes picked,
// applied and verified, not yet kept.
type candidate struct {
	ff     *fixFile
	offers []offer
	data   []byte
	path   string // display path after a rename
	osPath string
	worse  bool // adds findings (applied only with --unsafe-fixes)
}

// fix runs lint passes over the files in memory, applying the allowed
// fixes of each pass, until nothing more applies. Each pass is held to
// SPEC §5 "never worse": the edited files are linted with the rest of the
// repository before anything is kept, and a fix after which a finding
// appears that was not there, or errors rise, is not applied as safe (only
// --unsafe-fixes applies it, and says what it adds). With --diff it prints
// the changes as a unified diff and writes nothing; with --fix it writes
// each changed file once, lints again and prints what remains. Both tell,
// per file, what was applied and what was skipped and why.
func (c *Command) fix(disc *load.Discovery, extra []*load.File, s engine.Settings, lf *lintFlags, cf *configFlags, lc *lintConfig, failOn diag.Severity) (int, error) {
	if !lf.diff && len(extra) > 0 {
		return ExitUsage, usagef("--fix cannot write a file read from stdin; use --diff to see its fixes")
	}
	s.KeepData = true // the fixes edit the bytes the run read
	run := func(d *load.Discovery, ex []*load.File) *engine.Result { return lc.run(d, ex, s) }
	// Findings a baseline hides are left as they are, like suppressed ones.
	var base *config.Baseline
	if cf.baseline != "" {
		var err error
		if base, err = config.ReadBaseline(osPathOf(c.Cwd, cf.baseline), cf.baseline, load.RootFor(lc.root, osPathOf(c.Cwd, cf.baseline))); err != nil {
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
	orig := newTally(visible(res))
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
	fx := &fixRun{c: c, lf: lf, files: files, byPath: byPath, visible: visible,
		run: func(cands map[*fixFile]*candidate) *engine.Result {
			return run(passDiscovery(disc, byPath), passFiles(files, cands))
		}}

	for round := 0; round < maxFixRounds; round++ {
		fds := visible(res)
		for _, ff := range files {
			ff.skipped = nil // this pass says what stands
		}
		offered := map[*fixFile][]offer{}
		seen := map[*diag.Fix]bool{}
		for i := range fds {
			fd := &fds[i]
			ff := byPath[fd.Path]
			f := fd.Fix
			if ff == nil || f == nil || seen[f] || len(f.Edits) == 0 && f.RenameTo == "" {
				continue
			}
			seen[f] = true
			o := offer{code: fd.Code, fix: f}
			switch {
			case f.Applicability == diag.FixUnsafe && !lf.unsafeFixes:
				why := "unsafe"
				if f.Reason != "" {
					why += ": " + f.Reason
				}
				ff.skip(o.label(), why+"; --unsafe-fixes applies it")
			case f.Applicability != diag.FixSafe && f.Applicability != diag.FixUnsafe:
			case ff.rejected[fixKey(o.code, f)] != "" && !lf.unsafeFixes:
				ff.skip(o.label(), ff.rejected[fixKey(o.code, f)])
			default:
				offered[ff] = append(offered[ff], o)
			}
		}
		cands := map[*fixFile]*candidate{}
		taken := map[string]bool{}
		for _, ff := range files {
			if ofs := offered[ff]; len(ofs) > 0 {
				if cd := propose(c.Cwd, ff, ofs, byPath, taken); cd != nil {
					cands[ff] = cd
				}
			}
		}
		if len(cands) == 0 {
			break
		}
		after, rejected := fx.neverWorse(fds, cands)
		if after == nil {
			if rejected {
				continue // other fixes may apply without the ones turned down
			}
			break
		}
		for _, ff := range files {
			if cd := cands[ff]; cd != nil {
				fx.keep(cd)
			}
		}
		res = after
	}

	if lf.unsafeFixes {
		// What the unsafe fixes add, against the files as they were read.
		back := map[string]string{}
		for _, ff := range files {
			back[ff.path] = ff.file.Path
		}
		add, _ := orig.added(visible(res), back)
		for _, ff := range files {
			ff.adds = add[ff.file.Path]
		}
	}
	if lf.diff {
		fx.printReport(c.Stderr, "would apply")
		return c.printDiff(files)
	}

	written, nFixes, writeFailed := 0, 0, 0
	for _, ff := range files {
		if !ff.changed() {
			continue
		}
		newPath := ""
		if ff.path != ff.file.Path {
			newPath = ff.osPath
		}
		if err := fix.WriteFile(ff.file.Root, ff.file.OSPath, newPath, ff.read, ff.data); err != nil {
			fmt.Fprintf(c.Stderr, "resumelint: %s: %v\n", ff.file.Path, err)
			writeFailed++
			for _, a := range ff.applied {
				ff.skip(a, "not written: "+err.Error())
			}
			ff.applied = nil
			ff.path, ff.osPath = ff.file.Path, ff.file.OSPath
			continue
		}
		written++
		nFixes += ff.fixes
	}

	// Lint again what is on disk now.
	final := &load.Discovery{Folders: disc.Folders, Unknown: disc.Unknown}
	for _, f := range disc.Files {
		nf := &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Root: f.Root}
		for _, x := range files {
			if x.file == f {
				nf.Path, nf.OSPath = x.path, x.osPath
			}
		}
		final.Files = append(final.Files, nf)
	}
	sort.Slice(final.Files, func(i, j int) bool { return final.Files[i].Path < final.Files[j].Path })
	res = run(final, nil)
	code, err := c.finish(res, lf, cf, lc, failOn)
	if writeFailed > 0 && code == ExitOK {
		// A fix that could not be written is not done: the gate must
		// not pass as if it were, even when only warnings remain.
		code = ExitFindings
	}
	out := c.Stdout
	if lf.format != "text" {
		out = c.Stderr
	}
	fx.printReport(out, "applied")
	switch {
	case nFixes == 0:
		fmt.Fprintln(out, "0 fixes applied.")
	default:
		fmt.Fprintf(out, "%s applied in %s.\n", plural(nFixes, "fix", "fixes"), plural(written, "file", "files"))
	}
	return code, err
}

// fixRun is the state of one `fix` run.
type fixRun struct {
	c       *Command
	lf      *lintFlags
	files   []*fixFile
	byPath  map[string]*fixFile
	visible func(*engine.Result) []diag.Finding
	// run lints the repository with the files as they are in memory, the
	// candidates' text in place of their files'.
	run func(cands map[*fixFile]*candidate) *engine.Result
}

// keep makes a candidate the file's text.
func (fx *fixRun) keep(cd *candidate) {
	ff := cd.ff
	ff.data = cd.data
	if cd.path != ff.path {
		delete(fx.byPath, ff.path)
		ff.path, ff.osPath = cd.path, cd.osPath
		fx.byPath[ff.path] = ff
	}
	for _, o := range cd.offers {
		l := o.label()
		switch {
		case o.fix.Applicability == diag.FixUnsafe && o.fix.Reason != "":
			l += " (unsafe: " + o.fix.Reason + ")"
		case o.fix.Applicability == diag.FixUnsafe || cd.worse:
			l += " (unsafe)"
		}
		ff.applied = append(ff.applied, l)
		delete(ff.skipped, o.label())
	}
	ff.fixes += len(cd.offers)
}

// tally counts findings by identity (findingKey), to tell which of a later
// run's findings are new.
type tally struct {
	n      map[string]int
	errors int
}

func newTally(fs []diag.Finding) *tally {
	t := &tally{n: map[string]int{}}
	for i := range fs {
		t.n[findingKey(&fs[i], fs[i].Path)]++
		if fs[i].Severity == diag.SevError {
			t.errors++
		}
	}
	return t
}

// added returns the findings of after that the tally does not hold, by the
// display path each file had before the pass (back maps a renamed file's
// new path to it), and whether after has more errors.
func (t *tally) added(after []diag.Finding, back map[string]string) (map[string][]diag.Finding, bool) {
	left := maps.Clone(t.n)
	out := map[string][]diag.Finding{}
	errs := 0
	for i := range after {
		f := &after[i]
		p := f.Path
		if b, ok := back[p]; ok {
			p = b
		}
		if f.Severity == diag.SevError {
			errs++
		}
		k := findingKey(f, p)
		if left[k] > 0 {
			left[k]--
			continue
		}
		out[p] = append(out[p], *f)
	}
	return out, errs > t.errors
}

func backPaths(cands map[*fixFile]*candidate) map[string]string {
	back := map[string]string{}
	for ff, cd := range cands {
		if cd.path != ff.path {
			back[cd.path] = ff.path
		}
	}
	return back
}

// findingKey is a finding's identity across a fix: its code, file, the
// path of its node in the document and its message, word for word. A
// message that quotes the line of another node ("(line 317)") changes when
// a fix adds lines above that node; such a fix is not safe either, since
// whoever compares the findings before and after sees a new one.
func findingKey(f *diag.Finding, path string) string {
	return f.Code + "\x00" + path + "\x00" + f.NodePath + "\x00" + f.Message
}

// neverWorse lints the repository with the candidates in place and keeps
// only those after which no finding appears that was not there before and
// errors do not rise (SPEC §5). It returns the result of the run with the
// candidates kept (nil when none is), and whether it turned a fix down.
// A file's candidate that fails is split: its fixes are tried alone; each
// that fails alone is turned down, the first that passes stays a
// candidate, the others wait for the next pass. With --unsafe-fixes nothing
// is turned down: what the fixes add is told instead.
func (fx *fixRun) neverWorse(before []diag.Finding, cands map[*fixFile]*candidate) (*engine.Result, bool) {
	base := newTally(before)
	turnedDown := false
	for len(cands) > 0 {
		res := fx.run(cands)
		add, more := base.added(fx.visible(res), backPaths(cands))
		if len(add) == 0 && !more {
			return res, turnedDown
		}
		if fx.lf.unsafeFixes {
			for p := range add {
				if cd := cands[fx.byPath[p]]; cd != nil {
					cd.worse = true
				}
			}
			return res, turnedDown
		}
		// To blame: the candidates whose file gained a finding; when a
		// finding appears in another file (a rule across files), or only
		// the errors rose, each candidate is linted alone.
		blame := map[*fixFile][]diag.Finding{}
		elsewhere := more
		for p, fs := range add {
			if ff := fx.byPath[p]; ff != nil && cands[ff] != nil {
				blame[ff] = fs
			} else {
				elsewhere = true
			}
		}
		if elsewhere && len(blame) == 0 {
			for ff, cd := range cands {
				one := map[*fixFile]*candidate{ff: cd}
				if a, m := base.added(fx.visible(fx.run(one)), backPaths(one)); len(a) > 0 || m {
					blame[ff] = flatten(a)
				}
			}
			if len(blame) == 0 { // worse only together: keep none
				for ff := range cands {
					blame[ff] = nil
				}
			}
		}
		for ff, fs := range blame {
			cd := cands[ff]
			delete(cands, ff)
			turnedDown = true
			if len(cd.offers) == 1 {
				fx.turnDown(ff, cd.offers[0], fs)
				continue
			}
			for _, o := range cd.offers {
				one := propose(fx.c.Cwd, ff, []offer{o}, fx.byPath, map[string]bool{})
				if one == nil {
					continue
				}
				m := map[*fixFile]*candidate{ff: one}
				a, worse := base.added(fx.visible(fx.run(m)), backPaths(m))
				if len(a) == 0 && !worse {
					cands[ff] = one
					break
				}
				fx.turnDown(ff, o, flatten(a))
			}
		}
	}
	return nil, turnedDown
}

func flatten(m map[string][]diag.Finding) []diag.Finding {
	var out []diag.Finding
	for _, fs := range m {
		out = append(out, fs...)
	}
	sort.Slice(out, func(i, j int) bool { return diag.Less(&out[i], &out[j]) })
	return out
}

// turnDown records that a fix failed the never-worse check, and why.
func (fx *fixRun) turnDown(ff *fixFile, o offer, add []diag.Finding) {
	why := "it would raise the errors"
	if len(add) > 0 {
		why = "it would add " + describeAdded(add)
	}
	why += "; --unsafe-fixes applies it"
	if ff.rejected == nil {
		ff.rejected = map[string]string{}
	}
	ff.rejected[fixKey(o.code, o.fix)] = why
	ff.skip(o.label(), why)
}

// describeAdded names up to three findings a fix would add.
func describeAdded(fs []diag.Finding) string {
	sort.SliceStable(fs, func(i, j int) bool { return diag.Less(&fs[i], &fs[j]) })
	var parts []string
	for i, f := range fs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-3))
			break
		}
		parts = append(parts, f.Code+" ("+f.Message+")")
	}
	return plural(len(fs), "finding", "findings") + ": " + strings.Join(parts, "; ")
}

// propose picks, among the fixes offered for one file in one pass, those
// that can be applied together (fix.Select), whose result keeps every
// value (fix.Verify) and whose rename finds its name free, and returns the
// text they give the file, or nil when none applies. Why the others are
// not applied is recorded for the report.
func propose(cwd string, ff *fixFile, offers []offer, byPath map[string]*fixFile, taken map[string]bool) *candidate {
	fixes := make([]*diag.Fix, len(offers))
	byFix := map[*diag.Fix]offer{}
	for i, o := range offers {
		fixes[i] = o.fix
		byFix[o.fix] = o
	}
	var picked []offer
	for _, ch := range fix.Select(fixes) {
		switch ch.Outcome {
		case fix.Applied:
			picked = append(picked, byFix[ch.Fix])
		case fix.Conflict:
			ff.skip(byFix[ch.Fix].label(), "it overlaps the "+byFix[ch.With].code+" fix (tried again once that one is settled)")
		}
	}
	// A rename needs its new name free, on disk and among the files, in a
	// folder that exists.
	kept := picked[:0]
	for _, o := range picked {
		if to := o.fix.RenameTo; to != "" {
			target := osPathOf(cwd, to)
			if _, err := os.Lstat(target); err == nil || byPath[to] != nil || taken[to] {
				ff.skip(o.label(), to+" already exists")
				continue
			}
			if fi, err := os.Stat(filepath.Dir(target)); err != nil || !fi.IsDir() {
				ff.skip(o.label(), "the folder "+path.Dir(to)+" does not exist")
				continue
			}
		}
		kept = append(kept, o)
	}
	picked = kept
	if len(picked) == 0 {
		return nil
	}
	format := load.FormatOf(ff.file.Kind, ff.path)
	try := func(ofs []offer) ([]byte, error) {
		fs := make([]*diag.Fix, len(ofs))
		for i, o := range ofs {
			fs[i] = o.fix
		}
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
		var ok []offer
		for _, o := range picked {
			if _, err := try([]offer{o}); err != nil {
				ff.skip(o.label(), err.Error())
			} else {
				ok = append(ok, o)
			}
		}
		if len(ok) == 0 {
			return nil
		}
		if out, err = try(ok); err != nil {
			for _, o := range ok {
				ff.skip(o.label(), err.Error())
			}
			return nil
		}
		picked = ok
	}
	cd := &candidate{ff: ff, offers: picked, data: out, path: ff.path, osPath: ff.osPath}
	for _, o := range picked {
		if to := o.fix.RenameTo; to != "" {
			cd.path, cd.osPath = to, osPathOf(cwd, to)
			taken[to] = true
		}
	}
	return cd
}

// printReport tells, per file, which fixes were applied and which were
// not and why, and with --unsafe-fixes what they add.
func (fx *fixRun) printReport(w io.Writer, verb string) {
	var sb strings.Builder
	for _, ff := range fx.files {
		for _, a := range ff.applied {
			fmt.Fprintf(&sb, "%s: %s %s\n", ff.path, verb, a)
		}
		if len(ff.adds) > 0 {
			fmt.Fprintf(&sb, "%s: these fixes add %s:\n", ff.path, plural(len(ff.adds), "finding", "findings"))
			sort.SliceStable(ff.adds, func(i, j int) bool { return diag.Less(&ff.adds[i], &ff.adds[j]) })
			for _, f := range ff.adds {
				fmt.Fprintf(&sb, "  %d:%d: %s %s\n", f.Start.Line, f.Start.Col, f.Code, f.Message)
			}
		}
		labels := make([]string, 0, len(ff.skipped))
		for l := range ff.skipped {
			labels = append(labels, l)
		}
		sort.Strings(labels)
		for _, l := range labels {
			fmt.Fprintf(&sb, "%s: skipped %s: %s\n", ff.path, l, ff.skipped[l])
		}
	}
	io.WriteString(w, sb.String())
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
			out.Files = append(out.Files, &load.File{Path: f.Path, OSPath: f.OSPath, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Root: f.Root})
		}
	}
	return out
}

func passFiles(files []*fixFile, cands map[*fixFile]*candidate) []*load.File {
	out := make([]*load.File, len(files))
	for i, ff := range files {
		f := ff.file
		p, op, data := ff.path, ff.osPath, ff.data
		if cd := cands[ff]; cd != nil {
			p, op, data = cd.path, cd.osPath, cd.data
		}
		out[i] = &load.File{Path: p, OSPath: op, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Data: data, Root: f.Root}
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
			fmt.Fprintf(&sb, "diff --git a/%s b/%s\n", diag.Escape(from), diag.Escape(to))
			if bytes.Equal(ff.read, ff.data) {
				sb.WriteString("similarity index 100%\n")
			}
			fmt.Fprintf(&sb, "rename from %s\nrename to %s\n", diag.Escape(from), diag.Escape(to))
		}
		// Secrets masked on both sides (what lint never prints, the diff
		// does not either), content escaped as text output is.
		d := fix.Unified("a/"+from, "b/"+to, rules.MaskFile(from, ff.read), rules.MaskFile(to, ff.data))
		for _, line := range strings.SplitAfter(d, "\n") {
			body := strings.TrimSuffix(line, "\n")
			sb.WriteString(diag.Escape(body))
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

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
