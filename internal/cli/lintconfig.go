package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/filter"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/gctune"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// configFlags are the lint flags of SPEC §7: configuration and baselines.
type configFlags struct {
	config, baseline, writeBaseline string
}

func (cf *configFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&cf.config, "config", "", "configuration file (default: the nearest .resumelint.yaml walking up from the linted path to the repository root)")
	fs.StringVar(&cf.baseline, "baseline", "", "hide the findings recorded in this baseline file")
	fs.StringVar(&cf.writeBaseline, "write-baseline", "", "record today's findings in this baseline file (they are then hidden)")
}

// lintConfig is a run's configurations and the filters built from them.
type lintConfig struct {
	// set finds each path's configuration: --config, else the nearest
	// .resumelint.yaml walking up from the path (config.Set).
	set *config.Set
	// top is the configuration of the first linted path: fail_on, stdin's
	// kind and --verbose's first line come from it; cfg is its content.
	top *config.Scope
	cfg *config.Config
	// root is the repository root (paths in baselines, SARIF and
	// annotations are relative to it); cfgRoot is where top's globs are
	// anchored: the folder of a .resumelint.yaml found by the walk up,
	// else root.
	root, cfgRoot, cwd string
	// how says how the configuration was chosen, for --verbose.
	how        string
	classifier *load.Classifier
	// pre are the run's settings before any configuration; ruleFlags
	// applies the rule flags after a configuration, so flags win in every
	// scope (nil when the command has none).
	pre       engine.Settings
	ruleFlags func(*engine.Settings) error

	mu     sync.Mutex
	scoped map[*config.Scope]*engine.Settings
}

// setupConfig reads the configuration of anchor, the first linted path
// (--config, else the nearest .resumelint.yaml walking up from it to the
// repository root, or to the filesystem root outside a repository), and
// applies it to settings before the flags are applied, so flags win.
// Paths under a folder with a .resumelint.yaml of its own are checked
// with that one (settingsFor).
func (c *Command) setupConfig(cf *configFlags, s *engine.Settings, anchor string) (*lintConfig, error) {
	lc := &lintConfig{root: s.Opts.RepoRoot, cwd: c.Cwd, pre: cloneSettings(s), scoped: map[*config.Scope]*engine.Settings{}}
	explicit := ""
	if cf.config != "" {
		explicit = load.Abs(c.Cwd, cf.config)
	}
	set, err := config.NewSet(c.Cwd, lc.root, explicit)
	if err != nil {
		return nil, configError(err)
	}
	lc.set = set
	lc.top = set.For(anchor)
	if err := set.Err(); err != nil {
		return nil, configError(err)
	}
	lc.how = "--config"
	if explicit == "" {
		lc.how = "looked for from " + load.Display(c.Cwd, anchor) + " up to the repository root"
		if _, ok := gitRoot(anchor, c.Cwd); !ok {
			lc.how = "looked for from " + load.Display(c.Cwd, anchor) + " up to the filesystem root, outside a repository"
		}
	}
	lc.cfg, lc.cfgRoot, lc.classifier = lc.top.Config, lc.top.Root, lc.top.Classifier()
	applyConfig(lc.cfg, s)
	s.Opts.Classify, lc.pre.Opts.Classify = lc.repoKind, lc.repoKind
	return lc, nil
}

// repoKind classifies a repository file as discovery does: with the
// globs and excludes of the configuration governing its folder.
func (lc *lintConfig) repoKind(osPath string) load.Kind {
	c := lc.set.Beside(filepath.Dir(osPath)).Classifier()
	disp := load.Display(lc.cwd, osPath)
	k := c.FileKind(disp)
	if k == load.KindUnknown {
		k = c.FileKind(filepath.ToSlash(osPath))
	}
	if k == load.KindUnknown || c.Excluded(disp) || lc.set.Excluded(osPath, k) {
		return load.KindUnknown
	}
	return k
}

// configError is the usage error for a configuration that cannot be read
// or is invalid: one line per problem.
func configError(err error) error {
	var ce *config.Error
	if errors.As(err, &ce) {
		return usagef("%s", strings.ReplaceAll(ce.Error(), "\n", "\nresumelint: "))
	}
	return usagef("%v", err)
}

// cloneSettings copies settings with maps of their own.
func cloneSettings(s *engine.Settings) engine.Settings {
	c := *s
	c.Selection = s.Selection.Clone()
	c.Opts.SecretAllow = slices.Clone(s.Opts.SecretAllow)
	return c
}

// settingsFor returns the settings of the paths a scope governs: final
// (the top scope's, flags applied) for the top scope; for another, the
// settings before any configuration with that scope's configuration and
// then the flags applied (made once per scope), with what belongs to the
// run taken from final: its clock, --base, file access and workers. The
// server lints many times with one configuration, so what is kept per
// scope holds nothing of a run.
func (lc *lintConfig) settingsFor(sc *config.Scope, final *engine.Settings) *engine.Settings {
	if sc == lc.top {
		return final
	}
	lc.mu.Lock()
	s, ok := lc.scoped[sc]
	if !ok {
		c := cloneSettings(&lc.pre)
		applyConfig(sc.Config, &c)
		if lc.ruleFlags != nil {
			_ = lc.ruleFlags(&c) // checked when applied to the top scope
		}
		s = &c
		lc.scoped[sc] = s
	}
	lc.mu.Unlock()
	run := *s
	run.Base, run.KeepData, run.Jobs, run.Files = final.Base, final.KeepData, final.Jobs, final.Files
	run.Opts.Now, run.Opts.NoSnippets = final.Opts.Now, final.Opts.NoSnippets
	return &run
}

// failOn is the lowest severity a finding on path fails the run at:
// flag (--fail-on) when given, else the fail_on of the configuration
// governing the finding's file, else error. So a nested configuration's
// fail_on decides for its own files only, and the whole-repository lint,
// pre-commit's --affected (whatever the order of the files) and the
// editing hook (wherever the session runs) fail on the same findings.
func (lc *lintConfig) failOn(path string, flag diag.Severity) diag.Severity {
	if flag != diag.SevOff {
		return flag
	}
	sc := lc.top
	if path != "" {
		sc = lc.set.ForPath(load.Abs(lc.cwd, path), strings.HasSuffix(path, "/"))
	}
	if sc != nil && sc.Config != nil && sc.Config.FailOn != diag.SevOff {
		return sc.Config.FailOn
	}
	return diag.SevError
}

// classifierFor is the classifier of the configuration governing a folder.
func (lc *lintConfig) classifierFor(osDir string) *load.Classifier {
	return lc.set.For(osDir).Classifier()
}

// discovered applies each unit's configuration's excludes to a discovery,
// and fails when a configuration found on the way is invalid. extra are
// the run's files read from stdin, governed by the configuration of the
// folder they are named in.
func (lc *lintConfig) discovered(d *load.Discovery, extra ...*load.File) error {
	for _, f := range extra {
		lc.set.ForPath(load.Abs(lc.cwd, f.OSPath), false)
	}
	if err := lc.set.Err(); err != nil {
		return configError(err)
	}
	lc.set.Filter(d)
	lc.set.Settle()
	return nil
}

// discoverOptions are the discovery options of the run: each folder's
// files are classified with the globs of the configuration governing it,
// and every file found is read inside the run's repository root.
func (lc *lintConfig) discoverOptions(cwd string) load.DiscoverOptions {
	return load.DiscoverOptions{Cwd: cwd, Classifier: lc.classifier, ClassifierFor: lc.classifierFor, Listed: lc.set.Listed, Root: lc.root,
		BeforeWalk: gctune.ReserveAside}
}

// nestedUnits groups the discovered units that another configuration
// than the first linted path's governs, by that configuration.
func (lc *lintConfig) nestedUnits(d *load.Discovery) map[*config.Scope][]string {
	out := map[*config.Scope][]string{}
	add := func(osPath, disp string, isDir bool) {
		if sc := lc.set.ForPath(osPath, isDir); sc != lc.top {
			out[sc] = append(out[sc], disp)
		}
	}
	for _, f := range d.Files {
		add(f.OSPath, f.Path, false)
	}
	for _, f := range d.Folders {
		add(f.OSPath, f.Path+"/", true)
	}
	return out
}

// applyConfig puts the configuration into run settings; flags are applied
// after it, so they win.
func applyConfig(c *config.Config, s *engine.Settings) {
	if s.Severity == nil {
		s.Severity = map[string]diag.Severity{}
	}
	for code, sev := range c.Severity {
		s.Severity[code] = sev
	}
	if c.MaxAge > 0 {
		s.Opts.MaxAge = c.MaxAge
	}
	if c.RunMaxAge > 0 {
		s.Opts.RunMaxAge = c.RunMaxAge
	}
	if c.Bundle.Base != "" && s.Opts.Bundle.Base == "" { // --bundle-base wins
		s.Opts.Bundle.Base = c.Bundle.Base
	}
	if c.Bundle.Semvers != nil {
		s.Opts.Bundle.Semvers = c.Bundle.Semvers
	}
	if c.Bundle.Forbidden != nil {
		s.Opts.Bundle.Forbidden = c.Bundle.Forbidden
	}
	s.Opts.SecretAllow = append(s.Opts.SecretAllow, c.SecretAllow...)
	if len(c.AllowKeys) > 0 {
		s.Opts.AllowKeys = c.AllowKeys
	}
}

// run lints the units with the engine, each with the settings of the
// configuration governing it, then passes the raw findings through the
// filter stage with each file's configuration.
func (lc *lintConfig) run(d *load.Discovery, extra []*load.File, s engine.Settings) *engine.Result {
	s.For = func(osPath string, isDir bool) *engine.Settings {
		return lc.settingsFor(lc.set.ForPath(osPath, isDir), &s)
	}
	res := engine.Run(d, extra, s)
	scopes := map[*config.Scope]*filter.Scope{}
	var mu sync.Mutex
	st := &filter.Stage{For: func(path string) *filter.Scope {
		sc := lc.top
		if path != "" {
			sc = lc.set.ForPath(load.Abs(lc.cwd, path), strings.HasSuffix(path, "/"))
		}
		mu.Lock()
		defer mu.Unlock()
		if fs, ok := scopes[sc]; ok {
			return fs
		}
		fs := &filter.Scope{Settings: lc.settingsFor(sc, &s), Config: sc.Config, Root: sc.Root, Cwd: lc.cwd}
		scopes[sc] = fs
		return fs
	}}
	st.Apply(res)
	return res
}

// kindOf classifies a file named on stdin (or an editor's buffer) by its
// name and by its path in the repository, with the globs of the
// configuration governing its folder.
func (lc *lintConfig) kindOf(name string) load.Kind {
	abs := load.Abs(lc.cwd, name)
	c := lc.classifierFor(filepath.Dir(abs))
	if k := c.FileKind(name); k != load.KindUnknown {
		return k
	}
	return c.FileKind(filepath.ToSlash(abs))
}

// rel maps a display path to a repository-relative one (baselines, SARIF
// and GitHub annotations name files from the repository root).
func (lc *lintConfig) rel(p string) string { return config.RootRel(lc.root, lc.cwd, p) }

// applyBaseline writes --write-baseline and then hides what --baseline (or
// the baseline just written) records.
func (c *Command) applyBaseline(cf *configFlags, lc *lintConfig, res *engine.Result, scope *baselineScope) error {
	read := cf.baseline
	if cf.writeBaseline != "" {
		osPath := load.Abs(c.Cwd, cf.writeBaseline)
		b := config.NewBaseline(res.Findings, lc.rel)
		root, err := fix.OutputRoot(lc.root, osPath)
		if err != nil {
			return fmt.Errorf("writing baseline: %w", err)
		}
		if err := b.Write(root, osPath); err != nil {
			return err
		}
		noun := "findings"
		if len(b.Entries) == 1 {
			noun = "finding"
		}
		fmt.Fprintf(c.Stderr, "resumelint: wrote %d %s to %s\n", len(b.Entries), noun, diag.Safe(load.Display(c.Cwd, osPath)))
		read = cf.writeBaseline
	}
	if read == "" {
		return nil
	}
	osPath := load.Abs(c.Cwd, read)
	b, err := config.ReadBaseline(osPath, load.Display(c.Cwd, osPath), load.RootFor(lc.root, osPath))
	if err != nil {
		return err
	}
	c.reportStale(b.Unmatched(res.Findings, lc.rel), load.Display(c.Cwd, osPath), scope)
	res.Findings, _ = b.Filter(res.Findings, lc.rel)
	return nil
}

// maxStale bounds the stale baseline entries named one by one.
const maxStale = 20

// reportStale warns, on stderr, of each baseline entry that matched no
// finding of a unit this run checked with a rule that ran, so the user
// can rewrite the baseline; entries of units or rules outside the run say
// nothing. The exit code is not changed.
func (c *Command) reportStale(entries []config.BaselineEntry, display string, scope *baselineScope) {
	n := 0
	for _, e := range entries {
		if scope == nil || !scope.covers(e) {
			continue
		}
		if n++; n <= maxStale {
			// The entry is the baseline file's text: masked as a value is.
			c.note("resumelint: warning: baseline %s: entry %s %s (%s) matches no finding any more; rewrite it with --write-baseline", display, rules.MaskText(e.Code), rules.MaskText(e.Path), rules.MaskText(e.Message))
		}
	}
	if n > maxStale {
		c.note("resumelint: warning: baseline %s: %d more entries match no finding", display, n-maxStale)
	}
}

// baselineScope is what a run checked: the units (repository-relative
// and masked as baseline entries hold them, config.MaskedPath) and
// whether a rule ran.
type baselineScope struct {
	files, folders map[string]bool
	// walked are the folders the run walked whole (the folders named, or
	// the working folder when nothing is), as files are.
	walked []string
	ran    func(code string) bool
	// record fills files and folders when a baseline is first compared:
	// a run without one keeps no second index of every unit it checks.
	record func()
}

// covers reports whether the run checked the entry's unit with its rule.
func (s *baselineScope) covers(e config.BaselineEntry) bool {
	if s.ran != nil && !s.ran(e.Code) {
		return false
	}
	if s.record != nil {
		s.record()
		s.record = nil
	}
	// Masked, as entries are written; an entry written before paths were
	// masked too. A mask runs to the end of the path: a folder's entry
	// may name the folder.
	p := config.MaskedPath(e.Path)
	if s.files[p] || s.folders[p] {
		return true
	}
	// A folder the run walked whole holds every unit below it: an entry
	// there whose file is not one any more (deleted, renamed, excluded)
	// matches nothing, now or later.
	for _, w := range s.walked {
		if w == "." || p == w || strings.HasPrefix(p, w+"/") {
			return true
		}
	}
	for d := path.Dir(p); d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if s.folders[d] {
			return true
		}
	}
	return false
}

// newBaselineScope records the units of a discovery and stdin's files,
// and the folders among args (the paths named; none: the working folder)
// that the run walked whole.
func newBaselineScope(d *load.Discovery, extra []*load.File, lc *lintConfig, s *engine.Settings, args []string) *baselineScope {
	sc := &baselineScope{}
	if len(args) == 0 && len(extra) == 0 {
		args = []string{"."}
	}
	if len(d.Truncated) == 0 {
		for _, a := range args {
			if fi, err := os.Stat(load.Abs(lc.cwd, a)); err == nil && fi.IsDir() {
				sc.walked = append(sc.walked, config.MaskedPath(path.Clean(lc.rel(a))))
			}
		}
	}
	files, folders := d.Files, d.Folders // the units as the run starts
	sc.record = func() {
		sc.files = make(map[string]bool, len(files)+len(extra))
		sc.folders = make(map[string]bool, len(folders))
		for _, f := range files {
			sc.files[config.MaskedPath(lc.rel(f.Path))] = true
		}
		for _, f := range extra {
			sc.files[config.MaskedPath(lc.rel(f.Path))] = true
		}
		for _, f := range folders {
			sc.folders[config.MaskedPath(strings.TrimSuffix(lc.rel(f.Path), "/"))] = true
		}
	}
	sel := s.Selection.Clone()
	sc.ran = sel.Selected
	return sc
}

// flagGiven reports whether a flag was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
