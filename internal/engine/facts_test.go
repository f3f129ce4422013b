package engine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
	"github.com/resumelint/resumelint/test/golden"
)

// The facts a unit publishes come from the indexers, which run whatever
// rules are enabled: turning off the rule that reports from the
// checkpoint facts (RL206) leaves RL112, which reads them, unchanged.
func TestDisablingARuleKeepsOthersInputs(t *testing.T) {
	ar, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", "rl112_checkpoint_other_event.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "want.txt" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lint := func(sev map[string]diag.Severity) []string {
		d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		opts := rules.Options{Now: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Limits: load.DefaultLimits, Cwd: dir, RepoRoot: dir}
		res := Run(d, nil, Settings{Opts: opts, Jobs: 2, Selection: rules.Selection{Severity: sev}})
		var out []string
		for _, f := range res.Findings {
			if f.Code == code.CompactionEvents {
				out = append(out, f.Path+": "+f.Message)
			}
		}
		return out
	}
	all := lint(nil)
	if !slices.ContainsFunc(all, func(s string) bool { return strings.Contains(s, "holds event cx-002") }) {
		t.Fatalf("RL112 does not see the checkpoint's event: %q", all)
	}
	if off := lint(map[string]diag.Severity{code.CheckpointMerge: diag.SevOff}); !slices.Equal(off, all) {
		t.Errorf("RL112 with RL206 off:\n%q\nwith every rule:\n%q", off, all)
	}
}
