package load

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// tree writes files (slash-separated paths relative to dir) with small
// contents and returns dir.
func tree(t *testing.T, dir string, paths ...string) string {
	t.Helper()
	for _, p := range paths {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), "{}\n")
	}
	return dir
}

// discovered summarises a discovery as sorted "kind path" lines.
func discovered(d *Discovery) []string {
	var out []string
	for _, f := range d.Files {
		out = append(out, string(f.Kind)+" "+f.Path)
	}
	for _, f := range d.Folders {
		out = append(out, string(f.Kind)+" "+f.Path+"/")
	}
	for _, f := range d.Unknown {
		out = append(out, "unknown "+f.Path)
	}
	for _, m := range d.Missing {
		out = append(out, "missing "+m)
	}
	sort.Strings(out)
	return out
}

// discoverQuick runs Discover and fails the test if it does not return
// in time (a symlink loop must not hang discovery).
func discoverQuick(t *testing.T, args []string, opt DiscoverOptions) *Discovery {
	t.Helper()
	type result struct {
		d   *Discovery
		err error
	}
	done := make(chan result, 1)
	go func() {
		d, err := Discover(args, opt)
		done <- result{d, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("Discover(%v): %v", args, r.err)
		}
		return r.d
	case <-time.After(30 * time.Second):
		t.Fatalf("Discover(%v) did not return", args)
	}
	return nil
}

var sampleTree = []string{
	"ORCHESTRATION.yaml",
	"proj/ORCHESTRATION_v2.yaml",
	"proj/ORCHESTRATION.template.yaml",
	"proj/notes.md",
	".jerry/checkpoints/cx-001-checkpoint.json",
	".jerry/state.json",
	"00-system/.cache/precompact_state.json",
	"02-projects/07-x/01-planning/resume-context.md",
	"02-projects/07-x/01-planning/steps.md",
	"02-projects/02-old/_resume.md",
	"bundles/b1/TASK_SPEC.json",
	"bundles/b1/STATUS.json",
	"bundles/b1/OUTPUT_HASHES.json",
	"bundles/b1/out/result.txt",
	"bundles/only-spec/TASK_SPEC.json",
	".agent-memory/runs/2026-02-20-001/plan.md",
	".agent-memory/runs/2026-02-20-001/task-graph.json",
	".agent-memory/runs/2026-02-20-001/events/planner/0001.jsonl",
	"node_modules/pkg/ORCHESTRATION.yaml",
	"vendor/x/STATUS.json",
	"sub/node_modules/ORCHESTRATION.yaml",
}

var sampleWant = []string{
	"agent-run .agent-memory/runs/2026-02-20-001/",
	"bundle bundles/b1/",
	"bundle bundles/only-spec/", // a candidate: its format decides (Bundle.OtherFormat)
	"checkpoint .jerry/checkpoints/cx-001-checkpoint.json",
	"orchestration ORCHESTRATION.yaml",
	"orchestration proj/ORCHESTRATION.template.yaml",
	"orchestration proj/ORCHESTRATION_v2.yaml",
	"precompact-state 00-system/.cache/precompact_state.json",
	"resume-context 02-projects/02-old/_resume.md",
	"resume-context 02-projects/07-x/01-planning/resume-context.md",
}

func TestDiscoverWalk(t *testing.T) {
	dir := tree(t, t.TempDir(), sampleTree...)
	writeFile(t, filepath.Join(dir, ".git", "ORCHESTRATION.yaml"), "a: 1\n")
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if got := discovered(d); !reflect.DeepEqual(got, sampleWant) {
		t.Errorf("got\n%q\nwant\n%q", got, sampleWant)
	}
	// Kinds, template mode and folder contents.
	for _, f := range d.Files {
		if f.Template != (f.Path == "proj/ORCHESTRATION.template.yaml") {
			t.Errorf("%s: template = %v", f.Path, f.Template)
		}
		if f.Explicit {
			t.Errorf("%s: explicit", f.Path)
		}
	}
	for _, f := range d.Folders {
		var names []string
		for _, x := range f.Files {
			names = append(names, x.Path)
		}
		var want []string
		switch {
		case f.Path == "bundles/only-spec":
			want = []string{"bundles/only-spec/TASK_SPEC.json"}
		case f.Kind == KindBundle:
			want = []string{"bundles/b1/OUTPUT_HASHES.json", "bundles/b1/STATUS.json", "bundles/b1/TASK_SPEC.json"}
		case f.Kind == KindAgentRun:
			want = []string{".agent-memory/runs/2026-02-20-001/events/planner/0001.jsonl", ".agent-memory/runs/2026-02-20-001/plan.md", ".agent-memory/runs/2026-02-20-001/task-graph.json"}
		}
		if !reflect.DeepEqual(names, want) {
			t.Errorf("%s files = %q, want %q", f.Path, names, want)
		}
	}
}

// TestDiscoverMaxWalk: a walk outside a work tree stops after MaxWalk
// entries and names the folder it cut short; within the bound, or
// without one, it sees everything.
func TestDiscoverMaxWalk(t *testing.T) {
	dir := tree(t, t.TempDir(), sampleTree...)
	whole := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if len(whole.Truncated) != 0 {
		t.Fatalf("unbounded walk truncated: %q", whole.Truncated)
	}
	wide := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true, MaxWalk: 1000})
	if len(wide.Truncated) != 0 || !reflect.DeepEqual(discovered(wide), discovered(whole)) {
		t.Errorf("a bound above the tree's size changed the walk: %q, %q", wide.Truncated, discovered(wide))
	}
	cut := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true, MaxWalk: 3})
	if !reflect.DeepEqual(cut.Truncated, []string{dir}) {
		t.Errorf("Truncated = %q, want the folder walked", cut.Truncated)
	}
	if len(discovered(cut)) >= len(discovered(whole)) {
		t.Errorf("a walk of 3 entries found %d units, the whole walk %d", len(discovered(cut)), len(discovered(whole)))
	}
}

func TestDiscoverGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := tree(t, t.TempDir(), sampleTree...)
	tree(t, dir, "build/ORCHESTRATION.yaml", "proj/scratch/ORCHESTRATION.yaml")
	writeFile(t, filepath.Join(dir, ".gitignore"), "build/\nscratch/\n")
	cmd := exec.Command("git", "init", "-q", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("git init: %v %s", err, out)
	}
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})
	if got := discovered(d); !reflect.DeepEqual(got, sampleWant) {
		t.Errorf("ignored files must be skipped: got\n%q\nwant\n%q", got, sampleWant)
	}
	// Without git the ignored files are found.
	d = discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	got := discovered(d)
	if !contains(got, "orchestration build/ORCHESTRATION.yaml") || !contains(got, "orchestration proj/scratch/ORCHESTRATION.yaml") {
		t.Errorf("NoGit walk: %q", got)
	}
	// A file named explicitly is checked even when git ignores it.
	d = discoverQuick(t, []string{"build/ORCHESTRATION.yaml"}, DiscoverOptions{Cwd: dir, Root: dir})
	if got := discovered(d); !reflect.DeepEqual(got, []string{"orchestration build/ORCHESTRATION.yaml"}) || !d.Files[0].Explicit {
		t.Errorf("explicit ignored file: %q", got)
	}
	// A subfolder of the work tree is listed through git, paths stay
	// relative to the working directory.
	d = discoverQuick(t, []string{"proj"}, DiscoverOptions{Cwd: dir, Root: dir})
	if got := discovered(d); !reflect.DeepEqual(got, []string{"orchestration proj/ORCHESTRATION.template.yaml", "orchestration proj/ORCHESTRATION_v2.yaml"}) {
		t.Errorf("subfolder: %q", got)
	}
	// A folder named explicitly is walked when git ignores it, itself or
	// through an ancestor.
	for _, arg := range []string{"build", "build/", "proj/scratch"} {
		d = discoverQuick(t, []string{arg}, DiscoverOptions{Cwd: dir, Root: dir})
		if got := discovered(d); len(got) != 1 || len(d.Empty) != 0 {
			t.Errorf("explicit ignored folder %s: %q, empty %q", arg, got, d.Empty)
		}
	}
}

// A folder or glob named that holds no file of a known kind is Empty, and
// so is the working directory when no path is named.
func TestDiscoverEmpty(t *testing.T) {
	dir := tree(t, t.TempDir(), "ORCHESTRATION.yaml", "docs/notes.yaml", "docs/readme.md")
	if err := os.Mkdir(filepath.Join(dir, "none"), 0o755); err != nil {
		t.Fatal(err)
	}
	d := discoverQuick(t, []string{".", "docs", "none", "docs/*.yaml", "*.yaml", "docs/notes.yaml"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if want := []string{"docs", "none", "docs/*.yaml"}; !reflect.DeepEqual(d.Empty, want) {
		t.Errorf("Empty = %q, want %q", d.Empty, want)
	}
	d = discoverQuick(t, nil, DiscoverOptions{Cwd: filepath.Join(dir, "docs"), Root: filepath.Join(dir, "docs"), NoGit: true})
	if want := []string{"."}; !reflect.DeepEqual(d.Empty, want) {
		t.Errorf("no path: Empty = %q, want %q", d.Empty, want)
	}
}

// Tracked and untracked files are both found (git lists them in two
// processes); a tracked file deleted in the work tree is not.
func TestDiscoverGitTrackedUntrackedDeleted(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := tree(t, t.TempDir(), "ORCHESTRATION.yaml", "gone/ORCHESTRATION.yaml", ".jerry/checkpoints/cx-001-checkpoint.json", "notes.md")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	tree(t, dir, "new/ORCHESTRATION.yaml", "02-projects/01-x/01-planning/resume-context.md")
	if err := os.Remove(filepath.Join(dir, "gone", "ORCHESTRATION.yaml")); err != nil {
		t.Fatal(err)
	}
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})
	want := []string{
		"checkpoint .jerry/checkpoints/cx-001-checkpoint.json",
		"orchestration ORCHESTRATION.yaml",
		"orchestration new/ORCHESTRATION.yaml",
		"resume-context 02-projects/01-x/01-planning/resume-context.md",
	}
	if got := discovered(d); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestDiscoverSymlinkLoop(t *testing.T) {
	dir := tree(t, t.TempDir(), "a/ORCHESTRATION.yaml")
	for _, l := range []struct{ target, link string }{{".", "loop"}, {"..", "a/up"}, {"a", "a/self"}} {
		if err := os.Symlink(l.target, filepath.Join(dir, filepath.FromSlash(l.link))); err != nil {
			t.Skipf("symlink: %v", err)
		}
	}
	want := []string{"orchestration a/ORCHESTRATION.yaml"}
	if got := discovered(discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})); !reflect.DeepEqual(got, want) {
		t.Errorf("walk: %q", got)
	}
	if got := discovered(discoverQuick(t, []string{"**/ORCHESTRATION.yaml"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})); len(got) == 0 || got[0] != want[0] {
		t.Errorf("glob: %q", got)
	}
	if _, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err == nil {
			if got := discovered(discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})); !reflect.DeepEqual(got, want) {
				t.Errorf("git: %q", got)
			}
		} else {
			t.Logf("git init: %v %s", err, out)
		}
	}
}

func TestDiscoverExplicit(t *testing.T) {
	dir := tree(t, t.TempDir(), "README.md", "notes/STATE.json", "node_modules/x/ORCHESTRATION.yaml", "ORCHESTRATION.yaml")
	d := discoverQuick(t, []string{"README.md", "notes/STATE.json", "node_modules/x/ORCHESTRATION.yaml", "ORCHESTRATION.yaml", "./ORCHESTRATION.yaml", "nothing-here.yaml"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	want := []string{
		"missing nothing-here.yaml",
		"orchestration ORCHESTRATION.yaml",
		"orchestration node_modules/x/ORCHESTRATION.yaml", // named: checked even in a skipped folder
		"unknown README.md",
		"unknown notes/STATE.json",
	}
	if got := discovered(d); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	for _, f := range append(d.Files, d.Unknown...) {
		if !f.Explicit {
			t.Errorf("%s not explicit", f.Path)
		}
	}
	// Absolute paths outside the working directory keep a usable display path.
	other := tree(t, t.TempDir(), "ORCHESTRATION.yaml")
	d = discoverQuick(t, []string{filepath.Join(other, "ORCHESTRATION.yaml")}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if len(d.Files) != 1 || d.Files[0].OSPath != filepath.Join(other, "ORCHESTRATION.yaml") || filepath.Base(d.Files[0].Path) != "ORCHESTRATION.yaml" {
		t.Errorf("outside cwd: %+v", d.Files)
	}
}

func TestDiscoverFolders(t *testing.T) {
	dir := tree(t, t.TempDir(),
		"b/STATUS.json",                  // a marker alone makes a bundle
		"c/OUTPUT_HASHES.json",           // so does the other one
		"c/TASK_SPEC.json",               // and a spec next to a marker joins it
		"d/TASK_SPEC.json",               // a spec alone is a candidate: its format decides
		"e/.agent-memory/runs/r1/prd.md", // any file makes a run folder
		"e/.agent-memory/runs/notes.md",  // not inside a run
		"f/my.agent-memory/runs/r2/plan.md",
	)
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	want := []string{"agent-run e/.agent-memory/runs/r1/", "bundle b/", "bundle c/", "bundle d/"}
	if got := discovered(d); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// Naming one artifact of a bundle or run checks that folder.
	d = discoverQuick(t, []string{"c/TASK_SPEC.json", "e/.agent-memory/runs/r1/prd.md"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if got := discovered(d); !reflect.DeepEqual(got, []string{"agent-run e/.agent-memory/runs/r1/", "bundle c/"}) {
		t.Errorf("explicit artifacts: %q", got)
	}
	for _, f := range d.Folders {
		if !f.Explicit {
			t.Errorf("%s not explicit", f.Path)
		}
	}
	// A folder named on the command line is walked.
	d = discoverQuick(t, []string{"c"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if got := discovered(d); !reflect.DeepEqual(got, []string{"bundle c/"}) {
		t.Errorf("folder argument: %q", got)
	}
}

func TestDiscoverGlobs(t *testing.T) {
	dir := tree(t, t.TempDir(), sampleTree...)
	cases := []struct {
		glob string
		want []string
	}{
		{"**/ORCHESTRATION*.yaml", []string{"orchestration ORCHESTRATION.yaml", "orchestration proj/ORCHESTRATION.template.yaml", "orchestration proj/ORCHESTRATION_v2.yaml"}},
		{"proj/*.yaml", []string{"orchestration proj/ORCHESTRATION.template.yaml", "orchestration proj/ORCHESTRATION_v2.yaml"}},
		{"**/*.json", []string{
			"agent-run .agent-memory/runs/2026-02-20-001/",
			"bundle bundles/b1/",
			"bundle bundles/only-spec/",
			"checkpoint .jerry/checkpoints/cx-001-checkpoint.json",
			"precompact-state 00-system/.cache/precompact_state.json",
		}},
		{"02-projects/{07-x/01-planning/resume-context,02-old/_resume}.md", []string{"resume-context 02-projects/02-old/_resume.md", "resume-context 02-projects/07-x/01-planning/resume-context.md"}},
		{"nomatch/**/*.yaml", []string{"missing nomatch/**/*.yaml"}}, // a glob matching nothing is a usage error
	}
	for _, c := range cases {
		d := discoverQuick(t, []string{c.glob}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
		if got := discovered(d); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", c.glob, got, c.want)
		}
	}
}

// Skipped folder names count below the pattern's base only: a checkout
// that itself lives under a vendor/ folder is linted, and a pattern that
// names node_modules explicitly looks there.
func TestDiscoverGlobSkippedBase(t *testing.T) {
	root := t.TempDir()
	dir := tree(t, filepath.Join(root, "vendor", "repo"), "ORCHESTRATION.yaml", "node_modules/m/ORCHESTRATION.yaml")
	d := discoverQuick(t, []string{"**/ORCHESTRATION.yaml"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if got := discovered(d); !reflect.DeepEqual(got, []string{"orchestration ORCHESTRATION.yaml"}) {
		t.Errorf("under vendor/: %q", got)
	}
	d = discoverQuick(t, []string{"node_modules/**/ORCHESTRATION.yaml"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if got := discovered(d); !reflect.DeepEqual(got, []string{"orchestration node_modules/m/ORCHESTRATION.yaml"}) {
		t.Errorf("explicit node_modules pattern: %q", got)
	}
	d = discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if got := discovered(d); !reflect.DeepEqual(got, []string{"orchestration ORCHESTRATION.yaml"}) {
		t.Errorf("walk under vendor/: %q", got)
	}
}

func TestDiscoverExclude(t *testing.T) {
	dir := tree(t, t.TempDir(), sampleTree...)
	c := NewClassifier()
	c.Exclude = []string{"proj/**", "**/_resume.md"}
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true, Classifier: c})
	got := discovered(d)
	if contains(got, "orchestration proj/ORCHESTRATION_v2.yaml") || contains(got, "resume-context 02-projects/02-old/_resume.md") || !contains(got, "orchestration ORCHESTRATION.yaml") {
		t.Errorf("exclude: %q", got)
	}
	// Excludes do not apply to files named explicitly.
	d = discoverQuick(t, []string{"proj/ORCHESTRATION_v2.yaml"}, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true, Classifier: c})
	if len(d.Files) != 1 {
		t.Errorf("explicit excluded file: %q", discovered(d))
	}
}

func TestClassifier(t *testing.T) {
	c := NewClassifier()
	for p, want := range map[string]Kind{
		"ORCHESTRATION.yaml":                             KindOrchestration,
		"a/b/ORCHESTRATION_feat.yaml":                    KindOrchestration,
		"ORCHESTRATION.template.yaml":                    KindOrchestration,
		"ORCHESTRATION.yml":                              KindUnknown,
		".jerry/checkpoints/cx-036.json":                 KindCheckpoint,
		".jerry/checkpoints/old/cx-036.json":             KindUnknown,
		"x/precompact_state.json":                        KindPrecompact,
		"02-projects/07-x/01-planning/resume-context.md": KindResumeContext,
		"_resume.md":                                     KindResumeContext,
		"resume.md":                                      KindUnknown,
	} {
		if got := c.FileKind(p); got != want {
			t.Errorf("FileKind(%s) = %q, want %q", p, got, want)
		}
	}
	for p, want := range map[string]string{
		".agent-memory/runs/r1/plan.md":            ".agent-memory/runs/r1",
		"x/.agent-memory/runs/r1/events/a/1.jsonl": "x/.agent-memory/runs/r1",
		".agent-memory/runs/plan.md":               "",
		"x.agent-memory/runs/r1/plan.md":           "",
	} {
		got, ok := RunDir(p)
		if got != want || ok != (want != "") {
			t.Errorf("RunDir(%s) = %q %v, want %q", p, got, ok, want)
		}
	}
	if !IsTemplate("a/ORCHESTRATION.template.yaml") || IsTemplate("template/ORCHESTRATION.yaml") {
		t.Error("IsTemplate")
	}
}

// Many tracked files of every kind, some deleted in the work tree: the
// lookups made on every core keep exactly the files, folders and folder
// members that exist, as one at a time did.
func TestDiscoverGitDeletedMany(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var paths, gone []string
	var want []string
	for i := range 120 {
		p := fmt.Sprintf("projects/P%03d", i)
		paths = append(paths, p+"/ORCHESTRATION.yaml", p+"/.jerry/checkpoints/cx-001-checkpoint.json",
			p+"/out/STATUS.json", p+"/out/TASK_SPEC.json", p+"/.agent-memory/runs/r1/prd.md", p+"/notes.md")
		switch i % 3 {
		case 0: // the orchestration file and the bundle's marker are deleted
			gone = append(gone, p+"/ORCHESTRATION.yaml", p+"/out/STATUS.json")
			want = append(want, "agent-run "+p+"/.agent-memory/runs/r1/", "bundle "+p+"/out/",
				"checkpoint "+p+"/.jerry/checkpoints/cx-001-checkpoint.json")
		case 1: // the checkpoint and the run folder's one file are deleted
			gone = append(gone, p+"/.jerry/checkpoints/cx-001-checkpoint.json", p+"/.agent-memory/runs/r1/prd.md")
			want = append(want, "bundle "+p+"/out/", "orchestration "+p+"/ORCHESTRATION.yaml")
		default:
			want = append(want, "agent-run "+p+"/.agent-memory/runs/r1/", "bundle "+p+"/out/",
				"checkpoint "+p+"/.jerry/checkpoints/cx-001-checkpoint.json", "orchestration "+p+"/ORCHESTRATION.yaml")
		}
	}
	dir := tree(t, t.TempDir(), paths...)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	for _, p := range gone {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})
	slices.Sort(want)
	got := discovered(d)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("got %d units, want %d:\n%q\nwant\n%q", len(got), len(want), got, want)
	}
	for _, f := range d.Folders {
		if f.Kind == KindBundle && len(f.Files) != 1+boolInt(!strings.Contains(strings.Join(gone, " "), f.Path+"/STATUS.json")) {
			t.Errorf("bundle %s: %d files", f.Path, len(f.Files))
		}
	}
}

// A listing's paths are classified on every core when they are many; the
// discovery is the same as when they are classified one at a time.
func TestDiscoverClassifiesOnEveryCore(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	var paths []string
	for i := range 150 {
		p := fmt.Sprintf("projects/PROJ-%03d", i)
		paths = append(paths, p+"/ORCHESTRATION.yaml", p+"/.jerry/checkpoints/cx-001-checkpoint.json", p+"/notes.md",
			fmt.Sprintf("nexus/%02d-projects/%03d-x/01-planning/resume-context.md", i%7, i))
	}
	tree(t, dir, paths...)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one := discovered(discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir}))
	runtime.GOMAXPROCS(4)
	many := discovered(discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir}))
	if len(one) != 450 || !reflect.DeepEqual(one, many) {
		t.Errorf("one core: %d units, every core: %d units (first %q)", len(one), len(many), many[:min(3, len(many))])
	}
}

// In a work tree whose files are all tracked, discovery finds the same
// units without waiting for git's untracked listing, and a file added
// afterwards, untracked, is found.
func TestDiscoverGitOnlyTracked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := tree(t, t.TempDir(), "ORCHESTRATION.yaml", ".jerry/checkpoints/cx-001-checkpoint.json", "docs/notes.md")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Skipf("git %v: %v %s", args, err, out)
		}
	}
	log := logGit(t)
	d := discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})
	want := []string{"checkpoint .jerry/checkpoints/cx-001-checkpoint.json", "orchestration ORCHESTRATION.yaml"}
	if got := discovered(d); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if ex, known := d.Listing.Exists(filepath.Join(dir, "docs", "notes.md")); !ex || !known {
		t.Error("the walk's listing is handed on")
	}
	data, _ := os.ReadFile(log)
	if n := gitRuns(t, log, "-o"); n != 0 || len(data) > 0 {
		t.Errorf("a clean checkout ran the untracked listing %d times, and git: %q (the index is read, not listed)", n, data)
	}
	// An index git is told to read elsewhere is git's to list.
	t.Setenv("GIT_INDEX_FILE", filepath.Join(dir, ".git", "index"))
	if got := discovered(discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})); !slices.Equal(got, want) {
		t.Errorf("GIT_INDEX_FILE set: got %q, want %q", got, want)
	}
	if n := gitRuns(t, log, "-c"); n != 1 {
		t.Errorf("GIT_INDEX_FILE set: the tracked listing ran %d times, want 1", n)
	}
	tree(t, dir, "docs/ORCHESTRATION.yaml")
	d = discoverQuick(t, nil, DiscoverOptions{Cwd: dir, Root: dir})
	if got := discovered(d); !slices.Equal(got, append(want, "orchestration docs/ORCHESTRATION.yaml")) {
		t.Errorf("an untracked file: got %q", got)
	}
	if n := gitRuns(t, log, "-o"); n != 1 {
		t.Errorf("an untracked file: the untracked listing ran %d times, want 1", n)
	}
}

// logGit puts a git first on PATH that logs its arguments to the file it
// returns, then runs the real one.
func logGit(t *testing.T) string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil || runtime.GOOS == "windows" {
		t.Skip("git not installed, or no shell scripts")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "git.log")
	script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

// gitRuns counts the ls-files runs with flag logged since the last call.
func gitRuns(t *testing.T, log, flag string) int {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	_ = os.Remove(log)
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, " ls-files -z "+flag+" ") {
			n++
		}
	}
	return n
}

// TestBeforeWalkOnlyForFolders: a run that names files (a hook's) never
// readies a heap for a walk; one that walks folders does, before walking.
func TestBeforeWalkOnlyForFolders(t *testing.T) {
	dir := tree(t, t.TempDir(), "ORCHESTRATION.yaml", "proj/ORCHESTRATION.yaml")
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"ORCHESTRATION.yaml", "proj/ORCHESTRATION.yaml"}, 0},
		{[]string{"proj/*.yaml"}, 0},
		{nil, 1},
		{[]string{"proj", "ORCHESTRATION.yaml", "."}, 2},
	} {
		walks := 0
		d := discoverQuick(t, tc.args, DiscoverOptions{Cwd: dir, Root: dir, NoGit: true, BeforeWalk: func() { walks++ }})
		if walks != tc.want || len(d.Files) == 0 {
			t.Errorf("%q: BeforeWalk called %d times, want %d (%d files)", tc.args, walks, tc.want, len(d.Files))
		}
	}
}
