// Package load finds the files resumelint checks, tells their kinds apart
// and parses each once into position-carrying trees.
package load

import (
	"fmt"
	"path"
	"strings"
)

// Kind is a file or folder kind of SPEC §1.
type Kind string

const (
	KindOrchestration Kind = "orchestration"
	KindCheckpoint    Kind = "checkpoint"
	KindPrecompact    Kind = "precompact-state"
	KindResumeContext Kind = "resume-context"
	KindBundle        Kind = "bundle"
	KindAgentRun      Kind = "agent-run"
	KindUnknown       Kind = ""
)

// FileKinds are the kinds that are single files, in classification order.
var FileKinds = []Kind{KindOrchestration, KindCheckpoint, KindPrecompact, KindResumeContext}

// AllKinds lists every kind, files first.
var AllKinds = []Kind{KindOrchestration, KindCheckpoint, KindPrecompact, KindResumeContext, KindBundle, KindAgentRun}

// DefaultGlobs are the discovery patterns of SPEC §1. Folder kinds are found
// by their marker files.
var DefaultGlobs = map[Kind][]string{
	KindOrchestration: {"**/ORCHESTRATION.yaml", "**/ORCHESTRATION_*.yaml", "**/ORCHESTRATION.template.yaml"},
	KindCheckpoint:    {"**/.jerry/checkpoints/*.json"},
	KindPrecompact:    {"**/precompact_state.json"},
	KindResumeContext: {"**/resume-context.md", "**/_resume.md"},
	KindBundle:        {"**/TASK_SPEC.json", "**/OUTPUT_HASHES.json", "**/STATUS.json"},
	KindAgentRun:      {"**/.agent-memory/runs/*/**"},
}

// DefaultExclude are the patterns skipped unless the configuration's
// `exclude:` replaces them (SPEC §1): archived state is history, not work
// to resume.
var DefaultExclude = []string{"**/archive/**", "**/_archive/**"}

// BundleArtifacts are the files seed 002 §2.1 requires in a bundle.
var BundleArtifacts = []string{"TASK_SPEC.json", "STATUS.json", "OUTPUT_HASHES.json"}

// Classifier decides kinds from slash-separated paths.
type Classifier struct {
	Globs   map[Kind][]string
	Exclude []string
}

// NewClassifier returns a classifier with the default globs.
func NewClassifier() *Classifier {
	g := make(map[Kind][]string, len(DefaultGlobs))
	for k, v := range DefaultGlobs {
		g[k] = append([]string(nil), v...)
	}
	return &Classifier{Globs: g}
}

// Excluded reports whether a path matches an exclude pattern.
func (c *Classifier) Excluded(p string) bool {
	return match(c.Exclude, p)
}

// FileKind returns the single-file kind of p, or KindUnknown.
func (c *Classifier) FileKind(p string) Kind {
	for _, k := range FileKinds {
		if match(c.Globs[k], p) {
			return k
		}
	}
	return KindUnknown
}

// BundleDir returns the bundle folder that p marks, if p is a marker file.
func (c *Classifier) BundleDir(p string) (string, bool) {
	if match(c.Globs[KindBundle], p) {
		return path.Dir(p), true
	}
	return "", false
}

// Describe lists each kind with the patterns that find it, for a message
// naming what resumelint looks for.
func (c *Classifier) Describe() []string {
	out := make([]string, 0, len(AllKinds))
	for _, k := range AllKinds {
		switch k {
		case KindBundle:
			out = append(out, fmt.Sprintf("%s: the folders of %s, in the SPECTRUM-02 format", k, strings.Join(c.Globs[k], ", ")))
		case KindAgentRun:
			out = append(out, fmt.Sprintf("%s: **/.agent-memory/runs/*/", k))
		default:
			out = append(out, fmt.Sprintf("%s: %s", k, strings.Join(c.Globs[k], ", ")))
		}
	}
	return out
}

// RunDir returns the agent-run folder p lies in (".agent-memory/runs/<id>").
func RunDir(p string) (string, bool) {
	const marker = ".agent-memory/runs/"
	i := strings.Index(p, marker)
	if i < 0 || (i > 0 && p[i-1] != '/') {
		return "", false
	}
	rest := p[i+len(marker):]
	j := strings.IndexByte(rest, '/')
	if j <= 0 {
		return "", false
	}
	return p[:i+len(marker)+j], true
}

// IsTemplate reports whether a file is in template mode (SPEC §1).
func IsTemplate(p string) bool {
	return strings.Contains(path.Base(p), ".template.")
}
