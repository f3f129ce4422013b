package report

import (
	"fmt"
	"io"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// quotedFindings is a run's thousands of findings whose messages quote
// what they name, as most do, on lines of a checkpoint file.
func quotedFindings() []diag.Finding {
	fs := make([]diag.Finding, 6000)
	for i := range fs {
		fs[i] = diag.Finding{Code: "RL113", Name: "files-to-read", Severity: diag.SevError,
			Path:  fmt.Sprintf("projects/PROJ-%05d/.jerry/checkpoints/cx-001-checkpoint.json", i/3),
			Start: diag.Pos{Line: 30 + i%3, Col: 9}, End: diag.Pos{Line: 30 + i%3, Col: 61},
			Message: fmt.Sprintf("recovery_instructions.files_to_read[%d] \"projects/\u2026/resume-%05d.yaml\" resolves nowhere (tried repo root, this folder and project folder): correct or remove it", i%3, i)}
		fs[i].Snippet, fs[i].HasSnippet = fmt.Sprintf("      - \"projects/PROJ-%05d/work/resume-%05d.yaml\"  # read first", i/3, i), true
	}
	return fs
}

func BenchmarkJSON(b *testing.B) {
	in := &Input{Findings: quotedFindings(), Checked: 10000, Version: "dev"}
	for b.Loop() {
		if err := JSON(io.Discard, in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkText(b *testing.B) {
	in := &Input{Findings: quotedFindings(), Checked: 10000, Version: "dev"}
	for b.Loop() {
		if err := Text(io.Discard, in); err != nil {
			b.Fatal(err)
		}
	}
}
