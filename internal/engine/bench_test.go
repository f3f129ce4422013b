package engine

import (
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
	d, err := load.Discover(nil, load.DiscoverOptions{Cwd: root, NoGit: true})
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
