package fix

import (
	"fmt"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// fakeLint reports RL900 with a fix setting x to 2 while x is 1, and,
// when after is set, the finding after gives once x is 2.
func fakeLint(after *diag.Finding) func([]*load.File) []diag.Finding {
	return func(files []*load.File) []diag.Finding {
		var out []diag.Finding
		for _, f := range files {
			switch string(f.Data) {
			case "x: 1\n":
				out = append(out, diag.Finding{Code: "RL900", Path: f.Path, Severity: diag.SevWarning, Message: "x is 1",
					Fix: &diag.Fix{Applicability: diag.FixSafe, Description: "set x to 2",
						Edits: []diag.TextEdit{{Offset: 3, Length: 1, NewText: "2"}}, Drops: []string{"1"}}})
			case "x: 2\n":
				if after != nil {
					fd := *after
					fd.Path = f.Path
					out = append(out, fd)
				}
			}
		}
		return out
	}
}

func runFixer(t *testing.T, fx *Fixer) *File {
	t.Helper()
	f := &load.File{Path: "a.yaml", OSPath: "/nowhere/a.yaml", Kind: load.KindOrchestration, Data: []byte("x: 1\n")}
	files := fx.Run([]*load.File{f}, fx.Lint([]*load.File{f}))
	if len(files) != 1 {
		t.Fatalf("%d files, want 1", len(files))
	}
	return files[0]
}

func TestFixerApplies(t *testing.T) {
	ff := runFixer(t, &Fixer{Cwd: "/nowhere", Lint: fakeLint(nil)})
	if string(ff.Data) != "x: 2\n" || !ff.Changed() || ff.Fixes != 1 || len(ff.Applied) != 1 || ff.Applied[0] != "RL900 set x to 2" {
		t.Errorf("data %q, fixes %d, applied %q, skipped %q", ff.Data, ff.Fixes, ff.Applied, ff.Skipped)
	}
	var sb strings.Builder
	if err := Report(&sb, []*File{ff}, "applied"); err != nil || sb.String() != "a.yaml: applied RL900 set x to 2\n" {
		t.Errorf("report %q, %v", sb.String(), err)
	}
}

// A fix after which a finding appears is turned down (never worse), and
// applied with Unsafe, which says what it adds.
func TestFixerNeverWorse(t *testing.T) {
	worse := &diag.Finding{Code: "RL901", Severity: diag.SevError, Message: "x is 2", Start: diag.Pos{Line: 1, Col: 4}}
	ff := runFixer(t, &Fixer{Cwd: "/nowhere", Lint: fakeLint(worse)})
	if ff.Changed() || len(ff.Applied) != 0 {
		t.Errorf("a fix that adds a finding was applied: %q", ff.Data)
	}
	if why := ff.Skipped["RL900 set x to 2"]; !strings.Contains(why, "it would add 1 finding: RL901 (x is 2)") {
		t.Errorf("skipped %q", ff.Skipped)
	}
	ff = runFixer(t, &Fixer{Cwd: "/nowhere", Unsafe: true, Lint: fakeLint(worse)})
	if string(ff.Data) != "x: 2\n" || len(ff.Applied) != 1 || ff.Applied[0] != "RL900 set x to 2 (unsafe)" || len(ff.Adds) != 1 || ff.Adds[0].Code != "RL901" {
		t.Errorf("with Unsafe: data %q, applied %q, adds %v", ff.Data, ff.Applied, ff.Adds)
	}
}

// An RL110 fix inserts an id line above the node an RL107 message quotes
// by line ("line 3" becomes "line 4"), and the node the finding sits on
// holds the edit (its content hash changes): the finding moved, it is not
// new, so the never-worse check applies the fix.
func TestFixerNeverWorseMovedLine(t *testing.T) {
	const before, after = "decision: use v2\nupdated_at: x\n", "id: RD-001\ndecision: use v2\nupdated_at: x\n"
	lint := func(files []*load.File) []diag.Finding {
		var out []diag.Finding
		for _, f := range files {
			stale := diag.Finding{Code: "RL107", Path: f.Path, Severity: diag.SevWarning, NodePath: "resumption"}
			switch string(f.Data) {
			case before:
				stale.Message, stale.NodeHash = "updated_at is older than the decision at line 1", "h1"
				out = append(out, stale, diag.Finding{Code: "RL110", Path: f.Path, Severity: diag.SevWarning, Message: "the decision has no id",
					Fix: &diag.Fix{Applicability: diag.FixSafe, Description: "number the decision", Edits: []diag.TextEdit{{Offset: 0, NewText: "id: RD-001\n"}}}})
			case after:
				stale.Message, stale.NodeHash = "updated_at is older than the decision at line 2", "h2"
				out = append(out, stale)
			}
		}
		return out
	}
	f := &load.File{Path: "a.yaml", OSPath: "/nowhere/a.yaml", Kind: load.KindOrchestration, Data: []byte(before)}
	files := (&Fixer{Cwd: "/nowhere", Lint: lint}).Run([]*load.File{f}, lint([]*load.File{f}))
	if ff := files[0]; string(ff.Data) != after || ff.Fixes != 1 {
		t.Errorf("data %q, fixes %d, skipped %q", ff.Data, ff.Fixes, ff.Skipped)
	}
}

// Settle leaves a fix `fix` applies safe, makes one the never-worse check
// turns down unsafe (with the reason) and one that cannot apply no fix.
func TestSettle(t *testing.T) {
	worse := &diag.Finding{Code: "RL901", Severity: diag.SevError, Message: "x is 2"}
	for _, tc := range []struct {
		name   string
		after  *diag.Finding
		rename string
		want   diag.Applicability
	}{
		{"applies", nil, "", diag.FixSafe},
		{"worse", worse, "", diag.FixUnsafe},
		{"no folder", nil, "missing/b.yaml", diag.FixNone},
	} {
		fx := &Fixer{Cwd: t.TempDir(), Lint: fakeLint(tc.after)}
		f := &load.File{Path: "a.yaml", OSPath: "/nowhere/a.yaml", Kind: load.KindOrchestration, Data: []byte("x: 1\n")}
		fds := fx.Lint([]*load.File{f})
		if tc.rename != "" {
			fds[0].Fix.Edits, fds[0].Fix.RenameTo = nil, tc.rename
		}
		if !Candidates(fds)["a.yaml"] {
			t.Fatalf("%s: no candidate", tc.name)
		}
		Settle(fx, []*load.File{f}, fds)
		if got := fds[0].Fix.Applicability; got != tc.want {
			t.Errorf("%s: applicability %q, want %q (reason %q)", tc.name, got, tc.want, fds[0].Fix.Reason)
		}
		if tc.want == diag.FixUnsafe && !strings.HasPrefix(fds[0].Fix.Reason, "it would add 1 finding") {
			t.Errorf("%s: reason %q", tc.name, fds[0].Fix.Reason)
		}
	}
}

// Files whose two fixes fail together are split: each fix is tried alone,
// every file's in the same lint, so the lints a run takes do not grow with
// the number of such files (a lint per fix per file was quadratic).
func TestFixerSplitsEveryFileInOneLint(t *testing.T) {
	const both, bOnly = "a: 1\nb: 1\n", "a: 1\nb: 2\n"
	lints := 0
	lint := func(files []*load.File) []diag.Finding {
		lints++
		var out []diag.Finding
		for _, f := range files {
			data := string(f.Data)
			if strings.HasPrefix(data, "a: 1") {
				out = append(out, diag.Finding{Code: "RL900", Path: f.Path, Severity: diag.SevWarning, Message: "a is 1", NodePath: "a",
					Fix: &diag.Fix{Applicability: diag.FixSafe, Description: "set a to 2", Edits: []diag.TextEdit{{Offset: 3, Length: 1, NewText: "2"}}, Drops: []string{"1"}}})
			} else {
				out = append(out, diag.Finding{Code: "RL901", Path: f.Path, Severity: diag.SevError, Message: "a is 2", NodePath: "a"})
			}
			if strings.HasSuffix(data, "b: 1\n") {
				out = append(out, diag.Finding{Code: "RL902", Path: f.Path, Severity: diag.SevWarning, Message: "b is 1", NodePath: "b",
					Fix: &diag.Fix{Applicability: diag.FixSafe, Description: "set b to 2", Edits: []diag.TextEdit{{Offset: 8, Length: 1, NewText: "2"}}, Drops: []string{"1"}}})
			}
		}
		return out
	}
	for _, n := range []int{1, 40} {
		var read []*load.File
		for i := range n {
			p := "p" + strings.Repeat("x", i) + ".yaml"
			read = append(read, &load.File{Path: p, OSPath: "/nowhere/" + p, Kind: load.KindOrchestration, Data: []byte(both)})
		}
		lints = 0
		files := (&Fixer{Cwd: "/nowhere", Lint: lint}).Run(read, lint(read))
		for _, ff := range files {
			if string(ff.Data) != bOnly || ff.Fixes != 1 || !strings.Contains(ff.Skipped["RL900 set a to 2"], "it would add 1 finding: RL901") {
				t.Fatalf("%d files: %s: data %q, fixes %d, skipped %q", n, ff.Path, ff.Data, ff.Fixes, ff.Skipped)
			}
		}
		if lints > 5 {
			t.Errorf("%d files took %d lints, want at most 5 whatever the number of files", n, lints)
		}
	}
}

// When fixes together add findings only in a file none of them edits (a
// rule across files), the culprits are found by linting the fixes in
// halves: a few culprits among many fixes cost a few lints each, not a
// lint per fix, and every other fix still applies.
func TestFixerFindsCulpritsElsewhereByHalves(t *testing.T) {
	const n, every = 256, 64
	lints := 0
	lint := func(files []*load.File) []diag.Finding {
		lints++
		var out []diag.Finding
		for _, f := range files {
			var i int
			if _, err := fmt.Sscanf(f.Path, "p%03d.yaml", &i); err != nil {
				continue
			}
			switch string(f.Data) {
			case "x: 1\n":
				out = append(out, diag.Finding{Code: "RL900", Path: f.Path, Severity: diag.SevWarning, Message: "x is 1", NodePath: "x",
					Fix: &diag.Fix{Applicability: diag.FixSafe, Description: "set x to 2", Edits: []diag.TextEdit{{Offset: 3, Length: 1, NewText: "2"}}, Drops: []string{"1"}}})
			case "x: 2\n":
				if i%every == 0 {
					out = append(out, diag.Finding{Code: "RL901", Path: "index.yaml", Severity: diag.SevError, Message: "the index names " + f.Path, NodePath: "entries"})
				}
			}
		}
		return out
	}
	var read []*load.File
	for i := range n {
		p := fmt.Sprintf("p%03d.yaml", i)
		read = append(read, &load.File{Path: p, OSPath: "/nowhere/" + p, Kind: load.KindOrchestration, Data: []byte("x: 1\n")})
	}
	files := (&Fixer{Cwd: "/nowhere", Lint: lint}).Run(read, lint(read))
	for i, ff := range files {
		culprit := i%every == 0
		if culprit != (string(ff.Data) == "x: 1\n") || culprit != strings.Contains(ff.Skipped["RL900 set x to 2"], "it would add 1 finding: RL901") {
			t.Errorf("%s (culprit %v): data %q, skipped %q", ff.Path, culprit, ff.Data, ff.Skipped)
		}
	}
	if max := 2*(n/every)*8 + 8; lints > max {
		t.Errorf("%d fixes, %d of them culprits, took %d lints; want at most %d", n, n/every, lints, max)
	}
}
