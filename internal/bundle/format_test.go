package bundle_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/bundle"
)

const flatHashes = `{
  "out/report.md": "715c42c3c892d33c6c4ed3e7ec134da42f5bf1ea86650ff18c0688b2f987d770"
}
`

// Another run format's folder named to verify: REJECT, with one problem
// saying what it is.
func TestOtherFormatRejected(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "JOBSPEC.json"), `{"job_id": "j1"}`)
	write(t, filepath.Join(dir, "STATUS.json"), `{"status": "succeeded", "exit_code": 0}`)
	write(t, filepath.Join(dir, "OUTPUT_HASHES.json"), flatHashes)
	write(t, filepath.Join(dir, "RESTORE_DIFF.json"), `{}`)
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.BundleIncomplete)
	if len(v.Problems) != 1 || len(v.Notes) != 0 {
		t.Fatalf("want one problem and no notes:\n%s%+v", describe(v), v.Notes)
	}
	for _, part := range []string{"not a SPECTRUM-02 bundle", "flat {path: hash} map", "no cmp01", "JOBSPEC.json"} {
		if !strings.Contains(v.Problems[0].Message, part) {
			t.Errorf("message %q lacks %q", v.Problems[0].Message, part)
		}
	}
}

// A flat map where the seed's object is expected is one cause: the codes
// the procedure fails, and one lint finding.
func TestFlatHashesInBundle(t *testing.T) {
	dir, a := newBundle(t, reportOutputs)
	a.hashes = nil
	a.write(t, dir)
	write(t, filepath.Join(dir, "OUTPUT_HASHES.json"), flatHashes)
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.ValidatorUnsupported, bundle.ValidatorBuildIDMissing)
	got := lintCodes(t, dir)
	if strings.Count(got, "\n") != 1 || !strings.Contains(got, "RL404") || !strings.Contains(got, "flat {path: hash} map") {
		t.Errorf("lint: want one RL404 finding, got\n%s", got)
	}
}

// Keys written relative to the repository root: with the bundle folder as
// the base, one hint per bundle; with none set, the keys tell the root; and
// outside a work tree the root is found from the keys themselves.
func TestRepositoryRelativeKeys(t *testing.T) {
	repo := t.TempDir()
	dir := filepath.Join(repo, "runs", "r1")
	outputs := map[string]string{"runs/r1/out/a.txt": "a\n", "runs/r1/out/b.txt": "b\n"}
	for p, c := range outputs {
		write(t, filepath.Join(repo, filepath.FromSlash(p)), c)
	}
	validArtifacts(outputs).write(t, dir)
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.OutputMissing)
	if len(v.Problems) != 1 || !strings.Contains(v.Problems[0].Message, "none of the 2 declared outputs") ||
		!strings.Contains(v.Problems[0].Message, "bundle.base: repo") {
		t.Errorf("want one hint:\n%s", describe(v))
	}
	// With no base set, lint reads keys that all start with the bundle's
	// own path as relative to the root they name: no finding.
	if got := lintCodes(t, dir); strings.Contains(got, "RL405") {
		t.Errorf("lint: want no RL405 finding, got\n%s", got)
	}
	// The configured root is elsewhere (the working directory): the root
	// is the folder the keys name the bundle from.
	o := opts()
	o.Base, o.RepoRoot = bundle.BaseRepo, t.TempDir()
	wantCodes(t, verify(t, dir, o))
	write(t, filepath.Join(repo, "runs", "r1", "out", "a.txt"), "tampered\n")
	wantCodes(t, verify(t, dir, o), bundle.HashMismatch)
	// Told from the keys, the root is no boundary wider than the bundle:
	// a key that lies elsewhere under it is not looked at.
	a := validArtifacts(outputs)
	write(t, filepath.Join(repo, "build", "c.txt"), "c\n")
	a.hashes["hashes"].(map[string]any)["build/c.txt"] = digest("c\n")
	a.write(t, dir)
	v = verify(t, dir, o)
	if p := problem(t, v, bundle.PathInvalid, "build/c.txt"); !strings.Contains(p.Message, "outside the bundle folder") {
		t.Errorf("message: %s", p.Message)
	}
	validArtifacts(outputs).write(t, dir)
	// Not every output missing from the bundle folder: reported one by one.
	write(t, filepath.Join(dir, "runs", "r1", "out", "b.txt"), "b\n")
	v = verify(t, dir, opts())
	if p := problem(t, v, bundle.OutputMissing, "runs/r1/out/a.txt"); len(v.Problems) != 1 || !strings.Contains(p.Message, "it exists in the repository root") {
		t.Errorf("want one problem with a hint:\n%s", describe(v))
	}
}

// The reference system's TASK_SPEC names its outputs outputs.durable_paths;
// a folder there covers the keys inside it.
func TestDurablePaths(t *testing.T) {
	dir, a := newBundle(t, reportOutputs)
	a.task = map[string]any{"task": "t", "outputs": map[string]any{"durable_paths": []string{"out/report.md", "out/nested", "out/chart.png"}}}
	a.write(t, dir)
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.BundleIncomplete)
	if p := problem(t, v, bundle.BundleIncomplete, "out/chart.png"); len(v.Problems) != 1 {
		t.Errorf("want only %q:\n%s", p.Key, describe(v))
	}
}
