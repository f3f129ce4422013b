package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strconv"

	"github.com/resumelint/resumelint/internal/diag"
)

// CodeClimateIssue is one finding in GitLab's Code Quality report (a
// subset of the Code Climate issue format).
type CodeClimateIssue struct {
	Type        string              `json:"type"`
	CheckName   string              `json:"check_name"`
	Description string              `json:"description"`
	Categories  []string            `json:"categories"`
	Severity    string              `json:"severity"`
	Fingerprint string              `json:"fingerprint"`
	Location    CodeClimateLocation `json:"location"`
}

// CodeClimateLocation is where an issue is: a repository-relative path and
// the lines.
type CodeClimateLocation struct {
	Path  string           `json:"path"`
	Lines CodeClimateLines `json:"lines"`
}

// CodeClimateLines are the first and last lines of an issue.
type CodeClimateLines struct {
	Begin int `json:"begin"`
	End   int `json:"end"`
}

// CodeClimate writes a JSON array of Code Climate issues, the format of
// GitLab's codequality report artifact. Errors are "major" and warnings
// "minor". The fingerprint does not depend on the line (it is the SARIF
// and baseline fingerprint with its occurrence number, hashed), so GitLab
// tells new findings from old ones when lines move. rel maps a display
// path to the repository-relative path GitLab expects.
func CodeClimate(w io.Writer, in *Input, rel func(string) string) error {
	issues := []CodeClimateIssue{}
	occurrence := map[string]int{}
	for i := range in.Findings {
		f := &in.Findings[i]
		p := "."
		if f.Path != "" {
			p = rel(f.Path)
		}
		fp := diag.Fingerprint(f, p)
		occurrence[fp]++
		sum := sha256.Sum256([]byte(FingerprintKey + ":" + fp + ":" + strconv.Itoa(occurrence[fp])))
		sev := "minor"
		if f.Severity == diag.SevError {
			sev = "major"
		}
		begin := max(f.Start.Line, 1)
		issues = append(issues, CodeClimateIssue{Type: "issue", CheckName: f.Code,
			Description: f.Message + " [" + f.Code + " " + f.Name + "]",
			Categories:  []string{"Bug Risk"}, Severity: sev, Fingerprint: hex.EncodeToString(sum[:16]),
			Location: CodeClimateLocation{Path: p, Lines: CodeClimateLines{Begin: begin, End: max(f.End.Line, begin)}}})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}
