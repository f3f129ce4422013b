package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cuejson "cuelang.org/go/encoding/json"
	"cuelang.org/go/encoding/jsonschema"

	"github.com/resumelint/resumelint/docs"
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
	return s.Unify(cuecontext.New().BuildExpr(expr)).Validate(cue.Concrete(true))
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
	return &Input{Findings: []diag.Finding{f1, f2, f3}, Version: "v1.2.3", Checked: 2, Rules: catalog()}
}

// catalog describes the registered rules, as the command does.
func catalog() []RuleInfo {
	var out []RuleInfo
	for _, r := range rules.All() {
		out = append(out, NewRuleInfo(r.Code, r.Name, r.Summary, r.Severity, r.Family))
	}
	return out
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
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct {
					Level          string
					Message        struct{ Text string }
					AssociatedRule struct{ ID string }
				}
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
	// An internal error names no file: code scanning rejects a result
	// without a location, so it is a notification of a failed run.
	if len(run.Results) != 2 {
		t.Errorf("%d results, want 2 (the internal error is a notification)", len(run.Results))
	}
	inv := run.Invocations
	if len(inv) != 1 || inv[0].ExecutionSuccessful || len(inv[0].ToolExecutionNotifications) != 1 {
		t.Fatalf("invocations: %+v", inv)
	}
	if n := inv[0].ToolExecutionNotifications[0]; n.Level != "error" || n.AssociatedRule.ID != "RL000" || n.Message.Text != "internal error in rule RL999" {
		t.Errorf("notification: %+v", n)
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
		got := relativeURI(in)
		if got != want {
			t.Errorf("relativeURI(%q) = %q, want %q", in, got, want)
		}
		u, err := url.Parse(got)
		if err != nil || u.IsAbs() || u.Scheme != "" {
			t.Errorf("relativeURI(%q) = %q parses as an absolute URI (%v)", in, got, err)
		}
	}
}

// sarifDoc decodes a SARIF log loosely, for the property checks.
func sarifDoc(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	return doc
}

// get walks a decoded JSON document by keys and indexes.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

func nonEmpty(v any) bool { s, ok := v.(string); return ok && s != "" }

// githubProblems lists what GitHub code scanning requires of an uploaded
// SARIF file beyond the schema ("SARIF support for code scanning": the
// properties it documents as required) and the output misses.
func githubProblems(doc map[string]any) []string {
	var out []string
	runs, _ := doc["runs"].([]any)
	if doc["version"] != "2.1.0" || len(runs) == 0 {
		return []string{"not a SARIF 2.1.0 log with a run"}
	}
	for ri, run := range runs {
		if !nonEmpty(get(run, "tool", "driver", "name")) {
			out = append(out, fmt.Sprintf("run %d: tool.driver.name", ri))
		}
		ruleIDs := map[string]bool{}
		rules, _ := get(run, "tool", "driver", "rules").([]any)
		for i, r := range rules {
			id, _ := get(r, "id").(string)
			ruleIDs[id] = true
			for _, p := range [][]any{{"id"}, {"shortDescription", "text"}, {"fullDescription", "text"}, {"help", "text"}, {"help", "markdown"}, {"helpUri"}} {
				if !nonEmpty(get(r, p...)) {
					out = append(out, fmt.Sprintf("rule %d (%s): %v", i, id, p))
				}
			}
			switch get(r, "defaultConfiguration", "level") {
			case "note", "warning", "error":
			default:
				out = append(out, fmt.Sprintf("rule %s: defaultConfiguration.level", id))
			}
		}
		results, _ := get(run, "results").([]any)
		if len(results) > MaxSARIFResults {
			out = append(out, fmt.Sprintf("run %d: %d results, more than %d", ri, len(results), MaxSARIFResults))
		}
		for i, res := range results {
			if id, _ := get(res, "ruleId").(string); !ruleIDs[id] {
				out = append(out, fmt.Sprintf("result %d: ruleId %q names no rule in tool.driver.rules", i, id))
			}
			if !nonEmpty(get(res, "message", "text")) {
				out = append(out, fmt.Sprintf("result %d: message.text", i))
			}
			locs, _ := get(res, "locations").([]any)
			if len(locs) == 0 || len(locs) > 10 {
				out = append(out, fmt.Sprintf("result %d: %d locations, want 1 to 10", i, len(locs)))
			}
			for j, loc := range locs {
				uri, _ := get(loc, "physicalLocation", "artifactLocation", "uri").(string)
				u, err := url.Parse(uri)
				if uri == "" || err != nil || u.Scheme != "" || strings.HasPrefix(uri, "/") {
					out = append(out, fmt.Sprintf("result %d location %d: uri %q is not a relative reference", i, j, uri))
				}
				if line, _ := get(loc, "physicalLocation", "region", "startLine").(float64); line < 1 {
					out = append(out, fmt.Sprintf("result %d location %d: region.startLine", i, j))
				}
			}
			if _, ok := get(res, "partialFingerprints").(map[string]any); !ok {
				out = append(out, fmt.Sprintf("result %d: partialFingerprints", i))
			}
		}
	}
	return out
}

func TestSARIFHasWhatGitHubRequires(t *testing.T) {
	in := sampleFindings()
	in.Root = "/src/repo"
	var buf bytes.Buffer
	if err := SARIF(&buf, in, identity); err != nil {
		t.Fatal(err)
	}
	doc := sarifDoc(t, buf.Bytes())
	if p := githubProblems(doc); len(p) > 0 {
		t.Errorf("GitHub code scanning would miss:\n%s", strings.Join(p, "\n"))
	}
	// The check can fail.
	bad := strings.Replace(buf.String(), `"fullDescription"`, `"fullDescription_"`, 1)
	if p := githubProblems(sarifDoc(t, []byte(bad))); len(p) == 0 {
		t.Error("a rule without fullDescription passed the check")
	}
	if got := get(doc, "runs", 0, "originalUriBaseIds", "%SRCROOT%", "uri"); got != "file:///src/repo/" {
		t.Errorf("originalUriBaseIds: %v", got)
	}
	// help holds the rule's page, as `resumelint explain` prints it.
	rl107 := get(doc, "runs", 0, "tool", "driver", "rules", indexOf(t, "RL107"))
	page, err := fs.ReadFile(docs.Rules, "rules/RL107.md")
	if err != nil {
		t.Fatal(err)
	}
	if md, _ := get(rl107, "help", "markdown").(string); strings.TrimSpace(md) != strings.TrimSpace(string(page)) {
		t.Errorf("RL107 help.markdown is not its page:\n%s", md)
	}
	if full, _ := get(rl107, "fullDescription", "text").(string); !strings.HasPrefix(full, "`recovery_state.updated_at` is earlier than a state transition") || strings.Contains(full, "\n") {
		t.Errorf("RL107 fullDescription: %q", full)
	}
	if err := validateSARIF(t, buf.Bytes()); err != nil {
		t.Fatalf("SARIF output does not validate: %v", err)
	}
}

func indexOf(t *testing.T, code string) int {
	for i, r := range rules.All() {
		if r.Code == code {
			return i
		}
	}
	t.Fatalf("no rule %s", code)
	return -1
}

func TestSARIFRelativeURIs(t *testing.T) {
	for p, want := range map[string]string{
		"https:/x/ORCHESTRATION.yaml": "./https:/x/ORCHESTRATION.yaml",
		"a:b/x.json":                  "./a:b/x.json",
		"a/b:c/x.json":                "a/b:c/x.json",
		"a b/x.yaml":                  "a%20b/x.yaml",
		"50%/x.yaml":                  "50%25/x.yaml",
		"ORCHESTRATION.yaml":          "ORCHESTRATION.yaml",
	} {
		got := relativeURI(p)
		if got != want {
			t.Errorf("relativeURI(%q) = %q, want %q", p, got, want)
		}
		// Resolved against a base, it stays inside the base.
		base, _ := url.Parse("file:///repo/")
		ref, err := url.Parse(got)
		if err != nil || ref.Scheme != "" {
			t.Errorf("%q parses as %+v (%v)", got, ref, err)
			continue
		}
		if r := base.ResolveReference(ref); !strings.HasPrefix(r.String(), "file:///repo/") || r.Path != "/repo/"+p {
			t.Errorf("%q resolves to %s", got, r)
		}
	}
}

func TestSARIFCapsResults(t *testing.T) {
	in := &Input{Version: "v1"}
	const warnings, errs = 24990, 30
	for i := 0; i < warnings; i++ {
		in.Findings = append(in.Findings, diag.Finding{Code: "RL006", Name: "timestamp-format", Severity: diag.SevWarning,
			Path: fmt.Sprintf("a/%05d/resume-context.md", i), Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2}, Message: "w"})
	}
	for i := 0; i < errs; i++ {
		in.Findings = append(in.Findings, diag.Finding{Code: "RL102", Name: "resumption-schema", Severity: diag.SevError,
			Path: fmt.Sprintf("b/%02d/ORCHESTRATION.yaml", i), Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2}, Message: "e"})
	}
	var buf bytes.Buffer
	if err := SARIF(&buf, in, identity); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Level     string
				Locations []struct {
					PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
				}
			}
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct {
					Level   string
					Message struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Results) != MaxSARIFResults {
		t.Fatalf("%d results, want %d", len(run.Results), MaxSARIFResults)
	}
	nerr := 0
	for _, r := range run.Results {
		if r.Level == "error" {
			nerr++
		}
	}
	if nerr != errs {
		t.Errorf("%d errors kept, want all %d (errors go first)", nerr, errs)
	}
	if last := run.Results[len(run.Results)-1].Locations[0].PhysicalLocation.ArtifactLocation.URI; last != "b/29/ORCHESTRATION.yaml" {
		t.Errorf("results not in path order: last is %s", last)
	}
	inv := run.Invocations
	if len(inv) != 1 || !inv[0].ExecutionSuccessful || len(inv[0].ToolExecutionNotifications) != 1 {
		t.Fatalf("invocations: %+v", inv)
	}
	if n := inv[0].ToolExecutionNotifications[0]; n.Level != "warning" || !strings.HasPrefix(n.Message.Text, "20 results dropped: GitHub code scanning accepts at most 25000 results per run") {
		t.Errorf("notification: %+v", n)
	}

	// At the limit nothing is dropped and nothing is said.
	in.Findings = in.Findings[:5]
	buf.Reset()
	if err := writeSARIF(&buf, in, identity, 5); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "toolExecutionNotifications") || strings.Count(buf.String(), `"ruleId"`) != 5 {
		t.Error("at exactly the limit, results were dropped or a notification written")
	}
}

func TestSARIFCapNotificationValidates(t *testing.T) {
	in := sampleFindings()
	var buf bytes.Buffer
	if err := writeSARIF(&buf, in, identity, 1); err != nil {
		t.Fatal(err)
	}
	if err := validateSARIF(t, buf.Bytes()); err != nil {
		t.Fatalf("a capped log does not validate: %v\n%s", err, buf.String())
	}
	if !strings.Contains(buf.String(), "1 result dropped") {
		t.Errorf("no notification:\n%s", buf.String())
	}
}

// TestSARIFSecurityRule: RL005's descriptor carries the "security" tag
// and a security-severity, as code scanning reads them for security
// alerts; other rules carry neither, and the log still validates.
func TestSARIFSecurityRule(t *testing.T) {
	in := sampleFindings()
	in.Findings = append(in.Findings, diag.Finding{Code: "RL005", Name: "secret-leak", Severity: diag.SevError,
		Path: "ORCHESTRATION.yaml", Start: diag.Pos{Line: 8, Col: 36}, End: diag.Pos{Line: 8, Col: 76},
		Message: "a stripe-access-token (gitleaks rule) is stored here (value hidden); remove it from the file and rotate the credential"})
	var buf bytes.Buffer
	if err := SARIF(&buf, in, identity); err != nil {
		t.Fatal(err)
	}
	if err := validateSARIF(t, buf.Bytes()); err != nil {
		t.Fatalf("SARIF output does not validate: %v", err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID         string         `json:"id"`
						Properties map[string]any `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		tags := fmt.Sprint(r.Properties["tags"])
		sev, has := r.Properties["security-severity"]
		if r.ID != "RL005" {
			if has || strings.Contains(tags, "security") {
				t.Errorf("%s: properties %v, want no security tag or severity", r.ID, r.Properties)
			}
			continue
		}
		found = true
		if sev != "8.0" || !strings.Contains(tags, "security") {
			t.Errorf("RL005: properties %v, want tags with \"security\" and security-severity \"8.0\"", r.Properties)
		}
	}
	if !found {
		t.Fatal("no RL005 descriptor")
	}
}
