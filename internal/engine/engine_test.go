package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
	"github.com/resumelint/resumelint/internal/schema"
)

// A rule that panics on one file: the panic becomes an internal-error
// finding naming the file and the rule, and the other files are still
// linted. The rule is registered only in this test binary.
var panicky = &rules.Rule{Code: "RL999", Name: "test-panic", Severity: diag.SevError, Kinds: []load.Kind{load.KindCheckpoint},
	Summary: "test only", Run: func(p *rules.Pass) {
		if strings.Contains(p.Doc.File.Path, "cx-002") {
			var s []int
			_ = s[len(p.Doc.File.Path)] // index out of range: a real runtime panic
		}
	}}

func init() { rules.Register(panicky) }

// threeCheckpoints writes runtime checkpoints cx-001 to cx-003, each
// lacking fields #RuntimeCheckpoint requires, and returns their folder's
// repository.
func threeCheckpoints(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"cx-001", "cx-002", "cx-003"} {
		p := filepath.Join(dir, ".jerry", "checkpoints", name+".json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"checkpoint_id": "`+name+`", "created_at": "2026-02-20T10:00:00Z"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPanicInRuleIsContained(t *testing.T) {
	// cx-001 and cx-003 carry a schema error that must still be found.
	dir := threeCheckpoints(t)
	d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	res := Run(d, nil, Settings{Opts: rules.Options{Now: time.Now(), Limits: load.DefaultLimits, Cwd: dir, RepoRoot: dir}, Jobs: 2})
	if res.Internal != 1 {
		t.Fatalf("internal failures = %d, want 1", res.Internal)
	}
	var internal, schema []string
	for _, f := range res.Findings {
		switch f.Code {
		case InternalCode:
			internal = append(internal, f.Path+": "+f.Message)
		case "RL201":
			schema = append(schema, f.Path)
		}
	}
	if len(internal) != 1 || !strings.Contains(internal[0], "cx-002") || !strings.Contains(internal[0], "RL999 test-panic") {
		t.Errorf("internal findings = %q", internal)
	}
	if len(schema) != 3 {
		t.Errorf("schema findings on %v, want all three files", schema)
	}
}

// Output order must not depend on the number of workers.
func TestDeterministicOrder(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 40; i++ {
		p := filepath.Join(dir, "p"+string(rune('a'+i%26))+string(rune('a'+i/26)), "precompact_state.json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`{"confidence": "sure", "detection_method": "guess", "timestamp": "2026-02-20"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	render := func(jobs int) string {
		d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		res := Run(d, nil, Settings{Opts: rules.Options{Now: time.Now(), Limits: load.DefaultLimits, Cwd: dir, RepoRoot: dir}, Jobs: jobs})
		var sb strings.Builder
		for _, f := range res.Findings {
			sb.WriteString(f.Path + " " + f.Code + " " + f.Message + "\n")
		}
		return sb.String()
	}
	one := render(1)
	if one == "" {
		t.Fatal("no findings")
	}
	for i := 0; i < 3; i++ {
		if got := render(8); got != one {
			t.Fatalf("order differs between 1 and 8 workers:\n%s\nvs\n%s", one, got)
		}
	}
	// The units' findings gathered on every core, as a run of thousands
	// of findings gathers them.
	was := unpackOnEveryCore
	unpackOnEveryCore = 1
	defer func() { unpackOnEveryCore = was }()
	if got := render(8); got != one {
		t.Fatalf("findings gathered on every core differ:\n%s\nvs\n%s", one, got)
	}
	// Unpacked after the cross-file rules, as a run of many findings
	// unpacks them.
	wasBeside := unpackBesideIndex
	unpackBesideIndex = 0
	defer func() { unpackBesideIndex = wasBeside }()
	if got := render(8); got != one {
		t.Fatalf("findings unpacked after the index differ:\n%s\nvs\n%s", one, got)
	}
}

// A run whose reports print no source lines keeps none of a file's lines
// for its findings, and gives them the same spans: an empty span is
// widened while the unit's bytes are still read.
func TestNoSnippetsKeepsNoLines(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "projects", "PROJ-001", "precompact_state.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	// Schema findings, and a repeated key: the loader reports it at a
	// position, with an empty span for the engine to widen.
	src := "{\n  \"timestamp\": \"2026-02-20 10:00\",\n  \"detection_method\": \"token_count\",\n  \"confidence\": \"sure\",\n  \"confidence\": \"high\"\n}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(noSnippets bool) *Result {
		d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		return Run(d, nil, Settings{Opts: rules.Options{Now: time.Now(), Limits: load.DefaultLimits, Cwd: dir, RepoRoot: dir, NoSnippets: noSnippets}})
	}
	with, without := run(false), run(true)
	if len(with.Findings) == 0 || len(with.Findings) != len(without.Findings) {
		t.Fatalf("findings: %d with snippets, %d without", len(with.Findings), len(without.Findings))
	}
	widened := false
	for i := range with.Findings {
		a, b := with.Findings[i], without.Findings[i]
		widened = widened || a.Code == rules.DuplicateKey.Code && a.End.Col > a.Start.Col
		if a.Start != b.Start || a.End != b.End || a.Message != b.Message {
			t.Errorf("finding %d: %v-%v %q with snippets, %v-%v %q without", i, a.Start, a.End, a.Message, b.Start, b.End, b.Message)
		}
	}
	if !widened {
		t.Error("the repeated key's finding has no span")
	}
	// The findings carry the line they print, whatever became of the file.
	lines := strings.Split(src, "\n")
	for i := range with.Findings {
		a, b := with.Findings[i], without.Findings[i]
		if !a.HasSnippet || a.Snippet != lines[a.Start.Line-1] {
			t.Errorf("finding %d at line %d: snippet %q (%v), want %q", i, a.Start.Line, a.Snippet, a.HasSnippet, lines[a.Start.Line-1])
		}
		if b.HasSnippet {
			t.Errorf("finding %d without snippets carries %q", i, b.Snippet)
		}
	}
}

// TestPoolFollowsGOMAXPROCS: the default number of workers is what Go
// runs on (GOMAXPROCS, which follows a container's CPU quota), not the
// machine's CPUs. With one processor, no two units are ever in progress.
func TestPoolFollowsGOMAXPROCS(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: GOMAXPROCS and NumCPU agree")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var active, most atomic.Int32
	idx := make([]int, 16)
	for i := range idx {
		idx[i] = i
	}
	s := &Settings{}
	s.pool(idx, func(int) {
		n := active.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(time.Millisecond) // another worker, if any, starts a unit meanwhile
		active.Add(-1)
	})
	if m := most.Load(); m != 1 {
		t.Fatalf("%d units were in progress at once with GOMAXPROCS=1, want 1", m)
	}
}

// TestLargeRunCompilesSchemaAside: a run of many units compiles the CUE
// schema beside its first units, where every worker meeting an invalid
// document would otherwise wait for the one compiling it; a hook's few
// valid files never compile it. Each case runs in a process of its own
// (the schema is compiled once per process).
func TestLargeRunCompilesSchemaAside(t *testing.T) {
	if n := os.Getenv("RESUMELINT_TEST_ASIDE"); n != "" {
		files, _ := strconv.Atoi(n)
		runtime.GOMAXPROCS(2)
		dir := t.TempDir()
		for i := range files {
			p := filepath.Join(dir, "p"+strconv.Itoa(i), ".cache", "precompact_state.json")
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			valid := `{"active_project_id": "07-example-project", "confidence": "high", "detection_method": "transcript", "timestamp": "2026-02-20T16:41:00Z"}`
			if err := os.WriteFile(p, []byte(valid), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		res := Run(d, nil, Settings{Opts: rules.Options{Now: time.Now(), Limits: load.DefaultLimits, Cwd: dir, RepoRoot: dir}})
		for _, f := range res.Findings {
			if strings.HasSuffix(f.Name, "-schema") {
				t.Fatalf("valid files gave a schema finding: %s %s", f.Code, f.Message)
			}
		}
		deadline := time.Now().Add(5 * time.Second)
		for !schema.Compiled() && files >= compileAsideUnits && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got, want := schema.Compiled(), files >= compileAsideUnits; got != want {
			t.Fatalf("%d valid units: schema compiled %v, want %v", files, got, want)
		}
		return
	}
	for _, files := range []int{3, compileAsideUnits} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLargeRunCompilesSchemaAside$")
		cmd.Env = append(os.Environ(), "RESUMELINT_TEST_ASIDE="+strconv.Itoa(files))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%d units: %v\n%s", files, err, out)
		}
	}
}

// Cross-file rules of the test binary: both report only in a repository
// holding a file named finalize-panic, where one of them panics.
var (
	finalNotes = &rules.Rule{Code: "RL996", Name: "test-final-report", Severity: diag.SevWarning, Kinds: []load.Kind{load.KindCheckpoint},
		Summary: "test only", Run: func(*rules.Pass) {}, Finalize: func(p *rules.RepoPass) {
			if _, err := os.Stat(filepath.Join(p.Opts.RepoRoot, "finalize-panic")); err == nil {
				p.Note("the first cross-file rule ran")
				p.ReportAt("a.json", diag.Pos{Line: 1, Col: 1}, diag.Pos{Line: 1, Col: 2}, "a cross-file finding")
			}
		}}
	finalPanics = &rules.Rule{Code: "RL995", Name: "test-final-panic", Severity: diag.SevError, Kinds: []load.Kind{load.KindCheckpoint},
		Summary: "test only", Run: func(*rules.Pass) {}, Finalize: func(p *rules.RepoPass) {
			if _, err := os.Stat(filepath.Join(p.Opts.RepoRoot, "finalize-panic")); err == nil {
				p.ReportAt("b.json", diag.Pos{Line: 2, Col: 1}, diag.Pos{Line: 2, Col: 2}, "reported before the panic")
				var s []int
				_ = s[len(p.Opts.RepoRoot)] // index out of range: a real runtime panic
			}
		}}
)

func init() { rules.Register(finalNotes, finalPanics) }

// The cross-file rules run side by side: a panic in one is contained as in
// a unit's rule, what it reported first is kept, and the others' findings
// and notes are all there, in the same order on every run.
func TestFinalizeRulesSideBySide(t *testing.T) {
	dir := threeCheckpoints(t)
	if err := os.WriteFile(filepath.Join(dir, "finalize-panic"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var first string
	for range 5 {
		d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		res := Run(d, nil, Settings{Opts: rules.Options{Now: time.Now(), Limits: load.DefaultLimits, Cwd: dir, RepoRoot: dir}, Jobs: 2})
		if res.Internal != 2 { // cx-002's panicky, and the cross-file panic
			t.Fatalf("internal failures = %d, want 2", res.Internal)
		}
		var sb strings.Builder
		for _, f := range res.Findings {
			if f.Code == "RL996" || f.Code == "RL995" || f.Code == InternalCode && strings.Contains(f.Message, "RL995") {
				sb.WriteString(f.Path + " " + f.Code + " " + f.Message + "\n")
			}
		}
		sb.WriteString(strings.Join(res.Notes, "\n"))
		got := sb.String()
		for _, want := range []string{"a.json RL996 a cross-file finding", "b.json RL995 reported before the panic", "internal error in rule RL995 test-final-panic", "the first cross-file rule ran"} {
			if !strings.Contains(got, want) {
				t.Fatalf("missing %q in:\n%s", want, got)
			}
		}
		if first == "" {
			first = got
		} else if got != first {
			t.Fatalf("runs differ:\n%s\nvs\n%s", first, got)
		}
	}
}
