package report

import (
	"fmt"
	"io"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// BenchmarkJSON renders the report of a run with thousands of findings
// whose messages quote what they name, as most do.
func BenchmarkJSON(b *testing.B) {
	fs := make([]diag.Finding, 6000)
	for i := range fs {
		fs[i] = diag.Finding{Code: "RL113", Name: "files-to-read", Severity: diag.SevError,
			Path:  fmt.Sprintf("projects/PROJ-%05d/.jerry/checkpoints/cx-001-checkpoint.json", i/3),
			Start: diag.Pos{Line: 30 + i%3, Col: 9}, End: diag.Pos{Line: 30 + i%3, Col: 61},
			Message: fmt.Sprintf("recovery_instructions.files_to_read[%d] \"projects/\u2026/resume-%05d.yaml\" resolves nowhere (tried repo root, this folder and project folder): correct or remove it", i%3, i)}
	}
	in := &Input{Findings: fs, Checked: 10000, Version: "dev"}
	for b.Loop() {
		if err := JSON(io.Discard, in); err != nil {
			b.Fatal(err)
		}
	}
}
