package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/resumelint/resumelint/internal/diag"
)

// GitHub writes one workflow command per finding, which GitHub Actions
// shows as an annotation on the file and line:
//
//	::error file=P,line=L,col=C,endLine=L,endColumn=C,title=RL107 stale-resumption::message
//
// rel maps a display path to the repository-relative path GitHub expects.
func GitHub(w io.Writer, in *Input, rel func(string) string) error {
	var sb strings.Builder
	for i := range in.Findings {
		f := &in.Findings[i]
		cmd := "warning"
		if f.Severity == diag.SevError {
			cmd = "error"
		}
		var props []string
		if f.Path != "" {
			props = append(props, "file="+EscapeProperty(rel(f.Path)))
			if f.Start.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d", f.Start.Line), fmt.Sprintf("col=%d", max(f.Start.Col, 1)))
				if f.End.Line >= f.Start.Line {
					props = append(props, fmt.Sprintf("endLine=%d", f.End.Line), fmt.Sprintf("endColumn=%d", max(f.End.Col, 1)))
				}
			}
		}
		props = append(props, "title="+EscapeProperty(f.Code+" "+f.Name))
		fmt.Fprintf(&sb, "::%s %s::%s\n", cmd, strings.Join(props, ","), EscapeData(f.Message))
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// EscapeData escapes a workflow command's message (GitHub's escapeData).
func EscapeData(s string) string { return dataEscaper.Replace(escapeControls(s)) }

// escapeControls shows the control characters other than CR and LF (which
// GitHub's own escaping encodes) as text output does: an ESC or a bidi
// override in a path or message must not reach the log raw.
func escapeControls(s string) string {
	if diag.Escape(s) == s {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		if r == '\r' || r == '\n' {
			sb.WriteRune(r)
			continue
		}
		sb.WriteString(diag.Escape(string(r)))
	}
	return sb.String()
}

// EscapeProperty escapes a workflow command's property value (GitHub's
// escapeProperty: also ':' and ',', which delimit properties).
func EscapeProperty(s string) string { return propertyEscaper.Replace(escapeControls(s)) }
