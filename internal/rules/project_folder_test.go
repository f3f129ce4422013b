package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// writeProject lays out 02-projects/07-x/01-planning with a resume file
// whose body is body and a plan.md holding plan, and parses the resume file.
func writeProject(t testing.TB, body, plan string) (*load.Document, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "02-projects", "07-x", "01-planning")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plan.md"), []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "---\nproject_id: \"07-x\"\nfiles_to_load:\n  - 01-planning/plan.md\n---\n" + body
	p := filepath.Join(dir, "resume-context.md")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &load.File{Path: "02-projects/07-x/01-planning/resume-context.md", OSPath: p, Kind: load.KindResumeContext, Root: root}
	if _, ok := load.Read(f, load.DefaultLimits); !ok {
		t.Fatal("read")
	}
	doc, _ := load.Parse(f, load.FormatMarkdown, load.DefaultLimits)
	return doc, root
}

func runRule(r *Rule, doc *load.Document, cwd string) []diag.Finding {
	var out []diag.Finding
	p := NewPass(r, &Options{Now: time.Now(), Cwd: cwd, RepoRoot: cwd, Limits: load.DefaultLimits}, doc, &out)
	r.Check(p)
	return out
}

func numbered(prefix string, n int) string {
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "%s line %d\n", prefix, i)
	}
	return sb.String()
}

// Large files with one shared run: one finding naming both ranges. The
// index makes this linear; a quadratic scan would take minutes here.
func TestNoDuplicationLargeFiles(t *testing.T) {
	shared := "alpha\nbeta\n\ngamma\ndelta\nepsilon\nzeta\n"
	body := numbered("body", 40_000) + shared + numbered("tail", 10_000)
	plan := numbered("plan", 40_000) + strings.ReplaceAll(shared, "gamma", "  gamma  ") + numbered("end", 10)
	doc, root := writeProject(t, body, plan)
	got := runRule(NoDuplication, doc, root)
	if len(got) != 1 {
		t.Fatalf("%d findings: %v", len(got), got)
	}
	if !strings.Contains(got[0].Message, "copy 6 lines") || !strings.Contains(got[0].Message, "its lines 40001–40007") {
		t.Errorf("message %q", got[0].Message)
	}
}

func TestNoDuplicationBelowWindow(t *testing.T) {
	doc, root := writeProject(t, "a\nb\nc\nd\nx\n", "a\nb\nc\nd\ne\n")
	if got := runRule(NoDuplication, doc, root); len(got) != 0 {
		t.Errorf("4 shared lines: %v", got)
	}
}

func BenchmarkNoDuplication(b *testing.B) {
	doc, root := writeProject(b, numbered("body", 20_000), numbered("plan", 20_000))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runRule(NoDuplication, doc, root)
	}
}

func TestCountChecked(t *testing.T) {
	src := "- [x] one\n* [X] two\n- [ ] three\n```\n- [x] in a fence\n```\n  + [x] four\n-[x] not an item\n"
	if n := countChecked([]byte(src), false); n != 3 {
		t.Errorf("countChecked = %d, want 3", n)
	}
	if n := countChecked([]byte(src), true); n != 1 {
		t.Errorf("countChecked dashOnly = %d, want 1", n)
	}
}

func TestCleanEntry(t *testing.T) {
	// want is the cleaned path, or the start of the problem.
	for in, want := range map[string]string{
		"01-planning/plan.md":      "01-planning/plan.md",
		"./01-planning//plan.md":   "01-planning/plan.md",
		`01-planning\plan.md`:      "01-planning/plan.md",
		"01-planning/../02-r/x.md": "02-r/x.md",
		"/etc/passwd":              "is an absolute path",
		`C:\nexus\plan.md`:         "is an absolute path",
		"~/notes.md":               "is an absolute path",
		"../other/plan.md":         "../other/plan.md",
		"01-planning/../../x.md":   "../x.md",
		"":                         "is empty",
	} {
		rel, problem := cleanEntry(in)
		if got := rel + problem; !strings.HasPrefix(got, want) || (problem == "" && rel != want) {
			t.Errorf("cleanEntry(%q) = %q, %q; want %q", in, rel, problem, want)
		}
	}
}

func TestNumberedNames(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"01-overview.md", "03-plan.md", "04-steps.md", "02-steps.md", "x-notes.md"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for in, want := range map[string]string{
		"overview.md": "01-overview.md",
		"plan.md":     "03-plan.md",
		"steps.md":    "", // 02- and 04-: ambiguous
		"notes.md":    "", // not a number prefix
		"research.md": "",
	} {
		if got := numberedNames(nil, dir, dir)[in]; got != want {
			t.Errorf("numberedNames(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestProjectOver(t *testing.T) {
	for s, want := range map[string]bool{
		"complete": true, "COMPLETE": true, "COMPLETE - READY FOR ARCHIVE": true, "ARCHIVED": true,
		"execution": false, "phase-4": false, "execution_phase_5": false, "IN_PROGRESS": false,
		"ready-for-implementation": false, "PLANNING": false,
	} {
		if got := projectOver(s); got != want {
			t.Errorf("projectOver(%q) = %v, want %v", s, got, want)
		}
	}
}
