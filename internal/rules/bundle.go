package rules

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/bundle"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/model"
	"github.com/resumelint/resumelint/internal/node"
)

// SPECTRUM-02 bundles, lint side (SPEC §3.5, seed 002). The verdict comes
// from internal/bundle, the same function `resumelint bundle verify` runs,
// so lint and verify never disagree: every rejection code is reported by
// exactly one rule below (or, for a schema violation, by RL402).

var bundleKind = []load.Kind{load.KindBundle}

var (
	BundleIncomplete = &Rule{Code: code.BundleIncomplete, Name: "bundle-incomplete", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "a required bundle artifact is missing, or an expected output of TASK_SPEC.json has no hash (BUNDLE_INCOMPLETE)", Run: runBundleIncomplete}
	BundleArtifactSchema = &Rule{Code: code.BundleArtifactSchema, Name: "bundle-artifact-schema", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "a bundle field the procedure reads that cannot be read (ARTIFACT_INVALID); malformed fields no verdict reads, as warnings", Run: runBundleArtifactSchema}
	BundleStatus = &Rule{Code: code.BundleStatus, Name: "bundle-status", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "STATUS.json is not success/pass (STATUS_NOT_SUCCESS, CMP01_NOT_PASS), or its error contradicts its status", Run: runBundleStatus}
	BundleValidator = &Rule{Code: code.BundleValidator, Name: "bundle-validator", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "an unsupported validator_semver or an empty validator_build_id (VALIDATOR_UNSUPPORTED, VALIDATOR_BUILD_ID_MISSING)", Run: runBundleValidator}
	BundleOutputs = &Rule{Code: code.BundleOutputs, Name: "bundle-outputs", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "a declared output that is missing, differs from its hash, or whose path is unsafe (OUTPUT_MISSING, HASH_MISMATCH, PATH_INVALID)", Run: runBundleOutputs}
	BundleForbidden = &Rule{Code: code.BundleForbidden, Name: "bundle-forbidden", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "a forbidden artifact in a bundle: logs, tmp, transcripts, reasoning traces, snapshots, debug dumps, checkpoints", Run: runBundleForbidden}
)

func init() {
	Register(BundleIncomplete, BundleArtifactSchema, BundleStatus, BundleValidator, BundleOutputs, BundleForbidden)
}

// BundleVerifyOptions turns the run's settings into verification options;
// unset settings keep bundle.DefaultOptions.
func BundleVerifyOptions(o *Options) bundle.Options {
	bo := bundle.DefaultOptions()
	if o == nil {
		return bo
	}
	// No base set: bundle.Check tells it from the keys (the bundle
	// folder, or the repository root when every key starts with the
	// bundle's own path).
	bo.Base = o.Bundle.Base
	if o.Bundle.Semvers != nil {
		bo.Semvers = o.Bundle.Semvers
	}
	if o.Bundle.Forbidden != nil {
		bo.Forbidden = o.Bundle.Forbidden
	}
	bo.RepoRoot = o.RepoRoot
	if o.Limits != (load.Limits{}) {
		bo.Limits = o.Limits
	}
	return bo
}

// verdicts caches each bundle's verdict for the rules of one unit (hashing
// the outputs once, not once per rule). Keys are weak, so a verdict goes
// away with its bundle.
var verdicts sync.Map // weak.Pointer[load.Bundle] → *bundle.Verdict

// VerdictOf returns the verdict on the pass's bundle.
func VerdictOf(p *Pass) *bundle.Verdict {
	key := weak.Make(p.Bundle)
	if v, ok := verdicts.Load(key); ok {
		return v.(*bundle.Verdict)
	}
	v := bundle.Check(p.Bundle, nil, BundleVerifyOptions(p.Opts))
	if _, loaded := verdicts.LoadOrStore(key, v); !loaded {
		runtime.AddCleanup(p.Bundle, func(k weak.Pointer[load.Bundle]) { verdicts.Delete(k) }, key)
	}
	return v
}

// reportProblems reports the verdict's problems of the given codes, one
// per cause. An artifact that could not be read is RL001/RL003/RL004's.
func reportProblems(p *Pass, codes ...bundle.Code) { reportVerdict(p, VerdictOf(p), codes...) }

// reportVerdict is reportProblems for the problems of v.
func reportVerdict(p *Pass, v *bundle.Verdict, codes ...bundle.Code) {
	seen := map[string]bool{}
	for _, pr := range v.Problems {
		// A problem shown on an artifact that could not be read is
		// RL001/RL003/RL004's, except the artifacts the bundle lacks: a
		// cause of its own, which mending the JSON leaves standing.
		if !slices.Contains(codes, pr.Code) || pr.Doc != nil && pr.Doc.Root == nil && pr.Missing == nil {
			continue
		}
		if pr.Cause != "" {
			if seen[pr.Cause] {
				continue
			}
			seen[pr.Cause] = true
			// The finding names every code its cause fails.
			var all []string
			for _, q := range v.Problems {
				if q.Cause == pr.Cause && !slices.Contains(all, string(q.Code)) {
					all = append(all, string(q.Code))
				}
			}
			pr.Code = bundle.Code(strings.Join(all, ", "))
		}
		reportProblem(p, pr)
	}
}

func reportProblem(p *Pass, pr bundle.Problem) {
	f := &load.File{Path: p.Bundle.Folder.Path}
	if pr.Doc != nil {
		f = pr.Doc.File
	}
	var rel []diag.Related
	if r := pr.Related; r != nil && r.Doc != nil {
		pos := node.Pos(r.Node)
		rel = append(rel, diag.Related{Path: r.Doc.File.Path, Line: pos.Line, Column: pos.Col, Message: r.Message})
	}
	p.Report(f, pr.Node, fmt.Sprintf("%s: %s", pr.Code, pr.Message), WithRelated(rel...))
}

func runBundleIncomplete(p *Pass) {
	v := VerdictOf(p)
	if p.Opts != nil && p.Opts.Assembling {
		// A bundle being assembled: what it still lacks is no finding yet.
		v = &bundle.Verdict{Problems: slices.DeleteFunc(slices.Clone(v.Problems), func(pr bundle.Problem) bool { return pr.Missing != nil })}
	}
	reportVerdict(p, v, bundle.BundleIncomplete)
}

func runBundleValidator(p *Pass) {
	reportProblems(p, bundle.ValidatorUnsupported, bundle.ValidatorBuildIDMissing, bundle.ValidatorBuildMismatch)
}

func runBundleOutputs(p *Pass) {
	reportProblems(p, bundle.PathInvalid, bundle.OutputMissing, bundle.HashMismatch)
}

func runBundleStatus(p *Pass) {
	reportProblems(p, bundle.StatusNotSuccess, bundle.Cmp01NotPass)
	// Lint only (the verdict does not read it): an accepted run whose
	// record carries an error contradicts itself (seed 002 §2.2), and
	// whoever reads why the run ended is misled. A failed run is rejected
	// already: what its `error` says adds no second finding.
	d := p.Bundle.Artifacts["STATUS.json"]
	if d == nil || !node.IsMap(d.Root) {
		return
	}
	if st := model.StatusOf(nil, d.Root); st.Status.Value == "success" && statusErrorSet(st.Error.Node) {
		p.Report(d.File, st.Error.Node, "status is \"success\" but error is set; record \"error\": null, or the status the run really ended with", WithSeverity(diag.SevWarning))
	}
}

// statusErrorSet reports a STATUS.json error that records one: a mapping
// (seed 002) or a message (the reference writer's form), not null or "".
func statusErrorSet(n *yaml.Node) bool {
	if node.IsString(n) {
		return n.Value != ""
	}
	// Another shape is RL402's to report, once.
	return node.IsMap(n)
}

// WithoutRestatedDuplicates drops from a bundle's findings each RL002 on a
// key that RL402 reports as ARTIFACT_INVALID (a key the procedure reads, or
// a hashes key, given twice): one cause, one finding, under the code bundle
// verify gives it. A repeated key no verdict reads stays RL002's, and so
// does every one when RL402 is off.
func WithoutRestatedDuplicates(fs []diag.Finding) []diag.Finding {
	type at struct {
		path string
		pos  diag.Pos
	}
	restated := map[at]bool{}
	for _, fd := range fs {
		if fd.Code == code.BundleArtifactSchema && strings.HasPrefix(fd.Message, string(bundle.ArtifactInvalid)+":") {
			restated[at{fd.Path, fd.Start}] = true
		}
	}
	if len(restated) == 0 {
		return fs
	}
	return slices.DeleteFunc(fs, func(fd diag.Finding) bool {
		return fd.Code == code.DuplicateKey && restated[at{fd.Path, fd.Start}]
	})
}

func runBundleForbidden(p *Pass) {
	for _, n := range VerdictOf(p).Notes {
		if n.Code != bundle.ForbiddenArtifact {
			continue
		}
		f := &load.File{Path: joinPath(p.Bundle.Folder.Path, strings.TrimSuffix(n.Path, "/"))}
		p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, fmt.Sprintf("%s: remove it from the bundle", n.Message))
	}
}

func joinPath(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}

// bundleDefs are the CUE definitions RL402 checks each artifact against:
// the fields the verdict does not read (it reports those under the seed's
// codes, once per cause).
var bundleDefs = map[string]string{
	"TASK_SPEC.json":     "#TaskSpec",
	"STATUS.json":        "#StatusFields",
	"OUTPUT_HASHES.json": "#OutputHashesFields",
}

// runBundleArtifactSchema reports ARTIFACT_INVALID (a field the procedure
// reads that cannot be read) as errors, and deviations in fields no
// verdict reads as warnings.
func runBundleArtifactSchema(p *Pass) {
	reportProblems(p, bundle.ArtifactInvalid)
	for _, name := range load.BundleArtifacts {
		d := p.Bundle.Artifacts[name]
		if d == nil || !node.IsMap(d.Root) {
			continue // missing (RL401), unreadable (RL001) or not an object (above)
		}
		if name == "OUTPUT_HASHES.json" && !seedShaped(d.Root) {
			continue // another layout altogether: one finding, RL404's
		}
		validate(p, d.File, bundleDefs[name], d.Root, "", WithSeverity(diag.SevWarning))
	}
}

// seedShaped reports an OUTPUT_HASHES.json holding one of the seed's fields.
func seedShaped(root *yaml.Node) bool {
	oh := model.OutputHashesOf(nil, root)
	return oh != nil && (oh.ValidatorSemver.Key != nil || oh.ValidatorBuildID.Key != nil || oh.Hashes.Key != nil)
}
