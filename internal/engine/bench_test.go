package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// Benchmarks of the whole per-unit pipeline (read, parse, every rule) for
// each kind, on the clean example repository, so a regression in any
// stage shows in benchstat:
//
//	go test ./internal/engine -run XXX -bench Pipeline -count 10 | benchstat -
func BenchmarkPipeline(b *testing.B) {
	root, err := filepath.Abs("../../examples/clean")
	if err != nil {
		b.Fatal(err)
	}
	d, err := load.Discover(nil, load.DiscoverOptions{Cwd: root, Root: root, NoGit: true})
	if err != nil {
		b.Fatal(err)
	}
	s := Settings{Opts: rules.Options{Now: time.Date(2026, 2, 21, 0, 0, 0, 0, time.UTC), Limits: load.DefaultLimits, Cwd: root, RepoRoot: root}, Jobs: 1}
	byKind := map[load.Kind]*load.Discovery{}
	for _, f := range d.Files {
		byKind[f.Kind] = &load.Discovery{Files: []*load.File{f}}
	}
	for _, f := range d.Folders {
		byKind[f.Kind] = &load.Discovery{Folders: []*load.Folder{f}}
	}
	for _, k := range load.AllKinds {
		one := byKind[k]
		if one == nil {
			b.Fatalf("examples/clean has no %s", k)
		}
		b.Run(string(k), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				res := Run(one, nil, s)
				if len(res.Findings) != 0 {
					b.Fatalf("%s: %d findings on a clean file: %s", k, len(res.Findings), res.Findings[0].Message)
				}
			}
		})
	}
}

// BenchmarkOrchestrationRules measures what the semantic rules (RL104–RL113,
// RL202–RL207, cross-file facts) add to the schema rules on 2,000 v2.0
// ORCHESTRATION.yaml files with their checkpoints:
//
//	go test ./internal/engine -run XXX -bench OrchestrationRules -benchtime 5x
//
// The "all" figure must stay within 1.25× of "schema".
func BenchmarkOrchestrationRules(b *testing.B) {
	src, err := filepath.Abs("../../examples/clean")
	if err != nil {
		b.Fatal(err)
	}
	orch, err := os.ReadFile(filepath.Join(src, "ORCHESTRATION.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	cp, err := os.ReadFile(filepath.Join(src, ".jerry/checkpoints/cx-001-checkpoint.json"))
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	for i := 0; i < 2000; i++ {
		dir := filepath.Join(root, fmt.Sprintf("p%04d", i))
		for _, f := range []struct {
			name string
			data []byte
		}{{"ORCHESTRATION.yaml", orch}, {".jerry/checkpoints/cx-001-checkpoint.json", cp}} {
			p := filepath.Join(dir, filepath.FromSlash(f.name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, f.data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		// The files the sections name, so path rules resolve them.
		for _, name := range []string{"ORCHESTRATION_PLAN.md", "WORKTRACKER.md"} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("# x\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	schemaOnly := map[string]bool{}
	for _, r := range rules.All() {
		switch r.Family {
		case "common":
			schemaOnly[r.Code] = true
		case "orchestration", "checkpoint":
			if r.Code <= "RL103" || r.Code == "RL114" || r.Code == "RL115" || r.Code == "RL201" {
				schemaOnly[r.Code] = true
			}
		}
	}
	for _, tc := range []struct {
		name string
		only map[string]bool
	}{{"schema", schemaOnly}, {"all", nil}} {
		b.Run(tc.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				d, err := load.Discover(nil, load.DiscoverOptions{Cwd: root, Root: root, NoGit: true})
				if err != nil {
					b.Fatal(err)
				}
				s := Settings{Opts: rules.Options{Now: time.Date(2026, 2, 21, 0, 0, 0, 0, time.UTC), Limits: load.DefaultLimits, Cwd: root, RepoRoot: root}, Selection: rules.Selection{Only: tc.only}}
				res := Run(d, nil, s)
				if i == 0 && len(res.Findings) > 0 {
					b.Logf("%s: %d findings, first: %s %s", tc.name, len(res.Findings), res.Findings[0].Code, res.Findings[0].Message)
				}
			}
		})
	}
}
