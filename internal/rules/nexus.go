package rules

import (
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// precompact_state.json and resume-context.md (SPEC §3.4, seed 004).

var (
	PrecompactSchema = &Rule{Code: "RL301", Name: "precompact-schema", Severity: diag.SevError, Kinds: []load.Kind{load.KindPrecompact}, Family: "nexus",
		Summary: "a violation of #PrecompactState", Run: runPrecompactSchema}
	FrontMatter = &Rule{Code: "RL310", Name: "frontmatter", Severity: diag.SevError, Kinds: []load.Kind{load.KindResumeContext}, Family: "nexus",
		Summary: "no YAML front matter, or one not closed by ---"}
	ResumeContextSchema = &Rule{Code: "RL311", Name: "resume-context-schema", Severity: diag.SevError, Kinds: []load.Kind{load.KindResumeContext}, Family: "nexus",
		Summary: "a violation of #ResumeContext", Run: runResumeContextSchema}
)

func init() { Register(PrecompactSchema, FrontMatter, ResumeContextSchema) }

func runPrecompactSchema(p *Pass) {
	if !requireMapping(p, p.Doc, "precompact_state.json") {
		return
	}
	validate(p, p.Doc.File, "#PrecompactState", p.Doc.Root, "")
}

func runResumeContextSchema(p *Pass) {
	if p.Doc == nil || p.Doc.Root == nil {
		return
	}
	validate(p, p.Doc.File, "#ResumeContext", p.Doc.Root, "")
}
