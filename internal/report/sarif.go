package report

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/resumelint/resumelint/docs"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
)

// HelpURI is where a rule's documentation page is published.
func HelpURI(code string) string {
	return docs.RuleURL(code)
}

// SARIF 2.1.0 (OASIS), the subset GitHub code scanning reads. Columns
// count Unicode code points, as resumelint's do.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	Invocations        []sarifInvocation                `json:"invocations"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult                    `json:"results"`
	ColumnKind         string                           `json:"columnKind"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level          string             `json:"level"`
	Message        sarifText          `json:"message"`
	Descriptor     *sarifDescriptorID `json:"descriptor,omitempty"`
	AssociatedRule *sarifDescriptorID `json:"associatedRule,omitempty"`
}

type sarifDescriptorID struct {
	ID    string `json:"id"`
	Index *int   `json:"index,omitempty"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string           `json:"id"`
	Name                 string           `json:"name"`
	ShortDescription     sarifText        `json:"shortDescription"`
	FullDescription      sarifMultiformat `json:"fullDescription"`
	Help                 sarifMultiformat `json:"help"`
	HelpURI              string           `json:"helpUri"`
	DefaultConfiguration sarifRuleConfig  `json:"defaultConfiguration"`
	Properties           map[string]any   `json:"properties,omitempty"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           *int              `json:"ruleIndex,omitempty"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI         string     `json:"uri"`
	URIBaseID   string     `json:"uriBaseId,omitempty"`
	Description *sarifText `json:"description,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// FingerprintKey names resumelint's entry in partialFingerprints. GitHub
// code scanning does not use it: it tracks alerts by the
// primaryLocationLineHash that github/codeql-action/upload-sarif computes
// from the source line. Other SARIF consumers may use it.
const FingerprintKey = "resumelint/v1"

// MaxSARIFResults is the most results GitHub code scanning accepts in one
// run; SARIF keeps errors before warnings past it and says how many it
// dropped in a tool execution notification.
const MaxSARIFResults = 25000

// SrcRoot is the uriBaseId result URIs are relative to: the repository root.
const SrcRoot = "%SRCROOT%"

// internalCode is the engine's code for an internal failure (code.Internal).
const internalCode = code.Internal

// SARIF writes one SARIF 2.1.0 log. rel maps a finding's display path to
// the repository-relative URI (resolved against %SRCROOT%, which
// originalUriBaseIds maps to in.Root when it is set).
func SARIF(w io.Writer, in *Input, rel func(string) string) error {
	return writeSARIF(w, in, rel, MaxSARIFResults)
}

func writeSARIF(w io.Writer, in *Input, rel func(string) string, limit int) error {
	index := map[string]int{}
	driver := sarifDriver{Name: "resumelint", Version: in.Version, InformationURI: "https://github.com/resumelint/resumelint", Rules: []sarifRule{}}
	for i, r := range in.Rules {
		index[r.Code] = i
		full, page := r.Description, r.Help
		if full == "" {
			full = r.Summary
		}
		if page == "" {
			page = r.Summary
		}
		driver.Rules = append(driver.Rules, sarifRule{ID: r.Code, Name: r.Name, ShortDescription: sarifText{r.Summary},
			FullDescription: sarifMultiformat{Text: full, Markdown: full},
			Help:            sarifMultiformat{Text: page, Markdown: page},
			HelpURI:         r.HelpURI, DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(r.Severity)},
			Properties: ruleProperties(r)})
	}
	inv := sarifInvocation{ExecutionSuccessful: true}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}, ColumnKind: "unicodeCodePoints"}
	if in.Root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{SrcRoot: {URI: dirURI(in.Root), Description: &sarifText{"the repository root"}}}
	}
	keep, dropped := capResults(in.Findings, limit)
	// Two findings of one rule at one node share a fingerprint; an
	// occurrence number tells them apart, as CodeQL does.
	occurrence := map[string]int{}
	for i := range in.Findings {
		f := &in.Findings[i]
		var ri *int
		if n, ok := index[f.Code]; ok {
			ri = &n
		}
		if f.Path == "" {
			// Code scanning needs a location on every result: a finding
			// about no file (an internal error) is a notification.
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: sarifLevel(f.Severity),
				Message: sarifText{f.Message}, AssociatedRule: &sarifDescriptorID{ID: f.Code, Index: ri}})
			if f.Code == internalCode {
				inv.ExecutionSuccessful = false
			}
			continue
		}
		p := rel(f.Path)
		fp := diag.Fingerprint(f, p)
		occurrence[fp]++
		if !keep[i] {
			continue
		}
		res := sarifResult{RuleID: f.Code, RuleIndex: ri, Level: sarifLevel(f.Severity), Message: sarifText{f.Message}}
		res.Locations = []sarifLocation{{PhysicalLocation: physical(p, f.Start, f.End)}}
		res.PartialFingerprints = map[string]string{FingerprintKey: fp + ":" + strconv.Itoa(occurrence[fp])}
		for j, r := range f.Related {
			if r.Path == "" {
				continue
			}
			id := j
			pos := diag.Pos{Line: r.Line, Col: r.Column}
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{ID: &id, PhysicalLocation: physical(rel(r.Path), pos, pos), Message: &sarifText{r.Message}})
		}
		run.Results = append(run.Results, res)
	}
	if dropped > 0 {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, sarifNotification{Level: "warning",
			Message: sarifText{fmt.Sprintf("%s dropped: GitHub code scanning accepts at most %d results per run, so the first %d (errors before warnings, in path order) are written; --format json or text lists every finding",
				plural(dropped, "result", "results"), limit, len(run.Results))},
			Descriptor: &sarifDescriptorID{ID: "results-limit"}})
	}
	run.Invocations = []sarifInvocation{inv}
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// capResults picks at most limit of the findings that become results
// (those with a path): errors first, then warnings, each in path order.
// It returns which to keep and how many it dropped.
func capResults(fs []diag.Finding, limit int) ([]bool, int) {
	keep := make([]bool, len(fs))
	n := 0
	for pass := 0; pass < 2; pass++ {
		for i := range fs {
			if fs[i].Path == "" || (fs[i].Severity == diag.SevError) != (pass == 0) {
				continue
			}
			if n < limit {
				keep[i] = true
				n++
			}
		}
	}
	dropped := 0
	for i := range fs {
		if fs[i].Path != "" && !keep[i] {
			dropped++
		}
	}
	return keep, dropped
}

// dirURI is the file: URI of a folder, ending in '/' as SARIF requires of
// a base URI.
func dirURI(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x on Windows
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// RulePage returns a rule's description (the first paragraph of its page
// under docs/rules, on one line) and the whole page, as `resumelint
// explain` prints it; both empty when the rule has no page.
func RulePage(code string) (full, page string) {
	if strings.ContainsAny(code, "/\\.") {
		return "", ""
	}
	data, err := fs.ReadFile(docs.Rules, "rules/"+code+".md")
	if err != nil {
		return "", ""
	}
	return firstParagraph(string(data)), strings.TrimRight(string(data), "\n") + "\n"
}

// securitySeverity scores the rules that find security problems, in
// GitHub's scale (9.0 and above critical, 7.0 high): a credential stored
// in a committed file is high.
var securitySeverity = map[string]string{code.SecretLeak: "8.0"}

// NewRuleInfo describes a rule for the output formats: its description
// and help from its page under docs/rules, its help URI, and for a
// security rule the "security" tag and its score.
func NewRuleInfo(code, name, summary string, sev diag.Severity, tags ...string) RuleInfo {
	full, page := RulePage(code)
	sec := securitySeverity[code]
	if sec != "" {
		tags = append(slices.Clone(tags), "security")
	}
	return RuleInfo{Code: code, Name: name, Summary: summary, Severity: sev, Tags: tags,
		Description: full, Help: page, HelpURI: HelpURI(code), SecuritySeverity: sec}
}

// ruleProperties is a SARIF rule descriptor's property bag: its tags,
// and the security-severity code scanning reads for security rules.
func ruleProperties(r RuleInfo) map[string]any {
	p := map[string]any{"tags": slices.Clone(r.Tags)}
	if r.SecuritySeverity != "" {
		p["security-severity"] = r.SecuritySeverity
	}
	return p
}

// firstParagraph is the first paragraph of a rule page that is neither
// the title nor the severity line, its lines joined by spaces.
func firstParagraph(page string) string {
	for _, para := range strings.Split(strings.ReplaceAll(page, "\r\n", "\n"), "\n\n") {
		para = strings.TrimSpace(para)
		if para == "" || strings.HasPrefix(para, "#") || strings.HasPrefix(para, "**Severity:**") {
			continue
		}
		return strings.Join(strings.Fields(para), " ")
	}
	return ""
}

func physical(uri string, start, end diag.Pos) sarifPhysicalLocation {
	// A relative URI reference (spaces and the like percent-encoded)
	// against the repository root; a file outside it gets a file: URI.
	loc := sarifArtifactLocation{URI: relativeURI(uri), URIBaseID: SrcRoot}
	if filepath.IsAbs(filepath.FromSlash(uri)) {
		loc = sarifArtifactLocation{URI: (&url.URL{Scheme: "file", Path: "/" + strings.TrimPrefix(filepath.ToSlash(uri), "/")}).String()}
	}
	pl := sarifPhysicalLocation{ArtifactLocation: loc}
	if start.Line < 1 {
		return pl
	}
	reg := &sarifRegion{StartLine: start.Line, StartColumn: max(start.Col, 1)}
	if end.Line >= start.Line {
		reg.EndLine = end.Line
		reg.EndColumn = end.Col
	} else {
		reg.EndLine = start.Line
	}
	// SARIF's endColumn is exclusive; an empty region would hide the
	// annotation, so a point covers one character.
	if reg.EndLine == reg.StartLine && reg.EndColumn <= reg.StartColumn {
		reg.EndColumn = reg.StartColumn + 1
	}
	pl.Region = reg
	return pl
}

// relativeURI is a relative URI reference for a /-separated path, with
// spaces and the like percent-encoded. A first segment holding ':' (a
// folder named "https:") would read as a scheme, so it gets "./".
func relativeURI(p string) string {
	u := (&url.URL{Path: p}).EscapedPath()
	first, _, _ := strings.Cut(u, "/")
	if strings.Contains(first, ":") {
		u = "./" + u
	}
	return u
}

func sarifLevel(s diag.Severity) string {
	if s == diag.SevError {
		return "error"
	}
	return "warning"
}
