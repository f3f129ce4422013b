package engine

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// sharedName is the file two test rules read for every checkpoint; it
// is no unit of any run.
const sharedName = "shared-notes.md"

// readShared is the Run of two rules registered only in this test binary:
// each reads the same file, which is no unit, through its pass.
func readShared(p *rules.Pass) {
	data, err := p.ReadFile(filepath.Join(p.Opts.RepoRoot, sharedName))
	if err == nil && len(data) == 0 {
		p.Report(p.Doc.File, p.Doc.Root, "read nothing")
	}
}

func init() {
	for _, c := range []string{"RL997", "RL998"} {
		rules.Register(&rules.Rule{Code: c, Name: "test-read-" + c, Severity: diag.SevWarning, Kinds: []load.Kind{load.KindCheckpoint},
			Summary: "test only", Run: readShared})
	}
}

// A file that two rules read over three units is read from disk once in
// a run, and once again in the next run (the memo is the run's).
func TestFileReadByTwoRulesIsReadOnce(t *testing.T) {
	dir := threeCheckpoints(t)
	shared := filepath.Join(dir, sharedName)
	if err := os.WriteFile(shared, []byte("# Notes\n\nRead by two rules.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	reads := 0
	load.OnRead = func(p string) {
		if p == shared {
			mu.Lock()
			reads++
			mu.Unlock()
		}
	}
	defer func() { load.OnRead = nil }()
	for run := 1; run <= 2; run++ {
		d, err := load.Discover(nil, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		Run(d, nil, Settings{Opts: rules.Options{Now: time.Now(), Limits: load.DefaultLimits, Cwd: dir, RepoRoot: dir}, Jobs: 2})
		if reads != run {
			t.Fatalf("after run %d, %s was read %d times, want %d", run, sharedName, reads, run)
		}
	}
}
