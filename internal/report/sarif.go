package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/rules"
)

// HelpURI is where a rule's documentation page is published.
func HelpURI(code string) string {
	return "https://github.com/resumelint/resumelint/blob/main/docs/rules/" + code + ".md"
}

// SARIF 2.1.0 (OASIS), the subset GitHub code scanning reads. Columns
// count Unicode code points, as resumelint's do.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	Results    []sarifResult `json:"results"`
	ColumnKind string        `json:"columnKind"`
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

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	HelpURI              string          `json:"helpUri"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           map[string]any  `json:"properties,omitempty"`
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
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// FingerprintKey names resumelint's entry in partialFingerprints.
const FingerprintKey = "resumelint/v1"

// SARIF writes one SARIF 2.1.0 log. rel maps a finding's display path to
// the repository-relative URI (resolved against %SRCROOT%).
func SARIF(w io.Writer, in *Input, rel func(string) string) error {
	all := rules.All()
	index := map[string]int{}
	driver := sarifDriver{Name: "resumelint", Version: in.Version, InformationURI: "https://github.com/resumelint/resumelint", Rules: []sarifRule{}}
	for i, r := range all {
		index[r.Code] = i
		driver.Rules = append(driver.Rules, sarifRule{ID: r.Code, Name: r.Name, ShortDescription: sarifText{r.Summary},
			HelpURI: HelpURI(r.Code), DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(r.Severity)},
			Properties: map[string]any{"tags": []string{r.Family}}})
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}, ColumnKind: "unicodeCodePoints"}
	// Two findings of one rule at one node share a fingerprint; an
	// occurrence number tells them apart, as CodeQL does.
	occurrence := map[string]int{}
	for i := range in.Findings {
		f := &in.Findings[i]
		res := sarifResult{RuleID: f.Code, Level: sarifLevel(f.Severity), Message: sarifText{f.Message}}
		if ri, ok := index[f.Code]; ok {
			res.RuleIndex = &ri
		}
		if f.Path != "" {
			p := rel(f.Path)
			res.Locations = []sarifLocation{{PhysicalLocation: physical(p, f.Start, f.End)}}
			fp := diag.Fingerprint(f, p)
			occurrence[fp]++
			res.PartialFingerprints = map[string]string{FingerprintKey: fp + ":" + strconv.Itoa(occurrence[fp])}
		}
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
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// relativeRef is a relative-path reference for a repository path. A first
// segment holding a colon ("https:/x.yaml", a folder named "https:") would
// read as a scheme and make the URI absolute (RFC 3986 §4.2): such a path
// is written "./https:/x.yaml".
func relativeRef(p string) string {
	esc := (&url.URL{Path: p}).EscapedPath()
	first, _, _ := strings.Cut(esc, "/")
	if strings.Contains(first, ":") {
		esc = "./" + esc
	}
	return esc
}

func physical(uri string, start, end diag.Pos) sarifPhysicalLocation {
	// A relative URI reference (spaces and the like percent-encoded)
	// against the repository root; a file outside it gets a file: URI.
	loc := sarifArtifactLocation{URI: relativeRef(uri), URIBaseID: "%SRCROOT%"}
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

func sarifLevel(s diag.Severity) string {
	if s == diag.SevError {
		return "error"
	}
	return "warning"
}
