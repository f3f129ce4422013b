// Package docs embeds the rule pages so `resumelint explain` works from the
// binary alone.
package docs

import "embed"

// Rules holds docs/rules/<CODE>.md.
//
//go:embed rules/*.md
var Rules embed.FS

// RuleURL is where a rule's page is published: the one address SARIF's
// helpUri, the reports' links and the language server's
// codeDescription.href all give.
func RuleURL(code string) string {
	return "https://github.com/resumelint/resumelint/blob/main/docs/rules/" + code + ".md"
}
