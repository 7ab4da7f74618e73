package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mcp-lsp/mcp-lsp/analysis/rules"
	"github.com/mcp-lsp/mcp-lsp/lsp"
)

// The SARIF 2.1.0 reporter (`check --format sarif`), the log GitHub code
// scanning takes through github/codeql-action/upload-sarif. Only the parts
// of the format that code scanning and the official validator
// (@microsoft/sarif-multitool) use are written. Columns are UTF-16 code
// units, 1-based, end exclusive: SARIF's default columnKind, stated anyway.
// No snippet of the file is included, so no secret can leak through one.

const (
	sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
	// srcRoot is the base of every relative artifact URI: the directory
	// check ran in (the repository root in a workflow).
	srcRoot = "%SRCROOT%"
	// fingerprintKey names our partialFingerprints entry; "/v1" leaves room
	// to change what goes into it without matching old alerts wrongly.
	fingerprintKey = "mcpLspFinding/v1"
	projectURL     = "https://github.com/mcp-lsp/mcp-lsp"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult                    `json:"results"`
	ColumnKind         string                           `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name"`
	ShortDescription     sarifText          `json:"shortDescription"`
	FullDescription      sarifText          `json:"fullDescription"`
	HelpURI              string             `json:"helpUri"`
	Help                 sarifText          `json:"help"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

// sarifLevel maps a severity to SARIF's levels, which have no hint.
func sarifLevel(s rules.Severity) string {
	switch s {
	case rules.SeverityError:
		return "error"
	case rules.SeverityWarning:
		return "warning"
	}
	return "note"
}

func sarifLevelName(name string) string {
	s, _ := rules.ParseSeverity(name)
	return sarifLevel(s)
}

// sarifRules is the driver's rule list: every rule mcp-lsp has, in
// documentation order, whether or not it was found, so code scanning
// can show any rule's help.
func sarifRules() ([]sarifRule, map[string]int) {
	out := make([]sarifRule, 0, len(rules.Rules))
	index := make(map[string]int, len(rules.Rules))
	for i, r := range rules.Rules {
		index[r.Code] = i
		help := lsp.RulesDocURL + "#" + r.Code
		out = append(out, sarifRule{
			ID:                   r.Code,
			Name:                 ruleName(r.Code),
			ShortDescription:     sarifText{r.Summary},
			FullDescription:      sarifText{r.Summary},
			HelpURI:              help,
			Help:                 sarifText{r.Summary + " See " + help + "."},
			DefaultConfiguration: sarifConfiguration{sarifLevel(r.Severity)},
		})
	}
	return out, index
}

// ruleName turns a code into the PascalCase identifier SARIF wants as a
// rule name: "literal-secret" becomes "LiteralSecret".
func ruleName(code string) string {
	var b strings.Builder
	for _, part := range strings.Split(code, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func writeSARIF(w io.Writer, results []checkResult) error {
	rules, index := sarifRules()
	ver, _ := buildVersion()
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "mcp-lsp",
			InformationURI: projectURL,
			Rules:          rules,
		}},
		Results:    []sarifResult{},
		ColumnKind: "utf16CodeUnits",
	}
	// SARIF wants a version that starts with a digit: "1.2.3", not "v1.2.3".
	if ver = strings.TrimPrefix(ver, "v"); ver == "" {
		ver = "0.0.0-devel"
	}
	run.Tool.Driver.Version, run.Tool.Driver.SemanticVersion = ver, ver
	if wd, err := os.Getwd(); err == nil {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: fileURI(wd, true)}}
	}
	seen := map[string]int{}
	for _, r := range results {
		loc := sarifLocation{PhysicalLocation: sarifPhysical(r.Path, r.Range.Start.Line, r.Range.Start.Character, r.Range.End.Line, r.Range.End.Character)}
		res := sarifResult{
			RuleID:              r.Code,
			RuleIndex:           index[r.Code],
			Level:               sarifLevelName(r.Severity),
			Message:             sarifText{r.Message},
			Locations:           []sarifLocation{loc},
			PartialFingerprints: map[string]string{fingerprintKey: fingerprint(r, seen)},
		}
		for i, rel := range r.Related {
			id := i + 1
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID:               &id,
				PhysicalLocation: sarifPhysical(rel.Path, rel.Range.Start.Line, rel.Range.Start.Character, rel.Range.End.Line, rel.Range.End.Character),
				Message:          &sarifText{rel.Message},
			})
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifPhysical converts a 0-based LSP range (UTF-16, end exclusive) into
// SARIF's 1-based region (UTF-16 columns, end exclusive).
func sarifPhysical(path string, line, char, endLine, endChar uint32) sarifPhysicalLocation {
	return sarifPhysicalLocation{
		ArtifactLocation: artifactLocation(path),
		Region: sarifRegion{
			StartLine: int(line) + 1, StartColumn: int(char) + 1,
			EndLine: int(endLine) + 1, EndColumn: int(endChar) + 1,
		},
	}
}

// artifactLocation is a URI relative to %SRCROOT% for a file under the
// working directory (what code scanning maps to the repository), or an
// absolute file URI.
func artifactLocation(path string) sarifArtifactLocation {
	if rel, ok := relativePath(path); ok {
		return sarifArtifactLocation{URI: (&url.URL{Path: rel}).String(), URIBaseID: srcRoot}
	}
	return sarifArtifactLocation{URI: fileURI(absPath(path), false)}
}

// relativePath returns path relative to the working directory, with "/"
// separators, if it lies under it.
func relativePath(path string) (string, bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(wd, absPath(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// fileURI is the file: URI of an absolute path; dir adds the trailing
// slash SARIF requires of a base URI.
func fileURI(abs string, dir bool) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x -> /C:/x
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// fingerprint identifies a finding across commits so that code scanning
// tracks one alert instead of closing and reopening it: the rule, the file
// and the JSON Pointer of the value it is about (which names the server),
// never a line number or the text of the file, so an edit elsewhere does
// not change it. Findings with the same parts are told apart by their
// order of occurrence, as GitHub's own primaryLocationLineHash does.
func fingerprint(r checkResult, seen map[string]int) string {
	file, ok := relativePath(r.Path)
	if !ok {
		file = filepath.ToSlash(absPath(r.Path))
	}
	sum := sha256.Sum256([]byte(r.Code + "\x00" + file + "\x00" + r.pointer))
	key := hex.EncodeToString(sum[:16])
	seen[key]++
	return key + ":" + strconv.Itoa(seen[key])
}
