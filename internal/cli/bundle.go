package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/resumelint/resumelint/internal/bundle"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// `resumelint bundle verify`: SPECTRUM-02 verdicts (seed 002 §3, SPEC §3.5).

func init() { subcommands["bundle"] = (*Command).bundle }

func (c *Command) bundle(args []string) (int, error) {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		return ExitUsage, helpOf(newVerifyFlags().fs)
	}
	if len(args) > 0 && args[0] != "verify" && !strings.HasPrefix(args[0], "-") {
		if s := suggest(args[0], []string{"verify"}); s != "" {
			return ExitUsage, usagef("unknown command \"bundle %s\"; did you mean \"bundle %s\"? (run 'resumelint bundle verify -h')", args[0], s)
		}
	}
	if len(args) == 0 || args[0] != "verify" {
		return ExitUsage, usagef("usage: resumelint bundle verify [flags] DIR ... (run 'resumelint bundle verify -h')")
	}
	return c.bundleVerify(args[1:])
}

type verifyFlags struct {
	fs                          *flag.FlagSet
	strict, expectBuildIDGiven  bool
	exitZero, quiet             bool
	expectBuildID, format, base string
	config                      string
	jobs                        int
}

func newVerifyFlags() *verifyFlags {
	vf := &verifyFlags{fs: newFlagSet("bundle verify")}
	fs := vf.fs
	fs.BoolVar(&vf.strict, "strict", false, "also reject a validator_build_id other than --expect-build-id (VALIDATOR_BUILD_MISMATCH)")
	fs.StringVar(&vf.expectBuildID, "expect-build-id", "", "the current validator build id, for --strict (e.g. git:abc1234)")
	fs.StringVar(&vf.format, "format", "text", "output format: text or json")
	fs.StringVar(&vf.base, "bundle-base", bundle.DefaultOptions().Base, "what hashes keys are relative to: bundle (the bundle folder) or repo (the repository root)")
	fs.IntVar(&vf.jobs, "jobs", 0, "number of files hashed in parallel (default: all CPUs)")
	fs.StringVar(&vf.config, "config", "", "configuration file for bundle: settings (default: the nearest .resumelint.yaml walking up from the first bundle folder to the repository root)")
	fs.BoolVar(&vf.exitZero, "exit-zero", false, "exit 0 even when a bundle is rejected (2 on usage or configuration errors and 3 on internal failures stay)")
	fs.BoolVar(&vf.quiet, "quiet", false, "text: print the rejected bundles only")
	fs.BoolVar(&vf.quiet, "q", false, "the same as --quiet")
	return vf
}

func (c *Command) bundleVerify(args []string) (int, error) {
	vf := newVerifyFlags()
	dirs, err := c.parseArgs(vf.fs, args)
	if err != nil {
		return ExitUsage, err
	}
	vf.fs.Visit(func(f *flag.Flag) {
		if f.Name == "expect-build-id" {
			vf.expectBuildIDGiven = true
		}
	})
	switch {
	case vf.format != "text" && vf.format != "json":
		return ExitUsage, usagef("unknown --format %q (want text or json)", vf.format)
	case vf.strict && strings.TrimSpace(vf.expectBuildID) == "":
		return ExitUsage, usagef("--strict needs --expect-build-id ID, the build id the bundle must have been validated with")
	case vf.expectBuildIDGiven && !vf.strict:
		return ExitUsage, usagef("--expect-build-id is only compared in strict mode; add --strict")
	case vf.jobs < 0 || vf.jobs == 0 && flagGiven(vf.fs, "jobs"):
		return ExitUsage, usagef("--jobs must be positive (leave it out to use every CPU)")
	case len(dirs) == 0:
		return ExitUsage, usagef("usage: resumelint bundle verify [flags] DIR ... (name at least one bundle folder)")
	}
	base, err := bundle.ParseBase(vf.base)
	if err != nil {
		return ExitUsage, usagef("--bundle-base: %v", err)
	}
	// The same configuration and settings-to-options seam as lint, so both
	// decide alike; a flag wins over the file.
	anchor := c.anchorDir(dirs)
	settings := engine.Settings{Opts: rules.Options{RepoRoot: c.repoRootOf(anchor), Cwd: c.Cwd, Limits: load.DefaultLimits},
		Selection: rules.Selection{Severity: map[string]diag.Severity{}}}
	if _, err := c.setupConfig(&configFlags{config: vf.config}, &settings, anchor); err != nil {
		return ExitUsage, err
	}
	// Neither flag nor file: the keys decide (bundle.Check), as in lint.
	if flagGiven(vf.fs, "bundle-base") {
		settings.Opts.Bundle.Base = base
	}
	opts := rules.BundleVerifyOptions(&settings.Opts)
	opts.Strict = vf.strict
	opts.ExpectBuildID = vf.expectBuildID
	opts.Jobs = vf.jobs
	opts.Progress = &bundle.Progress{}
	opts.Mask = engine.Masker

	// Every folder must be a bundle before any is verified.
	var folders []*load.Folder
	var bad []string
	for _, d := range dirs {
		osPath := load.Abs(c.Cwd, d)
		root := load.RootFor(settings.Opts.RepoRoot, filepath.Join(osPath, "x"))
		if why := notBundle(root, osPath); why != "" {
			bad = append(bad, fmt.Sprintf("%s %s", d, why))
			continue
		}
		folders = append(folders, &load.Folder{Kind: load.KindBundle, Path: filepath.ToSlash(filepath.Clean(d)), OSPath: osPath, Explicit: true, Root: root})
	}
	if len(bad) > 0 {
		return ExitUsage, usagef("%s", strings.Join(bad, "; "))
	}

	stop := c.startProgress(opts.Progress)
	verdicts := make([]*bundle.Verdict, len(folders))
	for i, f := range folders {
		verdicts[i] = bundle.Verify(f, opts)
	}
	stop()

	if vf.format == "json" {
		err = writeVerdictsJSON(c.Stdout, verdicts)
	} else {
		shown := verdicts
		if vf.quiet {
			shown = nil
			for _, v := range verdicts {
				if v.Verdict != bundle.Accept {
					shown = append(shown, v)
				}
			}
		}
		err = writeVerdictsText(c.Stdout, shown)
	}
	if err != nil {
		return ExitInternal, err
	}
	for _, v := range verdicts {
		if v.Verdict != bundle.Accept && !vf.exitZero {
			return ExitFindings, nil
		}
	}
	return ExitOK, nil
}

// notBundle says why a path cannot be verified, or returns "". It looks
// inside root only: a folder that leads out of it is answered like a
// missing one, telling nothing of what lies outside.
func notBundle(root, osPath string) string {
	fi, err := load.StatIn(root, osPath)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		return "does not exist"
	case err != nil:
		return fmt.Sprintf("cannot be read: %v", err)
	case !fi.IsDir():
		return "is not a folder; bundle verify takes bundle folders (the folder holding STATUS.json and OUTPUT_HASHES.json)"
	}
	for _, marker := range load.BundleArtifacts {
		if load.ExistsIn(root, filepath.Join(osPath, marker)) || isLinkIn(root, filepath.Join(osPath, marker)) {
			return ""
		}
	}
	return "is not a bundle: it holds none of TASK_SPEC.json, STATUS.json and OUTPUT_HASHES.json"
}

// isLinkIn reports whether osPath, inside root, is a symbolic link (an
// artifact linked out of the bundle: the bundle is verified, and
// rejected for it).
func isLinkIn(root, osPath string) bool {
	fi, err := os.Lstat(osPath)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0 && load.IsDirIn(root, filepath.Dir(osPath))
}

// writeVerdictsText prints the verdicts; paths, output names and messages
// come from the bundle, so they are masked and escaped.
func writeVerdictsText(w io.Writer, vs []*bundle.Verdict) error {
	var sb strings.Builder
	for _, v := range vs {
		if v.Verdict == bundle.Accept {
			fmt.Fprintf(&sb, "ACCEPT %s\n", diag.Safe(v.Path))
		} else {
			codes := make([]string, len(v.Codes))
			for i, c := range v.Codes {
				codes[i] = string(c)
			}
			fmt.Fprintf(&sb, "REJECT %s: %s\n", diag.Safe(v.Path), strings.Join(codes, ", "))
		}
		for _, p := range v.Problems {
			if p.File != "" {
				fmt.Fprintf(&sb, "  %s %s: %s\n", p.Code, diag.Safe(p.File), diag.SafeMessage(p.Message))
			} else {
				fmt.Fprintf(&sb, "  %s: %s\n", p.Code, diag.SafeMessage(p.Message))
			}
		}
		for _, n := range v.Notes {
			fmt.Fprintf(&sb, "  note %s: %s; it takes no part in the verdict\n", n.Code, diag.SafeMessage(n.Message))
		}
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

// The JSON form of SPEC §3.5, plus `details` (every failing check, in
// procedure order); documented in docs/bundle-verify.md.
type verdictsJSON struct {
	Bundles []verdictJSON `json:"bundles"`
}

type verdictJSON struct {
	Path    string       `json:"path"`
	Verdict string       `json:"verdict"`
	Codes   []string     `json:"codes"`
	Notes   []noteJSON   `json:"notes"`
	Details []detailJSON `json:"details"`
}

type noteJSON struct {
	Code    string `json:"code"`
	Path    string `json:"path"`
	Pattern string `json:"pattern"`
	Message string `json:"message"`
}

type detailJSON struct {
	Code     string `json:"code"`
	File     string `json:"file,omitempty"`
	Key      string `json:"key,omitempty"`
	Message  string `json:"message"`
	Declared string `json:"declared,omitempty"`
	Actual   string `json:"actual,omitempty"`
}

// writeVerdictsJSON prints the verdicts as JSON; what comes from the
// bundle (its path, output names, keys, messages) is masked and escaped
// as in the text form.
func writeVerdictsJSON(w io.Writer, vs []*bundle.Verdict) error {
	out := verdictsJSON{Bundles: []verdictJSON{}}
	for _, v := range vs {
		j := verdictJSON{Path: diag.Safe(v.Path), Verdict: v.Verdict, Codes: []string{}, Notes: []noteJSON{}, Details: []detailJSON{}}
		for _, c := range v.Codes {
			j.Codes = append(j.Codes, string(c))
		}
		for _, n := range v.Notes {
			j.Notes = append(j.Notes, noteJSON{Code: string(n.Code), Path: diag.Safe(n.Path), Pattern: diag.Safe(n.Pattern), Message: diag.SafeMessage(n.Message)})
		}
		for _, p := range v.Problems {
			j.Details = append(j.Details, detailJSON{Code: string(p.Code), File: diag.Safe(p.File), Key: diag.Safe(p.Key), Message: diag.SafeMessage(p.Message), Declared: diag.Safe(p.Declared), Actual: p.Actual})
		}
		out.Bundles = append(out.Bundles, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// startProgress draws a progress bar on stderr while outputs are hashed,
// only on a terminal, never in CI, and only once the run has taken about a
// second. The returned function stops it and clears the line.
func (c *Command) startProgress(p *bundle.Progress) (stop func()) {
	f, ok := c.Stderr.(*os.File)
	if !ok || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) || c.inCI() || c.Getenv("TERM") == "dumb" {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-done:
			return
		case <-time.After(time.Second):
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			fmt.Fprintf(f, "\r\x1b[Kverifying: %d/%d files, %s of %s hashed", p.DoneFiles.Load(), p.TotalFiles.Load(),
				sizeText(p.DoneBytes.Load()), sizeText(p.TotalBytes.Load()))
			select {
			case <-done:
				fmt.Fprint(f, "\r\x1b[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// inCI reports a CI environment (the CI variable most providers set).
func (c *Command) inCI() bool {
	v := strings.ToLower(c.Getenv("CI"))
	return v != "" && v != "false" && v != "0"
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
