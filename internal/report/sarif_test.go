package report

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cuejson "cuelang.org/go/encoding/json"
	"cuelang.org/go/encoding/jsonschema"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/rules"
)

func identity(p string) string { return p }

var (
	sarifOnce   sync.Once
	sarifSchema cue.Value
	sarifErr    error
)

// officialSARIF decodes the OASIS SARIF 2.1.0 JSON Schema (a copy of the
// official file) into a CUE value.
func officialSARIF(t *testing.T) cue.Value {
	t.Helper()
	sarifOnce.Do(func() {
		data, err := os.ReadFile("testdata/sarif-schema-2.1.0.json")
		if err != nil {
			sarifErr = err
			return
		}
		ctx := cuecontext.New()
		expr, err := cuejson.Extract("sarif-schema-2.1.0.json", data)
		if err != nil {
			sarifErr = err
			return
		}
		f, err := jsonschema.Extract(ctx.BuildExpr(expr), &jsonschema.Config{})
		if err != nil {
			sarifErr = err
			return
		}
		sarifSchema = ctx.BuildFile(f)
		sarifErr = sarifSchema.Err()
	})
	if sarifErr != nil {
		t.Fatalf("decoding the SARIF schema: %v", sarifErr)
	}
	return sarifSchema
}

// validateSARIF unifies a SARIF document with the official schema.
func validateSARIF(t *testing.T, doc []byte) error {
	t.Helper()
	s := officialSARIF(t)
	expr, err := cuejson.Extract("out.sarif", doc)
	if err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	return s.Unify(s.Context().BuildExpr(expr)).Validate(cue.Concrete(true))
}

func sampleFindings() *Input {
	f1 := diag.Finding{Code: "RL102", Name: "resumption-schema", Severity: diag.SevError, Path: "a b/ORCHESTRATION.yaml",
		Start: diag.Pos{Line: 36, Col: 18}, End: diag.Pos{Line: 36, Col: 27},
		Message:  `resumption.compaction_events.events[0].trigger: "scheduled" is not one of auto, manual`,
		NodePath: "resumption.compaction_events.events[0].trigger", NodeHash: "0123456789abcdef",
		Related: []diag.Related{{Path: ".jerry/checkpoints/cx-001.json", Line: 2, Column: 3, Message: "the checkpoint"}}}
	f2 := diag.Finding{Code: "RL006", Name: "timestamp-format", Severity: diag.SevWarning, Path: "p/resume-context.md",
		Start: diag.Pos{Line: 9, Col: 15}, End: diag.Pos{Line: 9, Col: 15}, Message: `last_updated "2026-02-20 21:00" has no time zone`}
	f3 := diag.Finding{Code: "RL000", Name: "internal-error", Severity: diag.SevError, Message: "internal error in rule RL999"}
	return &Input{Findings: []diag.Finding{f1, f2, f3}, Version: "v1.2.3", Checked: 2}
}

func TestSARIFValidatesAgainstTheOfficialSchema(t *testing.T) {
	var buf bytes.Buffer
	if err := SARIF(&buf, sampleFindings(), identity); err != nil {
		t.Fatal(err)
	}
	if err := validateSARIF(t, buf.Bytes()); err != nil {
		t.Fatalf("SARIF output does not validate: %v\n%s", err, buf.String())
	}
	// The validation can fail: a result without a message is rejected.
	bad := strings.Replace(buf.String(), `"message": {`, `"message_": {`, 1)
	if err := validateSARIF(t, []byte(bad)); err == nil {
		t.Fatal("the schema accepted a result without a message: the validation checks nothing")
	}
	// So can an unknown level.
	bad = strings.Replace(buf.String(), `"level": "warning"`, `"level": "loud"`, 1)
	if err := validateSARIF(t, []byte(bad)); err == nil {
		t.Fatal("the schema accepted level \"loud\"")
	}
}

func TestSARIFContent(t *testing.T) {
	var buf bytes.Buffer
	if err := SARIF(&buf, sampleFindings(), identity); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID, Name, HelpURI    string
						ShortDescription     struct{ Text string }
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex *int
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				RelatedLocations    []json.RawMessage
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	all := rules.All()
	if len(run.Tool.Driver.Rules) != len(all) {
		t.Fatalf("%d rules in tool.driver.rules, %d registered", len(run.Tool.Driver.Rules), len(all))
	}
	for i, r := range run.Tool.Driver.Rules {
		if r.ID != all[i].Code || r.Name != all[i].Name || r.ShortDescription.Text == "" || r.HelpURI != HelpURI(r.ID) || r.DefaultConfiguration.Level == "" {
			t.Errorf("rule %d: %+v", i, r)
		}
	}
	res := run.Results[0]
	if res.RuleID != "RL102" || res.RuleIndex == nil || run.Tool.Driver.Rules[*res.RuleIndex].ID != "RL102" || res.Level != "error" {
		t.Errorf("result 0: %+v", res)
	}
	loc := res.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "a%20b/ORCHESTRATION.yaml" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Errorf("artifact location: %+v", loc.ArtifactLocation)
	}
	if loc.Region.StartLine != 36 || loc.Region.StartColumn != 18 || loc.Region.EndLine != 36 || loc.Region.EndColumn != 27 {
		t.Errorf("region: %+v", loc.Region)
	}
	if len(res.RelatedLocations) != 1 || len(res.PartialFingerprints[FingerprintKey]) != 34 {
		t.Errorf("related %d, fingerprints %v", len(res.RelatedLocations), res.PartialFingerprints)
	}
	// A point finding still covers one character.
	if r := run.Results[1].Locations[0].PhysicalLocation.Region; r.EndColumn != r.StartColumn+1 || run.Results[1].Level != "warning" {
		t.Errorf("point region: %+v", r)
	}
	// An internal error names no rule of the catalog and no file.
	if run.Results[2].RuleIndex != nil || len(run.Results[2].Locations) != 0 {
		t.Errorf("internal error result: %+v", run.Results[2])
	}
}

func TestSARIFFingerprintSurvivesMovedLines(t *testing.T) {
	fp := func(line int, msg string) string {
		in := sampleFindings()
		in.Findings = in.Findings[1:2]
		in.Findings[0].Start.Line, in.Findings[0].End.Line, in.Findings[0].Message = line, line, msg
		var buf bytes.Buffer
		if err := SARIF(&buf, in, identity); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Results []struct{ PartialFingerprints map[string]string }
			}
		}
		if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		return log.Runs[0].Results[0].PartialFingerprints[FingerprintKey]
	}
	a := fp(9, "updated_at is older than the checkpoint at line 12")
	if b := fp(10, "updated_at is older than the checkpoint at line 13"); a != b {
		t.Errorf("fingerprint changed with the line: %s != %s", a, b)
	}
	if c := fp(9, "updated_at is older than the phase start at line 12"); a == c {
		t.Error("a different problem has the same fingerprint")
	}
}

func TestSARIFFingerprintOccurrences(t *testing.T) {
	in := sampleFindings()
	twin := in.Findings[0]
	twin.Message = "another problem at the same node"
	in.Findings = []diag.Finding{in.Findings[0], twin}
	var buf bytes.Buffer
	if err := SARIF(&buf, in, identity); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct{ PartialFingerprints map[string]string }
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	a, b := log.Runs[0].Results[0].PartialFingerprints[FingerprintKey], log.Runs[0].Results[1].PartialFingerprints[FingerprintKey]
	if a == b || a[:32] != b[:32] || !strings.HasSuffix(a, ":1") || !strings.HasSuffix(b, ":2") {
		t.Errorf("two findings at one node: %s and %s", a, b)
	}
}

// A folder named "https:" must not turn a repository path into an
// absolute URI that points anywhere.
func TestSARIFColonInFirstSegmentStaysRelative(t *testing.T) {
	for in, want := range map[string]string{
		"https:/evil.example/ORCHESTRATION.yaml": "./https:/evil.example/ORCHESTRATION.yaml",
		"c:/ORCHESTRATION.yaml":                  "./c:/ORCHESTRATION.yaml",
		"a:b.yaml":                               "./a:b.yaml",
		"dir/a:b.yaml":                           "dir/a:b.yaml",
		"with space/ORCHESTRATION.yaml":          "with%20space/ORCHESTRATION.yaml",
	} {
		got := relativeRef(in)
		if got != want {
			t.Errorf("relativeRef(%q) = %q, want %q", in, got, want)
		}
		u, err := url.Parse(got)
		if err != nil || u.IsAbs() || u.Scheme != "" {
			t.Errorf("relativeRef(%q) = %q parses as an absolute URI (%v)", in, got, err)
		}
	}
}
