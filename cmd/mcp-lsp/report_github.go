package main

import (
	"fmt"
	"io"
	"strings"
)

// The GitHub Actions reporter (`check --format github`): one workflow
// command per finding, which GitHub turns into an annotation on the pull
// request's diff:
//
//	::error file=.mcp.json,line=2,col=5,endLine=2,endColumn=9,title=missing-type::message
//
// Lines and columns are 1-based; columns count UTF-16 code units (as in
// the SARIF reporter) and endColumn is exclusive. File paths are relative
// to the working directory, which in a workflow is the repository root.

// githubCommand maps a severity to the workflow command that annotates at
// that level; GitHub has no level below notice.
func githubCommand(severity string) string {
	switch severity {
	case "error":
		return "error"
	case "warning":
		return "warning"
	}
	return "notice"
}

func writeGitHub(w io.Writer, results []checkResult) error {
	for _, r := range results {
		file, ok := relativePath(r.Path)
		if !ok {
			file = absPath(r.Path)
		}
		props := []string{
			"file=" + escapeProperty(file),
			fmt.Sprintf("line=%d", r.Range.Start.Line+1),
			fmt.Sprintf("col=%d", r.Range.Start.Character+1),
			fmt.Sprintf("endLine=%d", r.Range.End.Line+1),
			fmt.Sprintf("endColumn=%d", r.Range.End.Character+1),
			"title=" + escapeProperty(r.Code),
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubCommand(r.Severity), strings.Join(props, ","), escapeData(r.Message)); err != nil {
			return err
		}
	}
	return nil
}

// escapeData escapes a workflow command's message as the runner unescapes
// it (actions/toolkit, packages/core/src/command.ts): "%" first, then
// carriage return and line feed, so a message can never end the command
// early or inject another one.
var escapeData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace

// escapeProperty escapes a property value: as data, plus ":" and ",",
// which would otherwise end the value.
var escapeProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace
