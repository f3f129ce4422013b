package rules

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/test/golden"
)

// RL010 reads the unit's schema results; it runs no other rule: with
// RL102's Run replaced by one that fails the test, RL010 still reports
// the unknown key, and RL102 then finds the check already made.
func TestUnknownKeyRunsNoOtherRule(t *testing.T) {
	a, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", "rl010_unknown_keys.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, af := range a.Files {
		if af.Name == "ORCHESTRATION.yaml" {
			src = af.Data
		}
	}
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: src}
	doc, _ := load.Parse(f, load.FormatYAML, load.DefaultLimits)
	run := ResumptionSchema.Run
	ResumptionSchema.Run = func(*Pass) { t.Error("RL010 ran RL102") }
	var out []diag.Finding
	results := NewResults()
	p := NewPass(UnknownKey, &Options{Now: time.Now(), Limits: load.DefaultLimits}, doc, &out)
	p.Results = results
	UnknownKey.Check(p)
	ResumptionSchema.Run = run
	if len(out) == 0 || !strings.Contains(out[0].Message, "session_notes") {
		t.Fatalf("RL010 found %+v, want the unknown key session_notes first", out)
	}
	checks := len(*schemaChecks.Of(p))
	rp := NewPass(ResumptionSchema, &Options{Now: time.Now(), Limits: load.DefaultLimits}, doc, &out)
	rp.Results = results
	ResumptionSchema.Check(rp)
	if n := len(*schemaChecks.Of(rp)); n != checks || checks != 1 {
		t.Errorf("schema checks: %d after RL010, %d after RL102; want the one check shared", checks, n)
	}
}
