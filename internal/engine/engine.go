// Package engine runs a lint: it loads every unit once, runs the rules that
// apply to it on a worker pool, and returns the findings in the documented
// order, whatever the number of workers.
package engine

import (
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// Settings configure a run.
type Settings struct {
	Opts rules.Options
	Jobs int
	// Selection decides which rules run and at which severity; the
	// filter stage consults the same value.
	rules.Selection
	// KeepData keeps every file's bytes after its unit is checked (the
	// fix command edits them); by default only files with findings keep them.
	KeepData bool
	// For, when set, gives the settings of the configuration that governs
	// a unit, by its OS path: the rules that run over it and their
	// options (a nested .resumelint.yaml applies to its own subtree).
	// Cross-file rules run with these settings.
	For func(osPath string, isDir bool) *Settings
	// Base is the revision --base compares against (RL601–RL604), given
	// to every pass; nil without --base.
	Base *rules.Base
	// Files is the command's file access, through which the run reads its
	// units and its rules read other files (with the editor's unsaved
	// buffers, for the server): a command that runs the engine twice
	// (the lint and its dry run) reads each file once. Nil: the run has
	// one of its own.
	Files *load.Files
	// OnDocument, when set, is given each file unit's parsed document
	// that the run checks, on the unit's worker, before its tree and
	// bytes are handed back: a command that reports on the files beside
	// their findings (status) reads each file once, as the lint read it.
	// A panic in it is an internal error of the unit.
	OnDocument func(*load.Document)

	found *findingPack // the run's findings, packed
}

// Result is what a run found.
type Result struct {
	// Findings are the raw findings of the rules that ran and of loading,
	// with their rule's name and default severity: the filter stage
	// (internal/filter) applies severity settings and suppressions.
	Findings []diag.Finding
	// Directives are the suppression comments of the run's files that
	// have any, by display path, for the filter stage.
	Directives map[string][]load.Directive
	// Checked counts the files looked at (a folder's files each count).
	Checked int
	// Skipped are the units whose names matched a kind but whose format is
	// another system's (SPEC §1), in path order; --verbose lists them.
	Skipped []load.Skip
	// Unchecked are the findings saying a file was not checked at all
	// (RL001, RL003, RL004) that the configuration's ignore: list hid
	// (the filter stage fills it); --verbose lists them.
	Unchecked []diag.Finding
	// Internal counts internal failures (a recovered panic): exit code 3.
	Internal int
	// Notes say, for --verbose, what the run decided from the repository
	// as a whole: the records that are history (SPEC §0 lifecycle), the
	// evidence of the resumption version the repository writes.
	Notes []string
	// Records are the lifecycles of the run's orchestration files and
	// resume contexts (SPEC §0), so reports tell live records from history
	// with the decision the rules made.
	Records []*rules.RecordFact

	located map[string]*located // the secrets located in the units' files, by path
	all     *located            // their union, made on first need (unionOf)
}

// Mask hides in s, text a command shows from the run's files beside its
// findings (status: a workflow's next step), every secret located in
// them (its lines, any run of 8 bytes of it), then whatever has a
// credential's shape (diag.Mask): a credential written inside a value,
// which no pattern finds, is masked as in the findings.
func (res *Result) Mask(s string) string {
	if all := res.union(); all != nil {
		s = all.mask(s)
	}
	return diag.Mask(s)
}

// union is every secret located in the run's files as one located, made
// once (nil when there is none): findings and reports share it.
func (res *Result) union() *located {
	if res.all == nil && len(res.located) > 0 {
		res.all = unionOf(res.located)
	}
	return res.all
}

// maskAcrossFiles masks the run's findings of the secrets located in
// every one of its files, with the union Mask shares.
func (res *Result) maskAcrossFiles() {
	if len(res.Findings) > 0 {
		maskAcrossFiles(res.Findings, res.union())
	}
}

// InternalCode marks a finding about resumelint's own failure.
const InternalCode = code.Internal

type unit struct {
	file   *load.File
	folder *load.Folder
	stdin  bool
	// context units are indexed for the cross-file rules, not checked
	// (load.Discovery.Context).
	context bool
}

// forUnit returns the settings of the configuration governing u.
func (s *Settings) forUnit(u unit) *Settings {
	if s.For == nil {
		return s
	}
	var us *Settings
	if u.file != nil {
		us = s.For(u.file.OSPath, false)
	} else {
		us = s.For(u.folder.OSPath, true)
	}
	if us == nil {
		return s
	}
	return us
}

func (u unit) kind() load.Kind {
	if u.folder != nil {
		return u.folder.Kind
	}
	return u.file.Kind
}

type unitResult struct {
	found *packed // the unit's findings
	// directives are those of the unit's files that hold any.
	directives []fileDirectives
	internal   int
	skip       *load.Skip // the unit is another system's file or folder
	located    map[string]*located
	// read counts a bundle's artifacts: naming one of them verifies the
	// bundle, which reads them all.
	read int
}

// Run lints the discovered units. extra are files already read (stdin).
func Run(d *load.Discovery, extra []*load.File, s Settings) *Result {
	defer load.HoldRoots()()
	s.found = &findingPack{}
	if s.Files == nil {
		s.Files = load.NewFiles(nil)
	}
	if d.Listing != nil {
		s.Files.UseListing(d.Listing)
	}
	units := unitsOf(d, extra)
	if len(units) >= compileAsideUnits && runtime.GOMAXPROCS(0) > 1 {
		rules.CompileSchemaAside()
	}
	results := make([]unitResult, len(units))
	index := rules.NewIndex()
	// A unit is checked after every unit whose facts its rules require
	// (checkpoints before the orchestration files that look them up).
	byPhase := map[int][]int{}
	for i, u := range units {
		ph := rules.Phase(u.kind())
		byPhase[ph] = append(byPhase[ph], i)
	}
	for _, ph := range slices.Sorted(maps.Keys(byPhase)) {
		s.pool(byPhase[ph], func(i int) { results[i] = s.runUnit(units[i], index) })
	}

	res := &Result{Directives: map[string][]load.Directive{}}
	// Phase 3: cross-file rules over the whole index, while the units are
	// counted and their directives gathered: both were serial steps
	// between the last unit and the report.
	finalized := s.finalize(index)
	res.gather(units, results)
	// A few findings are unpacked while the cross-file rules run (both
	// were serial steps between the last unit and the report); many,
	// once the index is not used any more and its facts can go (a fifth
	// of what a run keeps at its end).
	beside := packedCount(results) < unpackBesideIndex
	if beside {
		res.unpack(&s, results)
	}
	repo := withoutContext(finalized(res), d)
	// A finished record is history: one decision for every rule.
	hist := rules.HistoryFiles(index)
	res.Records = rules.Records.All(index)
	if !beside {
		res.unpack(&s, results)
	}
	s.settleRepo(res, repo)
	res.maskAcrossFiles()
	var notes []string
	res.Findings, notes = rules.WithoutHistory(res.Findings, hist)
	res.Notes = append(res.Notes, notes...)
	for _, f := range d.Unknown {
		res.Checked++
		fd := diag.Finding{Code: rules.UnknownKind.Code, Path: f.Path, Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 1},
			Message: "resumelint cannot tell this file's kind from its name: rename it or leave it out (`resumelint explain " + code.UnknownKind + "` lists the names it checks)"}
		fill(&fd)
		res.Findings = append(res.Findings, fd)
	}
	diag.Sort(res.Findings)
	return res
}

// unitsOf lists a run's units: stdin files, files, then folders.
func unitsOf(d *load.Discovery, extra []*load.File) []unit {
	units := make([]unit, 0, len(extra)+len(d.Files)+len(d.Folders))
	for _, f := range extra {
		units = append(units, unit{file: f, stdin: true})
	}
	for _, f := range d.Files {
		units = append(units, unit{file: f})
	}
	for _, f := range d.Folders {
		units = append(units, unit{folder: f})
	}
	for _, f := range d.Context {
		units = append(units, unit{file: f, context: true})
	}
	for _, f := range d.ContextFolders {
		units = append(units, unit{folder: f, context: true})
	}
	return units
}

// contextPaths are the display paths of a run's context units: a file's,
// or a folder's with a trailing slash (what lies under it).
func contextPaths(d *load.Discovery) (files map[string]bool, folders []string) {
	if len(d.Context)+len(d.ContextFolders) == 0 {
		return nil, nil
	}
	files = map[string]bool{}
	for _, f := range d.Context {
		files[f.Path] = true
	}
	for _, f := range d.ContextFolders {
		folders = append(folders, strings.TrimSuffix(f.Path, "/")+"/")
	}
	return files, folders
}

// withoutContext drops the findings cross-file rules made on context
// units: the run reports on what it was asked to check.
func withoutContext(fs []diag.Finding, d *load.Discovery) []diag.Finding {
	files, folders := contextPaths(d)
	if files == nil {
		return fs
	}
	kept := fs[:0]
	for _, fd := range fs {
		if files[fd.Path] || slices.ContainsFunc(folders, func(f string) bool { return strings.HasPrefix(fd.Path, f) }) {
			continue
		}
		kept = append(kept, fd)
	}
	return kept
}

// compileAsideUnits is how many units a run has before the CUE schema is
// compiled beside the first units rather than by the first that needs it
// (rules.CompileSchemaAside): a hook's few files rarely need it at all.
const compileAsideUnits = 256

// unpackOnEveryCore is how many findings a run has before unpack
// unpacks them on every core.
var unpackOnEveryCore = 4096

// gather counts the checked and skipped units and gathers what they
// located and their files' suppression directives.
func (res *Result) gather(units []unit, results []unitResult) {
	for i, u := range units {
		switch {
		case u.context:
		case results[i].skip != nil:
			res.Skipped = append(res.Skipped, *results[i].skip)
		case u.folder != nil:
			res.Checked += max(len(u.folder.Files), results[i].read, 1)
		default:
			res.Checked++
		}
	}
	sort.Slice(res.Skipped, func(i, j int) bool { return res.Skipped[i].Path < res.Skipped[j].Path })
	for i := range results {
		r := &results[i]
		for path, lc := range r.located {
			if res.located == nil {
				res.located = map[string]*located{}
			}
			res.located[path] = lc
		}
		res.Internal += r.internal
		for _, fd := range r.directives {
			if _, dup := res.Directives[fd.path]; !dup {
				res.Directives[fd.path] = fd.dirs
			}
		}
	}
}

// unpackBesideIndex is how many findings a run unpacks while the index is
// still in use: 16,384 findings are about 3 MiB unpacked (the 1x findings
// benchmark has 6,000; at 8x, 48,800 were 9 MB beside 20 MB of facts).
var unpackBesideIndex = 1 << 14

// packedCount is how many findings the units' results hold.
func packedCount(results []unitResult) int {
	n := 0
	for i := range results {
		if results[i].found != nil {
			n += results[i].found.n
		}
	}
	return n
}

// unpack gathers the units' findings into res.Findings.
func (res *Result) unpack(s *Settings, results []unitResult) {
	// Each unit's findings are unpacked to their place on every core: the
	// copy of thousands of findings while a collection is under way is
	// mostly write barriers, and was the longest serial piece after the
	// report.
	at := make([]int, len(results)+1)
	for i, r := range results {
		at[i+1] = at[i]
		if r.found != nil {
			at[i+1] += r.found.n
		}
	}
	res.Findings = make([]diag.Finding, at[len(results)])
	copyAt := func(i int) {
		if results[i].found != nil {
			results[i].found.unpack(res.Findings[at[i]:at[i+1]])
			results[i].found = nil
		}
	}
	if at[len(results)] < unpackOnEveryCore {
		for i := range results {
			copyAt(i)
		}
	} else {
		idx := make([]int, len(results))
		for i := range idx {
			idx[i] = i
		}
		s.pool(idx, copyAt)
	}
}

// finalize starts the cross-file rules over the whole index; join
// returns their findings.
func (s *Settings) finalize(index *rules.Index) (join func(res *Result) []diag.Finding) {
	// The cross-file rules only read the index, which no unit writes any
	// more: each runs on a goroutine of its own, and their findings and
	// notes are joined in the order of the rules, as one at a time. join
	// waits for them and adds their notes to res.
	type repoRun struct {
		findings []diag.Finding
		notes    []string
		internal int
	}
	var finals []*rules.Rule
	for _, r := range rules.All() {
		if r.Finalize != nil && s.enabled(r) {
			finals = append(finals, r)
		}
	}
	runs := make([]repoRun, len(finals))
	var wg sync.WaitGroup
	for i, r := range finals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run := &runs[i]
			defer func() {
				if e := recover(); e != nil {
					run.internal++
					run.findings = append(run.findings, diag.Finding{Code: InternalCode, Name: "internal-error", Severity: diag.SevError,
						Message: fmt.Sprintf("internal error in rule %s %s: %v (please report this)", r.Code, r.Name, e)})
				}
			}()
			rp := rules.NewRepoPass(r, &s.Opts, index, &run.findings)
			rp.Files, rp.BaseRev = s.Files, s.Base
			r.CheckRepo(rp)
			run.notes = rp.Notes()
		}()
	}
	return func(res *Result) []diag.Finding {
		wg.Wait()
		var repo []diag.Finding
		for _, run := range runs {
			repo = append(repo, run.findings...)
			res.Notes = append(res.Notes, run.notes...)
			res.Internal += run.internal
		}
		return repo
	}
}

// settleRepo adds the cross-file findings, widened over the line their
// facts gave them, masked of the secrets located in their files as the
// units' findings are.
func (s *Settings) settleRepo(res *Result, repo []diag.Finding) {
	redact(repo, res.located)
	for i := range repo {
		fd := &repo[i]
		fill(fd)
		widenOn(fd, fd.Snippet, fd.HasSnippet)
		if s.Opts.NoSnippets {
			fd.Snippet, fd.HasSnippet = "", false
		}
	}
	maskSnippets(repo, res.located)
	res.Findings = append(res.Findings, repo...)
}

// widen gives a finding whose span is empty the width of the token at its
// start, so every output underlines something.
func widen(fs []diag.Finding, sources map[string]*load.File) {
	for i := range fs {
		fd := &fs[i]
		if fd.Start.Line == 0 || fd.Start.Col == 0 || fd.Secret {
			continue
		}
		if fd.End.Line > fd.Start.Line || (fd.End.Line == fd.Start.Line && fd.End.Col > fd.Start.Col) {
			continue
		}
		src := sources[fd.Path]
		if src == nil {
			continue
		}
		// In bytes from the column's offset: a finding costs its token,
		// not its line (thousands of findings on one minified JSON line).
		line, at, ok := src.LineAt(fd.Start.Line, fd.Start.Col)
		if !ok {
			continue
		}
		if w := tokenWidth(line, at); w > 0 {
			fd.End = diag.Pos{Line: fd.Start.Line, Col: fd.Start.Col + utf8.RuneCount(line[at:at+w])}
		}
	}
}

// snippets gives each finding that has none the text of its start line
// from the file of its path, while the file's bytes are read. Findings on
// one line share one copy of it (thousands of findings on one minified
// JSON line, or on two long lines in turn).
func snippets(fs []diag.Finding, files map[string]*load.File) {
	type at struct {
		path string
		line int
	}
	type text struct {
		s  string
		ok bool
	}
	seen := map[at]text{}
	for i := range fs {
		fd := &fs[i]
		if fd.HasSnippet {
			continue
		}
		f := files[fd.Path]
		if f == nil {
			continue
		}
		k := at{fd.Path, fd.Start.Line}
		t, done := seen[k]
		if !done {
			t.s, t.ok = f.Snippet(fd.Start.Line)
			seen[k] = t
		}
		fd.Snippet, fd.HasSnippet = t.s, t.ok
	}
}

// fileDirectives are the suppression directives of the file at path.
type fileDirectives struct {
	path string
	dirs []load.Directive
}

// widenOn widens fd like widen, over the text of its start line (a
// cross-file finding, whose file its fact read).
func widenOn(fd *diag.Finding, line string, ok bool) {
	l := fd.Start.Line
	if !ok || l == 0 || fd.End.Line > l {
		return
	}
	one := *fd
	one.Start.Line, one.End.Line = 1, min(fd.End.Line-l+1, 1)
	fs := []diag.Finding{one}
	widen(fs, map[string]*load.File{fd.Path: {Path: fd.Path, Data: []byte(line)}})
	if fs[0].End != one.End {
		fd.End = diag.Pos{Line: l, Col: fs[0].End.Col}
	}
}

// tokenWidth measures the token that starts at line[at]: a quoted string
// through its closing quote, one bracket or list dash, or a word up to a
// blank, a flow separator or a key's colon. The width is in elements of
// line.
func tokenWidth[T byte | rune](line []T, at int) int {
	if at < 0 || at >= len(line) {
		return 0
	}
	switch c := line[at]; c {
	case ' ', '\t':
		return 0
	case '{', '}', '[', ']', ',', '-', '|', '>':
		if c != '-' || at+1 >= len(line) || line[at+1] == ' ' {
			return 1
		}
	case '"', '\'':
		for j := at + 1; j < len(line); j++ {
			if line[j] == '\\' && c == '"' {
				j++
				continue
			}
			if line[j] == c {
				return j - at + 1
			}
		}
		return len(line) - at
	}
	j := at
	for j < len(line) {
		c := line[j]
		if c == ' ' || c == '\t' || c == ',' || c == ']' || c == '}' {
			break
		}
		if c == ':' && (j+1 == len(line) || line[j+1] == ' ' || line[j+1] == '\t') {
			break
		}
		j++
	}
	return max(j-at, 1)
}

// fill gives a finding its rule's name and, when it has none, the rule's
// default severity.
func fill(fd *diag.Finding) {
	if r := rules.Lookup(fd.Code); r != nil && fd.Code != InternalCode {
		fd.Name = r.Name
		if fd.Severity == diag.SevOff {
			fd.Severity = r.Severity
		}
	}
}

// enabled reports whether rule r runs in this run (Selection.Active).
func (s *Settings) enabled(r *rules.Rule) bool {
	return s.Selection.Active(r, s.HasBase())
}

// HasBase reports whether the run compares with a base revision (--base).
func (s *Settings) HasBase() bool { return s.Base != nil }

// pool runs fn over idx on the configured number of workers.
func (s *Settings) pool(idx []int, fn func(int)) {
	jobs := s.Jobs
	if jobs <= 0 {
		// The processors Go runs on, not the machine's CPUs: in a
		// container with a CPU quota (a CI runner) NumCPU counts the
		// host's, and every worker beyond GOMAXPROCS only holds a
		// loaded unit in memory while it waits for a processor.
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = min(jobs, 64, 4*runtime.NumCPU()) // more workers only cost memory
	if jobs > len(idx) {
		jobs = len(idx)
	}
	// Each worker takes the next unit itself: a channel fed by one more
	// goroutine costs two goroutine switches per unit.
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(idx) {
					return
				}
				fn(idx[k])
			}
		}()
	}
	wg.Wait()
}

// unitRun is the state of checking one unit.
type unitRun struct {
	s          *Settings
	onDocument func(*load.Document) // the run's Settings.OnDocument
	context    bool                 // indexers only (unit.context)
	// maskOnly is a context unit no checked unit names, read only for
	// the secrets it holds: nothing indexes it.
	maskOnly bool
	index    *rules.Index
	fs       *load.Files // the command's file access
	// results derived once per unit (the resumption section, …) are shared by its rules.
	results  *rules.Results
	raw      []diag.Finding
	files    []*load.File
	docs     []*load.Document
	unit     load.Unit // the unit whose documents are docs, once loaded
	internal int
}

// runRules runs over the unit the indexers, then the active rules, of
// its kind; path names the unit in an internal error.
func (ur *unitRun) runRules(u load.Unit, path string) {
	if ur.maskOnly {
		return
	}
	kind := u.UnitKind()
	p := rules.NewPass(nil, &ur.s.Opts, u, nil)
	p.Results, p.Index, p.Files, p.BaseRev, p.Selection = ur.results, ur.index, ur.fs, ur.s.Base, &ur.s.Selection
	newPass := func(r *rules.Rule, out *[]diag.Finding) *rules.Pass {
		p.Next(r, out)
		return p
	}
	// The indexers run whatever rules are enabled: what a unit publishes
	// never depends on them. They report nothing.
	var none []diag.Finding
	for _, x := range rules.Indexers() {
		if x.AppliesTo(kind) {
			ur.guard(path, func() { x.Run(newPass(nil, &none)) }, "indexer", x.Name)
		}
	}
	if ur.context {
		return
	}
	for _, r := range rules.All() {
		if r.Run != nil && r.AppliesTo(kind) && ur.s.enabled(r) {
			ur.guard(path, func() { r.Check(newPass(r, &ur.raw)) }, "rule", r.Code, r.Name)
		}
	}
}

// guard runs fn, turning a panic into an internal-error finding.
func (ur *unitRun) guard(path string, fn func(), what ...string) {
	defer func() {
		if e := recover(); e != nil {
			ur.internal++
			ur.raw = append(ur.raw, diag.Finding{Code: InternalCode, Name: "internal-error", Severity: diag.SevError, Path: path,
				Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 1},
				Message: fmt.Sprintf("internal error in %s: %v (please report this with the file)", strings.Join(what, " "), e)})
		}
	}()
	fn()
}

// file checks a file unit; it returns a skip when the file is another
// system's.
func (ur *unitRun) file(f *load.File, stdin bool) *load.Skip {
	lim := ur.s.Opts.Limits
	ur.files = append(ur.files, f)
	var probs []diag.Finding
	var ok bool
	switch {
	case stdin:
		probs, ok = load.CheckBytes(f, lim)
	case ur.context:
		// An editor's unsaved buffer of it stands for it, as for the files
		// rules read (nothing is reported on it either way); most are
		// left unparsed, telling nothing about the units checked.
		if data, in := ur.fs.Buffer(f.OSPath); in {
			f.Data = data
			probs, ok = load.CheckBytes(f, lim)
		} else {
			probs, ok = ur.fs.Read(f, lim)
		}
		if !ok {
			f.Release()
			return nil
		}
		// One that may hold a secret is parsed all the same, only to
		// locate it: a finding quoting its value is masked as in a lint
		// of the repository.
		if !rules.ContextRelevant(ur.index, f, f.Data) {
			if !rules.MayHoldSecret(f.Data) {
				f.Release()
				return nil
			}
			ur.maskOnly = true
		}
	default:
		probs, ok = ur.fs.Read(f, lim)
	}
	ur.raw = append(ur.raw, probs...)
	if !ok {
		return nil
	}
	doc, probs := load.Parse(f, load.FormatOf(f.Kind, f.Path), lim)
	if why := load.OtherSystems(ur.absPath(f), doc, probs); why != "" {
		f.Release()
		return &load.Skip{Path: f.Path, Kind: f.Kind, Reason: why}
	}
	ur.raw = append(ur.raw, probs...)
	ur.docs = append(ur.docs, doc)
	ur.unit = doc
	if ur.onDocument != nil {
		ur.guard(f.Path, func() { ur.onDocument(doc) }, "the report on", f.Path)
	}
	if doc.Root == nil && f.Kind != load.KindOrchestration && !frontMatterless(doc, probs) {
		return nil
	}
	ur.runRules(doc, f.Path)
	return nil
}

// frontMatterless reports a resume note without front matter that load
// accepts (a _resume.md): RL313 still judges its name.
func frontMatterless(doc *load.Document, probs []diag.Finding) bool {
	return doc.File.Kind == load.KindResumeContext && !doc.FrontMatter && len(probs) == 0
}

// absPath is a file's path from the filesystem root where it can be told
// (the place decides whether a resume file is nexus's).
func (ur *unitRun) absPath(f *load.File) string {
	p := f.OSPath
	if p == "" {
		p = filepath.FromSlash(f.Path)
	}
	if !filepath.IsAbs(p) && ur.s.Opts.Cwd != "" {
		p = filepath.Join(ur.s.Opts.Cwd, p)
	}
	return p
}

// bundle checks a bundle folder.
func (ur *unitRun) bundle(folder *load.Folder) *load.Skip {
	b, probs := ur.fs.LoadBundle(folder, ur.s.Opts.Limits)
	if why := b.OtherFormat(); why != "" {
		for _, d := range b.Artifacts {
			d.File.Release()
		}
		return &load.Skip{Path: folder.Path + "/", Kind: load.KindBundle, Reason: why}
	}
	ur.raw = append(ur.raw, probs...)
	ur.unit = b
	for _, d := range b.Artifacts {
		ur.files = append(ur.files, d.File)
		ur.docs = append(ur.docs, d)
	}
	ur.runRules(b, folder.Path)
	ur.raw = rules.WithoutRestatedDuplicates(ur.raw)
	return nil
}

// agentRun checks an agent-run folder; it returns a skip when the folder
// is another tool's.
func (ur *unitRun) agentRun(folder *load.Folder) *load.Skip {
	if why := load.NotAgentRun(folder); why != "" {
		return &load.Skip{Path: folder.Path + "/", Kind: load.KindAgentRun, Reason: why}
	}
	run, probs := ur.fs.LoadAgentRun(folder, ur.s.Opts.Limits)
	ur.raw = append(ur.raw, probs...)
	ur.unit = run
	for _, d := range []*load.Document{run.TaskGraph, run.WorkflowState} {
		if d != nil {
			ur.files = append(ur.files, d.File)
			ur.docs = append(ur.docs, d)
		}
	}
	for _, d := range run.Events {
		ur.files = append(ur.files, d.File)
		ur.docs = append(ur.docs, d)
	}
	ur.runRules(run, folder.Path)
	return nil
}

func (s *Settings) runUnit(u unit, index *rules.Index) unitResult {
	ur := &unitRun{s: s.forUnit(u), onDocument: s.OnDocument, context: u.context, index: index, fs: s.Files, results: rules.NewResults()}
	if u.context {
		ur.onDocument = nil // a report on the files checked, not on these
	}
	var skip *load.Skip
	switch {
	case u.file != nil:
		skip = ur.file(u.file, u.stdin)
	case u.folder != nil && u.folder.Kind == load.KindBundle:
		skip = ur.bundle(u.folder)
	case u.folder != nil && u.folder.Kind == load.KindAgentRun:
		skip = ur.agentRun(u.folder)
	}
	if skip != nil {
		return unitResult{skip: skip}
	}
	if u.context {
		// Nothing is reported on it, its directives included (an unused
		// one would be RL007's), but what it holds of a secret is masked
		// wherever a finding quotes it.
		ur.raw = nil
		loc := ur.locate()
		for _, d := range ur.docs {
			d.Release()
		}
		for _, f := range ur.files {
			f.Release()
		}
		return unitResult{located: loc}
	}
	// The loader's findings and the rest Report could not place.
	ur.results.Place(ur.unit, ur.raw)
	loc := ur.locate() // while the documents are in hand
	if u.file != nil {
		for _, d := range ur.docs {
			d.Release() // no finding, fact or result keeps a file's node
		}
	}
	redact(ur.raw, loc)
	out := s.settle(ur.raw, ur.files, loc)
	out.internal = ur.internal
	if u.folder != nil && u.folder.Kind == load.KindBundle {
		out.read = len(ur.files)
	}
	return out
}

// settle fills a unit's findings from the catalog, in path order, then
// releases the unit's files but the lines findings point at; loc are the
// secrets located in the files, which no snippet or directive line shows.
func (s *Settings) settle(raw []diag.Finding, files []*load.File, loc map[string]*located) (out unitResult) {
	for i := range raw {
		fill(&raw[i])
	}
	sort.SliceStable(raw, func(i, j int) bool { return raw[i].Path < raw[j].Path })
	sources := make(map[string]*load.File, len(files))
	for _, f := range files {
		sources[f.Path] = f
		if len(f.Directives) > 0 {
			out.directives = append(out.directives, fileDirectives{f.Path, maskDirectives(f.Directives, loc[f.Path])})
		}
	}
	// While the bytes are read: the findings take what they print.
	widen(raw, sources)
	if !s.Opts.NoSnippets {
		snippets(raw, sources)
		maskSnippets(raw, loc)
	}
	// They outlive the unit until the report, packed.
	out.found = s.found.pack(raw)
	out.located = loc // for the cross-file findings on these files
	if !s.KeepData {
		for _, f := range files {
			f.Release() // a run's memory must not grow with the files it checks
		}
	}
	return out
}
