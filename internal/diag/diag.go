// Package diag defines findings: what resumelint reports, where, and how
// severe it is. Every other package produces or consumes these.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity orders findings for --fail-on and for output.
type Severity int

const (
	SevOff Severity = iota
	SevWarning
	SevError
)

func (s Severity) String() string {
	switch s {
	case SevError:
		return "error"
	case SevWarning:
		return "warning"
	}
	return "off"
}

// ParseSeverity accepts the names used in flags and configuration.
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return SevError, nil
	case "warning", "warn":
		return SevWarning, nil
	case "off", "none":
		return SevOff, nil
	}
	return SevOff, fmt.Errorf("unknown severity %q (want error, warning or off)", s)
}

// Applicability says when a fix may be applied.
type Applicability string

const (
	FixNone   Applicability = ""
	FixSafe   Applicability = "safe"
	FixUnsafe Applicability = "unsafe"
)

// Pos is a 1-based line and column (columns count characters, as the YAML
// parser does). Zero means unknown.
type Pos struct {
	Line, Col int
}

// Related is a secondary position that explains a finding (the other side
// of an inconsistency).
type Related struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// TextEdit replaces Length bytes at Offset with NewText.
type TextEdit struct {
	Offset  int
	Length  int
	NewText string
}

// Fix is a set of edits to one file (or a rename of it).
type Fix struct {
	Applicability Applicability
	Description   string
	Edits         []TextEdit
	RenameTo      string // non-empty: the file is renamed to this path
	// Drops lists the scalars (keys or values) the fix removes on purpose:
	// a value it recomputes, a key it renames, an exact duplicate it folds.
	// The nothing-lost check of internal/fix allows exactly these.
	Drops []string
	// Reason says why an unsafe fix is unsafe (the fields a migration
	// could not derive and leaves to fill by hand); `fix` prints it.
	Reason string
	// Moves lists the nodes the fix moves to another place in the
	// document, so that a finding on a moved node is the same finding
	// after the fix, not one the fix adds.
	Moves []Move
}

// Move is a node a fix moves: its document path before and after
// (resumption.next_step to resumption.recovery_state.next_step).
type Move struct{ From, To string }

// Finding is one reported problem.
type Finding struct {
	Code     string
	Name     string
	Severity Severity
	Path     string // relative to the working directory, '/'-separated
	Start    Pos
	End      Pos
	Message  string
	Related  []Related
	Fix      *Fix
	// NodePath and NodeHash are a stable identity of the offending node:
	// its path in the document and a hash of its content. Baselines and
	// SARIF partialFingerprints use them instead of the line (Fingerprint).
	NodePath string
	NodeHash string
	// Secret marks the Start..End range of the source line as a credential:
	// reports never print it.
	Secret bool
	// Snippet is the text of the Start line, taken while the file's bytes
	// were read (HasSnippet), for the reports that show it: a finding
	// carries what it prints, whatever became of its file.
	Snippet    string
	HasSnippet bool
	// Live marks a finding a rule about finished records makes about a
	// running one (a stale next action): where the record is taken for
	// history, it goes with the live rules' findings.
	Live bool
}

// Less orders findings by path, line, column, code (the documented order).
func Less(a, b *Finding) bool { return Compare(a, b) < 0 }

// Compare is Less as a three-way comparison: path, line, column, code,
// then message.
func Compare(a, b *Finding) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Start.Line, b.Start.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Start.Col, b.Start.Col); c != 0 {
		return c
	}
	if c := strings.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}

// Sort puts findings in the documented order, keeping the order of those
// it does not tell apart. Findings are large: it sorts their indices and
// then moves each finding once, where sort.SliceStable moved them through
// reflection at every step (17 ms of a run with 24,000 findings).
func Sort(fs []Finding) {
	sorted := true
	for i := 1; i < len(fs) && sorted; i++ {
		sorted = Compare(&fs[i-1], &fs[i]) <= 0
	}
	if sorted {
		return
	}
	idx := make([]int, len(fs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return Compare(&fs[a], &fs[b]) })
	// Position k takes the finding at idx[k]: follow each cycle of the
	// permutation once, marking a position done by idx[k] = k.
	for start := range fs {
		if idx[start] == start {
			continue
		}
		held := fs[start]
		k := start
		for idx[k] != start {
			next := idx[k]
			fs[k], idx[k] = fs[next], k
			k = next
		}
		fs[k], idx[k] = held, k
	}
}
