package gitbase

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/load"
)

// repo builds a work tree with one commit of files, then applies edits
// (path → content; empty content deletes).
func repo(t testing.TB, committed, edits map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		gitIn(t, dir, args...)
	}
	write := func(rel, content string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q")
	for p, c := range committed {
		write(p, c)
	}
	run("add", "-A")
	run("commit", "-q", "-m", "base")
	for p, c := range edits {
		if c == "" {
			run("rm", "-q", p)
			continue
		}
		write(p, c)
	}
	return dir
}

// gitIn runs git in dir with a fixed identity and no user or system
// configuration, failing the test on an error.
func gitIn(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestLookup(t *testing.T) {
	old := strings.Repeat("a line of the log\n", 40)
	dir := repo(t, map[string]string{
		"same.yaml":        "same\n",
		"edit.yaml":        "before\n",
		"gone.jsonl":       "{}\n",
		"old/name.jsonl":   old,
		".gitignore":       "build/\n*.tmp\n",
		"a b/spaced.yaml":  "x\n",
		"keep/staged.yaml": "s\n",
	}, map[string]string{
		"edit.yaml":      "after\n",
		"gone.jsonl":     "",
		"new.yaml":       "new\n",
		"build/out.yaml": "ignored\n",
		"x.tmp":          "ignored\n",
	})
	// A rename the diff can follow.
	if err := os.MkdirAll(filepath.Join(dir, "new"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "-C", dir, "mv", "old/name.jsonl", "new/name.jsonl").CombinedOutput(); err != nil {
		t.Fatalf("git mv: %v %s", err, out)
	}
	r, err := Open(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	cases := []struct {
		path              string
		exists, unchanged bool
		basePath, data    string
	}{
		{"same.yaml", true, true, "same.yaml", ""},
		{"a b/spaced.yaml", true, true, "a b/spaced.yaml", ""},
		{"edit.yaml", true, false, "edit.yaml", "before\n"},
		{"new/name.jsonl", true, false, "old/name.jsonl", old},
		{"new.yaml", false, false, "", ""},
		{"build/out.yaml", false, false, "", ""},
		{"x.tmp", false, false, "", ""},
		{"gone.jsonl", true, false, "gone.jsonl", "{}\n"},
	}
	for _, c := range cases {
		f, err := r.Lookup(filepath.Join(dir, filepath.FromSlash(c.path)))
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if f.Exists != c.exists || f.Unchanged != c.unchanged || (c.exists && f.Path != c.basePath) || string(f.Data) != c.data {
			t.Errorf("%s: got exists=%v unchanged=%v path=%q data=%q; want %v %v %q %q", c.path, f.Exists, f.Unchanged, f.Path, f.Data, c.exists, c.unchanged, c.basePath, c.data)
		}
	}

	var got []string
	for _, c := range r.Changes() {
		s := string(c.Status) + " " + c.Path
		if c.OldPath != "" {
			s += " <- " + c.OldPath
		}
		got = append(got, s)
	}
	want := "M edit.yaml|D gone.jsonl|? new.yaml|R new/name.jsonl <- old/name.jsonl"
	if strings.Join(got, "|") != want {
		t.Errorf("changes:\n got %s\nwant %s", strings.Join(got, "|"), want)
	}

	// Content read from stdin for an unchanged file is compared with base.
	r.MarkUnsaved(filepath.Join(dir, "same.yaml"))
	if f, _ := r.Lookup(filepath.Join(dir, "same.yaml")); f.Unchanged || string(f.Data) != "same\n" {
		t.Errorf("unsaved same.yaml: got %+v", f)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := repo(t, map[string]string{"a": "a\n"}, nil)
	for _, ref := range []string{"no-such-branch", "-p", "HEAD~5", ""} {
		_, err := Open(dir, ref)
		if err == nil {
			t.Errorf("Open(%q): no error", ref)
			continue
		}
		if !strings.Contains(err.Error(), "--base") {
			t.Errorf("Open(%q): message %q does not name the flag", ref, err)
		}
	}
	outside := t.TempDir()
	if _, err := Open(outside, "HEAD"); err == nil || !strings.Contains(err.Error(), "work tree") {
		t.Errorf("outside a work tree: %v", err)
	}
}

func TestFilterChanged(t *testing.T) {
	dir := repo(t, map[string]string{
		"p/ORCHESTRATION.yaml":                   "a: 1\n",
		"q/ORCHESTRATION.yaml":                   "a: 1\n",
		".agent-memory/runs/r1/events/a/1.jsonl": "{}\n",
		".agent-memory/runs/r2/events/a/1.jsonl": "{}\n",
		".agent-memory/runs/r2/events/b/1.jsonl": "{}\n",
		".agent-memory/runs/r3/task-graph.json":  "{}\n",
		"bundles/b1/STATUS.json":                 "{}\n",
	}, map[string]string{
		"q/ORCHESTRATION.yaml":                   "a: 2\n",
		".agent-memory/runs/r2/events/b/1.jsonl": "",
	})
	r, err := Open(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	r.FilterChanged(d, nil)
	var got []string
	for _, f := range d.Files {
		got = append(got, f.Path)
	}
	for _, f := range d.Folders {
		got = append(got, f.Path+"/")
	}
	if want := "q/ORCHESTRATION.yaml|.agent-memory/runs/r2/"; strings.Join(got, "|") != want {
		t.Errorf("kept %s, want %s", strings.Join(got, "|"), want)
	}
}

func TestScope(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := Scope(dir, []string{"a", "**/x.jsonl"})
	for p, want := range map[string]bool{
		"a/b/gone.jsonl": true,
		"c/x.jsonl":      true,
		"c/y.jsonl":      false,
		"ab/z":           false,
	} {
		if got := in(filepath.Join(dir, p)); got != want {
			t.Errorf("%s: in scope %v, want %v", p, got, want)
		}
	}
	if !Scope(dir, nil)(filepath.Join(dir, "any", "thing")) {
		t.Error("no paths: the working directory is the scope")
	}
}

// BenchmarkBatch and BenchmarkShowPerFile compare the two ways of reading
// many files at a revision: one `git cat-file --batch` for the run, or
// one `git show REV:path` per file.
func BenchmarkBatch(b *testing.B) {
	dir, paths := benchRepo(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Open(dir, "HEAD")
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range paths {
			if _, _, err := r.read(p); err != nil {
				b.Fatal(err)
			}
		}
		r.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(paths)), "µs/file")
}

func BenchmarkShowPerFile(b *testing.B) {
	dir, paths := benchRepo(b)
	r, err := Open(dir, "HEAD")
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range paths {
			if _, err := r.gitOut("show", "HEAD:"+p); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(paths)), "µs/file")
}

func benchRepo(b *testing.B) (string, []string) {
	files := map[string]string{}
	var paths []string
	body := strings.Repeat("    - path: \"projects/demo/ORCHESTRATION.yaml\"\n", 160) // about 8 KB
	for i := 0; i < 200; i++ {
		p := filepath.ToSlash(filepath.Join("p", string(rune('a'+i%26)), strings.Repeat("x", i%7+1)+"-"+strconv.Itoa(i)+".yaml"))
		files[p] = body
		paths = append(paths, p)
	}
	return repo(b, files, nil), paths
}

// BenchmarkOpen is the fixed cost of --base: resolving REF and listing
// changed, untracked and ignored files.
func BenchmarkOpen(b *testing.B) {
	dir, _ := benchRepo(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Open(dir, "HEAD")
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}

// TestOpenUsesTheFolderItsMarkerIsIn: the base is read from the
// repository of the folder's own .git marker. A .git file naming another
// repository, or core.worktree leading to one, is refused with the
// reason; a checkout made by git worktree reads its own history.
func TestOpenUsesTheFolderItsMarkerIsIn(t *testing.T) {
	other := repo(t, map[string]string{"w.yaml": "other history\n"}, nil)
	top := t.TempDir()
	linked := filepath.Join(top, "linked")
	if err := os.MkdirAll(linked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(linked, ".git"), []byte("gitdir: "+filepath.Join(other, ".git")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(linked, "w.yaml"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nested := filepath.Join(other, "sub")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.worktree", "../.."}} {
		if out, err := exec.Command("git", append([]string{"-C", nested}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	for dir, why := range map[string]string{linked: "does not link back", nested: "core.worktree"} {
		r, err := Open(dir, "HEAD")
		if err == nil {
			r.Close()
			t.Errorf("%s: opened %s; want it refused", dir, r.Root)
			continue
		}
		if !strings.Contains(err.Error(), "git is not used for "+dir) || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v; want it to say why (%s)", dir, err, why)
		}
	}

	wt := filepath.Join(top, "wt")
	if out, err := exec.Command("git", "-C", other, "worktree", "add", "-q", wt).CombinedOutput(); err != nil {
		t.Fatalf("git worktree add: %v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(wt, "w.yaml"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(wt, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := r.Lookup(filepath.Join(wt, "w.yaml"))
	if err != nil || string(f.Data) != "other history\n" || r.Root != wt {
		t.Errorf("worktree: %q at %s, %v; want its base version at %s", f.Data, r.Root, err, wt)
	}
}

// TestLookupMissingObject: a file git lists at base whose object the
// store lacks (a damaged or partly copied .git: `ls-tree -l` says BAD) is
// an error, not a file new at head that nothing is compared with.
func TestLookupMissingObject(t *testing.T) {
	dir := repo(t, map[string]string{"ORCHESTRATION.yaml": "decision_log:\n  - {id: RD-001, decision: keep}\n", "other.yaml": "x\n"},
		map[string]string{"ORCHESTRATION.yaml": "decision_log:\n  - {id: RD-001, decision: drop}\n"})
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD:ORCHESTRATION.yaml").Output()
	if err != nil {
		t.Fatal(err)
	}
	h := strings.TrimSpace(string(out))
	if err := os.Remove(filepath.Join(dir, ".git", "objects", h[:2], h[2:])); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, err := r.Lookup(filepath.Join(dir, "ORCHESTRATION.yaml"))
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Lookup of a file whose base object is missing = %+v, %v; want an error", f, err)
	}
	if f, err := r.Lookup(filepath.Join(dir, "other.yaml")); err != nil || !f.Exists {
		t.Errorf("Lookup of an intact file = %+v, %v", f, err)
	}
}

// TestOpenPartialClone: in a clone made with --filter=blob:none the base
// commit's blobs are not there and nothing is fetched: --base says so and
// what to do, rather than passing git's own words on.
func TestOpenPartialClone(t *testing.T) {
	src := repo(t, map[string]string{"a.yaml": "a\n"}, nil)
	if err := os.WriteFile(filepath.Join(src, "a.yaml"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, src, "commit", "-qam", "second")
	gitIn(t, src, "config", "uploadpack.allowFilter", "true")
	dst := filepath.Join(t.TempDir(), "clone")
	gitIn(t, src, "clone", "-q", "--filter=blob:none", "file://"+src, dst)
	_, err := Open(dst, "HEAD~1")
	if err == nil || !strings.Contains(err.Error(), "partial clone") {
		t.Errorf("Open in a partial clone: %v, want an error naming the partial clone", err)
	}
}
