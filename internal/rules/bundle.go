package rules

import (
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// SPECTRUM-02 bundles, lint side (SPEC §3.5, seed 002).

var BundleArtifactSchema = &Rule{Code: "RL402", Name: "bundle-artifact-schema", Severity: diag.SevError, Kinds: []load.Kind{load.KindBundle}, Family: "bundle",
	Summary: "a bundle artifact that does not parse or violates #TaskSpec, #Status or #OutputHashes", Run: runBundleArtifactSchema}

func init() { Register(BundleArtifactSchema) }

var bundleDefs = map[string]string{
	"TASK_SPEC.json":     "#TaskSpec",
	"STATUS.json":        "#Status",
	"OUTPUT_HASHES.json": "#OutputHashes",
}

func runBundleArtifactSchema(p *Pass) {
	for _, name := range load.BundleArtifacts {
		d := p.Bundle.Artifacts[name]
		if d == nil || d.Root == nil {
			continue // missing (RL401) or unparsable (RL001)
		}
		if !requireMapping(p, d, name) {
			continue
		}
		validate(p, d.File, bundleDefs[name], d.Root, "")
	}
}
