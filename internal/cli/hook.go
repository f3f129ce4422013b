package cli

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/resumelint/resumelint/internal/agentrun"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/hook"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/report"
	"github.com/resumelint/resumelint/internal/rules"
)

// `resumelint hook`: Claude Code's hook protocol (docs/agent-hooks.md).
//
// The protocol gives exit codes their own meanings: 0 is success (stdout
// is read as JSON), 2 feeds stderr back to the model, any other code is a
// non-blocking error shown to the user. So the hook never uses resumelint's
// usage exit code 2 for its own problems: a bad event or configuration is
// exit code 1, which the session shows to the user and otherwise ignores.

func init() { subcommands["hook"] = (*Command).hook }

// Hook exit codes (Claude Code's, not SPEC §4's).
const (
	hookOK       = 0
	hookProblem  = 1 // shown to the user, not to the model
	hookFeedback = 2 // stderr is fed back to the model
)

// hookReportMax is how many findings one answer lists; the rest are counted.
const hookReportMax = 10

// hookContextMax bounds additionalContext and systemMessage. Claude Code
// shows hook output of up to 10,000 characters in full and replaces longer
// output with a 2,000-character preview and a file path
// (docs/agent-hooks.md, "Size"). The bound is in bytes, which are never
// fewer than the characters Claude Code counts, with a margin.
const hookContextMax = 9000

const hookUsage = `Usage: resumelint hook < EVENT.json

Reads one Claude Code hook event on stdin and answers in the hook protocol:

  PostToolUse (Write, Edit, MultiEdit)  lints the written file if it is a state file;
                                        errors: exit 2 with the findings on stderr (the model reads them)
  PreCompact                            lints the state files under cwd; problems: {"systemMessage": ...}
  SessionStart (resume, compact)        prints a resume report as hookSpecificOutput.additionalContext

Setup for .claude/settings.json: docs/agent-hooks.md.
`

func init() {
	usageHeads["hook"] = hookUsage
	usageHeads["server"] = serverUsage
}

func (c *Command) hook(args []string) (int, error) {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(c.Stderr)
	nowFlag := fs.String("now", "", "the current time for time-based rules (RFC 3339; default $SOURCE_DATE_EPOCH or the clock)")
	fs.Usage = func() {
		fmt.Fprint(c.Stderr, hookUsage+"\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := c.parseArgs(fs, args)
	if err != nil {
		var help *helpRequest
		if errors.As(err, &help) {
			return ExitOK, help // Main prints it on stdout
		}
		if errors.As(err, new(*versionRequest)) {
			return ExitOK, err // Main prints the version
		}
		fmt.Fprintf(c.Stderr, "resumelint hook: %s\n", diag.SafeLines(err.Error()))
		return hookProblem, nil
	}
	if len(pos) > 0 {
		fmt.Fprintf(c.Stderr, "resumelint hook: takes no arguments (the event comes on stdin)\n")
		return hookProblem, nil
	}
	if c.Stdin == nil {
		c.Stdin = strings.NewReader("")
	}
	ev, err := hook.ReadEvent(c.Stdin)
	if err != nil {
		fmt.Fprintf(c.Stderr, "resumelint hook: %s\n", diag.SafeLines(err.Error()))
		return hookProblem, nil
	}
	cwd := c.Cwd
	if ev.Cwd != "" {
		if !filepath.IsAbs(ev.Cwd) {
			return hookOK, nil // not a session's working directory
		}
		cwd = filepath.Clean(ev.Cwd)
	}
	h := &hookRun{c: c, ev: ev, cwd: cwd, root: hook.RepoRoot(cwd), nowFlag: *nowFlag}
	switch ev.HookEventName {
	case hook.PostToolUse:
		return h.postToolUse(), nil
	case hook.PreCompact:
		return h.preCompact(), nil
	case hook.SessionStart:
		return h.sessionStart(), nil
	}
	return hookOK, nil
}

type hookRun struct {
	c         *Command
	ev        *hook.Event
	cwd, root string
	nowFlag   string
	// records are the lifecycles lintState's run decided, by display path.
	records map[string]*rules.RecordFact
	// blocks are the resume states of the run's ORCHESTRATION.yaml files
	// that read as workflows, by display path, taken from the lint's own
	// reading of them.
	blocks map[string]resumeBlock
	// files are lintState's reads, which runReport reads the run through.
	files *load.Files
	// mask hides in a report's text the secrets lintState's run located in
	// the files (engine.Result.Mask): what the report quotes of a file
	// (a next step, a task's title) may hold one no pattern finds.
	mask func(string) string
}

// masked is text as the reports show it once the run's secrets are known.
func (h *hookRun) masked(text string) string {
	if h.mask == nil {
		return text
	}
	return h.mask(text)
}

// setup builds the run settings as lint does, from the repository's
// configuration, in the session's working directory. onWrite is
// PostToolUse's: a bundle still being assembled, artifact by artifact,
// is not reported for the artifacts it lacks yet (docs/agent-hooks.md).
func (h *hookRun) setup(onWrite bool) (*engine.Settings, *lintConfig, bool) {
	now, err := h.c.nowTime(h.nowFlag)
	if err != nil {
		fmt.Fprintf(h.c.Stderr, "resumelint hook: %s\n", diag.SafeLines(err.Error()))
		return nil, nil, false
	}
	s := &engine.Settings{
		Opts:      rules.Options{Now: now, Limits: load.DefaultLimits, RepoRoot: h.root, Cwd: h.cwd, Assembling: onWrite},
		Selection: rules.Selection{Severity: map[string]diag.Severity{}},
		Files:     load.NewFiles(nil), // the lint and its dry run read each file once
	}
	cc := *h.c
	cc.Cwd = h.cwd
	lc, err := cc.setupConfig(&configFlags{}, s, h.cwd)
	if err != nil {
		fmt.Fprintf(h.c.Stderr, "resumelint hook: %s\n", diag.SafeLines(err.Error()))
		return nil, nil, false
	}
	return s, lc, true
}

// postToolUse lints the file a Write, Edit or MultiEdit call wrote. A file
// of no known kind is answered before any schema is loaded.
func (h *hookRun) postToolUse() int {
	if !hook.WriteTools[h.ev.ToolName] {
		return hookOK
	}
	osPath, rel, ok := hook.Target(h.root, h.cwd, h.ev.FilePath())
	if !ok || !hook.MayBeKnown(h.root, rel) {
		return hookOK
	}
	s, lc, ok := h.setup(true)
	if !ok {
		return hookProblem
	}
	// A file of an agent run is checked with its run: its events only mean
	// something with the task graph and the other actors' logs.
	target := osPath
	runDir, inRun := load.RunDir(filepath.ToSlash(osPath))
	if inRun {
		target = filepath.FromSlash(runDir)
	}
	disc, err := load.Discover([]string{target}, lc.discoverOptions(h.cwd))
	if err != nil {
		fmt.Fprintf(h.c.Stderr, "resumelint hook: %v\n", err) // git refused or timed out: say so
		return hookOK
	}
	if err := lc.discovered(disc); err != nil {
		fmt.Fprintf(h.c.Stderr, "resumelint hook: %s\n", diag.SafeLines(err.Error()))
		return hookOK
	}
	disc.Unknown, disc.Empty, disc.Missing = nil, nil, nil
	if inRun {
		// Only the run itself, not what else the folder holds.
		var keep []*load.Folder
		for _, f := range disc.Folders {
			if f.Kind == load.KindAgentRun && f.OSPath == target {
				keep = append(keep, f)
			}
		}
		disc.Files, disc.Folders = nil, keep
	}
	if len(disc.Files)+len(disc.Folders) == 0 {
		return hookOK // not a kind under the configured globs, or excluded
	}
	cc := *h.c
	cc.Cwd = h.cwd
	cc.addContext(disc, nil, nil, lc) // what a lint of the repository says of it
	res := lc.run(disc, nil, *s)
	h.c.settleFixes(res, disc, nil, *s, lc, allFindings)
	disp := load.Display(h.cwd, osPath)
	failOn := lc.failOn(disp, diag.SevOff)
	var found []diag.Finding
	for _, fd := range res.Findings {
		if fd.Path == disp && fd.Severity >= failOn {
			found = append(found, fd)
		}
	}
	if len(found) == 0 {
		return hookOK
	}
	var sb strings.Builder
	noun := "errors"
	if failOn == diag.SevWarning {
		noun = "problems"
	}
	fmt.Fprintf(&sb, "resumelint: %s has %s a resuming session would trip over; correct the file now:\n", hookSafe(disp), noun)
	writeFindingLines(&sb, found)
	// Each line's text was made safe where it was written; as a last
	// step, no line of the answer starts a workflow command.
	fmt.Fprint(h.c.Stderr, diag.NoCommands(sb.String()))
	return hookFeedback
}

// writeFindingLines lists at most hookReportMax findings, then a count.
func writeFindingLines(sb *strings.Builder, fds []diag.Finding) {
	for i := range fds {
		if i == hookReportMax {
			fmt.Fprintf(sb, "… and %d more (resumelint lint lists them all)\n", len(fds)-hookReportMax)
			break
		}
		sb.WriteString(hook.FindingLine(&fds[i]) + "\n")
	}
}

// stateKinds are what a resuming session reads: not bundles, which are
// verified outputs rather than state to resume from.
func isStateUnit(k load.Kind) bool { return k != load.KindBundle && k != load.KindUnknown }

// hookMaxWalk bounds the walk of a session's folder outside any
// repository.
const hookMaxWalk = 20000

// lintState lints the state files under the session's working directory:
// orchestration files, checkpoints, precompact state, resume contexts and
// agent runs. It returns the findings a resuming session would act on
// (errors and warnings) and the orchestration files it read.
func (h *hookRun) lintState() ([]diag.Finding, []*load.File, bool) {
	s, lc, ok := h.setup(false)
	if !ok {
		return nil, nil, false
	}
	h.files = s.Files
	opt := lc.discoverOptions(h.cwd)
	if !hook.InRepository(h.root) {
		// A session started outside any repository (a home folder, /):
		// looked at, not walked whole.
		opt.MaxWalk = hookMaxWalk
	}
	disc, err := load.Discover(nil, opt)
	if err != nil {
		fmt.Fprintf(h.c.Stderr, "resumelint hook: %v\n", err) // git refused or timed out: say so
		return nil, nil, true
	}
	for _, dir := range disc.Truncated {
		fmt.Fprintf(h.c.Stderr, "resumelint hook: %s is in no repository; stopped looking after %d entries\n",
			diag.Safe(dir), hookMaxWalk)
	}
	if err := lc.discovered(disc); err != nil {
		fmt.Fprintf(h.c.Stderr, "resumelint hook: %s\n", diag.SafeLines(err.Error()))
		return nil, nil, true
	}
	disc.Unknown, disc.Empty, disc.Missing = nil, nil, nil
	var files []*load.File
	var orch []*load.File
	at := map[*load.File]int{}
	for _, f := range disc.Files {
		if isStateUnit(f.Kind) {
			files = append(files, f)
			if f.Kind == load.KindOrchestration {
				at[f] = len(orch)
				orch = append(orch, f)
			}
		}
	}
	var folders []*load.Folder
	for _, f := range disc.Folders {
		if isStateUnit(f.Kind) {
			folders = append(folders, f)
		}
	}
	disc.Files, disc.Folders = files, folders
	// Each workflow's resume state is read from the lint's reading of its
	// file, on the lint's workers: one read (not the dry run's).
	blocks := make([]*resumeBlock, len(orch))
	run := *s
	run.OnDocument = func(doc *load.Document) {
		if i, ok := at[doc.File]; ok {
			if b, ok := recoveryBlock(doc); ok {
				blocks[i] = &b
			}
		}
	}
	res := lc.run(disc, nil, run)
	h.mask = res.Mask
	h.blocks = map[string]resumeBlock{}
	for i, b := range blocks {
		if b != nil {
			h.blocks[orch[i].Path] = *b
		}
	}
	h.records = map[string]*rules.RecordFact{}
	for _, rf := range res.Records {
		h.records[rf.Path] = rf
	}
	h.c.settleFixes(res, disc, nil, *s, lc, allFindings)
	var found []diag.Finding
	for _, fd := range res.Findings {
		if fd.Severity >= diag.SevWarning && fd.Code != code.Internal {
			found = append(found, fd)
		}
	}
	return found, orch, true
}

// preCompact reports, before the context is compacted, what is wrong or
// stale in the state the next context will resume from. It never blocks
// compaction (exit code 2 does in recent Claude Code versions, and a
// session that cannot compact runs out of context): the findings go to
// the user as a systemMessage, and reach the model through SessionStart
// (source compact) right after.
func (h *hookRun) preCompact() int {
	found, _, ok := h.lintState()
	if !ok {
		return hookProblem
	}
	if len(found) == 0 {
		return hookOK
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "resumelint: the state this session will resume from after compaction has %s:\n", plural(len(found), "problem", "problems"))
	writeFindingLines(&sb, found)
	out := &hook.Output{SystemMessage: truncate(h.masked(strings.TrimSuffix(sb.String(), "\n")), hookContextMax)}
	if err := out.Write(h.c.Stdout); err != nil {
		return hookProblem
	}
	return hookOK
}

// runReport is `resumelint status` for the session's agent run: the
// report of the only incomplete run, or the list when there are several.
func (h *hookRun) runReport() string {
	cc := *h.c
	cc.Cwd, cc.runFiles = h.cwd, h.files
	runsDir := cc.findRunsDir()
	if runsDir == "" {
		return ""
	}
	var sb strings.Builder
	cc.Stdout = &sb
	run, probs, _, err := cc.pickRun(runsDir, "text")
	if run == nil {
		if err != nil && sb.Len() > 0 { // several incomplete runs: the list
			return strings.TrimSuffix(sb.String(), "\n") + "\nName the run to resume; resumelint status RUN_DIR reports one."
		}
		return ""
	}
	now, err := h.c.nowTime(h.nowFlag)
	if err != nil {
		return ""
	}
	maxAge, err := cc.runMaxAge("", runFolder(run))
	if err != nil {
		maxAge = rules.DefaultRunMaxAge
	}
	sb.Reset()
	if report.StatusText(&sb, agentrun.NewStatus(run, probs, now, maxAge), nil, rules.MaskText) != nil {
		return ""
	}
	return hook.CleanText(strings.TrimSuffix(sb.String(), "\n"))
}

// hookSafe is text from a file as the resume report shows it: secrets
// masked whole (before any cut), then what is not printable escaped.
func hookSafe(s string) string { return hook.Clean(diag.Mask(s)) }

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
