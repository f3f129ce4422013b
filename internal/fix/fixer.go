package fix

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// maxRounds bounds the lint-and-fix passes: a fix that conflicted with
// another, or that a first fix made possible (ids numbered in a log the
// migration just created), applies on a later pass.
const maxRounds = 10

// Fixer runs lint passes over files in memory, applying the allowed fixes
// of each pass, until nothing more applies. Each pass is held to SPEC §5
// "never worse": the edited files are linted with the rest of the
// repository before anything is kept, and a fix after which a finding
// appears that was not there, or errors rise, is not applied as safe (only
// Unsafe applies it, and says what it adds). The Fixer writes nothing:
// WriteAll does, and Report tells what was applied and skipped and why.
type Fixer struct {
	// Cwd resolves the display paths of renames.
	Cwd string
	// Unsafe applies unsafe fixes and fixes that add findings
	// (--unsafe-fixes).
	Unsafe bool
	// Lint lints the repository with files in place of the files carried
	// (one each, in the order given to Run, their text in Data) and
	// returns the findings that count: those a baseline hides are left
	// out, like suppressed ones.
	Lint func(files []*load.File) []diag.Finding
	// Files is the file access Lint's runs read through: while a lint
	// runs, the files carried answer by their text in memory and their
	// names after a rename (load.Files.Pending), so that a rule looking
	// at another file sees the change. Nil: they answer from disk.
	Files *load.Files

	files  []*File
	byPath map[string]*File
}

// File is one file carried through the fix passes, in memory.
type File struct {
	File   *load.File // as discovered: kind, paths
	Read   []byte     // the bytes read in the first pass
	Data   []byte     // the text after the fixes so far
	Path   string     // display path now (a rename changes it)
	OSPath string
	Fixes  int
	// Applied lists the fixes applied, in order; Skipped says why the
	// others offered in the last pass were not (by label).
	Applied []string
	Skipped map[string]string
	// Adds are the findings the unsafe fixes applied add (Fixer.Unsafe).
	Adds []diag.Finding
	// rejected holds the fixes the never-worse check turned down (by
	// fixKey), with the reason: they are not tried again in this run.
	rejected map[string]string
	// applied holds the fixes applied (by fixKey), for Settle.
	applied map[string]bool
	// moves are the nodes the applied fixes moved, in order.
	moves []diag.Move
	// link is 1 when the file is a symbolic link (never written, so its
	// fixes are not offered), -1 when it is not, 0 before it is looked up.
	link int8
}

// isLink looks the file up once: a link's fixes are not offered, so that
// lint's count, fix --diff and fix agree that none applies.
func (ff *File) isLink() bool {
	if ff.link == 0 {
		ff.link = -1
		if isLink(ff.File.Root, ff.File.OSPath) {
			ff.link = 1
		}
	}
	return ff.link == 1
}

// Links returns the OS paths of the files that are symbolic links: a fix
// written to the file one points to changes what it reads, though the link
// itself is never written.
func Links(files []*File) []string {
	var out []string
	for _, ff := range files {
		if ff.isLink() {
			out = append(out, ff.File.OSPath)
		}
	}
	return out
}

// Changed says whether the file's text or name differs from what was read.
func (ff *File) Changed() bool { return ff.Path != ff.File.Path || !bytes.Equal(ff.Read, ff.Data) }

func (ff *File) skip(label, why string) {
	if ff.Skipped == nil {
		ff.Skipped = map[string]string{}
	}
	ff.Skipped[label] = why
}

// offer is one fix offered for a file in a pass, with the code of the
// first finding that carries it.
type offer struct {
	code string
	fix  *diag.Fix
}

func (o offer) label() string {
	if o.fix.Description == "" {
		return o.code
	}
	return o.code + " " + o.fix.Description
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
	ff     *File
	offers []offer
	data   []byte
	path   string // display path after a rename
	osPath string
	worse  bool // adds findings (applied only with Unsafe)
}

// Run fixes files (those the first lint read, their bytes in Data) given
// the findings of that lint, and returns them with their new text and
// names, sorted by path.
func (fx *Fixer) Run(read []*load.File, first []diag.Finding) []*File {
	fx.byPath = map[string]*File{}
	fx.files = nil
	for _, f := range read {
		ff := &File{File: f, Read: f.Data, Data: f.Data, Path: f.Path, OSPath: f.OSPath}
		fx.byPath[f.Path] = ff
		fx.files = append(fx.files, ff)
	}
	slices.SortFunc(fx.files, func(a, b *File) int { return strings.Compare(a.File.Path, b.File.Path) })
	fds := first
	for range maxRounds {
		after, kept, again := fx.round(fds)
		if !kept && !again {
			break
		}
		if kept {
			fds = after
		}
	}
	if fx.Unsafe {
		// What the unsafe fixes add, against the files as they were read.
		back := map[string]undo{}
		for _, ff := range fx.files {
			back[ff.Path] = undo{path: ff.File.Path, moves: ff.moves}
		}
		add, _ := newTally(first).added(fds, back)
		for _, ff := range fx.files {
			ff.Adds = add[ff.File.Path]
		}
	}
	return fx.files
}

// round is one pass: the fixes the findings fds offer are picked, applied
// in memory and held to never-worse. It returns the findings with the
// fixes kept and whether any is, and whether to try again without the
// fixes turned down.
func (fx *Fixer) round(fds []diag.Finding) ([]diag.Finding, bool, bool) {
	for _, ff := range fx.files {
		ff.Skipped = nil // this pass says what stands
	}
	offered := fx.offers(fds)
	cands := map[*File]*candidate{}
	taken := map[string]bool{}
	for _, ff := range fx.files {
		if ofs := offered[ff]; len(ofs) > 0 {
			if cd := fx.propose(ff, ofs, taken); cd != nil {
				cands[ff] = cd
			}
		}
	}
	if len(cands) == 0 {
		return nil, false, false
	}
	after, kept, rejected := fx.neverWorse(fds, cands)
	if !kept {
		return nil, false, rejected // other fixes may apply without the ones turned down
	}
	for _, ff := range fx.files {
		if cd := cands[ff]; cd != nil {
			fx.keep(cd)
		}
	}
	return after, true, false
}

// offers returns, per file, the fixes the findings offer that this run
// may apply; the others are recorded as skipped, with why.
func (fx *Fixer) offers(fds []diag.Finding) map[*File][]offer {
	offered := map[*File][]offer{}
	seen := map[*diag.Fix]bool{}
	for i := range fds {
		fd := &fds[i]
		ff := fx.byPath[fd.Path]
		f := fd.Fix
		if ff == nil || f == nil || seen[f] || len(f.Edits) == 0 && f.RenameTo == "" {
			continue
		}
		seen[f] = true
		o := offer{code: fd.Code, fix: f}
		switch {
		case (f.Applicability == diag.FixSafe || f.Applicability == diag.FixUnsafe) && ff.isLink():
			ff.skip(o.label(), linkRefusal)
		case f.Applicability == diag.FixUnsafe && !fx.Unsafe:
			why := "unsafe"
			if f.Reason != "" {
				why += ": " + f.Reason
			}
			ff.skip(o.label(), why+"; --unsafe-fixes applies it")
		case f.Applicability != diag.FixSafe && f.Applicability != diag.FixUnsafe:
		case ff.rejected[fixKey(o.code, f)] != "" && !fx.Unsafe:
			ff.skip(o.label(), ff.rejected[fixKey(o.code, f)])
		default:
			offered[ff] = append(offered[ff], o)
		}
	}
	return offered
}

// lint lints the repository with the files as they are in memory, the
// candidates' text in place of their files'.
func (fx *Fixer) lint(cands map[*File]*candidate) []diag.Finding {
	out := make([]*load.File, len(fx.files))
	put := map[string][]byte{}
	var gone []string
	for i, ff := range fx.files {
		f := ff.File
		p, op, data := ff.Path, ff.OSPath, ff.Data
		if cd := cands[ff]; cd != nil {
			p, op, data = cd.path, cd.osPath, cd.data
		}
		if op != f.OSPath || !bytes.Equal(data, ff.Read) {
			put[op] = data
		}
		if f.BOM {
			// WriteFile keeps the mark: the file is linted as it will be
			// (RL004 stays, and with it what RL004 changes).
			data = append(append([]byte(nil), bom...), data...)
		}
		out[i] = &load.File{Path: p, OSPath: op, Kind: f.Kind, Template: f.Template, Explicit: f.Explicit, Data: data, Root: f.Root}
		if op != f.OSPath {
			gone = append(gone, f.OSPath)
		}
	}
	defer fx.Files.Pending(put, gone)()
	return fx.Lint(out)
}

// keep makes a candidate the file's text.
func (fx *Fixer) keep(cd *candidate) {
	ff := cd.ff
	ff.Data = cd.data
	if cd.path != ff.Path {
		delete(fx.byPath, ff.Path)
		ff.Path, ff.OSPath = cd.path, cd.osPath
		fx.byPath[ff.Path] = ff
	}
	for _, o := range cd.offers {
		l := o.label()
		switch {
		case o.fix.Applicability == diag.FixUnsafe && o.fix.Reason != "":
			l += " (unsafe: " + o.fix.Reason + ")"
		case o.fix.Applicability == diag.FixUnsafe || cd.worse:
			l += " (unsafe)"
		}
		ff.Applied = append(ff.Applied, l)
		delete(ff.Skipped, o.label())
		if ff.applied == nil {
			ff.applied = map[string]bool{}
		}
		ff.applied[fixKey(o.code, o.fix)] = true
		ff.moves = append(ff.moves, o.fix.Moves...)
	}
	ff.Fixes += len(cd.offers)
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
func (t *tally) added(after []diag.Finding, back map[string]undo) (map[string][]diag.Finding, bool) {
	left := maps.Clone(t.n)
	out := map[string][]diag.Finding{}
	errs := 0
	for i := range after {
		f := &after[i]
		p, id := f.Path, f
		if b, ok := back[p]; ok {
			p, id = b.path, movedBack(f, b.moves)
		}
		if f.Severity == diag.SevError {
			errs++
		}
		k := findingKey(id, p)
		if left[k] == 0 && id != f && id.Message != f.Message {
			// A message that names the field as its reader does (active_project_id,
			// nested or not) reads the same before and after the move.
			g := *id
			g.Message = f.Message
			k = findingKey(&g, p)
		}
		if left[k] > 0 {
			left[k]--
			continue
		}
		out[p] = append(out[p], *f)
	}
	return out, errs > t.errors
}

// undo is what a candidate's file was before the pass: its display path
// and the nodes its fixes moved.
type undo struct {
	path  string
	moves []diag.Move
}

// backPaths maps the display path of each candidate's file after the pass
// to what it was before.
func backPaths(cands map[*File]*candidate) map[string]undo {
	back := map[string]undo{}
	for ff, cd := range cands {
		var moves []diag.Move
		for _, o := range cd.offers {
			moves = append(moves, o.fix.Moves...)
		}
		if cd.path != ff.Path || len(moves) > 0 {
			back[cd.path] = undo{path: ff.Path, moves: moves}
		}
	}
	return back
}

// movedBack is f as it reads before the fixes that moved its node (the
// last move first): the node's old path, and its new path in the message
// (which names the field where it is: recovery_state.last_checkpoint)
// written the old way.
func movedBack(f *diag.Finding, moves []diag.Move) *diag.Finding {
	g := *f
	for i := len(moves) - 1; i >= 0; i-- {
		m := moves[i]
		rest, ok := strings.CutPrefix(g.NodePath, m.To)
		if !ok || rest != "" && rest[0] != '.' && rest[0] != '[' {
			continue
		}
		g.NodePath = m.From + rest
		from, to := strings.Split(m.From, "."), strings.Split(m.To, ".")
		for len(from) > 1 && len(to) > 1 && from[0] == to[0] {
			from, to = from[1:], to[1:]
		}
		g.Message = strings.ReplaceAll(g.Message, strings.Join(to, "."), strings.Join(from, "."))
	}
	return &g
}

// findingKey is a finding's identity across a fix (diag.EditKey): its
// code, file, node path and message without numbers. A message that
// quotes the line of another node ("(line 317)") keeps its identity when a
// fix adds lines above that node: the finding moved, it is not new.
func findingKey(f *diag.Finding, path string) string {
	return diag.EditKey(f, path)
}

// neverWorse lints the repository with the candidates in place and keeps
// only those after which no finding appears that was not there before and
// errors do not rise (SPEC §5). It returns the findings of the run with
// the candidates kept, whether any is, and whether it turned a fix down. A file's candidate that fails is split: its fixes are tried alone;
// each that fails alone is turned down, the first that passes stays a
// candidate, the others wait for the next pass. With Unsafe nothing is
// turned down: what the fixes add is told instead.
func (fx *Fixer) neverWorse(before []diag.Finding, cands map[*File]*candidate) ([]diag.Finding, bool, bool) {
	base := newTally(before)
	turnedDown := false
	for len(cands) > 0 {
		fds := fx.lint(cands)
		add, more := base.added(fds, backPaths(cands))
		if len(add) == 0 && !more {
			return fds, true, turnedDown
		}
		if fx.Unsafe {
			for p := range add {
				if cd := cands[fx.byPath[p]]; cd != nil {
					cd.worse = true
				}
			}
			return fds, true, turnedDown
		}
		failed := map[*File][]offer{}
		for ff, fs := range fx.blame(base, cands, add, more) {
			cd := cands[ff]
			delete(cands, ff)
			turnedDown = true
			if len(cd.offers) == 1 {
				fx.turnDown(ff, cd.offers[0], fs)
				continue
			}
			failed[ff] = cd.offers
		}
		maps.Copy(cands, fx.split(base, failed))
	}
	return nil, false, turnedDown
}

// blame returns the candidates whose file gained a finding; when a finding
// appears in another file (a rule across files), or only the errors rose,
// the candidates are told apart by linting them in halves (culprits).
func (fx *Fixer) blame(base *tally, cands map[*File]*candidate, add map[string][]diag.Finding, more bool) map[*File][]diag.Finding {
	blame, elsewhere := fx.inOwnFile(cands, add)
	if (elsewhere || more) && len(blame) == 0 {
		blame = fx.culprits(base, cands)
		if len(blame) == 0 { // worse only together: keep none
			for ff := range cands {
				blame[ff] = nil
			}
		}
	}
	return blame
}

// inOwnFile blames each candidate for the findings added in its own file,
// and reports whether any were added in a file no candidate edits. A
// rename among several candidates tells nothing by file: renaming one
// file changes what the rules say of the files beside it (a _resume.md
// becomes the second resume file once another is renamed to
// resume-context.md), so the candidates are told apart by linting them
// (elsewhere).
func (fx *Fixer) inOwnFile(cands map[*File]*candidate, add map[string][]diag.Finding) (blame map[*File][]diag.Finding, elsewhere bool) {
	blame = map[*File][]diag.Finding{}
	if len(cands) > 1 {
		for ff, cd := range cands {
			if cd.path != ff.Path {
				return blame, len(add) > 0
			}
		}
	}
	for p, fs := range add {
		if ff := fx.byPath[p]; ff != nil && cands[ff] != nil {
			blame[ff] = fs
		} else {
			elsewhere = true
		}
	}
	return blame, elsewhere
}

// culprits returns the candidates that add findings or errors, each with
// what it adds, found by halving: cands together add some, a half that
// adds none is cleared whole, one that adds some is halved again, so k
// culprits among n candidates cost about 2k·log2(n) lints, not n. Past
// maxCulpritLints lints, each group not yet told apart is blamed whole
// with what it adds: nothing worse is applied, only fewer fixes.
func (fx *Fixer) culprits(base *tally, cands map[*File]*candidate) map[*File][]diag.Finding {
	files := slices.SortedFunc(maps.Keys(cands), func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
	out := map[*File][]diag.Finding{}
	lints := 0
	var halve func(group []*File)
	halve = func(group []*File) {
		m := map[*File]*candidate{}
		for _, ff := range group {
			m[ff] = cands[ff]
		}
		add, worse := base.added(fx.lint(m), backPaths(m))
		lints++
		switch {
		case len(add) == 0 && !worse:
		case len(group) == 1 || lints >= maxCulpritLints:
			for _, ff := range group {
				out[ff] = flatten(add)
			}
		default:
			halve(group[:len(group)/2])
			halve(group[len(group)/2:])
		}
	}
	if len(files) == 1 {
		halve(files)
	} else {
		halve(files[:len(files)/2])
		halve(files[len(files)/2:])
	}
	return out
}

// maxCulpritLints bounds the lints culprits takes to tell candidates apart.
const maxCulpritLints = 64

// split tries the fixes of the failed candidates one at a time: each that
// fails alone is turned down, the first that passes becomes its file's
// candidate, the others wait for the next pass. Every file's next fix is
// tried in the same lint, and a finding in a file is its own fix's: a lint
// per fix of every file made a repository of many such files quadratic.
// A round whose findings lie only in other files, or that only raises
// the errors, tells its fixes apart by halves (culprits).
func (fx *Fixer) split(base *tally, failed map[*File][]offer) map[*File]*candidate {
	out := map[*File]*candidate{}
	for len(failed) > 0 {
		trial := fx.nextTrial(failed)
		if len(trial) == 0 {
			continue
		}
		add, worse := base.added(fx.lint(trial), backPaths(trial))
		bad, elsewhere := fx.inOwnFile(trial, add)
		if (elsewhere || worse) && len(bad) == 0 && len(trial) > 1 {
			bad = fx.culprits(base, trial)
		} else if len(trial) == 1 && (len(add) > 0 || worse) {
			for ff := range trial {
				bad[ff] = flatten(add)
			}
		}
		for ff, cd := range trial {
			if fs, ok := bad[ff]; ok {
				fx.turnDown(ff, cd.offers[0], fs)
				if len(failed[ff]) == 0 {
					delete(failed, ff)
				}
				continue
			}
			out[ff] = cd
			delete(failed, ff)
		}
	}
	return out
}

// nextTrial takes the next fix of every file in failed that applies
// alone, at most one rename to each name; a file whose fixes are used up
// leaves failed.
func (fx *Fixer) nextTrial(failed map[*File][]offer) map[*File]*candidate {
	trial := map[*File]*candidate{}
	taken := map[string]bool{}
	for _, ff := range fx.files {
		offers, ok := failed[ff]
		if !ok {
			continue
		}
		for len(offers) > 0 {
			if to := offers[0].fix.RenameTo; to != "" && taken[to] {
				break // another file's trial takes the name: the next round
			}
			one := fx.propose(ff, offers[:1], taken)
			offers = offers[1:]
			if one != nil {
				trial[ff] = one
				break
			}
		}
		failed[ff] = offers
		if len(offers) == 0 && trial[ff] == nil {
			delete(failed, ff)
		}
	}
	return trial
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
func (fx *Fixer) turnDown(ff *File, o offer, add []diag.Finding) {
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
	return Plural(len(fs), "finding", "findings") + ": " + strings.Join(parts, "; ")
}

// propose picks, among the fixes offered for one file in one pass, those
// that can be applied together (Select), whose result keeps every value
// (Verify) and whose rename finds its name free, and returns the text they
// give the file, or nil when none applies. Why the others are not applied
// is recorded for the report.
func (fx *Fixer) propose(ff *File, offers []offer, taken map[string]bool) *candidate {
	picked := fx.renamable(ff, selectOffers(ff, offers), taken)
	if len(picked) == 0 {
		return nil
	}
	out, picked := applyOffers(ff, picked)
	if picked == nil {
		return nil
	}
	cd := &candidate{ff: ff, offers: picked, data: out, path: ff.Path, osPath: ff.OSPath}
	for _, o := range picked {
		if to := o.fix.RenameTo; to != "" {
			cd.path, cd.osPath = to, load.Abs(fx.Cwd, to)
			taken[to] = true
		}
	}
	return cd
}

// selectOffers returns the offers that can be applied together; the
// others are skipped until the ones they overlap are settled.
func selectOffers(ff *File, offers []offer) []offer {
	fixes := make([]*diag.Fix, len(offers))
	byFix := map[*diag.Fix]offer{}
	for i, o := range offers {
		fixes[i] = o.fix
		byFix[o.fix] = o
	}
	var picked []offer
	for _, ch := range Select(fixes) {
		switch ch.Outcome {
		case Applied:
			picked = append(picked, byFix[ch.Fix])
		case Conflict:
			ff.skip(byFix[ch.Fix].label(), "it overlaps the "+byFix[ch.With].code+" fix (tried again once that one is settled)")
		}
	}
	return picked
}

// renamable drops the renames whose new name is not free, on disk and
// among the files, in a folder that exists inside the repository. The
// new name is looked up as WriteFile will write it, inside the file's
// root (os.Root): a folder that is a link leading out of the repository
// is never looked at, and the rename is refused with one wording
// whatever lies outside, by lint's count, fix --diff and fix alike.
func (fx *Fixer) renamable(ff *File, picked []offer, taken map[string]bool) []offer {
	kept := picked[:0]
	for _, o := range picked {
		if to := o.fix.RenameTo; to != "" {
			if why := fx.renameBlocked(ff, to, taken); why != "" {
				ff.skip(o.label(), why)
				continue
			}
		}
		kept = append(kept, o)
	}
	return kept
}

// renameBlocked says why ff cannot be renamed to the display path to, or
// returns "".
func (fx *Fixer) renameBlocked(ff *File, to string, taken map[string]bool) string {
	if fx.byPath[to] != nil || taken[to] {
		return to + " already exists"
	}
	root := ff.File.Root
	if root == "" {
		root = filepath.Dir(ff.File.OSPath)
	}
	folder := "the folder " + path.Dir(to)
	rel, ok := contained(root, load.Abs(fx.Cwd, to))
	if !ok {
		return folder + " lies outside the repository"
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return folder + " cannot be looked up: " + err.Error()
	}
	defer r.Close()
	_, err = r.Lstat(rel)
	switch {
	case err == nil:
		return to + " already exists"
	case errors.Is(rootErr(err), errOutside):
		return folder + " leads outside the repository"
	}
	switch fi, err := r.Stat(filepath.Dir(rel)); {
	case errors.Is(rootErr(err), errOutside):
		return folder + " leads outside the repository"
	case err != nil || !fi.IsDir():
		return folder + " does not exist"
	}
	return ""
}

// applyOffers applies the picked fixes to the file's text and verifies the
// result; when that fails, the fixes that fail alone are skipped and the
// others applied. It returns the text and the fixes in it (nil when none
// applies).
func applyOffers(ff *File, picked []offer) ([]byte, []offer) {
	format := load.FormatOf(ff.File.Kind, ff.Path)
	try := func(ofs []offer) ([]byte, error) {
		fs := make([]*diag.Fix, len(ofs))
		for i, o := range ofs {
			fs[i] = o.fix
		}
		out, err := Apply(ff.Data, Edits(fs))
		if err != nil {
			return nil, err
		}
		if len(Edits(fs)) == 0 {
			return out, nil
		}
		return out, Verify(ff.Path, format, ff.Data, out, Drops(fs))
	}
	out, err := try(picked)
	if err == nil {
		return out, picked
	}
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
		return nil, nil
	}
	if out, err = try(ok); err != nil {
		for _, o := range ok {
			ff.skip(o.label(), err.Error())
		}
		return nil, nil
	}
	return out, ok
}

// WriteAll writes every changed file once (WriteFile: atomic, renames
// included) and returns how many files and fixes were written. A file
// that cannot be written keeps its name; its fixes become skipped, and
// failed hears of it.
func WriteAll(files []*File, failed func(ff *File, err error)) (written, fixes int) {
	for _, ff := range files {
		if !ff.Changed() {
			continue
		}
		newPath := ""
		if ff.Path != ff.File.Path {
			newPath = ff.OSPath
		}
		if err := WriteFile(ff.File.Root, ff.File.OSPath, newPath, ff.Read, ff.Data); err != nil {
			failed(ff, err)
			why := err.Error()
			if !strings.Contains(why, "not written") {
				why = "not written: " + why
			}
			for _, a := range ff.Applied {
				ff.skip(a, why)
			}
			ff.Applied, ff.Adds = nil, nil // nothing was written, nothing added
			ff.Path, ff.OSPath = ff.File.Path, ff.File.OSPath
			continue
		}
		written++
		fixes += ff.Fixes
	}
	return written, fixes
}

// Report tells, per file, which fixes were applied (verb: "applied",
// "would apply") and which were not and why, and with unsafe fixes what
// they add.
func Report(w io.Writer, files []*File, verb string) error {
	var sb strings.Builder
	for _, ff := range files {
		for _, a := range ff.Applied {
			line(&sb, "%s: %s %s", ff.Path, verb, a)
		}
		if len(ff.Adds) > 0 {
			line(&sb, "%s: these fixes add %s:", ff.Path, Plural(len(ff.Adds), "finding", "findings"))
			sort.SliceStable(ff.Adds, func(i, j int) bool { return diag.Less(&ff.Adds[i], &ff.Adds[j]) })
			for _, f := range ff.Adds {
				line(&sb, "  %d:%d: %s %s", f.Start.Line, f.Start.Col, f.Code, f.Message)
			}
		}
		for _, l := range slices.Sorted(maps.Keys(ff.Skipped)) {
			line(&sb, "%s: skipped %s: %s", ff.Path, l, ff.Skipped[l])
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// line writes one line of a report: paths, keys and messages come from
// the repository, so the line is masked and escaped (diag.SafeLine).
func line(sb *strings.Builder, format string, args ...any) {
	sb.WriteString(diag.SafeLine(fmt.Sprintf(format, args...)))
	sb.WriteByte('\n')
}

// Plural is "1 one" or "n many".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
