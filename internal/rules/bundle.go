package rules

import (
	"runtime"
	"strings"
	"sync"
	"weak"

	"github.com/resumelint/resumelint/internal/bundle"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// SPECTRUM-02 bundles, lint side (SPEC §3.5, seed 002). The verdict comes
// from internal/bundle, the same function `resumelint bundle verify` runs,
// so lint and verify never disagree: every rejection code is reported by
// exactly one rule below (or, for a schema violation, by RL402).

var bundleKind = []load.Kind{load.KindBundle}

var (
	BundleIncomplete = &Rule{Code: "RL401", Name: "bundle-incomplete", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "a required bundle artifact is missing, or an expected output of TASK_SPEC.json has no hash (BUNDLE_INCOMPLETE)", Run: runBundleIncomplete}
	BundleArtifactSchema = &Rule{Code: "RL402", Name: "bundle-artifact-schema", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "a bundle artifact that does not parse or violates #TaskSpec, #Status or #OutputHashes", Run: runBundleArtifactSchema}
	BundleStatus = &Rule{Code: "RL403", Name: "bundle-status", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "STATUS.json is not success/pass (STATUS_NOT_SUCCESS, CMP01_NOT_PASS), or its error contradicts its status", Run: runBundleStatus}
	BundleValidator = &Rule{Code: "RL404", Name: "bundle-validator", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "an unsupported validator_semver or an empty validator_build_id (VALIDATOR_UNSUPPORTED, VALIDATOR_BUILD_ID_MISSING)", Run: runBundleValidator}
	BundleOutputs = &Rule{Code: "RL405", Name: "bundle-outputs", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
		Summary: "a declared output that is missing, differs from its hash, or whose path is unsafe (OUTPUT_MISSING, HASH_MISMATCH, PATH_INVALID)", Run: runBundleOutputs}
	BundleForbidden = &Rule{Code: "RL406", Name: "bundle-forbidden", Severity: diag.SevError, Kinds: bundleKind, Family: "bundle",
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
	if o.Bundle.Base != "" {
		bo.Base = o.Bundle.Base
	}
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

// reportProblems reports the verdict's problems of the given codes that are
// not schema violations (RL402 reports those).
func reportProblems(p *Pass, codes ...bundle.Code) {
	for _, pr := range VerdictOf(p).Problems {
		if pr.Schema {
			continue
		}
		for _, c := range codes {
			if pr.Code == c {
				reportProblem(p, pr)
			}
		}
	}
}

func reportProblem(p *Pass, pr bundle.Problem) {
	f := &load.File{Path: p.Bundle.Folder.Path}
	if pr.Doc != nil {
		f = pr.Doc.File
	}
	fd := p.Report(f, pr.Node, "%s: %s", pr.Code, pr.Message)
	if r := pr.Related; r != nil && r.Doc != nil {
		pos := node.Pos(r.Node)
		fd.Related = append(fd.Related, diag.Related{Path: r.Doc.File.Path, Line: pos.Line, Column: pos.Col, Message: r.Message})
	}
}

func runBundleIncomplete(p *Pass) { reportProblems(p, bundle.BundleIncomplete) }

func runBundleValidator(p *Pass) {
	reportProblems(p, bundle.ValidatorUnsupported, bundle.ValidatorBuildIDMissing, bundle.ValidatorBuildMismatch)
}

func runBundleOutputs(p *Pass) {
	reportProblems(p, bundle.PathInvalid, bundle.OutputMissing, bundle.HashMismatch)
}

func runBundleStatus(p *Pass) {
	reportProblems(p, bundle.StatusNotSuccess, bundle.Cmp01NotPass)
	// Lint only (it does not change the verdict): `error` must agree with
	// `status` (seed 002 §2.2).
	d := p.Bundle.Artifacts["STATUS.json"]
	if d == nil || !node.IsMap(d.Root) {
		return
	}
	status, ok := node.Str(node.Val(d.Root, "status"))
	if !ok {
		return
	}
	ek, ev := node.Get(d.Root, "error")
	switch status {
	case "success":
		if ek != nil && !node.IsNull(ev) {
			p.Report(d.File, ev, "status is \"success\" but error is set; a successful run records \"error\": null")
		}
	case "failure", "error":
		switch {
		case ek == nil:
			p.Report(d.File, node.Val(d.Root, "status"), "status is %q but there is no error; record what went wrong as \"error\": {\"code\": …, \"message\": …}", status)
		case node.IsNull(ev):
			p.Report(d.File, ev, "status is %q but error is null; record what went wrong as {\"code\": …, \"message\": …}", status)
		}
	}
}

func runBundleForbidden(p *Pass) {
	for _, n := range VerdictOf(p).Notes {
		if n.Code != bundle.ForbiddenArtifact {
			continue
		}
		f := &load.File{Path: joinPath(p.Bundle.Folder.Path, strings.TrimSuffix(n.Path, "/"))}
		p.ReportAt(f, diag.Pos{Line: 1, Col: 1}, diag.Pos{}, "%s; remove it from the bundle (the verdict never depends on it)", n.Message)
	}
}

func joinPath(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}

var bundleDefs = map[string]string{
	"TASK_SPEC.json":     "#TaskSpec",
	"STATUS.json":        "#Status",
	"OUTPUT_HASHES.json": "#OutputHashes",
}

func runBundleArtifactSchema(p *Pass) {
	var verdict *bundle.Verdict
	for _, name := range load.BundleArtifacts {
		d := p.Bundle.Artifacts[name]
		if d == nil || d.Root == nil {
			continue // missing (RL401) or unparsable (RL001)
		}
		if !requireMapping(p, d, name) {
			continue
		}
		before := len(*p.out)
		validate(p, d.File, bundleDefs[name], d.Root, "")
		if len(*p.out) > before {
			continue
		}
		// The schema saw nothing, yet the verdict may reject the artifact
		// for a field it reads: never stay silent about a rejection.
		if verdict == nil {
			verdict = VerdictOf(p)
		}
		for _, pr := range verdict.Problems {
			if pr.Schema && pr.Doc == d {
				reportProblem(p, pr)
			}
		}
	}
}
