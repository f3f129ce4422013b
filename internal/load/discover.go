package load

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/resumelint/resumelint/internal/gitcmd"
	"github.com/resumelint/resumelint/internal/par"
)

// Folder is a folder-kind unit (bundle or agent run) and the files found in it.
type Folder struct {
	Kind     Kind
	Path     string // display path
	OSPath   string
	Explicit bool
	Files    []*File // files discovered inside, not yet read
	// Root is the folder reads of this unit may not leave (File.Root).
	Root string
}

// Discovery is what a run will check.
type Discovery struct {
	Files   []*File   // single-file kinds
	Folders []*Folder // bundles and agent runs
	Unknown []*File   // explicit files of no kind (RL009)
	Missing []string  // explicit paths that do not exist
	// Empty are the folders and globs named (or ".", when none is) that
	// hold no file of a known kind: a gate that checks nothing must not
	// pass (SPEC §1).
	Empty []string
	// Excluded are the units exclude patterns left out (Config.Filter).
	Excluded []Skip
	// Listing is what the walk of the tree saw (nil when none was made):
	// Files answers existence from it (UseListing).
	Listing *Listing
	// Context are files and folders the run reads for what they tell
	// the cross-file rules about the units above (the workflows a named
	// checkpoint belongs to, the other runs beside a named run), so a
	// lint of some files reports on them what a lint of the whole
	// repository does. No rule runs over them and nothing is reported on
	// them.
	Context        []*File
	ContextFolders []*Folder
	// Truncated are the folders whose walk stopped at MaxWalk entries.
	Truncated []string
}

// DiscoverOptions control discovery.
type DiscoverOptions struct {
	Cwd        string
	Classifier *Classifier
	// ClassifierFor, when set, gives the classifier of the configuration
	// that governs a folder (a nested .resumelint.yaml applies to its own
	// subtree); Classifier is used otherwise.
	ClassifierFor func(osDir string) *Classifier
	// Listed, when set, sees every path a git listing of osDir holds
	// (relative, '/'-separated) before any is classified: what governs
	// classification (nested configuration files) is known without
	// looking in every folder. It may first see the tracked files alone,
	// then the whole listing; it reports whether what governs
	// classification changed from the previous listing of osDir.
	Listed func(osDir string, rel [][]byte) (changed bool)
	// NoGit walks folders even inside a git work tree.
	NoGit bool
	// MaxWalk, when above zero, is the most entries a walk of a folder
	// outside a work tree visits: a hook that starts in a home folder or
	// at / must not read the whole disk. Discovery.Truncated names the
	// folders it cut short.
	MaxWalk int
	// BeforeWalk, when set, is called before each folder is walked: the
	// run will read many files (the command readies its heap then).
	BeforeWalk func()
	// Root is the repository root: no file found is read outside it
	// (File.Root). A path named outside it is confined to its own folder.
	// It is required: Discover refuses to run without it.
	Root string
}

var skipDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true}

// Discover expands command-line paths (files, folders, doublestar globs)
// into the units to check. With no paths it checks the working directory.
func Discover(args []string, opt DiscoverOptions) (*Discovery, error) {
	if opt.Root == "" {
		return nil, ErrNoRoot
	}
	if opt.Classifier == nil {
		opt.Classifier = NewClassifier()
	}
	if opt.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opt.Cwd = wd
	}
	out, redo, err := discover(args, opt, true)
	if redo && err == nil {
		out, _, err = discover(args, opt, false)
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// discover is Discover; with speculate, the tracked files a git listing
// gives are classified while git still lists the untracked ones, and redo
// reports that the untracked files changed how to classify (a new nested
// configuration), so the discovery must be made again without.
func discover(args []string, opt DiscoverOptions, speculate bool) (out *Discovery, redo bool, err error) {
	d := &discoverer{opt: opt, files: map[string]*File{}, folders: map[string]*Folder{}, out: &Discovery{}, speculate: speculate,
		listing: NewListing()}
	named := len(args) > 0
	if !named {
		args = []string{"."}
	}
	for _, a := range args {
		if d.err != nil {
			return nil, false, d.err
		}
		osPath := Abs(opt.Cwd, a)
		hits := d.hits
		d.root = d.argRoot(osPath, a)
		fi, err := os.Stat(osPath)
		switch {
		case err == nil && fi.IsDir() && d.root != "" && !IsDirIn(d.root, osPath):
			// A folder that is a link leading out of the repository is
			// not walked: answered like a missing one, it tells nothing
			// of what lies outside.
			d.out.Missing = append(d.out.Missing, a)
		case err == nil && fi.IsDir():
			if opt.BeforeWalk != nil {
				opt.BeforeWalk()
			}
			d.dir(osPath, named)
			d.walked = append(d.walked, osPath)
			if d.hits == hits {
				d.out.Empty = append(d.out.Empty, a)
			}
		case err == nil || isSpecialLstat(osPath):
			d.add(osPath, true)
		case hasMeta(a):
			// Symlinks are not followed (a link to a parent folder would
			// loop) and unreadable folders are skipped. Skipped folder
			// names count only below the pattern's literal base, so a
			// checkout under .../vendor/... still matches.
			base, _ := doublestar.SplitPattern(filepath.ToSlash(osPath))
			var matches []string
			// The walk starts at the literal base, which it enters even
			// when it is a link: one leading out of the repository (to /,
			// say) is not walked, and the pattern matches nothing.
			if d.root == "" || IsDirIn(d.root, filepath.FromSlash(base)) {
				matches, _ = doublestar.FilepathGlob(osPath, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
			}
			if len(matches) == 0 {
				// A pattern that matches nothing is most often a typo: a CI
				// gate that silently checks nothing must not pass.
				d.out.Missing = append(d.out.Missing, a)
			}
			inside := map[string]bool{}
			for _, m := range matches {
				if d.root != "" {
					// A match reached through a folder link leading out
					// of the repository is not the repository's.
					dir := filepath.Dir(m)
					ok, seen := inside[dir]
					if !seen {
						ok = IsDirIn(d.root, dir)
						inside[dir] = ok
					}
					if !ok {
						continue
					}
				}
				if rel, err := filepath.Rel(filepath.FromSlash(base), m); err != nil || !d.skipped(rel) {
					d.add(m, false)
				}
			}
			if len(matches) > 0 && d.hits == hits {
				d.out.Empty = append(d.out.Empty, a)
			}
		default:
			d.out.Missing = append(d.out.Missing, a)
		}
	}
	d.completeRuns()
	if d.err != nil {
		return nil, false, d.err
	}
	for _, f := range d.files {
		d.out.Files = append(d.out.Files, f)
	}
	for _, f := range d.folders {
		sort.Slice(f.Files, func(i, j int) bool { return f.Files[i].Path < f.Files[j].Path })
		d.out.Folders = append(d.out.Folders, f)
	}
	// By path, without sort.Slice's reflection: thousands of files are
	// sorted after the walk, while no other core has work.
	slices.SortFunc(d.out.Files, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(d.out.Folders, func(a, b *Folder) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(d.out.Unknown, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
	if d.listing.n.Load() > 0 {
		d.listing.Freeze()
		d.out.Listing = d.listing
	}
	return d.out, d.redo, d.err
}

func isSpecialLstat(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[{") }

type discoverer struct {
	opt     DiscoverOptions
	files   map[string]*File
	folders map[string]*Folder
	out     *Discovery
	hits    int    // paths of a known kind seen (again or not), for Empty
	root    string // the confining folder of the current argument's files
	// speculate: classify tracked files before the untracked listing
	// ends; redo: that classification turned out wrong (see discover).
	speculate, redo bool
	// err stops the discovery: git could not be run safely, or timed out.
	err error
	// pending are listed paths of a kind waiting for settlePending.
	pending []pendingPath
	// listing is what the walks of work trees saw (Discovery.Listing).
	listing *Listing
	// slab holds the Files addListed expects to add, made at once.
	slab []File
	// walked are the folders walked whole, for completeRuns.
	walked []string
	// inFolder are the paths added to a bundle or run folder.
	inFolder map[string]bool
}

// walkedWhole reports whether a walked folder holds osDir (both clean).
func (d *discoverer) walkedWhole(osDir string) bool {
	for _, w := range d.walked {
		if osDir == w || strings.HasPrefix(osDir, w) && (strings.HasSuffix(w, string(filepath.Separator)) || osDir[len(w)] == filepath.Separator) {
			return true
		}
	}
	return false
}

// completeRuns walks every agent run of the discovery that no walked
// folder holds whole: a run is one unit, and a run made of the one events
// file a user or an editor named, or of the files under events/<actor>/
// a lint from there sees, would be judged on a part of its events (a
// finished run called incomplete, tasks worked on "before" dependencies
// whose events are in another file). A run folder outside the folder that
// confines the argument (a file named outside a repository) is not read.
func (d *discoverer) completeRuns() {
	var todo []*Folder
	for _, f := range d.folders {
		if f.Kind != KindAgentRun || f.Root == "" || d.walkedWhole(f.OSPath) {
			continue
		}
		if IsDirIn(f.Root, f.OSPath) {
			todo = append(todo, f)
		}
	}
	slices.SortFunc(todo, func(a, b *Folder) int { return strings.Compare(a.OSPath, b.OSPath) })
	for _, f := range todo {
		d.root = f.Root
		d.dir(f.OSPath, true)
		d.walked = append(d.walked, f.OSPath)
	}
}

type pendingPath struct {
	osPath string
	add    func()
}

// argRoot is the folder that confines what one command-line path yields:
// the repository root when the path lies inside it, else the folder it
// names (for a file or a glob, the folder holding it).
func (d *discoverer) argRoot(osPath, arg string) string {
	osPath = filepath.Clean(osPath)
	root := d.pathRoot(osPath, arg)
	// A path inside an agent run names its run, which is one unit: outside
	// a repository, or with the repository's root inside the run, the run
	// folder confines it (completeRuns reads the run whole).
	if run, ok := RunDir(filepath.ToSlash(osPath)); ok {
		if r := filepath.FromSlash(run); r != root && !strings.HasPrefix(r, root+string(filepath.Separator)) {
			return r
		}
	}
	return root
}

func (d *discoverer) pathRoot(osPath, arg string) string {
	if _, ok := Contained(d.opt.Root, osPath); ok {
		return filepath.Clean(d.opt.Root)
	}
	if hasMeta(arg) {
		base, _ := doublestar.SplitPattern(filepath.ToSlash(osPath))
		return filepath.Clean(filepath.FromSlash(base))
	}
	if fi, err := os.Lstat(osPath); err == nil && fi.IsDir() {
		return osPath
	}
	return filepath.Dir(osPath)
}

// Display turns an OS path into the '/'-separated path shown to users,
// relative to the working directory when possible.
func Display(cwd, osPath string) string {
	if rel, err := filepath.Rel(cwd, osPath); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(osPath)
}

func (d *discoverer) skipped(osPath string) bool {
	for _, part := range strings.Split(filepath.ToSlash(osPath), "/") {
		if skipDirs[part] {
			return true
		}
	}
	return false
}

// dir lists a folder's files: through git when it is in a work tree (so
// ignored files are skipped), by walking otherwise. A folder named on the
// command line in which git lists nothing, because git ignores it, is
// walked: the user asked for it (jerry ignores .jerry/, where its
// checkpoints live).
func (d *discoverer) dir(osDir string, named bool) {
	if !d.opt.NoGit {
		if listed, ok := d.gitDir(osDir); ok && (listed > 0 || !named) {
			return
		}
	}
	seen := 0
	_ = filepath.WalkDir(osDir, func(p string, e fs.DirEntry, err error) error {
		if seen++; d.opt.MaxWalk > 0 && seen > d.opt.MaxWalk {
			d.out.Truncated = append(d.out.Truncated, osDir)
			return fs.SkipAll
		}
		if err != nil {
			if e != nil && e.IsDir() && p != osDir {
				return fs.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			if p != osDir && skipDirs[e.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		d.add(p, false)
		return nil
	})
}

// gitDir lists tracked and untracked, not ignored files under osDir and
// counts them, or reports false outside a work tree. The untracked listing
// walks the folder in git's own process, on one core, and is the slow
// half: it starts only once the tree check's walk (which reads every
// folder, on every core) sees a file the tracked listing does not hold,
// so a clean checkout never runs it. Tracked files are classified while
// the walk goes on.
func (d *discoverer) gitDir(osDir string) (listed int, ok bool) {
	// The repository is the folder holding the .git marker: outside one,
	// or where git would be sent elsewhere (gitcmd.OpenRepo), the folder
	// is walked.
	top := gitcmd.FindTop(osDir)
	if top == "" {
		return 0, false
	}
	// git would wait forever on a FIFO it reads: refuse before it runs.
	if err := gitcmd.CheckRepo(top); err != nil {
		return 0, d.fail(err)
	}
	repo := &lazyRepo{top: top}
	others := &lazyCmd{make: func() (*gitcmd.Cmd, error) {
		g, err := repo.open()
		if err != nil {
			return nil, err
		}
		return gitLsFiles(g, osDir, "-o", "--exclude-standard"), nil
	}}
	// The .gitignore files the untracked listing reads are checked while
	// it runs (ls-files -c reads only the index): a FIFO stops it.
	tree := make(chan error, 1)
	tally := &treeTally{l: d.listing, root: filepath.Clean(osDir), top: top}
	go func() {
		tree <- gitcmd.CheckTreeSeen(top, osDir, func(dir string, ents []fs.DirEntry) {
			if filepath.IsAbs(dir) && filepath.Clean(dir) == dir {
				if tally.seenHashed(dir, ents, d.listing.Add(dir, ents)) {
					others.start()
				}
			}
		})
	}()
	tracked, cerr := trackedFiles(repo, osDir)
	if cerr == nil && tally.track(tracked) {
		others.start()
	}
	// The tracked files are classified while the tree is still checked:
	// a run that has to stop discards them. Whether each still exists is
	// settled once the walk is done, from what it saw.
	if cerr == nil && d.speculate {
		if d.opt.Listed != nil {
			d.opt.Listed(osDir, tracked)
		}
		listed += d.addListed(osDir, tracked, true)
	}
	err := <-tree
	d.settlePending()
	if err != nil {
		others.kill()
		return 0, d.fail(err)
	}
	if cerr == nil && tally.clean() {
		// The walk saw only tracked files: the untracked listing can
		// only be empty.
		others.kill()
		return listed + d.addUntracked(osDir, tracked, nil), true
	}
	if cerr != nil {
		// Not a work tree git can list, or git timed out.
		others.kill()
		if timedOut(cerr) {
			return 0, d.fail(cerr)
		}
		return 0, false
	}
	if !others.start() {
		if timedOut(others.err) {
			return 0, d.fail(others.err)
		}
		return 0, false
	}
	if err := others.cmd.Wait(); err != nil {
		if timedOut(err) {
			return 0, d.fail(err)
		}
		if d.speculate {
			d.redo = true // the tracked files are in: start again, without
			return listed, true
		}
		return 0, false
	}
	untracked := bytes.Split(others.cmd.Stdout.(*bytes.Buffer).Bytes(), []byte{0})
	return listed + d.addUntracked(osDir, tracked, untracked), true
}

// trackedFiles lists the files git tracks under osDir (git ls-files -c),
// read from the index itself where gitcmd.TrackedFiles can, else from git.
func trackedFiles(repo *lazyRepo, osDir string) ([][]byte, error) {
	if tracked, ok := gitcmd.TrackedFiles(repo.top, osDir); ok {
		return tracked, nil
	}
	g, err := repo.open()
	if err != nil {
		return nil, err
	}
	cached := gitLsFiles(g, osDir, "-c")
	if err := cached.Run(); err != nil {
		return nil, err
	}
	return bytes.Split(cached.Stdout.(*bytes.Buffer).Bytes(), []byte{0}), nil
}

// lazyRepo is the work tree at top, checked (gitcmd.OpenRepo) once, by
// whichever goroutine first runs git: a clean checkout whose index is read
// without git never runs it.
type lazyRepo struct {
	top  string
	once sync.Once
	repo *gitcmd.Repo
	err  error
}

func (r *lazyRepo) open() (*gitcmd.Repo, error) {
	r.once.Do(func() { r.repo, r.err = gitcmd.OpenRepo(r.top) })
	return r.repo, r.err
}

// lazyCmd is a command made and started at most once, by whichever
// goroutine first needs it: its time bound runs from then.
type lazyCmd struct {
	make    func() (*gitcmd.Cmd, error)
	cmd     *gitcmd.Cmd
	err     error // why it could not be made or started
	once    sync.Once
	ok      bool
	started atomic.Bool
}

// start starts the command unless it was; false when it could not be.
func (c *lazyCmd) start() bool {
	c.once.Do(func() {
		if c.cmd, c.err = c.make(); c.err != nil {
			return
		}
		c.err = c.cmd.Start()
		c.ok = c.err == nil
		c.started.Store(c.ok)
	})
	return c.ok
}

// kill stops the command if it was started.
func (c *lazyCmd) kill() {
	c.once.Do(func() {}) // and never starts it from now on
	if c.started.Load() {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
	}
}

// addUntracked ends gitDir once git listed the untracked files: the
// whole listing may change what governs classification (Listed), and
// what was not classified yet is.
func (d *discoverer) addUntracked(osDir string, tracked, untracked [][]byte) (listed int) {
	if d.opt.Listed != nil && d.opt.Listed(osDir, append(append([][]byte(nil), tracked...), untracked...)) && d.speculate {
		d.redo = true
	}
	if !d.speculate {
		listed += d.addListed(osDir, tracked, true)
		d.settlePending()
	}
	listed += d.addListed(osDir, untracked, false)
	d.settlePending()
	return listed
}

// fail records what stops the discovery; the folder counts as listed.
func (d *discoverer) fail(err error) bool {
	if d.err == nil {
		d.err = err
	}
	return true
}

func timedOut(err error) bool { return gitcmd.IsTimeout(err) }

func gitLsFiles(g *gitcmd.Repo, dir string, flags ...string) *gitcmd.Cmd {
	args := append([]string{"ls-files", "-z"}, flags...)
	cmd := g.Command(dir, append(args, "--", ".")...)
	cmd.Stdout = &bytes.Buffer{}
	return cmd
}

// addListed adds the NUL-separated paths git listed under osDir. Tracked
// files may be deleted in the work tree; only those of a kind are looked
// up, as most listed files are not, by settlePending.
func (d *discoverer) addListed(osDir string, list [][]byte, tracked bool) (listed int) {
	// Joining ten thousand paths one at a time was a serial part of a
	// run: each path is skipped, joined and classified on every core.
	classes := make([]pathClass, len(list))
	par.Each(len(list), 256, func(i int) {
		rel := string(list[i])
		if rel == "" || d.skippedRel(rel) {
			classes[i].skip = true
			return
		}
		classes[i] = d.classify(filepath.Join(osDir, filepath.FromSlash(rel)))
	})
	d.expect(classes)
	for i := range classes {
		if len(list[i]) > 0 {
			listed++
		}
		if !classes[i].skip {
			d.place(&classes[i], false, tracked)
		}
	}
	return listed
}

// expect makes room for the files of a kind among classes: thousands of
// them were added one map growth and one allocation at a time, after
// the walk, while no other core had work (P6).
func (d *discoverer) expect(classes []pathClass) {
	n := 0
	for i := range classes {
		if pc := &classes[i]; !pc.skip && !pc.excluded && !pc.isRun && pc.kind != KindUnknown {
			n++
		}
	}
	if n < 64 {
		return
	}
	if len(d.files) == 0 {
		d.files = make(map[string]*File, n)
	}
	d.slab = make([]File, n)
}

// newFile is a File from the slab while it lasts.
func (d *discoverer) newFile() *File {
	if len(d.slab) == 0 {
		return new(File)
	}
	f := &d.slab[0]
	d.slab = d.slab[1:]
	return f
}

// present runs add now, or, for a path that may be gone (a tracked file
// deleted in the work tree), once settlePending has found it exists.
func (d *discoverer) present(osPath string, mayBeGone bool, add func()) {
	if !mayBeGone {
		add()
		return
	}
	d.pending = append(d.pending, pendingPath{osPath, add})
}

// settlePending looks the pending paths up on every core and adds those
// that exist, in the order they were listed: one lstat per tracked file of
// a kind, made one at a time, was a serial part of a run (P6).
func (d *discoverer) settlePending() {
	ps := d.pending
	d.pending = nil
	found := make([]bool, len(ps))
	par.Each(len(ps), 64, func(i int) {
		ok, known := d.listing.Exists(ps[i].osPath)
		if !known {
			ok = exists(ps[i].osPath)
		}
		found[i] = ok
	})
	for i, p := range ps {
		if found[i] {
			p.add()
		}
	}
}

func (d *discoverer) skippedRel(rel string) bool {
	for part := range strings.SplitSeq(rel, "/") {
		if skipDirs[part] {
			return true
		}
	}
	return false
}

// add classifies one path. Explicit files of no kind are kept for RL009;
// others of no kind are ignored.
func (d *discoverer) add(osPath string, explicit bool) { d.addPath(osPath, explicit, false) }

// addPath is add for a path that, when mayBeGone, is kept only if it
// exists.
func (d *discoverer) addPath(osPath string, explicit, mayBeGone bool) {
	pc := d.classify(osPath)
	d.place(&pc, explicit, mayBeGone)
}

// pathClass is what the discovery makes of one path before it changes
// anything: classify depends only on the options, so a listing's paths
// are classified on every core (classifying ten thousand paths one at a
// time was the serial part of discovery on many cores), and place adds
// them in order.
type pathClass struct {
	osPath, disp, slash string
	c                   *Classifier
	excluded            bool
	runDir              string // the agent run folder holding the path (isRun)
	isRun               bool
	kind                Kind // its single-file kind, if any
	bundle              bool // a bundle marker
	skip                bool // a listed path the discovery does not take (addListed)
}

func (d *discoverer) classify(osPath string) pathClass {
	osPath = filepath.Clean(osPath)
	pc := pathClass{osPath: osPath, disp: Display(d.opt.Cwd, osPath), slash: filepath.ToSlash(osPath), c: d.opt.Classifier}
	if d.opt.ClassifierFor != nil {
		pc.c = d.opt.ClassifierFor(filepath.Dir(osPath))
	}
	pc.excluded = pc.c.Excluded(pc.disp)
	if pc.runDir, pc.isRun = RunDir(pc.slash); pc.isRun {
		return pc
	}
	if pc.kind = pc.c.FileKind(pc.disp); pc.kind == KindUnknown {
		pc.kind = pc.c.FileKind(pc.slash)
	}
	if pc.kind == KindUnknown {
		_, pc.bundle = pc.c.BundleDir(pc.slash)
	}
	return pc
}

// place adds a classified path to the discovery. Explicit files of no
// kind are kept for RL009; others of no kind are ignored.
func (d *discoverer) place(pc *pathClass, explicit, mayBeGone bool) {
	osPath, disp := pc.osPath, pc.disp
	if !explicit && pc.excluded {
		return
	}
	if f, ok := d.files[osPath]; ok {
		f.Explicit = f.Explicit || explicit
		d.hits++
		return
	}
	switch {
	case pc.isRun:
		runDir := pc.runDir
		d.present(osPath, mayBeGone, func() {
			d.hits++
			d.addFile(d.folder(KindAgentRun, filepath.FromSlash(runDir), explicit), osPath, disp)
		})
		return
	case pc.kind != KindUnknown:
		k, root := pc.kind, d.root
		d.present(osPath, mayBeGone, func() {
			d.hits++
			f := d.newFile()
			*f = File{Path: disp, OSPath: osPath, Kind: k, Template: IsTemplate(disp), Explicit: explicit, Root: root}
			d.files[osPath] = f
		})
		return
	case pc.bundle:
		d.present(osPath, mayBeGone, func() {
			d.hits++
			d.addFile(d.folder(KindBundle, filepath.Dir(osPath), explicit), osPath, disp)
		})
		return
	case path.Base(pc.slash) == "VALIDATOR_VERSION":
		// A bundle artifact that is not itself a marker: the folder is a
		// bundle candidate when a marker sits next to it.
		dir := filepath.Dir(osPath)
		for _, name := range BundleArtifacts {
			if _, ok := pc.c.BundleDir(filepath.ToSlash(filepath.Join(dir, name))); ok && exists(filepath.Join(dir, name)) {
				d.present(osPath, mayBeGone, func() {
					d.hits++
					d.addFile(d.folder(KindBundle, dir, explicit), osPath, disp)
				})
				return
			}
		}
	}
	if explicit {
		d.hits++
		d.out.Unknown = append(d.out.Unknown, &File{Path: disp, OSPath: osPath, Kind: KindUnknown, Explicit: true, Root: d.root})
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

func (d *discoverer) folder(k Kind, osDir string, explicit bool) *Folder {
	osDir = filepath.Clean(osDir)
	f, ok := d.folders[osDir]
	if !ok {
		f = &Folder{Kind: k, Path: Display(d.opt.Cwd, osDir), OSPath: osDir, Root: d.root}
		d.folders[osDir] = f
	}
	f.Explicit = f.Explicit || explicit
	return f
}

// addFile adds a file to a folder once: a path named and then walked
// (completeRuns) is seen twice, and a set keeps that linear.
func (d *discoverer) addFile(f *Folder, osPath, disp string) {
	if d.inFolder == nil {
		d.inFolder = map[string]bool{}
	}
	if d.inFolder[osPath] {
		return
	}
	d.inFolder[osPath] = true
	f.Files = append(f.Files, &File{Path: disp, OSPath: osPath, Kind: f.Kind, Root: f.Root})
}
