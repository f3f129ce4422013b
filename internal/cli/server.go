package cli

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/hook"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/lsp"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/rules"
	"github.com/resumelint/resumelint/internal/version"
)

// `resumelint server`: a language server over stdio (docs/editors.md).

func init() { subcommands["server"] = (*Command).server }

const serverUsage = `Usage: resumelint server

A language server on stdin/stdout: diagnostics, code actions for fixes, hover with the rule page.
Setup for VS Code, Neovim and Helix: docs/editors.md.
`

func (c *Command) server(args []string) (int, error) {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(c.Stderr)
	// Editors' generic clients often pass --stdio; it is the only transport.
	fs.Bool("stdio", true, "talk LSP on stdin and stdout (the only transport)")
	fs.Usage = func() {
		fmt.Fprint(c.Stderr, "Usage: resumelint server\n\nA language server on stdin/stdout: diagnostics, code actions for fixes, hover with the rule page.\nSetup for VS Code, Neovim and Helix: docs/editors.md.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	pos, err := c.parseArgs(fs, args)
	if err != nil {
		return ExitUsage, err
	}
	if len(pos) > 0 {
		return ExitUsage, usagef("server takes no arguments")
	}
	eng := &lspEngine{c: c, roots: map[string]*lspRoot{}}
	return lsp.Serve(c.Stdin, c.Stdout, c.Stderr, eng, version.String()), nil
}

// lspEngine lints editor buffers as `resumelint lint - --stdin-filename`
// does, with the configuration of each file's repository, read once and
// kept until Reload.
type lspEngine struct {
	c     *Command
	mu    sync.Mutex
	roots map[string]*lspRoot
}

type lspRoot struct {
	s  engine.Settings
	lc *lintConfig
}

// root returns the settings of the repository at root, reading its
// configuration on first use.
func (e *lspEngine) root(root string) (*lspRoot, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if r := e.roots[root]; r != nil {
		return r, nil
	}
	s := engine.Settings{Opts: rules.Options{Limits: load.DefaultLimits, RepoRoot: root, Cwd: root},
		Jobs: 1, Selection: rules.Selection{Severity: map[string]diag.Severity{}}}
	cc := *e.c
	cc.Cwd = root
	lc, err := cc.setupConfig(&configFlags{}, &s, root)
	if err != nil {
		return nil, err
	}
	r := &lspRoot{s: s, lc: lc}
	e.roots[root] = r
	return r, nil
}

// Reload drops every configuration read; each is read again on next use,
// and the first is read now so that its errors are reported.
func (e *lspEngine) Reload() error {
	e.mu.Lock()
	var roots []string
	for r := range e.roots {
		roots = append(roots, r)
	}
	old := e.roots
	e.roots = map[string]*lspRoot{}
	e.mu.Unlock()
	for _, r := range roots {
		if _, err := e.root(r); err != nil {
			e.mu.Lock()
			for k, v := range old { // keep the last good configurations
				if e.roots[k] == nil {
					e.roots[k] = v
				}
			}
			e.mu.Unlock()
			return err
		}
	}
	return nil
}

// Lint checks one document; open are the editor's other buffers, which
// rules reading other files see in place of those files.
func (e *lspEngine) Lint(osPath string, text []byte, saved bool, open load.Overlay) (lsp.Result, error) {
	root := e.rootOf(osPath)
	r, err := e.root(root)
	if err != nil {
		return lsp.Result{}, err
	}
	now, err := e.c.nowTime("")
	if err != nil {
		return lsp.Result{}, err
	}
	s := r.s
	s.Opts.Now = now
	// One file access for the lint and its dry run, with the editor's
	// other buffers in place of their files.
	s.Files = load.NewFilesOver(open)
	disp := load.Display(root, osPath)
	out := lsp.Result{Path: disp, Base: root}
	kind := r.lc.kindOf(osPath)
	var disc *load.Discovery
	var extra []*load.File
	if kind != load.KindUnknown {
		f := &load.File{Path: disp, OSPath: osPath, Data: text, Explicit: true, Kind: kind, Template: load.IsTemplate(disp), Root: load.RootFor(root, osPath)}
		disc = &load.Discovery{Files: []*load.File{f}}
		r.lc.set.Filter(disc)
		if err := r.lc.set.Err(); err != nil {
			return out, configError(err)
		}
		if len(disc.Files) == 0 {
			return out, nil // excluded
		}
		extra, disc.Files = disc.Files, nil
		out.Format = load.FormatOf(kind, disp)
	} else {
		// A file of a bundle or an agent run is checked with its folder,
		// as saved.
		if !hook.MayBeKnown(root, filepath.ToSlash(disp)) {
			return out, nil
		}
		if !saved {
			out.AsSaved = true
			return out, nil
		}
		target := osPath
		if runDir, ok := load.RunDir(filepath.ToSlash(osPath)); ok {
			target = filepath.FromSlash(runDir)
		}
		disc, err = load.Discover([]string{target}, r.lc.discoverOptions(root))
		if err != nil {
			return out, nil
		}
		r.lc.set.Filter(disc)
		if err := r.lc.set.Err(); err != nil {
			return out, configError(err)
		}
		disc.Files, disc.Unknown, disc.Empty, disc.Missing = nil, nil, nil, nil
		if len(disc.Folders) == 0 {
			return out, nil
		}
		out.Format = load.FormatOf(disc.Folders[0].Kind, disp)
	}
	// What a lint of the repository says of this file, cross-file rules
	// included (the workflows beside a checkpoint, the runs beside a run).
	cc := *e.c
	cc.Cwd = root
	// Only a checkpoint's lint takes workflows from the open documents
	// (openWorkflows): any other asking would be linted again whenever a
	// document opens or closes, N lints per open of N documents.
	if o, ok := open.(interface{ Paths() []string }); ok && kind == load.KindCheckpoint {
		cc.openDocs = o.Paths()
		out.Needles = checkpointNeedles(osPath, disp, text)
	}
	cc.addContext(disc, extra, nil, r.lc)
	mem := stdinCopies(extra)
	res := r.lc.run(disc, extra, s)
	// Code actions and fix-all offer as safe only what `fix` applies.
	cc.settleFixes(res, disc, mem, s, r.lc, allFindings)
	out.Checked = true
	for _, fd := range res.Findings {
		if fd.Path == disp && fd.Code != code.Internal {
			out.Findings = append(out.Findings, fd)
		}
	}
	return out, nil
}

// rootOf is the repository a document belongs to, as lint decides it: the
// git work tree holding it, else (outside one) the server's working
// directory, where the editor started it on the workspace, when it holds
// the file, else the file's folder.
func (e *lspEngine) rootOf(osPath string) string {
	dir := filepath.Dir(osPath)
	if r, ok := gitRoot(dir, e.c.Cwd); ok {
		return r
	}
	if r := e.c.repoRootOf(dir); r == dir || strings.HasPrefix(dir, r+string(filepath.Separator)) {
		return r
	}
	return dir
}

// Checks reports whether a document is a file of a known kind that the
// configuration does not exclude.
// checkpointNeedles are what a workflow must name to concern a
// checkpoint's lint (rules.ContextRelevant): its workflow id and its file
// name. A workflow that names neither is not read for it.
func checkpointNeedles(osPath, disp string, text []byte) []string {
	needles := []string{filepath.Base(osPath)}
	f := &load.File{Path: disp, OSPath: osPath, Data: text, Kind: load.KindCheckpoint}
	doc, _ := load.Parse(f, load.FormatOf(load.KindCheckpoint, disp), load.DefaultLimits)
	if c := model.CheckpointDocOf(doc.Root); c != nil && c.WorkflowID != "" {
		needles = append(needles, c.WorkflowID)
	}
	doc.Release()
	return needles
}

// Listed reports whether the file is a workflow, which a checkpoint's lint
// takes from the open documents; conservatively true when its repository
// cannot be set up.
func (e *lspEngine) Listed(osPath string) bool {
	r, err := e.root(e.rootOf(osPath))
	return err != nil || r.lc.kindOf(osPath) == load.KindOrchestration
}

// Saved reads the file as a lint of it would: inside its repository,
// within the input limits, never a FIFO.
func (e *lspEngine) Saved(osPath string) []byte {
	f := &load.File{OSPath: osPath, Root: load.RootFor(e.rootOf(osPath), osPath)}
	if _, ok := load.Read(f, load.DefaultLimits); !ok {
		return nil
	}
	data := bytes.Clone(f.Data)
	f.Release()
	return data
}

func (e *lspEngine) Checks(osPath string) bool {
	root := e.rootOf(osPath)
	r, err := e.root(root)
	if err != nil {
		return false
	}
	kind := r.lc.kindOf(osPath)
	if kind == load.KindUnknown {
		return false
	}
	disc := &load.Discovery{Files: []*load.File{{Path: load.Display(root, osPath), OSPath: osPath, Kind: kind}}}
	r.lc.set.Filter(disc)
	return len(disc.Files) > 0
}
