package cli

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/resumelint/resumelint/internal/agentrun"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/report"
	"github.com/resumelint/resumelint/internal/rules"
)

// `resumelint status [PATH ...]`: the resume report of an agent run (SPEC
// §3.6, seed 003 §Resume Reporting Template), and of the ORCHESTRATION
// workflows and nexus projects and builds (status_workflows.go). The run
// is read and its state derived by internal/agentrun, the same derivation
// the RL5xx rules use; internal/report renders it as text, json or mermaid.

func init() { subcommands["status"] = (*Command).status }

func (c *Command) status(args []string) (int, error) {
	if c.runFiles == nil {
		// One file access for the run's report and the lint its mask
		// comes from (runMask).
		cc := *c
		cc.runFiles = load.NewFiles(nil)
		c = &cc
	}
	fset := newFlagSet("status")
	format := fset.String("format", "text", "output format: text, json or mermaid")
	nowFlag := fset.String("now", "", "the current time for ages and the staleness warning (RFC 3339; default $SOURCE_DATE_EPOCH or the clock)")
	configFlag := fset.String("config", "", "configuration file for staleness.run_max_age and the lint of workflows (default: .resumelint.yaml at the repository root)")
	pos, err := c.parseArgs(fset, args)
	if err != nil {
		return ExitUsage, err
	}
	switch *format {
	case "text", "json", "mermaid":
	default:
		return ExitUsage, usagef("unknown --format %q (want text, json or mermaid)", *format)
	}
	now, err := c.nowTime(*nowFlag)
	if err != nil {
		return ExitUsage, err
	}
	if code, done, err := c.statusRecords(pos, *format, now, *configFlag); done {
		return code, err
	}
	if len(pos) > 1 {
		return ExitUsage, usagef("status takes one RUN_DIR, got %d", len(pos))
	}
	var (
		run     *agentrun.Run
		probs   []diag.Finding
		runsDir string
	)
	if len(pos) == 1 {
		dir := pos[0]
		dir = load.Abs(c.Cwd, dir)
		// Looked up inside the repository: a folder that leads out of it
		// is answered like a missing one.
		if !load.IsDirIn(c.statusRoot(dir), dir) {
			return ExitUsage, usagef("%s is not a run folder (expected .agent-memory/runs/<run-id>/)", pos[0])
		}
		if c.looksLikeRunsDir(dir) {
			runsDir = dir
		} else if rd := c.runsDirIn(dir); rd != "" && !c.isRunPath(dir) {
			runsDir = rd // a folder holding .agent-memory/runs/: as status there
		} else {
			run, probs = c.loadRun(dir)
		}
	} else {
		runsDir = c.findRunsDir()
		if runsDir == "" {
			return ExitUsage, usagef("no .agent-memory/runs/ folder here (%s); name a run folder: resumelint status RUN_DIR", c.Cwd)
		}
	}
	if run == nil {
		var code int
		run, probs, code, err = c.pickRun(runsDir, *format)
		if run == nil {
			return code, err
		}
	}
	maxAge, err := c.runMaxAge(*configFlag, runFolder(run))
	if err != nil {
		return ExitUsage, err
	}
	st := agentrun.NewStatus(run, probs, now, maxAge)
	mask, lint := c.runLint(run, *configFlag, now)
	switch *format {
	case "json":
		err = report.StatusJSON(c.Stdout, st, lint, mask)
	case "mermaid":
		err = report.StatusMermaid(c.Stdout, run, st, mask)
	default:
		err = report.StatusText(c.Stdout, st, lint, mask)
	}
	if err != nil {
		return ExitInternal, err
	}
	return ExitOK, nil
}

// runMaxAge reads staleness.run_max_age from the configuration governing
// the run's folder (--config when given), as lint does for RL507.
func (c *Command) runMaxAge(flagPath, runDir string) (time.Duration, error) {
	explicit := ""
	if flagPath != "" {
		explicit = load.Abs(c.Cwd, flagPath)
	}
	set, err := config.NewSet(c.Cwd, repoRoot(c.Cwd), explicit)
	if err != nil {
		return 0, configError(err)
	}
	if runDir == "" {
		runDir = c.Cwd
	}
	sc := set.For(runDir)
	if err := set.Err(); err != nil {
		return 0, configError(err)
	}
	if sc.Config.RunMaxAge > 0 {
		return sc.Config.RunMaxAge, nil
	}
	return rules.DefaultRunMaxAge, nil
}

// runLint lints a run's folder for its report: the mask the report is
// shown through (the secrets the lint locates, a credential written in a
// task's title, which no pattern finds, then patterns) and the findings,
// which the report lists as a workflow's. The patterns alone, and no
// findings, when the folder cannot be linted.
func (c *Command) runLint(run *agentrun.Run, configPath string, now time.Time) (func(string) string, *report.FindingSummary) {
	dir := runFolder(run)
	if dir == "" {
		return rules.MaskText, nil
	}
	s := &engine.Settings{
		Opts:      rules.Options{Now: now, Limits: load.DefaultLimits, RepoRoot: repoRoot(c.Cwd), Cwd: c.Cwd, NoSnippets: true},
		Selection: rules.Selection{Severity: map[string]diag.Severity{}},
		Files:     c.runFiles,
	}
	lc, err := c.setupConfig(&configFlags{config: configPath}, s, c.Cwd)
	if err != nil {
		return rules.MaskText, nil
	}
	disc, err := load.Discover([]string{dir}, lc.discoverOptions(c.Cwd))
	if err != nil {
		return rules.MaskText, nil
	}
	all := load.Discovery{Files: slices.Clone(disc.Files), Folders: slices.Clone(disc.Folders)}
	if lc.discovered(disc) != nil {
		return rules.MaskText, nil
	}
	if len(disc.Folders) == 0 && len(all.Folders) > 0 {
		// The configuration excludes the run from lint: it has no
		// findings to list, but its report shows its text all the same,
		// so what it holds of a secret is located and masked as ever.
		return lc.run(&all, nil, *s).Mask, nil
	}
	res := lc.run(disc, nil, *s)
	var beyond []diag.Finding
	for _, fd := range res.Findings {
		if !statedByRunReport[fd.Code] {
			beyond = append(beyond, fd)
		}
	}
	sum := summarize(beyond)
	return res.Mask, &sum
}

// statedByRunReport are the rules whose every finding a run's report
// states in its own words (Warnings: skipped lines, files not read, a stale
// run): its lint summary leaves them out rather than say them twice.
var statedByRunReport = map[string]bool{code.ParseError: true, code.InputLimits: true, code.EventCorrupt: true, code.RunStale: true}

// runFolder is the OS path of a run's folder ("" when unknown: the
// working directory's configuration then applies).
func runFolder(run *agentrun.Run) string {
	if run != nil && run.Src != nil && run.Src.Folder != nil {
		return run.Src.Folder.OSPath
	}
	return ""
}

// findRunsDir looks for .agent-memory/runs/ in the working directory, then
// at the top of the repository.
func (c *Command) findRunsDir() string {
	for _, base := range []string{c.Cwd, repoRoot(c.Cwd)} {
		if d := c.runsDirIn(base); d != "" {
			return d
		}
	}
	return ""
}

// runsDirIn returns dir's .agent-memory/runs/ folder, or "" when it has
// none (inside the repository).
func (c *Command) runsDirIn(dir string) string {
	d := filepath.Join(dir, ".agent-memory", "runs")
	if load.IsDirIn(c.statusRoot(d), d) {
		return d
	}
	return ""
}

// statusRoot is the folder that confines what status reads of dir: the
// repository root, or dir itself outside the repository (load.RootFor).
func (c *Command) statusRoot(dir string) string {
	return load.RootFor(repoRoot(c.Cwd), filepath.Join(dir, "x"))
}

// looksLikeRunsDir tells a runs/ folder (given as RUN_DIR) from a run.
func (c *Command) looksLikeRunsDir(dir string) bool {
	if filepath.Base(dir) != "runs" {
		return false
	}
	for _, marker := range []string{"task-graph.json", "events", "plan.md", "prd.md"} {
		if load.ExistsIn(c.statusRoot(dir), filepath.Join(dir, marker)) {
			return false
		}
	}
	return true
}

// loadRun reads one run folder as the linter does, once.
func (c *Command) loadRun(dir string) (*agentrun.Run, []diag.Finding) {
	return agentrun.LoadWith(c.runFiles, c.Cwd, c.statusRoot(dir), dir)
}

// pickRun chooses the run to report among the runs of runsDir: the only
// incomplete one, with the problems of reading it. Several (seed 003: "ask
// user which run to resume") or none is exit code 2, with the list on
// stdout.
func (c *Command) pickRun(runsDir, format string) (*agentrun.Run, []diag.Finding, int, error) {
	ents, err := load.ReadDirIn(c.statusRoot(runsDir), runsDir)
	if err != nil {
		return nil, nil, ExitUsage, fmt.Errorf("reading %s: %w", load.Display(c.Cwd, runsDir), err)
	}
	var incomplete []*agentrun.Run
	var incompleteProbs [][]diag.Finding
	complete := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		r, probs := c.loadRun(filepath.Join(runsDir, e.Name()))
		if r.Src != nil && load.NotAgentRun(r.Src.Folder) != "" {
			continue // another tool's folder, which lint skips too
		}
		if r.Finished() {
			complete++
			continue
		}
		incomplete = append(incomplete, r)
		incompleteProbs = append(incompleteProbs, probs)
	}
	disp := load.Display(c.Cwd, runsDir)
	switch len(incomplete) {
	case 1:
		return incomplete[0], incompleteProbs[0], ExitOK, nil
	case 0:
		if complete == 0 {
			return nil, nil, ExitUsage, usagef("no run under %s/: a fresh start", disp)
		}
		return nil, nil, ExitUsage, usagef("no incomplete run under %s/ (%d finished); nothing to resume, or name one: resumelint status %s/<run-id>", disp, complete, disp)
	}
	var runs []agentrun.RunSummary
	for _, r := range incomplete {
		runs = append(runs, r.Summary())
	}
	if err := report.RunList(c.Stdout, format, disp, runs, rules.MaskText); err != nil {
		return nil, nil, ExitInternal, err
	}
	return nil, nil, ExitUsage, usagef("%d incomplete runs: name the one to resume, e.g. resumelint status %s", len(incomplete), incomplete[0].Src.Folder.Path)
}
