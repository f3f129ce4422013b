package bundle_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/bundle"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// Seed 002 §7: every test builds a real bundle on disk and runs the real
// decision; nothing about the trust decision is mocked.

func digest(content string) string {
	h := sha256.Sum256([]byte(content))
	return "sha256:" + hex.EncodeToString(h[:])
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	write(t, path, string(data)+"\n")
}

// artifacts are the three required files of a bundle, as maps so tests can
// break any field.
type artifacts struct {
	task, status, hashes map[string]any
}

func validArtifacts(outputs map[string]string) artifacts {
	hs := map[string]any{}
	var expected []string
	for p, c := range outputs {
		hs[p] = digest(c)
		expected = append(expected, p)
	}
	slices.Sort(expected)
	return artifacts{
		task: map[string]any{"task_id": "build-report", "inputs": []string{"data/in.csv"}, "expected_outputs": expected,
			"constraints": map[string]any{}, "created_at": "2026-02-20T10:00:00Z"},
		status: map[string]any{"status": "success", "cmp01": "pass", "completed_at": "2026-02-20T10:05:00Z", "error": nil},
		hashes: map[string]any{"validator_semver": "1.0.0", "validator_build_id": "git:abc1234",
			"generated_at": "2026-02-20T10:05:01Z", "hashes": hs},
	}
}

func (a artifacts) write(t *testing.T, dir string) {
	t.Helper()
	if a.task != nil {
		writeJSON(t, filepath.Join(dir, "TASK_SPEC.json"), a.task)
	}
	if a.status != nil {
		writeJSON(t, filepath.Join(dir, "STATUS.json"), a.status)
	}
	if a.hashes != nil {
		writeJSON(t, filepath.Join(dir, "OUTPUT_HASHES.json"), a.hashes)
	}
}

// newBundle writes outputs and matching artifacts into a fresh folder.
func newBundle(t *testing.T, outputs map[string]string) (string, artifacts) {
	t.Helper()
	dir := t.TempDir()
	for p, c := range outputs {
		write(t, filepath.Join(dir, filepath.FromSlash(p)), c)
	}
	a := validArtifacts(outputs)
	a.write(t, dir)
	return dir, a
}

var reportOutputs = map[string]string{
	"out/report.md":     "# Report\n\nAll checks passed.\n",
	"out/data.csv":      "id,value\n1,42\n2,17\n",
	"out/nested/a.json": `{"ok": true}` + "\n",
}

// verify runs the decision with a deadline: a FIFO or a device must never
// make it block.
func verify(t *testing.T, dir string, o bundle.Options) *bundle.Verdict {
	t.Helper()
	done := make(chan *bundle.Verdict, 1)
	go func() { done <- bundle.VerifyDir(dir, o) }()
	select {
	case v := <-done:
		return v
	case <-time.After(20 * time.Second):
		t.Fatalf("verification of %s blocked", dir)
		return nil
	}
}

func opts() bundle.Options {
	o := bundle.DefaultOptions()
	o.Jobs = 2
	return o
}

func wantCodes(t *testing.T, v *bundle.Verdict, want ...bundle.Code) {
	t.Helper()
	wantVerdict := bundle.Reject
	if len(want) == 0 {
		wantVerdict = bundle.Accept
	}
	if v.Verdict != wantVerdict || !slices.Equal(v.Codes, want) {
		t.Fatalf("verdict %s %v, want %s %v\n%s", v.Verdict, v.Codes, wantVerdict, want, describe(v))
	}
	if len(want) > 0 {
		for _, p := range v.Problems {
			if p.Message == "" {
				t.Errorf("problem %s without a message", p.Code)
			}
		}
	}
}

// describe renders everything that makes up the decision (not the notes).
func describe(v *bundle.Verdict) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s %v\n", v.Verdict, v.Codes)
	for _, p := range v.Problems {
		fmt.Fprintf(&sb, "  %s %s %q: %s\n", p.Code, p.File, p.Key, p.Message)
	}
	return sb.String()
}

func problem(t *testing.T, v *bundle.Verdict, code bundle.Code, key string) bundle.Problem {
	t.Helper()
	for _, p := range v.Problems {
		if p.Code == code && (key == "" || p.Key == key) {
			return p
		}
	}
	t.Fatalf("no %s problem for %q in\n%s", code, key, describe(v))
	return bundle.Problem{}
}

// §7 item 1: a valid bundle is accepted with no history at all.
func TestValidBundleAcceptedWithoutHistory(t *testing.T) {
	dir, _ := newBundle(t, reportOutputs)
	v := verify(t, dir, opts())
	wantCodes(t, v)
	if len(v.Notes) != 0 {
		t.Errorf("notes on a clean bundle: %+v", v.Notes)
	}
}

// §7 item 2: an output changed after the bundle was written.
func TestHashMismatchRejected(t *testing.T) {
	dir, _ := newBundle(t, reportOutputs)
	write(t, filepath.Join(dir, "out", "data.csv"), "id,value\n1,42\n2,18\n")
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.HashMismatch)
	p := problem(t, v, bundle.HashMismatch, "out/data.csv")
	if p.Actual != digest("id,value\n1,42\n2,18\n") || p.Declared != digest(reportOutputs["out/data.csv"]) {
		t.Errorf("declared %s, actual %s", p.Declared, p.Actual)
	}
	if want := fmt.Sprintf("declared %s…, file has %s…", p.Declared[:19], p.Actual[:19]); !strings.Contains(p.Message, want) {
		t.Errorf("message %q does not say %q", p.Message, want)
	}
}

// A file larger than the read buffer is streamed, not truncated.
func TestLargeOutputStreamed(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 3<<16+7) // about 3 MiB, not a multiple of the buffer
	dir, _ := newBundle(t, map[string]string{"out/big.bin": big})
	wantCodes(t, verify(t, dir, opts()))
	write(t, filepath.Join(dir, "out", "big.bin"), big[:len(big)-1]+"X")
	wantCodes(t, verify(t, dir, opts()), bundle.HashMismatch)
}

// §7 item 3: a declared output that does not exist.
func TestMissingOutputRejected(t *testing.T) {
	dir, _ := newBundle(t, reportOutputs)
	if err := os.Remove(filepath.Join(dir, "out", "report.md")); err != nil {
		t.Fatal(err)
	}
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.OutputMissing)
	problem(t, v, bundle.OutputMissing, "out/report.md")
}

// §7 item 4: hashes bound to a validator version that is not supported.
func TestValidatorVersionMismatchRejected(t *testing.T) {
	for _, semver := range []string{"2.0.0", "0.9.0", "1.0"} {
		dir, a := newBundle(t, reportOutputs)
		a.hashes["validator_semver"] = semver
		a.write(t, dir)
		v := verify(t, dir, opts())
		wantCodes(t, v, bundle.ValidatorUnsupported)
	}
	// The supported set is configuration.
	dir, a := newBundle(t, reportOutputs)
	a.hashes["validator_semver"] = "2.0.0"
	a.write(t, dir)
	o := opts()
	o.Semvers = []string{"2.0.0"}
	wantCodes(t, verify(t, dir, o))
}

func TestValidatorBuildID(t *testing.T) {
	for name, id := range map[string]any{"empty": "", "blank": "  ", "null": nil} {
		t.Run(name, func(t *testing.T) {
			dir, a := newBundle(t, reportOutputs)
			a.hashes["validator_build_id"] = id
			a.write(t, dir)
			wantCodes(t, verify(t, dir, opts()), bundle.ValidatorBuildIDMissing)
		})
	}
	t.Run("absent", func(t *testing.T) {
		dir, a := newBundle(t, reportOutputs)
		delete(a.hashes, "validator_build_id")
		a.write(t, dir)
		wantCodes(t, verify(t, dir, opts()), bundle.ValidatorBuildIDMissing)
	})
	t.Run("strict", func(t *testing.T) {
		dir, _ := newBundle(t, reportOutputs)
		o := opts()
		o.Strict, o.ExpectBuildID = true, "git:fff0000"
		wantCodes(t, verify(t, dir, o), bundle.ValidatorBuildMismatch)
		o.ExpectBuildID = "git:abc1234"
		wantCodes(t, verify(t, dir, o))
		// Not strict: a different build is fine.
		o.Strict = false
		o.ExpectBuildID = "git:fff0000"
		wantCodes(t, verify(t, dir, o))
	})
}

func TestStatus(t *testing.T) {
	dir, a := newBundle(t, reportOutputs)
	a.status["status"] = "failure"
	a.status["error"] = map[string]any{"code": "E_TIMEOUT", "message": "step 3 timed out"}
	a.write(t, dir)
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.StatusNotSuccess)
	if p := problem(t, v, bundle.StatusNotSuccess, ""); !strings.Contains(p.Message, "E_TIMEOUT") {
		t.Errorf("message does not quote the error: %s", p.Message)
	}

	dir, a = newBundle(t, reportOutputs)
	a.status["cmp01"] = "fail"
	a.write(t, dir)
	wantCodes(t, verify(t, dir, opts()), bundle.Cmp01NotPass)
}

// Every failing code is reported, in procedure order, whatever order the
// problems are found in.
func TestEveryCodeInProcedureOrder(t *testing.T) {
	dir, a := newBundle(t, reportOutputs)
	a.status["status"] = "error"
	a.status["cmp01"] = "fail"
	a.hashes["validator_semver"] = "9.9.9"
	a.hashes["validator_build_id"] = "git:old"
	hs := a.hashes["hashes"].(map[string]any)
	hs["../escape.txt"] = digest("x")
	hs["out/gone.txt"] = digest("gone")
	hs["aaa-first.txt"] = digest("also gone") // sorts before the mismatching and invalid keys
	hs["out/nested/a.json"] = strings.ToUpper(digest(reportOutputs["out/nested/a.json"]))
	a.task["expected_outputs"] = []string{"out/report.md", "out/summary.pdf"}
	a.write(t, dir)
	write(t, filepath.Join(dir, "out", "report.md"), "tampered\n")
	o := opts()
	o.Strict, o.ExpectBuildID = true, "git:new"
	v := verify(t, dir, o)
	wantCodes(t, v, bundle.BundleIncomplete, bundle.StatusNotSuccess, bundle.Cmp01NotPass, bundle.ValidatorUnsupported,
		bundle.ValidatorBuildMismatch, bundle.PathInvalid, bundle.OutputMissing, bundle.HashMismatch)
	// Problems follow the codes' order too.
	last := -1
	for _, p := range v.Problems {
		i := slices.Index(bundle.Codes, p.Code)
		if i < last {
			t.Fatalf("problems out of procedure order:\n%s", describe(v))
		}
		last = i
	}
	problem(t, v, bundle.BundleIncomplete, "out/summary.pdf")
	problem(t, v, bundle.OutputMissing, "aaa-first.txt")
	problem(t, v, bundle.OutputMissing, "out/gone.txt")
}

func TestBundleIncomplete(t *testing.T) {
	for _, name := range load.BundleArtifacts {
		t.Run(name, func(t *testing.T) {
			dir, _ := newBundle(t, reportOutputs)
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			v := verify(t, dir, opts())
			wantCodes(t, v, bundle.BundleIncomplete)
			if p := problem(t, v, bundle.BundleIncomplete, ""); p.File != name {
				t.Errorf("problem names %s, want %s", p.File, name)
			}
		})
	}
	t.Run("expected output without hash", func(t *testing.T) {
		dir, a := newBundle(t, reportOutputs)
		a.task["expected_outputs"] = []string{"out/report.md", "./out/data.csv", "out/chart.png"}
		a.write(t, dir)
		v := verify(t, dir, opts())
		wantCodes(t, v, bundle.BundleIncomplete)
		problem(t, v, bundle.BundleIncomplete, "out/chart.png")
	})
	t.Run("folders covered by the keys inside them", func(t *testing.T) {
		dir, a := newBundle(t, reportOutputs)
		a.task["expected_outputs"] = []string{"out", "out/nested", "./out/nested/", "ou", "out/nested/a", "out/rep", "out/data.csv/x", "outx"}
		a.write(t, dir)
		v := verify(t, dir, opts())
		var keys []string
		for _, p := range v.Problems {
			if p.Code == bundle.BundleIncomplete {
				keys = append(keys, p.Key)
			}
		}
		if want := []string{"ou", "out/nested/a", "out/rep", "out/data.csv/x", "outx"}; !slices.Equal(keys, want) {
			t.Errorf("uncovered outputs %q, want %q", keys, want)
		}
	})
}

// The seed's code wherever one fits (SPEC §3.5): a field step 1 or 2
// reads that is missing or of another type fails that step's check, and a
// malformed digest equals no file's.
func TestSeedCodes(t *testing.T) {
	cases := map[string]struct {
		breakIt func(a artifacts)
		want    []bundle.Code
	}{
		"status missing":        {func(a artifacts) { delete(a.status, "status") }, []bundle.Code{bundle.StatusNotSuccess}},
		"status succeeded":      {func(a artifacts) { a.status["status"] = "succeeded" }, []bundle.Code{bundle.StatusNotSuccess}},
		"status null":           {func(a artifacts) { a.status["status"] = nil }, []bundle.Code{bundle.StatusNotSuccess}},
		"cmp01 missing":         {func(a artifacts) { delete(a.status, "cmp01") }, []bundle.Code{bundle.Cmp01NotPass}},
		"cmp01 not a string":    {func(a artifacts) { a.status["cmp01"] = true }, []bundle.Code{bundle.Cmp01NotPass}},
		"both":                  {func(a artifacts) { a.status["status"] = "failed"; a.status["cmp01"] = "PASS" }, []bundle.Code{bundle.StatusNotSuccess, bundle.Cmp01NotPass}},
		"semver a number":       {func(a artifacts) { a.hashes["validator_semver"] = 1.0 }, []bundle.Code{bundle.ValidatorUnsupported}},
		"semver missing":        {func(a artifacts) { delete(a.hashes, "validator_semver") }, []bundle.Code{bundle.ValidatorUnsupported}},
		"digest uppercase":      {func(a artifacts) { a.hashes["hashes"].(map[string]any)["out/data.csv"] = strings.ToUpper(digest("x")) }, []bundle.Code{bundle.HashMismatch}},
		"digest without prefix": {func(a artifacts) { a.hashes["hashes"].(map[string]any)["out/data.csv"] = digest("x")[7:] }, []bundle.Code{bundle.HashMismatch}},
		"digest a number":       {func(a artifacts) { a.hashes["hashes"].(map[string]any)["out/data.csv"] = 42 }, []bundle.Code{bundle.HashMismatch}},
		"digest of a missing file": {func(a artifacts) { a.hashes["hashes"].(map[string]any)["out/none.csv"] = "md5:1" },
			[]bundle.Code{bundle.OutputMissing}},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir, a := newBundle(t, reportOutputs)
			c.breakIt(a)
			a.write(t, dir)
			wantCodes(t, verify(t, dir, opts()), c.want...)
		})
	}
}

// ARTIFACT_INVALID only where no seed code describes the failure.
func TestArtifactInvalid(t *testing.T) {
	cases := map[string]func(a artifacts){
		"build id a number": func(a artifacts) { a.hashes["validator_build_id"] = 1234 },
		"hashes missing":    func(a artifacts) { delete(a.hashes, "hashes") },
		"hashes a list":     func(a artifacts) { a.hashes["hashes"] = []string{"out/report.md"} },
	}
	for name, breakIt := range cases {
		t.Run(name, func(t *testing.T) {
			dir, a := newBundle(t, reportOutputs)
			breakIt(a)
			a.write(t, dir)
			wantCodes(t, verify(t, dir, opts()), bundle.ArtifactInvalid)
		})
	}
	t.Run("does not parse", func(t *testing.T) {
		dir, _ := newBundle(t, reportOutputs)
		write(t, filepath.Join(dir, "STATUS.json"), `{"status": "success", "cmp01": "pass",`)
		v := verify(t, dir, opts())
		wantCodes(t, v, bundle.ArtifactInvalid)
		if p := problem(t, v, bundle.ArtifactInvalid, ""); !strings.Contains(p.Message, "JSON") {
			t.Errorf("message does not say why: %s", p.Message)
		}
	})
	t.Run("duplicate status", func(t *testing.T) {
		dir, _ := newBundle(t, reportOutputs)
		write(t, filepath.Join(dir, "STATUS.json"), `{"status": "failure", "cmp01": "pass", "completed_at": "2026-02-20T10:05:00Z", "status": "success"}`)
		wantCodes(t, verify(t, dir, opts()), bundle.ArtifactInvalid)
	})
	t.Run("duplicate hashes key", func(t *testing.T) {
		dir, _ := newBundle(t, map[string]string{"a.txt": "a"})
		write(t, filepath.Join(dir, "OUTPUT_HASHES.json"), fmt.Sprintf(`{"validator_semver": "1.0.0", "validator_build_id": "git:abc1234", "generated_at": "2026-02-20T10:05:01Z",
  "hashes": {"a.txt": %q, "a.txt": %q}}`, digest("a"), digest("b")))
		wantCodes(t, verify(t, dir, opts()), bundle.ArtifactInvalid)
	})
	t.Run("fields the procedure does not read", func(t *testing.T) {
		dir, a := newBundle(t, reportOutputs)
		delete(a.status, "completed_at")
		delete(a.hashes, "generated_at")
		a.task = map[string]any{"task": "older layout"}
		a.status["extra"] = "kept"
		a.write(t, dir)
		wantCodes(t, verify(t, dir, opts()))
	})
}

// §7 item 5 and §6.1: the verdict depends only on the three artifacts and
// the declared outputs' bytes; logs, tmp, transcripts and the like are
// noted, never decisive, while lint still reports them (RL406).
func TestVerdictIndependentOfHistory(t *testing.T) {
	history := map[string]string{
		"logs/run.log":                    "10:00 started\n10:05 done\n",
		"tmp/scratch.bin":                 "partial",
		"chat_transcript.md":              "user: go\nassistant: done\n",
		"reasoning_trace.jsonl":           `{"step": 1}` + "\n",
		"restore_snapshot.tar":            "snapshot",
		"EXECUTION_ORDER.json":            `["a", "b"]`,
		"core.dump":                       "\x00\x01",
		"checkpoints/cx-001.json":         `{"checkpoint_id": "cx-001"}`,
		"out/nested/debug/stacktrace.txt": "panic",
		"chat_history.json":               `[{"role": "user"}]`,
		"intermediate_state.json":         `{"step": 3}`,
	}
	for _, broken := range []bool{false, true} {
		clean, _ := newBundle(t, reportOutputs)
		noisy, _ := newBundle(t, reportOutputs)
		for p, c := range history {
			write(t, filepath.Join(noisy, filepath.FromSlash(p)), c)
		}
		if broken {
			for _, dir := range []string{clean, noisy} {
				write(t, filepath.Join(dir, "out", "data.csv"), "tampered")
			}
		}
		vc, vn := verify(t, clean, opts()), verify(t, noisy, opts())
		if describe(vc) != describe(vn) {
			t.Fatalf("verdict depends on history:\nwithout:\n%swith:\n%s", describe(vc), describe(vn))
		}
		if broken {
			wantCodes(t, vn, bundle.HashMismatch)
		} else {
			wantCodes(t, vn)
		}
		var noted []string
		for _, n := range vn.Notes {
			if n.Code != bundle.ForbiddenArtifact {
				t.Errorf("unexpected note %+v", n)
			}
			noted = append(noted, n.Path)
		}
		slices.Sort(noted)
		want := []string{"EXECUTION_ORDER.json", "chat_history.json", "chat_transcript.md", "checkpoints/", "core.dump", "intermediate_state.json", "logs/", "out/nested/debug/", "reasoning_trace.jsonl", "restore_snapshot.tar", "tmp/"}
		if !slices.Equal(noted, want) {
			t.Errorf("notes %v, want %v", noted, want)
		}
		if len(vc.Notes) != 0 {
			t.Errorf("notes on the clean bundle: %+v", vc.Notes)
		}
		// Lint reports them as RL406 errors.
		got := lintCodes(t, noisy)
		if n := strings.Count(got, "RL406"); n != len(want) {
			t.Errorf("lint reported %d RL406 findings, want %d: %s", n, len(want), got)
		}
	}
}

// A declared output is an output, not a forbidden artifact.
func TestDeclaredOutputNotForbidden(t *testing.T) {
	dir, _ := newBundle(t, map[string]string{"logs/summary.log": "declared output\n", "debug.txt": "also declared"})
	v := verify(t, dir, opts())
	wantCodes(t, v)
	if len(v.Notes) != 0 {
		t.Errorf("declared outputs noted as forbidden: %+v", v.Notes)
	}
}

func lintCodes(t *testing.T, dir string) string {
	t.Helper()
	disc, err := load.Discover([]string{dir}, load.DiscoverOptions{Cwd: dir, Root: dir, NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	res := engine.Run(disc, nil, engine.Settings{Opts: rules.Options{Now: time.Date(2026, 6, 21, 0, 0, 0, 0, time.UTC), Limits: load.DefaultLimits, RepoRoot: dir, Cwd: dir}})
	var sb strings.Builder
	for _, f := range res.Findings {
		fmt.Fprintf(&sb, "%s %s %s\n", f.Code, f.Path, f.Message)
	}
	return sb.String()
}

// Lint and verify agree: every rejection code appears as a lint finding.
func TestLintAgreesWithVerify(t *testing.T) {
	dir, a := newBundle(t, reportOutputs)
	a.status["status"] = "failure"
	a.status["error"] = map[string]any{"code": "E1", "message": "failed"}
	a.hashes["validator_semver"] = "3.0.0"
	a.hashes["validator_build_id"] = ""
	a.hashes["hashes"].(map[string]any)["../x"] = digest("x")
	a.task["expected_outputs"] = []string{"out/missing.txt"}
	a.write(t, dir)
	write(t, filepath.Join(dir, "out", "data.csv"), "changed")
	if err := os.Remove(filepath.Join(dir, "out", "report.md")); err != nil {
		t.Fatal(err)
	}
	v := verify(t, dir, opts())
	got := lintCodes(t, dir)
	for _, c := range v.Codes {
		if !strings.Contains(got, string(c)+":") {
			t.Errorf("lint does not report %s:\n%s", c, got)
		}
	}
}

// The declared order of hashes and the number of workers do not change the
// decision.
func TestOrderAndJobsIndependent(t *testing.T) {
	outputs := map[string]string{}
	for i := range 40 {
		outputs[fmt.Sprintf("out/f%02d.txt", i)] = strings.Repeat(fmt.Sprint(i), i*1000+1)
	}
	dir, _ := newBundle(t, outputs)
	write(t, filepath.Join(dir, "out", "f07.txt"), "x")
	os.Remove(filepath.Join(dir, "out", "f31.txt"))
	var first string
	for _, jobs := range []int{1, 2, 8} {
		o := opts()
		o.Jobs = jobs
		o.Progress = &bundle.Progress{}
		v := verify(t, dir, o)
		wantCodes(t, v, bundle.OutputMissing, bundle.HashMismatch)
		if first == "" {
			first = describe(v)
		} else if describe(v) != first {
			t.Fatalf("jobs=%d changed the verdict:\n%s\nvs\n%s", jobs, describe(v), first)
		}
		if o.Progress.DoneFiles.Load() != 39 || o.Progress.TotalFiles.Load() != 39 {
			t.Errorf("progress counted %d/%d files, want 39", o.Progress.DoneFiles.Load(), o.Progress.TotalFiles.Load())
		}
	}
	// Reverse the key order in the file itself.
	keys := make([]string, 0, len(outputs))
	for k := range outputs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.Reverse(keys)
	var sb strings.Builder
	sb.WriteString(`{"validator_semver": "1.0.0", "validator_build_id": "git:abc1234", "generated_at": "2026-02-20T10:05:01Z", "hashes": {`)
	for i, k := range keys {
		if i > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%q: %q", k, digest(outputs[k]))
	}
	sb.WriteString("}}")
	write(t, filepath.Join(dir, "OUTPUT_HASHES.json"), sb.String())
	if got := describe(verify(t, dir, opts())); got != first {
		t.Fatalf("key order changed the verdict:\n%s\nvs\n%s", got, first)
	}
}

func TestBaseRepo(t *testing.T) {
	repo := t.TempDir()
	write(t, filepath.Join(repo, "build", "out.txt"), "built\n")
	dir := filepath.Join(repo, "runs", "r1")
	a := validArtifacts(nil)
	a.hashes["hashes"] = map[string]any{"build/out.txt": digest("built\n")}
	a.task["expected_outputs"] = []string{"build/out.txt"}
	a.write(t, dir)
	o := opts()
	o.Base, o.RepoRoot = bundle.BaseRepo, repo
	wantCodes(t, verify(t, dir, o))
	// Relative to the bundle folder the output does not exist, and the
	// message points at the other base.
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.OutputMissing)
	o = opts()
	o.RepoRoot = repo
	v = verify(t, dir, o)
	if p := problem(t, v, bundle.OutputMissing, ""); len(v.Problems) != 1 || !strings.Contains(p.Message, "--bundle-base repo") {
		t.Errorf("no single hint at the repository base:\n%s", describe(v))
	}
	// With base repo, ".." may not leave the repository either.
	a.hashes["hashes"] = map[string]any{"../outside.txt": digest("x")}
	a.task["expected_outputs"] = []string{"../outside.txt"}
	a.write(t, dir)
	o.Base = bundle.BaseRepo
	wantCodes(t, verify(t, dir, o), bundle.PathInvalid)
}

func TestParseBase(t *testing.T) {
	for _, ok := range []string{"bundle", "repo"} {
		if _, err := bundle.ParseBase(ok); err != nil {
			t.Errorf("ParseBase(%q): %v", ok, err)
		}
	}
	if _, err := bundle.ParseBase("root"); err == nil {
		t.Error("ParseBase accepted root")
	}
	if err := bundle.ValidatePatterns(bundle.DefaultForbidden); err != nil {
		t.Error(err)
	}
	if err := bundle.ValidatePatterns([]string{"[abc"}); err == nil {
		t.Error("ValidatePatterns accepted an unclosed class")
	}
}
