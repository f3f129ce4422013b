package cli

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/filter"
	"github.com/resumelint/resumelint/internal/load"
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

// lintConfig is a run's configuration and the filters built from it.
type lintConfig struct {
	cfg *config.Config
	// root is the repository root (paths in baselines, SARIF and
	// annotations are relative to it); cfgRoot is where the configuration's
	// globs are anchored: the folder of a .resumelint.yaml found by the
	// walk up, else root.
	root, cfgRoot, cwd string
	// how says how the configuration was chosen, for --verbose.
	how        string
	classifier *load.Classifier
}

// setupConfig reads the configuration (--config, else the nearest
// .resumelint.yaml walking up from anchor, the first linted path, to the
// repository root, or to the filesystem root outside a repository) and
// applies it to settings before the flags are applied, so flags win.
func (c *Command) setupConfig(cf *configFlags, s *engine.Settings, anchor string) (*lintConfig, error) {
	lc := &lintConfig{cfg: &config.Config{}, root: s.Opts.RepoRoot, cfgRoot: s.Opts.RepoRoot, cwd: c.Cwd}
	osPath := cf.config
	if osPath != "" && !filepath.IsAbs(osPath) {
		osPath = filepath.Join(c.Cwd, osPath)
	}
	lc.how = "--config"
	if osPath == "" {
		lc.how = "looked for from " + load.Display(c.Cwd, anchor) + " up to the repository root"
		stop := ""
		if _, ok := gitRoot(anchor); ok {
			stop = lc.root
		} else {
			lc.how = "looked for from " + load.Display(c.Cwd, anchor) + " up to the filesystem root, outside a repository"
		}
		if osPath = config.FindNearest(anchor, stop); osPath != "" {
			lc.cfgRoot = filepath.Dir(osPath)
		}
	}
	if osPath != "" {
		cfg, err := config.Load(osPath, load.Display(c.Cwd, osPath), load.RootFor(lc.root, osPath))
		if err != nil {
			var ce *config.Error
			if errors.As(err, &ce) {
				return nil, usagef("%s", strings.ReplaceAll(ce.Error(), "\n", "\nresumelint: "))
			}
			return nil, usagef("%v", err)
		}
		lc.cfg = cfg
	}
	applyConfig(lc.cfg, s)
	lc.classifier = lc.cfg.Classifier(lc.cfgRoot)
	return lc, nil
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

// run lints the units with the engine, then passes its raw findings
// through the filter stage with the run's settings and configuration.
func (lc *lintConfig) run(d *load.Discovery, extra []*load.File, s engine.Settings) *engine.Result {
	res := engine.Run(d, extra, s)
	scope := &filter.Scope{Settings: &s, Config: lc.cfg, Root: lc.cfgRoot, Cwd: lc.cwd}
	st := &filter.Stage{For: func(string) *filter.Scope { return scope }}
	st.Apply(res)
	return res
}

// kindOf classifies a file named on stdin by its name and by its path in
// the repository (configured globs are anchored there).
func (lc *lintConfig) kindOf(name string) load.Kind {
	if k := lc.classifier.FileKind(name); k != load.KindUnknown {
		return k
	}
	abs := load.Abs(lc.cwd, name)
	return lc.classifier.FileKind(filepath.ToSlash(abs))
}

// rel maps a display path to a repository-relative one (baselines, SARIF
// and GitHub annotations name files from the repository root).
func (lc *lintConfig) rel(p string) string { return config.RootRel(lc.root, lc.cwd, p) }

// applyBaseline writes --write-baseline and then hides what --baseline (or
// the baseline just written) records.
func (c *Command) applyBaseline(cf *configFlags, lc *lintConfig, res *engine.Result) error {
	read := cf.baseline
	if cf.writeBaseline != "" {
		osPath := load.Abs(c.Cwd, cf.writeBaseline)
		b := config.NewBaseline(res.Findings, lc.rel)
		if err := b.Write(osPath); err != nil {
			return err
		}
		noun := "findings"
		if len(b.Entries) == 1 {
			noun = "finding"
		}
		fmt.Fprintf(c.Stderr, "resumelint: wrote %d %s to %s\n", len(b.Entries), noun, load.Display(c.Cwd, osPath))
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
	res.Findings, _ = b.Filter(res.Findings, lc.rel)
	return nil
}

// flagGiven reports whether a flag was set on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}
