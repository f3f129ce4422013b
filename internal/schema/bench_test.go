package schema

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Benchmarks of the per-file schema work, so a regression shows in
// benchstat (go test -bench . -count 10 ./cue | benchstat).

func BenchmarkValidateResumptionV2(b *testing.B) {
	root := parseB(b, validV2)
	if _, err := Validate("#ResumptionV2", root, Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Validate("#ResumptionV2", root, Options{Prefix: "resumption"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToValue(b *testing.B) {
	root := parseB(b, validV2)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = ToValue(root)
	}
}

// validDoc returns the largest valid document of a definition's kind in the
// examples and golden cases, so each kind is timed on a realistic file.
func validDoc(b *testing.B, def string) *yaml.Node {
	b.Helper()
	d := mustDef(b, def)
	var best *yaml.Node
	size := 0
	for _, doc := range loadCorpus(b) {
		if doc.def != def || !cueAccepts(d, doc.root) {
			continue
		}
		if n := countNodes(doc.root, 0); n > size {
			best, size = doc.root, n
		}
	}
	if best == nil {
		b.Fatalf("no valid %s document", def)
	}
	return best
}

// BenchmarkValidateKinds times Validate on a valid document of every kind
// (95% of real files are valid) and, as cue, the CUE path alone on it.
func BenchmarkValidateKinds(b *testing.B) {
	for _, def := range allDefs {
		root := validDoc(b, def)
		d := mustDef(b, def)
		b.Run(strings.TrimPrefix(def, "#"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if vs, err := Validate(def, root, Options{}); err != nil || len(vs) != 0 {
					b.Fatal(vs, err)
				}
			}
		})
		b.Run(strings.TrimPrefix(def, "#")+"/cue", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if vs, err := validateCUE(d, nil, root, Options{}); err != nil || len(vs) != 0 {
					b.Fatal(vs, err)
				}
			}
		})
	}
}

// BenchmarkValidateInvalidResumptionV2 times a document with one violation:
// the fast path's answer is "don't know", and CUE words the finding.
func BenchmarkValidateInvalidResumptionV2(b *testing.B) {
	root := parseB(b, strings.Replace(validV2, `workflow_status: "ACTIVE"`, `workflow_status: "COMPLETED"`, 1))
	b.ReportAllocs()
	for b.Loop() {
		if vs, err := Validate("#ResumptionV2", root, Options{Prefix: "resumption"}); err != nil || len(vs) != 1 {
			b.Fatal(vs, err)
		}
	}
}
