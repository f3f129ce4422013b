package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/cli"
	"github.com/resumelint/resumelint/internal/report"
	"github.com/resumelint/resumelint/test/golden"
)

// One root cause, one finding (SPEC §0): two rules that report the same
// line of a file almost always report one cause twice. Every golden input
// is linted with every rule on (opt-in rules too); a pair of codes on one
// line fails this test unless it is listed here with the reason both are
// wanted.
var intendedPairs = map[[2]string]string{
	{"RL005", "RL102"}: "a credential pasted into a field: the leak and the broken field are two fixes (remove and rotate; restore the value)",
	{"RL005", "RL007"}: "a credential pasted into a suppression: the leak and the directive naming no rule are two fixes (remove and rotate; name the rule)",
	{"RL005", "RL104"}: "a credential pasted as last_checkpoint: the leak and the wrong checkpoint id are two fixes (remove and rotate; set the latest id)",
	{"RL005", "RL010"}: "a credential pasted as a key: the leak and the key no reader knows are two fixes (remove and rotate; remove the key)",
	{"RL005", "RL113"}: "a credential pasted into a path to read: the leak and the path that resolves nowhere are two fixes (remove and rotate; correct the path)",
	{"RL005", "RL403"}: "a credential pasted into a failed status: the leak and the failed run are two matters (remove and rotate; rerun the task)",
	{"RL005", "RL405"}: "a credential pasted into an output's name: the leak and the missing output are two fixes (remove and rotate; produce the output or correct its key)",
	{"RL102", "RL115"}: "a half-migrated section: v1 fields left over (RL115) and v2 sub-sections still missing (RL102) are two edits",
}

func TestOneRootCauseOneFinding(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	all := allCodes(t)
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			doc := lintGoldenInputs(t, path, all)
			if doc == nil {
				return
			}
			byLine := map[lineAt]map[string]string{}
			for _, f := range doc.Findings {
				k := lineAt{f.Path, f.Line}
				if byLine[k] == nil {
					byLine[k] = map[string]string{}
				}
				byLine[k][f.Code] = f.Message
			}
			causePairs(t, doc, byLine)
			for k, codes := range byLine {
				var cs []string
				for c := range codes {
					cs = append(cs, c)
				}
				sort.Strings(cs)
				for i := range cs {
					for j := i + 1; j < len(cs); j++ {
						pair := [2]string{cs[i], cs[j]}
						if _, ok := intendedPairs[pair]; ok {
							continue
						}
						t.Errorf("%s:%d: %s and %s report one line:\n  %s: %s\n  %s: %s\n(one cause, one finding; list the pair in intendedPairs if both are meant)",
							k.path, k.line, cs[i], cs[j], cs[i], codes[cs[i]], cs[j], codes[cs[j]])
					}
				}
			}
		})
	}
}

// lineAt is a line of a file.
type lineAt struct {
	path string
	line int
}

// causePrecedence is the order in which rules that can speak of one stale
// field or phase own it (docs/architecture.md, "Lifecycle and one cause"):
// the status against the record (RL106), then gates against phases and
// counters (RL122), next actions (RL120), the resumption's prose (RL118).
// A rule later in the order stays silent on a cause an earlier one
// reports (for a finished record: rules.FinishedContradicted).
var causePrecedence = []string{"RL106", "RL122", "RL118", "RL120"}

// causePairs fails when two of the causePrecedence rules report one
// cause: the evidence one finding points at (a related position) is the
// very line another finding of those rules reports.
func causePairs(t *testing.T, doc *report.JSONDoc, byLine map[lineAt]map[string]string) {
	t.Helper()
	ranked := map[string]bool{}
	for _, c := range causePrecedence {
		ranked[c] = true
	}
	for _, f := range doc.Findings {
		if !ranked[f.Code] {
			continue
		}
		for _, r := range f.Related {
			path := r.Path
			if path == "" {
				path = f.Path
			}
			for code, msg := range byLine[lineAt{path, r.Line}] {
				if code != f.Code && ranked[code] {
					t.Errorf("%s:%d: %s points at line %d, which %s reports: one cause, two findings:\n  %s: %s\n  %s: %s\n(the later rule in causePrecedence must stay silent)",
						f.Path, f.Line, f.Code, r.Line, code, f.Code, f.Message, code, msg)
				}
			}
		}
	}
}

// allCodes lists every rule, for --enable: opt-in rules must not cascade
// either.
func allCodes(t *testing.T) string {
	var stdout, stderr bytes.Buffer
	c := &cli.Command{Stdout: &stdout, Stderr: &stderr, Cwd: ".", Getenv: func(string) string { return "" }}
	if code := c.Main([]string{"rules", "--format", "json"}); code != 0 {
		t.Fatalf("rules: %s", stderr.String())
	}
	var rs []struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rs); err != nil {
		t.Fatal(err)
	}
	codes := make([]string, len(rs))
	for i, r := range rs {
		codes[i] = r.Code
	}
	return strings.Join(codes, ",")
}

// lintGoldenInputs writes the input files of a golden case into a fresh
// folder and lints them with every rule on. It returns nil for a case with
// no input files or whose configuration is the point (exit 2, no JSON).
func lintGoldenInputs(t *testing.T, path, all string) *report.JSONDoc {
	t.Helper()
	dir := writeGoldenInputs(t, path)
	if dir == "" {
		return nil
	}
	var doc report.JSONDoc
	if json.Unmarshal(lintAllJSON(dir, all), &doc) != nil {
		return nil
	}
	return &doc
}

// lintAllJSON is the JSON report of a lint of dir with the rules of all on.
func lintAllJSON(dir, all string) []byte {
	var stdout, stderr bytes.Buffer
	env := map[string]string{"NO_COLOR": "1", "SOURCE_DATE_EPOCH": "1782000000"}
	c := &cli.Command{Stdout: &stdout, Stderr: &stderr, Cwd: dir, Getenv: func(k string) string { return env[k] }}
	c.Main([]string{"lint", "--format", "json", "--enable", all, "."})
	return stdout.Bytes()
}

// writeGoldenInputs writes a golden case's input files into a new folder
// and returns it, or "" when the case has none.
func writeGoldenInputs(t *testing.T, path string) string {
	t.Helper()
	ar, err := golden.Archive(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	inputs := 0
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want") || strings.HasSuffix(f.Name, ".txt") || strings.HasSuffix(f.Name, ".diff") {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs++
	}
	if inputs == 0 {
		return ""
	}
	return dir
}

// goldenCases are the golden cases whose names match pattern; none is a
// failure, since a test over none passes without checking anything.
func goldenCases(t *testing.T, pattern string) []string {
	t.Helper()
	cases, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", pattern))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases %s: %v", pattern, err)
	}
	return cases
}

// TestSameReportEveryRun lints the inputs of every golden case, every rule
// on, three times: a rule that picks what it reports from a map's order
// (which changes from run to run) gives another report, and a baseline
// another fingerprint.
func TestSameReportEveryRun(t *testing.T) {
	cases := goldenCases(t, "*.txtar")
	all := allCodes(t)
	for _, path := range cases {
		dir := writeGoldenInputs(t, path)
		if dir == "" {
			continue
		}
		first := lintAllJSON(dir, all)
		for range 2 {
			if again := lintAllJSON(dir, all); !bytes.Equal(again, first) {
				t.Errorf("%s: two lints of the same files differ:\n%s\n---\n%s", filepath.Base(path), first, again)
				break
			}
		}
	}
}

// stateRules report one stale field or phase once between them, in the
// order RL106, RL122, RL118, RL120 (docs/rules/RL122.md).
var stateRules = map[string]bool{"RL106": true, "RL118": true, "RL120": true, "RL122": true}

// TestOneCauseAcrossStateRules lints the cascade cases (golden files named
// *_one_cause*, one cause per input file) with every rule on: each file
// gets at most one finding of the state rules.
func TestOneCauseAcrossStateRules(t *testing.T) {
	cases := goldenCases(t, "*_one_cause*.txtar")
	all := allCodes(t)
	for _, path := range cases {
		doc := lintGoldenInputs(t, path, all)
		if doc == nil {
			t.Fatalf("%s: no findings document", path)
		}
		byFile := map[string][]string{}
		for _, f := range doc.Findings {
			if stateRules[f.Code] {
				byFile[f.Path] = append(byFile[f.Path], f.Code+": "+f.Message)
			}
		}
		if len(byFile) == 0 {
			t.Errorf("%s: no state-rule finding at all", path)
		}
		for file, fs := range byFile {
			if len(fs) > 1 {
				t.Errorf("%s: %d state-rule findings for one cause:\n  %s", file, len(fs), strings.Join(fs, "\n  "))
			}
		}
	}
}
