package schema

import (
	"testing"
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
