package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/resumelint/resumelint/internal/cli"
	"github.com/resumelint/resumelint/internal/report"
	"github.com/resumelint/resumelint/test/golden"
)

// SPEC §5 "never worse", checked from the outside: on every golden case's
// files and on examples/, `resumelint fix` (safe fixes only) leaves no
// finding that was not there before and no more errors, and a second `fix`
// changes nothing. FuzzFixNeverWorse checks the same on mutated
// ORCHESTRATION.yaml files (`go test -fuzz FuzzFixNeverWorse
// ./cmd/resumelint`; its seeds run with the tests).

// everything names every file under the working folder: a glob is
// discovered by a walk, without the two git processes a folder costs.
const everything = "**"

// runIn runs resumelint in dir with the goldens' fixed clock.
func runInDir(dir string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	env := map[string]string{"NO_COLOR": "1", "SOURCE_DATE_EPOCH": "1782000000"}
	c := &cli.Command{Stdout: &stdout, Stderr: &stderr, Cwd: dir, Getenv: func(k string) string { return env[k] }}
	code := c.Main(args)
	return code, stdout.String(), stderr.String()
}

// lineRefs are line numbers a message quotes: edits above them move them.
var lineRefs = regexp.MustCompile(`\blines? \d+(, \d+)*`)

// lintFindings lints dir; ok is false when resumelint refuses the input
// (exit 2: no file of a known kind, a bad configuration).
func lintFindings(t testing.TB, dir string) (fs []report.JSONFinding, ok bool) {
	t.Helper()
	code, stdout, stderr := runInDir(dir, "lint", "--format", "json", everything)
	if code == cli.ExitUsage {
		return nil, false
	}
	if code == cli.ExitInternal {
		t.Fatalf("internal failure: %s", stderr)
	}
	var doc report.JSONDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("lint output: %v\n%s", err, stdout)
	}
	return doc.Findings, true
}

// treeBytes is every file under dir and its bytes.
func treeBytes(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil {
			out[p] = string(b)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkNeverWorse runs `fix` in dir and checks the invariant and that a
// second run changes nothing.
func checkNeverWorse(t testing.TB, dir string) {
	t.Helper()
	before, ok := lintFindings(t, dir)
	if !ok {
		return
	}
	fixable := false
	for _, f := range before {
		fixable = fixable || f.Fix != nil
	}
	if !fixable {
		return // fix would offer nothing
	}
	files := treeBytes(t, dir)
	code, stdout, stderr := runInDir(dir, "fix", everything)
	if code == cli.ExitInternal {
		t.Fatalf("fix: internal failure: %s", stderr)
	}
	after, _ := lintFindings(t, dir)
	fixed := treeBytes(t, dir)

	// A renamed file (RL313) has its findings under another path: only
	// paths that exist on both sides are compared finding by finding.
	both := func(p string) bool {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		_, inB := files[abs]
		_, inA := fixed[abs]
		return inB == inA
	}
	// A v1.0 field the migration moves is named by its new place
	// (recovery_state.last_checkpoint): the same finding.
	key := func(f report.JSONFinding) string {
		msg := strings.ReplaceAll(f.Message, "recovery_state.", "")
		return f.Code + "\x00" + f.Path + "\x00" + lineRefs.ReplaceAllString(msg, "line N")
	}
	was := map[string]int{}
	errsBefore, errsAfter := 0, 0
	for _, f := range before {
		was[key(f)]++
		if f.Severity == "error" {
			errsBefore++
		}
	}
	var added []string
	for _, f := range after {
		if f.Severity == "error" {
			errsAfter++
		}
		if was[key(f)] > 0 {
			was[key(f)]--
			continue
		}
		if both(f.Path) {
			added = append(added, f.Path+": "+f.Code+" "+f.Message)
		}
	}
	if len(added) > 0 || errsAfter > errsBefore {
		sort.Strings(added)
		t.Errorf("fix made things worse: errors %d -> %d; new findings:\n  %s\nfix said:\n%s%s", errsBefore, errsAfter, strings.Join(added, "\n  "), stdout, stderr)
	}

	code, stdout, stderr = runInDir(dir, "fix", everything)
	if code == cli.ExitInternal {
		t.Fatalf("second fix: internal failure: %s", stderr)
	}
	again := treeBytes(t, dir)
	for p, b := range again {
		if fixed[p] != b {
			t.Errorf("a second fix changed %s\nfix said:\n%s%s", p, stdout, stderr)
		}
	}
	if len(again) != len(fixed) {
		t.Errorf("a second fix renamed files\nfix said:\n%s%s", stdout, stderr)
	}
}

// writeArchive writes the files of a golden case (its inputs, and the
// expected outputs, which are not of a known kind) under dir.
func writeArchive(t testing.TB, dir string, ar *txtar.Archive) {
	t.Helper()
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(p, dir+string(filepath.Separator)) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFixNeverWorseGoldens(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.txtar"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ar, err := golden.Archive(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			writeArchive(t, dir, ar)
			checkNeverWorse(t, dir)
		})
	}
}

func TestFixNeverWorseExamples(t *testing.T) {
	src := filepath.Join(moduleRoot(t), "examples")
	dir := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	checkNeverWorse(t, dir)
	for _, sub := range []string{"clean", "broken"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err == nil {
			checkNeverWorse(t, filepath.Join(dir, sub))
		}
	}
}

// FuzzFixNeverWorse: any ORCHESTRATION.yaml (seeded with the goldens' and
// the migration tests' files), next to a checkpoint file and the paths the
// goldens name, comes out of `fix` no worse, and a second `fix` changes
// nothing.
func FuzzFixNeverWorse(f *testing.F) {
	cases, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "fix_*.txtar"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "rl1*.txtar"))
	for _, path := range append(cases, more...) {
		ar, err := golden.Archive(path)
		if err != nil {
			continue
		}
		for _, af := range ar.Files {
			if strings.HasSuffix(af.Name, "ORCHESTRATION.yaml") {
				f.Add(af.Data)
			}
		}
	}
	migrate, _ := filepath.Glob(filepath.Join("..", "..", "internal", "fix", "testdata", "migrate", "*.yaml"))
	for _, p := range migrate {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "ORCHESTRATION.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkNeverWorse(t, dir)
	})
}
