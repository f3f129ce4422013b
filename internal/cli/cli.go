// Package cli is resumelint's command line: it parses arguments, runs the
// command and returns the exit code, so tests can drive it in-process.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/mattn/go-isatty"

	"github.com/resumelint/resumelint/internal/bundle"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/gitbase"
	"github.com/resumelint/resumelint/internal/gitcmd"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/report"
	"github.com/resumelint/resumelint/internal/rules"
	"github.com/resumelint/resumelint/internal/version"
)

// Exit codes (SPEC §4).
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitUsage    = 2
	ExitInternal = 3
)

// Command holds the process's streams and environment.
type Command struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Cwd            string
	// runFiles, when set, is what loadRun reads run folders through: the
	// hook's lint's reads, so a run it linted is not read again.
	runFiles *load.Files
	// openDocs are the absolute paths of an editor's open documents (the
	// language server's): a workflow open beside a checkpoint is read as
	// its context even before it is saved or tracked.
	openDocs []string
}

// Main runs resumelint with args (without the program name).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &Command{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv}
	defer startTrace(c.Getenv, stderr)()
	return c.Main(args)
}

type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

const usage = `resumelint checks the state files AI-agent workflows keep to resume work.

Usage:
  resumelint [lint] [flags] [PATH|GLOB ...]   lint (default: the repository here)
  resumelint fix [flags] [PATH|GLOB ...]      apply the safe fixes (lint --fix; --diff to preview)
  resumelint bundle verify [flags] DIR ...     SPECTRUM-02 verdicts: ACCEPT or REJECT
  resumelint status [flags] [PATH ...]         resume report: agent runs, workflows, projects, builds (text, json, mermaid)
  resumelint schema export [--out DIR] [KIND]  JSON Schemas generated from the CUE definitions
  resumelint rules [--format json]             list every rule
  resumelint explain RULE                      print a rule's documentation
  resumelint hook                              Claude Code hook protocol on stdin (docs/agent-hooks.md)
  resumelint server                            language server on stdio: diagnostics, fixes, hover (docs/editors.md)
  resumelint version                           print the version
  resumelint completion bash|zsh|fish          print a shell completion script
  resumelint help COMMAND                      a command's help (the same as COMMAND -h)

Run 'resumelint COMMAND -h' or 'resumelint help COMMAND' for a command's flags;
-V or --version prints the version, first or among any command's flags.
`

// Main dispatches a subcommand and converts errors to exit codes.
func (c *Command) Main(args []string) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(c.Stderr, "resumelint: internal error: %s\n", diag.Safe(fmt.Sprint(r)))
			code = ExitInternal
		}
	}()
	if c.Getenv == nil {
		c.Getenv = os.Getenv
	}
	if err := load.SetYAMLParser(c.Getenv(load.YAMLParserVar)); err != nil {
		fmt.Fprintf(c.Stderr, "resumelint: %s\n", diag.SafeLines(err.Error()))
		return ExitUsage
	}
	if c.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(c.Stderr, "resumelint: %s\n", diag.SafeLines(err.Error()))
			return ExitUsage
		}
		c.Cwd = wd
	}
	cmd, rest := "lint", args
	if len(args) > 0 {
		switch {
		case subcommands[args[0]] != nil:
			cmd, rest = args[0], args[1:]
		case args[0] == "help" && len(args) > 1 && args[1] != "help":
			return c.help(args[1:])
		case args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help":
			fmt.Fprint(c.Stdout, usage)
			return ExitOK
		case args[0] == "-V" || args[0] == "-version" || args[0] == "--version":
			cmd, rest = "version", args[1:]
		default:
			if err := c.unknownCommand(args[0]); err != nil {
				fmt.Fprintf(c.Stderr, "resumelint: %s\n", diag.SafeLines(err.Error()))
				return ExitUsage
			}
		}
	}
	code, err := subcommands[cmd](c, rest)
	if err != nil {
		var help *helpRequest
		if errors.As(err, &help) {
			fmt.Fprint(c.Stdout, help.text)
			return ExitOK
		}
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		if errors.As(err, new(*versionRequest)) {
			fmt.Fprintf(c.Stdout, "resumelint %s\n", version.String())
			return ExitOK
		}
		fmt.Fprintf(c.Stderr, "resumelint: %s\n", diag.SafeLines(err.Error()))
		var ue *usageError
		if errors.As(err, &ue) {
			return ExitUsage
		}
		return ExitUsage
	}
	return code
}

// subcommands maps a command name to its implementation; each command
// lives in its own file and registers itself in init.
var subcommands = map[string]func(c *Command, args []string) (int, error){
	"lint":    (*Command).lint,
	"rules":   (*Command).rules,
	"explain": (*Command).explain,
	"version": func(c *Command, args []string) (int, error) {
		rest, err := c.parseArgs(newFlagSet("version"), args)
		if err != nil {
			return ExitUsage, err
		}
		if len(rest) > 0 {
			return ExitUsage, usagef("version takes no arguments (run 'resumelint version -h')")
		}
		fmt.Fprintf(c.Stdout, "resumelint %s\n", version.String())
		return ExitOK, nil
	},
}

// help answers "resumelint help COMMAND [SUBCOMMAND]": the command's own
// -h, on stdout with exit 0; an unknown command is exit 2 with the list.
func (c *Command) help(args []string) int {
	run := subcommands[args[0]]
	if run == nil {
		msg := fmt.Sprintf("no command %q; the commands are %s", args[0], strings.Join(commandNames(), ", "))
		if s := suggest(args[0], commandNames()); s != "" {
			msg = fmt.Sprintf("no command %q; did you mean %q? The commands are %s", args[0], s, strings.Join(commandNames(), ", "))
		}
		fmt.Fprintf(c.Stderr, "resumelint: %s\n", diag.SafeLine(msg))
		return ExitUsage
	}
	rest := append(append([]string(nil), args[1:]...), "-h")
	if len(rest) > 1 && strings.HasPrefix(rest[0], "-") {
		rest = []string{"-h"}
	}
	return c.Main(append([]string{args[0]}, rest...))
}

// unknownCommand rejects a first argument that is neither a command nor
// a path: a bare word naming nothing on disk is a mistyped command more
// often than a missing folder. Anything that looks like a path (a
// separator, a dot, a glob) is left to lint, which reports it missing.
func (c *Command) unknownCommand(a string) error {
	if a == "" || strings.HasPrefix(a, "-") || strings.ContainsAny(a, `/\.*?[{`) {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(c.Cwd, a)); err == nil {
		return nil
	}
	if s := suggest(a, append(commandNames(), "help")); s != "" {
		return usagef("unknown command %q; did you mean %q? (run 'resumelint -h' for the commands)", a, s)
	}
	return usagef("unknown command %q, and no file or folder of that name (run 'resumelint -h' for the commands)", a)
}

type lintFlags struct {
	format, failOn, now, color, stdinName string
	jobs                                  int
	quiet, everyLine                      bool
	enable, disable                       string
	bundleBase                            string
	base                                  string
	changedOnly                           bool
	fix, diff, unsafeFixes                bool
	verbose                               bool
	exitZero, listFiles                   bool
	// baselineScope is what the run checked, for stale baseline entries.
	baselineScope *baselineScope
	affected      bool
	// evidence are the files checked only because their findings rest on
	// a change (--affected, --changed-only), by OS path: fix leaves them
	// as they are, since the change did not touch them.
	evidence  map[string]bool
	noFilesOK bool
	maxAge    string
	paths     []string // as given, for --verbose
	out       outputFlags
	outputs   []output
	// excluded are the units exclude patterns left out, for --verbose.
	excluded []load.Skip
	// nested are the units a configuration nearer to them governs (not
	// the first linted path's), by configuration, for --verbose.
	nested map[*config.Scope][]string
}

func (c *Command) lint(args []string) (int, error) { return c.lintAs("lint", args) }

// lintAs runs lint as the command name ("lint", or "fix", which adds
// --fix): -h and flag errors name the command typed. --exit-zero turns
// findings into success; usage, configuration and internal failures keep
// their codes.
func (c *Command) lintAs(name string, args []string) (int, error) {
	var lf lintFlags
	code, err := c.lintRun(name, args, &lf)
	if err == nil && code == ExitFindings && lf.exitZero {
		code = ExitOK
	}
	return code, err
}

// lintRun parses the flags into lf and runs lint or fix.
func (c *Command) lintRun(name string, args []string, lf *lintFlags) (int, error) {
	var cf configFlags
	fs := newFlagSet(name)
	cf.register(fs)
	lf.register(fs)
	paths, err := c.parseArgs(fs, args)
	if err != nil {
		return ExitUsage, err
	}
	failOn, now, err := c.checkLintFlags(fs, lf)
	if err != nil {
		return ExitUsage, err
	}
	anchor := c.anchorDir(paths)
	settings := engine.Settings{
		Opts: rules.Options{Now: now, Limits: load.DefaultLimits, RepoRoot: c.repoRootOf(anchor), Cwd: c.Cwd,
			Bundle: rules.BundleOptions{Base: lf.bundleBase}, EveryLine: lf.everyLine, NoSnippets: !printsSnippets(lf.outputs)},
		Jobs: lf.jobs, Selection: rules.Selection{Severity: map[string]diag.Severity{}},
	}
	lc, err := c.setupConfig(&cf, &settings, anchor)
	if err != nil {
		return ExitUsage, err
	}
	if !flagGiven(fs, "fail-on") {
		failOn = diag.SevOff // each finding's file's configuration decides
	}
	if err := lf.applyRuleFlags(&settings); err != nil {
		return ExitUsage, err
	}
	lc.ruleFlags = lf.applyRuleFlags
	if lf.affected {
		var done bool
		var code int
		if paths, code, done, err = c.affected(paths, lf, &cf, lc, failOn); done {
			return code, err
		}
	}
	lf.paths = paths
	extra, rest, err := c.readStdin(paths, lf, lc)
	if err != nil {
		return ExitUsage, err
	}
	disc, err := c.discover(rest, extra, lf, lc)
	if errors.Is(err, errNoStateFiles) {
		c.note("resumelint: no file of a known kind in this folder; nothing to check (--no-files-ok)")
		if lf.fix || lf.diff || lf.listFiles || !machineReport(lf.outputs) {
			return ExitOK, nil
		}
		// As under --affected: a SARIF upload or a JSON consumer reads a
		// report of no findings, not an empty file.
		return c.finish(&engine.Result{}, lf, &cf, lc, failOn)
	}
	if err != nil {
		return ExitUsage, err
	}
	if lf.listFiles {
		return c.listChanged(disc, extra, rest, lf, lc)
	}
	lf.baselineScope = newBaselineScope(disc, extra, lc, &settings, rest)
	if lf.base != "" {
		repo, err := c.openBase(lc, lf, extra, disc)
		if err != nil {
			return ExitUsage, err
		}
		defer repo.Close()
		settings.Base = &rules.Base{Repo: repo, InScope: gitbase.Scope(c.Cwd, baseScope(c.Cwd, rest, extra))}
	}
	// One file access for the command: the lint, the dry run that
	// settles its safe fixes and, with --fix, the lint after the writes
	// (which say what they changed) read each file once.
	settings.Files = load.NewFiles(nil)
	if lf.fix || lf.diff {
		code, err := c.fix(disc, extra, settings, lf, &cf, lc, failOn)
		if err := baseFailed(settings.Base); err != nil {
			return ExitUsage, err
		}
		return code, err
	}
	mem := stdinCopies(extra)
	res := lc.run(disc, extra, settings)
	if err := baseFailed(settings.Base); err != nil {
		return ExitUsage, err
	}
	if code, err, done := c.onlySkipped(res, extra, lf, lc); done {
		return code, err
	}
	visible, err := c.baselineFilter(&cf, lc)
	if err != nil {
		return ExitUsage, err
	}
	c.settleFixes(res, disc, mem, settings, lc, visible)
	return c.finish(res, lf, &cf, lc, failOn)
}

// affected maps --affected's changed paths to the units to check; done
// when there is none (the run ends with code and err).
func (c *Command) affected(paths []string, lf *lintFlags, cf *configFlags, lc *lintConfig, failOn diag.Severity) (units []string, code int, done bool, err error) {
	for _, p := range paths {
		if p == "-" {
			return nil, ExitUsage, true, usagef("--affected takes the changed paths, not stdin (-)")
		}
	}
	if units, lf.evidence, err = c.affectedUnits(paths, lc); err != nil {
		return nil, ExitUsage, true, err
	}
	if len(units) > 0 {
		return units, 0, false, nil
	}
	if lf.verbose {
		fmt.Fprintf(c.Stderr, "resumelint: --affected: no changed path is or affects a file of a known kind; nothing to check\n")
	}
	if lf.fix || lf.diff || !machineReport(lf.outputs) {
		return nil, ExitOK, true, nil
	}
	// A SARIF upload or a JSON consumer reads a report of no findings,
	// not an empty file.
	code, err = c.finish(&engine.Result{}, lf, cf, lc, failOn)
	return nil, code, true, err
}

// machineReport reports whether any of the run's reports is for a
// program (a format other than text).
func machineReport(outs []output) bool {
	for _, o := range outs {
		if o.format != "text" {
			return true
		}
	}
	return false
}

// baseFailed returns the error of a git call that ran past its bound
// while the --base rules read the base: their result is incomplete, so
// the run fails with exit 2 rather than pass unchecked.
func baseFailed(b *rules.Base) error {
	if b == nil {
		return nil
	}
	return b.Repo.Failed()
}

// register defines the lint flags but those of the configuration.
func (lf *lintFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&lf.format, "format", "text", "output format: text, json, sarif, github, junit, codeclimate or markdown")
	lf.out.register(fs)
	fs.StringVar(&lf.failOn, "fail-on", "error", "lowest severity that fails the run: error or warning")
	fs.StringVar(&lf.now, "now", "", "the current time for time-based rules (RFC 3339; default $SOURCE_DATE_EPOCH or the clock)")
	fs.StringVar(&lf.color, "color", "auto", "colour the text output: auto, always or never (auto: on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it)")
	fs.StringVar(&lf.stdinName, "stdin-filename", "", "the name of the file read from stdin when PATH is -")
	fs.IntVar(&lf.jobs, "jobs", 0, "number of parallel workers (default: GOMAXPROCS, the CPUs this process may use)")
	fs.BoolVar(&lf.quiet, "quiet", false, "print findings only, no summary")
	fs.BoolVar(&lf.quiet, "q", false, "the same as --quiet")
	fs.BoolVar(&lf.verbose, "verbose", false, "list on stderr the configuration, the excludes, and every file or folder skipped and why")
	fs.BoolVar(&lf.verbose, "v", false, "the same as --verbose")
	fs.BoolVar(&lf.exitZero, "exit-zero", false, "exit 0 even when there are findings (2 on usage or configuration errors and 3 on internal failures stay)")
	fs.BoolVar(&lf.listFiles, "list-files", false, "print each file or folder that would be checked, its kind and the configuration governing it; check nothing")
	fs.BoolVar(&lf.everyLine, "every-line", false, "report every bad line of an events file ("+code.EventCorrupt+"), not the first 5 and a count")
	fs.StringVar(&lf.enable, "enable", "", "run only these rules (comma-separated codes or names)")
	fs.StringVar(&lf.disable, "disable", "", "turn these rules off (comma-separated codes or names)")
	fs.StringVar(&lf.maxAge, "max-age", "", "staleness.max_age: also report a resumption section not updated for longer than this (Go duration or days, e.g. 36h, 7d)")
	fs.StringVar(&lf.bundleBase, "bundle-base", "", "what bundle hashes keys are relative to: bundle (the bundle folder, default) or repo (the repository root)")
	fs.StringVar(&lf.base, "base", "", "compare with the files at this git revision ("+code.AppendOnly+"-"+code.ResumeContextUpdate+"), e.g. origin/main")
	fs.BoolVar(&lf.changedOnly, "changed-only", false, "lint only files changed since --base, and the files whose findings rest on a change (folders: any file changed)")
	fs.BoolVar(&lf.fix, "fix", false, "apply the safe fixes, then report what remains")
	fs.BoolVar(&lf.diff, "diff", false, "print the fixes as a unified diff and write nothing (exit 1 if there are any)")
	fs.BoolVar(&lf.unsafeFixes, "unsafe-fixes", false, "with --fix or --diff, also apply the unsafe fixes")
	fs.BoolVar(&lf.noFilesOK, "no-files-ok", false, "with no path given, a repository holding no file of a known kind passes with a note instead of exit 2 (the whole-repository pre-commit hook); paths named that yield nothing stay an error")
	fs.BoolVar(&lf.affected, "affected", false, "the paths are changed files (pre-commit): check the units they affect, the bundles and runs holding or declaring them, and the files whose findings rest on them; other paths are ignored")
}

// checkLintFlags checks the flags' values; it returns the --fail-on
// severity and the run's current time.
func (c *Command) checkLintFlags(fs *flag.FlagSet, lf *lintFlags) (failOn diag.Severity, now time.Time, err error) {
	switch lf.color {
	case "auto", "always", "never":
	default:
		return 0, now, usagef("unknown --color %q (want auto, always or never)", lf.color)
	}
	if !flagGiven(fs, "color") {
		lf.color = "" // not given: the environment may decide
	}
	if lf.changedOnly && lf.base == "" {
		return 0, now, usagef("--changed-only needs --base REF (changed since what?)")
	}
	if !knownFormat(lf.format) {
		return 0, now, usagef("unknown --format %q (want %s)", lf.format, strings.Join(lintFormats, ", "))
	}
	if lf.outputs, err = lf.out.outputs(lf.format, c.Cwd); err != nil {
		return 0, now, err
	}
	failOn, err = diag.ParseSeverity(lf.failOn)
	if err != nil || failOn == diag.SevOff {
		return 0, now, usagef("unknown --fail-on %q (want error or warning)", lf.failOn)
	}
	if now, err = c.nowTime(lf.now); err != nil {
		return 0, now, err
	}
	if lf.jobs < 0 || lf.jobs == 0 && flagGiven(fs, "jobs") {
		return 0, now, usagef("--jobs must be positive (leave it out to use every CPU)")
	}
	if lf.bundleBase != "" {
		if _, err := bundle.ParseBase(lf.bundleBase); err != nil {
			return 0, now, usagef("--bundle-base: %v", err)
		}
	}
	return failOn, now, nil
}

// applyRuleFlags applies --max-age, --enable and --disable to settings
// the configuration was applied to: the flags win.
func (lf *lintFlags) applyRuleFlags(settings *engine.Settings) error {
	if lf.maxAge != "" {
		d, err := config.ParseDuration(lf.maxAge)
		if err != nil {
			return usagef("--max-age: %v", err)
		}
		settings.Opts.MaxAge = d
	}
	if lf.enable != "" {
		settings.Only = map[string]bool{}
		for _, name := range splitList(lf.enable) {
			r := rules.Lookup(name)
			if r == nil {
				return usagef("--enable: unknown rule %q (see 'resumelint rules')", name)
			}
			settings.Only[r.Code] = true
			if sev, ok := settings.Severity[r.Code]; ok && sev == diag.SevOff {
				delete(settings.Severity, r.Code) // the flag wins over the configuration
			}
		}
	}
	for _, name := range splitList(lf.disable) {
		r := rules.Lookup(name)
		if r == nil {
			return usagef("--disable: unknown rule %q (see 'resumelint rules')", name)
		}
		settings.Severity[r.Code] = diag.SevOff
	}
	return nil
}

// readStdin reads the file named "-" among paths (--stdin-filename names
// it); rest are the other paths.
func (c *Command) readStdin(paths []string, lf *lintFlags, lc *lintConfig) (extra []*load.File, rest []string, err error) {
	if lf.stdinName != "" && !slices.Contains(paths, "-") {
		return nil, nil, usagef("--stdin-filename names the file read from standard input: add - to the paths")
	}
	for _, p := range paths {
		if p != "-" {
			rest = append(rest, p)
			continue
		}
		if lf.stdinName == "" {
			return nil, nil, usagef("reading from stdin (-) needs --stdin-filename NAME to tell the file's kind")
		}
		in := c.Stdin
		if in == nil {
			in = strings.NewReader("") // a Command built without one reads nothing
		}
		data, err := io.ReadAll(io.LimitReader(in, load.DefaultLimits.MaxFileSize+1))
		if err != nil {
			return nil, nil, fmt.Errorf("reading stdin: %w", err)
		}
		// Named like a path argument: relative to the working directory,
		// however the name was given.
		osPath := load.Abs(c.Cwd, lf.stdinName)
		disp := load.Display(c.Cwd, osPath)
		f := &load.File{Path: disp, OSPath: osPath, Data: data, Explicit: true, Template: load.IsTemplate(disp)}
		f.Kind = lc.kindOf(f.Path)
		if f.Kind == load.KindUnknown {
			return nil, nil, usagef("--stdin-filename %q matches no file kind", lf.stdinName)
		}
		extra = append(extra, f)
	}
	return extra, rest, nil
}

// discover finds the units under rest (none when only stdin is linted)
// and applies the configuration's excludes.
func (c *Command) discover(rest []string, extra []*load.File, lf *lintFlags, lc *lintConfig) (*load.Discovery, error) {
	if len(rest) == 0 && len(extra) > 0 {
		disc := &load.Discovery{}
		c.addContext(disc, extra, nil, lc) // what lint of the file says in the repository
		return disc, nil
	}
	disc, err := load.Discover(rest, lc.discoverOptions(c.Cwd))
	if err != nil {
		return nil, err
	}
	if err := lc.discovered(disc, extra...); err != nil {
		return nil, err
	}
	if len(disc.Missing) > 0 {
		return nil, usagef("no such file, folder or matching glob: %s", strings.Join(disc.Missing, ", "))
	}
	if len(disc.Empty) > 0 {
		if lf.noFilesOK && len(rest) == 0 {
			return nil, errNoStateFiles
		}
		return nil, noKnownKindBecause(disc.Empty, len(rest) > 0, lc.ignoredKnown(disc.Empty), lc)
	}
	lf.excluded = disc.Excluded
	lf.nested = lc.nestedUnits(disc)
	if len(rest) > 0 {
		c.addContext(disc, extra, rest, lc)
	}
	return disc, nil
}

// addContext adds to disc, as context (load.Discovery.Context), what the
// cross-file rules need to say of its units what a lint of the whole
// repository says: the workflows beside a checkpoint (RL206: merged by
// none of them), the other runs beside an agent run (RL508: two
// incomplete). Only where they live is looked at, and cheaply: the
// workflows the repository tracks under the folder holding a
// checkpoint's .jerry/ (read from git's index, no git process), a run's
// runs/ folder. A lint of one file stays a lint of its neighbourhood.
func (c *Command) addContext(disc *load.Discovery, extra []*load.File, named []string, lc *lintConfig) {
	// A folder named was walked whole: what lies under it is a unit
	// already, and needs no context (a lint of "." never looks).
	var namedDirs []string
	for _, n := range named {
		abs := filepath.Clean(load.Abs(c.Cwd, n))
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			namedDirs = append(namedDirs, abs)
		}
	}
	covered := func(dir string) bool {
		return slices.ContainsFunc(namedDirs, func(d string) bool {
			return dir == d || strings.HasPrefix(dir, d+string(filepath.Separator))
		})
	}
	have := map[string]bool{}
	var cpScopes []string
	scoped := map[string]bool{}
	runsDirs := map[string]bool{}
	for _, f := range append(slices.Clip(extra), disc.Files...) {
		abs := filepath.Clean(load.Abs(c.Cwd, f.OSPath))
		have[abs] = true
		if f.Kind != load.KindCheckpoint {
			continue
		}
		if sc := checkpointScope(abs, lc.root); !scoped[sc] && !covered(sc) {
			scoped[sc] = true
			cpScopes = append(cpScopes, sc)
		}
	}
	for _, f := range disc.Folders {
		abs := filepath.Clean(load.Abs(c.Cwd, f.OSPath))
		have[abs] = true
		if f.Kind == load.KindAgentRun && !covered(filepath.Dir(abs)) {
			runsDirs[filepath.Dir(abs)] = true
		}
	}
	if len(cpScopes)+len(runsDirs) == 0 {
		return
	}
	// Discovery did not meet these files: a nested configuration of
	// theirs must still be found (and its excludes apply).
	lc.set.Unsettle()
	defer lc.set.Settle()
	ctx := &load.Discovery{}
	for _, w := range append(workflowsUnder(cpScopes, lc), c.openWorkflows(cpScopes, lc)...) {
		if !have[w.path] {
			have[w.path] = true
			disp := load.Display(c.Cwd, w.path)
			ctx.Files = append(ctx.Files, &load.File{Path: disp, OSPath: w.path, Kind: load.KindOrchestration,
				Template: load.IsTemplate(disp), Root: w.root})
		}
	}
	if len(ctx.Files) > 0 {
		// The excludes apply as to a lint of the repository, a nested
		// .resumelint.yaml's too (discovery would have met it).
		for _, f := range ctx.Files {
			lc.set.ForPath(f.OSPath, false)
		}
		lc.set.Filter(ctx)
		disc.Context = append(disc.Context, ctx.Files...)
	}
	if len(runsDirs) == 0 {
		return
	}
	dirs := slices.Sorted(maps.Keys(runsDirs))
	all, err := load.Discover(dirs, lc.discoverOptions(c.Cwd))
	if err != nil {
		return
	}
	lc.set.Filter(all)
	for _, f := range all.Folders {
		abs := filepath.Clean(load.Abs(c.Cwd, f.OSPath))
		if f.Kind == load.KindAgentRun && runsDirs[filepath.Dir(abs)] && !have[abs] {
			disc.ContextFolders = append(disc.ContextFolders, f)
		}
	}
}

// maxContextWalk bounds the entries a walk for context reads outside a
// repository.
const maxContextWalk = 20000

// workflowsUnder lists the orchestration files under dirs, by absolute
// path, sorted and once each: those git tracks, from its index (read once
// per repository), in a repository whose index can be read; else those a
// walk of each dir finds (at most maxContextWalk entries, .git,
// node_modules and vendor left out).
func workflowsUnder(dirs []string, lc *lintConfig) []contextFile {
	seen := map[string]bool{}
	var out []contextFile
	// A file listed but gone is not read when the run reads it: no stat
	// of each here. Each is read beneath its root (the repository, or the
	// folder walked), so a name or link leading out of it is not.
	add := func(abs, root string) {
		if _, in := load.Contained(root, abs); in && !seen[abs] && lc.kindOf(abs) == load.KindOrchestration {
			seen[abs] = true
			out = append(out, contextFile{abs, root})
		}
	}
	// The scopes of each repository, as folders relative to its top ("."
	// for the top): its index is read once, each listed path matched by
	// its folders, not against every scope.
	scopes := map[string]map[string]bool{}
	var walk []string
	for _, dir := range dirs {
		top := gitcmd.FindTop(dir)
		rel, err := filepath.Rel(top, dir)
		if top == "" || err != nil {
			walk = append(walk, dir)
			continue
		}
		if scopes[top] == nil {
			scopes[top] = map[string]bool{}
		}
		scopes[top][filepath.ToSlash(rel)] = true
	}
	for _, top := range slices.Sorted(maps.Keys(scopes)) {
		list, ok := load.Tracked(top, top)
		if !ok {
			// Not a work tree git can list: walked, as outside a
			// repository.
			for rel := range scopes[top] {
				walk = append(walk, filepath.Join(top, filepath.FromSlash(rel)))
			}
			continue
		}
		in := scopes[top]
		for _, r := range list {
			for d := path.Dir(string(r)); ; d = path.Dir(d) {
				if in[d] {
					add(filepath.Join(top, filepath.FromSlash(string(r))), top)
					break
				}
				if d == "." || d == "/" {
					break
				}
			}
		}
	}
	for _, dir := range walk {
		root := dir
		if _, in := load.Contained(lc.root, dir); lc.root != "" && in {
			root = lc.root
		}
		load.WalkFiles(dir, maxContextWalk, func(p string) { add(p, root) })
	}
	slices.SortFunc(out, func(a, b contextFile) int { return strings.Compare(a.path, b.path) })
	return out
}

// openWorkflows are the workflows open in the editor under dirs, read
// beneath their repository (or the folder they are open under).
func (c *Command) openWorkflows(dirs []string, lc *lintConfig) []contextFile {
	var out []contextFile
	for _, p := range c.openDocs {
		if lc.kindOf(p) != load.KindOrchestration {
			continue
		}
		for _, dir := range dirs {
			if _, in := load.Contained(dir, p); !in {
				continue
			}
			root := gitcmd.FindTop(dir)
			if root == "" {
				root = dir
			}
			out = append(out, contextFile{p, root})
			break
		}
	}
	return out
}

// contextFile is a workflow read beside a checkpoint, and the folder it
// is read beneath.
type contextFile struct{ path, root string }

// checkpointScope is where the workflows of the checkpoint at abs live:
// the folder holding the .jerry/ folder above it (jerry keeps checkpoints
// at its project's or repository's root), else the repository root.
func checkpointScope(abs, root string) string {
	for d := filepath.Dir(abs); d != filepath.Dir(d); d = filepath.Dir(d) {
		if filepath.Base(d) == ".jerry" {
			return filepath.Dir(d)
		}
		if d == root {
			break
		}
	}
	return root
}

// openBase opens the --base revision in the run's repository (lc.root: that
// of the paths linted, which need not hold the working directory); stdin
// files are compared by their content, not the work tree's.
func (c *Command) openBase(lc *lintConfig, lf *lintFlags, extra []*load.File, disc *load.Discovery) (*gitbase.Repo, error) {
	repo, err := gitbase.Open(lc.root, lf.base)
	if err != nil {
		return nil, err
	}
	for _, f := range extra {
		repo.MarkUnsaved(load.Abs(c.Cwd, f.OSPath))
	}
	if lf.changedOnly {
		// The unchanged files whose findings rest on a changed path are
		// checked too, as under --affected.
		// They are the run's files, reached by the run's root (which may be
		// a link to git's work tree), so the changes are named from it too.
		top := repo.Root
		if sameFile(lc.root, top) {
			top = lc.root
		}
		changed := map[string]bool{}
		for _, ch := range repo.Changes() {
			changed[filepath.Join(top, filepath.FromSlash(ch.Path))] = true
			if ch.OldPath != "" {
				changed[filepath.Join(top, filepath.FromSlash(ch.OldPath))] = true
			}
		}
		lf.evidence = lc.evidenced(disc.Files, changed, nil)
		repo.FilterChanged(disc, lf.evidence)
		lf.excluded = repo.FilterExcluded(c.Cwd, lf.excluded)
	}
	return repo, nil
}

// listChanged answers --list-files: under --changed-only the units the
// run checks are the changed ones.
func (c *Command) listChanged(disc *load.Discovery, extra []*load.File, rest []string, lf *lintFlags, lc *lintConfig) (int, error) {
	if lf.changedOnly {
		repo, err := c.openBase(lc, lf, extra, disc)
		if err != nil {
			return ExitUsage, err
		}
		repo.Close()
	}
	return c.listFiles(disc, extra, lf, lc)
}

// baseScope is what --base compares: the paths named, or the stdin files
// when only stdin is linted.
func baseScope(cwd string, rest []string, extra []*load.File) []string {
	scope := rest
	if len(rest) == 0 {
		for _, f := range extra {
			scope = append(scope, load.Abs(cwd, f.OSPath))
		}
	}
	return scope
}

// errNoStateFiles is what discover returns, under --no-files-ok, for a
// repository linted whole (no path given) that holds no file of a known
// kind: the whole-repository pre-commit hook then passes with a note, as
// a repository that does not use these workflows has nothing to check.
// Paths named on the command line that yield nothing stay a usage error.
var errNoStateFiles = errors.New("no file of a known kind")

// ignoredKnown says, for the folders a run found nothing of a known kind
// in, which such files git ignores there ("" for none): a lint lists
// what git lists, and a repository may ignore its state files (nexus's
// 02-builds/active/*, jerry's .jerry/), which a lint reaches only when
// they are named. Each folder in a repository is walked without git, at
// most maxContextWalk entries; only when the run has nothing to check.
func (lc *lintConfig) ignoredKnown(empty []string) string {
	var found []string
	for _, e := range empty {
		dir := load.Abs(lc.cwd, e)
		if fi, err := os.Stat(dir); hasGlobMeta(e) || err != nil || !fi.IsDir() || gitcmd.FindTop(dir) == "" {
			continue // outside a repository the walk saw everything
		}
		load.WalkFiles(dir, maxContextWalk, func(p string) {
			if rel, err := filepath.Rel(lc.cwd, p); err == nil && lc.kindOf(rel) != load.KindUnknown {
				found = append(found, filepath.ToSlash(rel))
			}
		})
	}
	switch len(found) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("git ignores the one there (%s): name it or its folder to lint it", diag.Safe(diag.ClipPath(found[0], 80)))
	}
	return fmt.Sprintf("git ignores the %d there (%s, …): name them or their folder to lint them", len(found), diag.Safe(diag.ClipPath(found[0], 80)))
}

// noKnownKindBecause is the usage error for paths that hold nothing
// resumelint checks (a gate that checks nothing must not pass, SPEC §1),
// with why the files found there do not count ("" for none found).
func noKnownKindBecause(empty []string, named bool, why string, lc *lintConfig) error {
	var sb strings.Builder
	if named {
		fmt.Fprintf(&sb, "no file of a known kind in %s", strings.Join(empty, ", "))
	} else {
		sb.WriteString("no file of a known kind in this folder")
	}
	if why != "" {
		sb.WriteString(": " + why)
	}
	sb.WriteString("; resumelint checks these kinds (kinds.<kind>.globs in .resumelint.yaml changes the globs):")
	for _, k := range lc.classifier.Describe() {
		sb.WriteString("\n  " + k)
	}
	return usagef("%s", sb.String())
}

// onlySkipped settles a run whose every unit matched a kind by name and
// was skipped by its format (another system's TASK_SPEC.json or
// ORCHESTRATION.yaml): it checked nothing, so it is what a run of no file
// of a known kind is (SPEC §1), never "No problems found in 0 files":
// exit 2, unless --no-files-ok allows a whole repository with nothing to
// check, or --affected found nothing of a known kind among the changes.
// Under --changed-only the skipped units are changed files of another
// system: the change touched no state file, which is the answer for a
// change of only other files (exit 0, "No problems found in 0 files").
// Files of a known kind that an exclude pattern left out are not this:
// the configuration put them out of scope (exit 0, as before). done is
// false for any other run.
func (c *Command) onlySkipped(res *engine.Result, extra []*load.File, lf *lintFlags, lc *lintConfig) (code int, err error, done bool) {
	if res.Checked > 0 || len(res.Findings) > 0 || len(res.Skipped) == 0 || len(extra) > 0 || res.Internal > 0 {
		return 0, nil, false
	}
	if lf.changedOnly {
		return 0, nil, false
	}
	switch {
	case lf.affected:
		if machineReport(lf.outputs) {
			return 0, nil, false // a report of no findings, as with no unit at all
		}
		c.reportSkips(res, lf, lc)
		if lf.verbose {
			c.note("resumelint: --affected: no changed path is or affects a file of a known kind; nothing to check")
		}
		return ExitOK, nil, true
	case lf.noFilesOK && len(lf.paths) == 0:
		c.reportSkips(res, lf, lc)
		c.note("resumelint: no file of a known kind in this folder; nothing to check (--no-files-ok)")
		return ExitOK, nil, true
	}
	c.reportSkips(res, lf, lc)
	return ExitUsage, noKnownKindBecause(lf.paths, len(lf.paths) > 0, "what matched a kind's name there is another system's (skipped above)", lc), true
}

// note prints a line on stderr: what it names came from the command
// line, a configuration or the repository, so it is masked and escaped.
func (c *Command) note(format string, args ...any) {
	msg := strings.TrimSuffix(fmt.Sprintf(format, args...), "\n")
	fmt.Fprintln(c.Stderr, diag.SafeLine(msg))
}

// reportSkips tells, on stderr, what was left out: every unit with its
// reason under --verbose, else a count.
func (c *Command) reportSkips(res *engine.Result, lf *lintFlags, lc *lintConfig) {
	if lf.verbose {
		scope := "every path linted"
		if len(lf.paths) > 0 {
			scope = strings.Join(lf.paths, ", ")
		}
		if lc.cfg.Path != "" {
			how := lc.how
			if how != "--config" {
				how = "the nearest " + config.FileName + ", " + how
			}
			c.note("resumelint: configuration %s (%s) applies to %s\n", lc.cfg.Path, how, scope)
		} else {
			c.note("resumelint: no configuration file (%s %s); defaults apply to %s\n", config.FileName, lc.how, scope)
		}
		for _, sc := range lc.set.Scopes() {
			if units := lf.nested[sc]; len(units) > 0 {
				c.note("resumelint: configuration %s (nearer to them) applies to %s\n", sc.Config.Path, diag.List(units, 5))
			}
		}
		if units := lf.nested[lc.set.Defaults()]; len(units) > 0 {
			c.note("resumelint: no configuration file governs %s; defaults apply to them\n", diag.List(units, 5))
		}
		pats, defaults := lc.cfg.Excludes()
		switch {
		case len(pats) == 0:
			c.note("resumelint: excludes: none\n")
		case defaults:
			c.note("resumelint: excludes: %s (defaults; exclude: in %s replaces them)\n", strings.Join(pats, ", "), config.FileName)
		default:
			c.note("resumelint: excludes: %s (%s)\n", strings.Join(pats, ", "), lc.cfg.Path)
		}
		for _, s := range lf.excluded {
			c.note("resumelint: excluded %s %s\n", s.Path, s.Reason)
		}
		for _, s := range res.Skipped {
			// A reason names keys and values of the file it skips (a
			// routing table's keys, a page's layout): a credential
			// written there (password=…) is masked whole, as in findings.
			c.note("resumelint: skipped %s: %s\n", rules.MaskText(s.Path), rules.MaskText(s.Reason))
		}
		for _, n := range res.Notes {
			c.note("resumelint: %s\n", n)
		}
		for _, fd := range res.Unchecked {
			c.note("resumelint: not checked, hidden by ignore: in the configuration: %s:%d:%d [%s %s]\n",
				fd.Path, fd.Start.Line, fd.Start.Col, fd.Code, fd.Name)
		}
		return
	}
	if lf.quiet || len(res.Skipped)+len(lf.excluded) == 0 {
		return
	}
	bundles, runs, files, resumes, states := 0, 0, 0, 0, 0
	for _, s := range res.Skipped {
		switch s.Kind {
		case load.KindBundle:
			bundles++
		case load.KindAgentRun:
			runs++
		case load.KindResumeContext:
			resumes++
		case load.KindPrecompact:
			states++
		default:
			files++
		}
	}
	var parts []string
	if bundles > 0 {
		parts = append(parts, plural(bundles, "folder that is not a SPECTRUM-02 bundle", "folders that are not SPECTRUM-02 bundles"))
	}
	if runs > 0 {
		parts = append(parts, plural(runs, "folder under .agent-memory/runs/ that is not an agent run", "folders under .agent-memory/runs/ that are not agent runs"))
	}
	if files > 0 {
		parts = append(parts, plural(files, "ORCHESTRATION file that is not a workflow's", "ORCHESTRATION files that are not a workflow's"))
	}
	if resumes > 0 {
		parts = append(parts, plural(resumes, "resume file that is not nexus's", "resume files that are not nexus's"))
	}
	if states > 0 {
		parts = append(parts, plural(states, "precompact_state.json that is not nexus's", "precompact_state.json files that are not nexus's"))
	}
	if n := len(lf.excluded); n > 0 {
		parts = append(parts, plural(n, "path excluded by a pattern", "paths excluded by patterns"))
	}
	c.note("resumelint: skipped %s (--verbose says why)\n", strings.Join(parts, ", "))
}

// finish applies baselines, renders the findings and returns the exit code.
func (c *Command) finish(res *engine.Result, lf *lintFlags, cf *configFlags, lc *lintConfig, failOn diag.Severity) (int, error) {
	c.reportSkips(res, lf, lc)
	if err := c.applyBaseline(cf, lc, res, lf.baselineScope); err != nil {
		return ExitUsage, err
	}
	// Paths are masked for the reports only: the baseline above and
	// the ignore list matched the real ones.
	in := &report.Input{Findings: diag.SafePaths(res.Findings), Checked: res.Checked, Version: version.String(), Quiet: lf.quiet, Root: lc.root,
		Color: c.useColor(lf.color)}
	if err := c.writeOutputs(lf.outputs, in, lf.out.statistics, lc); err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			return ExitUsage, err // a report file that cannot be written
		}
		return ExitInternal, err
	}
	if res.Internal > 0 {
		return ExitInternal, nil
	}
	for _, f := range res.Findings {
		if f.Severity >= lc.failOn(f.Path, failOn) {
			return ExitFindings, nil
		}
	}
	return ExitOK, nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// nowTime resolves --now, then SOURCE_DATE_EPOCH, then the clock.
func (c *Command) nowTime(flagVal string) (time.Time, error) {
	if flagVal != "" {
		t, err := time.Parse(time.RFC3339, flagVal)
		if err != nil {
			return time.Time{}, usagef("--now %q is not an RFC 3339 timestamp (e.g. 2026-02-20T21:00:00Z)", flagVal)
		}
		return t, nil
	}
	if s := c.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, usagef("SOURCE_DATE_EPOCH %q is not a number of seconds", s)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Now(), nil
}

// useColor decides colour: an explicit --color always or never wins;
// otherwise FORCE_COLOR (set, not "0") turns it on, NO_COLOR (set) off,
// and it is on for a terminal that is not TERM=dumb.
func (c *Command) useColor(mode string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if fc := c.Getenv("FORCE_COLOR"); fc != "" && fc != "0" {
		return true
	}
	if c.Getenv("NO_COLOR") != "" || c.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := c.Stdout.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// repoRoot is the top of the git work tree containing dir, or dir itself.
func repoRoot(dir string) string {
	if r, ok := gitRoot(dir, dir); ok {
		return r
	}
	return dir
}

// repoRootOf is the repository root for a run anchored at dir: the git
// work tree holding dir (so 'resumelint lint /other/repo' is rooted
// there), else the working directory's.
func (c *Command) repoRootOf(dir string) string {
	if r, ok := gitRoot(dir, c.Cwd); ok {
		return r
	}
	return repoRoot(c.Cwd)
}

// gitRoot is the top of the git work tree containing dir. It reads .git
// markers instead of running git, so a one-file run stays fast. A folder
// entered through a link that lies inside a work tree below cwd is no
// root of its own (enteredByLink): a committed link to another checkout
// would otherwise make that checkout the run's repository, read and
// fixed through the link.
func gitRoot(dir, cwd string) (string, bool) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil && !enteredByLink(d, cwd) {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// enteredByLink reports whether the folder d is reached through a
// symbolic link that lies in a tree the run reads: below the working
// directory (a checkout is untrusted whether git made it or a tarball
// did), or inside a git work tree. Links at or above cwd are how the user
// got there and do not count.
func enteredByLink(d, cwd string) bool {
	for p := filepath.Clean(d); p != filepath.Dir(p); p = filepath.Dir(p) {
		if cwd != "" && (cwd == p || strings.HasPrefix(cwd, p+string(filepath.Separator))) {
			return false
		}
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		if cwd != "" && strings.HasPrefix(p, cwd+string(filepath.Separator)) {
			return true // below the working directory: its tree, git or not
		}
		for a := filepath.Dir(p); ; a = filepath.Dir(a) {
			if _, err := os.Lstat(filepath.Join(a, ".git")); err == nil {
				return true
			}
			if a == filepath.Dir(a) {
				break
			}
		}
	}
	return false
}

// anchorDir is the folder the repository and the configuration are looked
// for from: that of the first path linted (a file's folder, a glob's
// literal base), else the working directory. So 'resumelint lint
// /other/repo' uses that repository's root and configuration.
func (c *Command) anchorDir(paths []string) string {
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if hasGlobMeta(p) {
			p, _ = doublestar.SplitPattern(filepath.ToSlash(p))
			p = filepath.FromSlash(p)
		}
		p = load.Abs(c.Cwd, p)
		p = filepath.Clean(p)
		for {
			if fi, err := os.Stat(p); err == nil {
				if !fi.IsDir() {
					p = filepath.Dir(p)
				}
				return p
			}
			parent := filepath.Dir(p)
			if parent == p {
				return c.Cwd
			}
			p = parent
		}
	}
	return c.Cwd
}

func hasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[{") }

// sameFile reports whether two paths name one file or folder (one of them
// may be reached through a link).
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
