package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/load"
)

// BaselineVersion is the format version written by WriteBaseline.
const BaselineVersion = 1

// Baseline records findings by fingerprint (code, repository-relative
// path, the node's document path and content; never the line), so a
// repository can adopt the gate for new problems while old ones remain.
type Baseline struct {
	Version int             `json:"version"`
	Entries []BaselineEntry `json:"entries"`
}

// BaselineEntry is one recorded finding; Message is for the reader.
type BaselineEntry struct {
	Code        string `json:"code"`
	Path        string `json:"path"`
	Fingerprint string `json:"fingerprint"`
	Message     string `json:"message"`
}

// NewBaseline records fs; rel maps a display path to a repository-relative one.
func NewBaseline(fs []diag.Finding, rel func(string) string) *Baseline {
	b := &Baseline{Version: BaselineVersion, Entries: []BaselineEntry{}}
	for i := range fs {
		if fs[i].Code == code.Internal {
			continue
		}
		p := rel(fs[i].Path)
		b.Entries = append(b.Entries, BaselineEntry{Code: fs[i].Code, Path: p, Fingerprint: diag.Fingerprint(&fs[i], p), Message: fs[i].Message})
	}
	sort.SliceStable(b.Entries, func(i, j int) bool {
		a, c := b.Entries[i], b.Entries[j]
		if a.Path != c.Path {
			return a.Path < c.Path
		}
		if a.Code != c.Code {
			return a.Code < c.Code
		}
		return a.Fingerprint < c.Fingerprint
	})
	return b
}

// Write saves the baseline atomically (fix.WriteOut: a temporary file,
// then a rename) inside root (fix.OutputRoot): a folder link on the way
// out of it is refused, and a link or FIFO at osPath is replaced, never
// followed.
func (b *Baseline) Write(root, osPath string) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	err = fix.WriteOut(root, osPath, 0o644, func(w io.Writer) error { _, err := w.Write(data); return err })
	if err != nil {
		return fmt.Errorf("writing baseline: %w", err)
	}
	return nil
}

// MaxBaselineSize bounds the baseline read into memory.
const MaxBaselineSize = 64 << 20

// ReadBaseline loads a baseline written by Write, read like every other
// input: confined to root (load.RootFor), a regular file, at most
// MaxBaselineSize bytes.
func ReadBaseline(osPath, display, root string) (*Baseline, error) {
	f := &load.File{Path: display, OSPath: osPath, Root: root}
	probs, ok := load.Read(f, load.Limits{MaxFileSize: MaxBaselineSize})
	if !ok {
		why := "not read"
		if len(probs) > 0 {
			why = probs[0].Message
		}
		return nil, fmt.Errorf("cannot read baseline %s: %s", display, why)
	}
	data := f.Data
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline %s is not a resumelint baseline: %v", display, err)
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("baseline %s has version %d; this resumelint reads version %d (write it again with --write-baseline)", display, b.Version, BaselineVersion)
	}
	return &b, nil
}

// Filter drops the findings the baseline records. Each entry hides one
// finding: if a file now has two findings where the baseline has one, the
// second shows.
func (b *Baseline) Filter(fs []diag.Finding, rel func(string) string) (kept []diag.Finding, hidden int) {
	budget := map[string]int{}
	for _, e := range b.Entries {
		budget[e.Code+"\x00"+e.Path+"\x00"+e.Fingerprint]++
	}
	kept = make([]diag.Finding, 0, len(fs))
	for i := range fs {
		p := rel(fs[i].Path)
		k := fs[i].Code + "\x00" + p + "\x00" + diag.Fingerprint(&fs[i], p)
		if budget[k] > 0 {
			budget[k]--
			hidden++
			continue
		}
		kept = append(kept, fs[i])
	}
	return kept, hidden
}

// Unmatched returns the entries no finding of fs matches, in the
// baseline's order, counting like Filter (an entry recorded twice needs
// two findings): what a rewrite of the baseline would drop.
func (b *Baseline) Unmatched(fs []diag.Finding, rel func(string) string) []BaselineEntry {
	have := map[string]int{}
	for i := range fs {
		p := rel(fs[i].Path)
		have[fs[i].Code+"\x00"+p+"\x00"+diag.Fingerprint(&fs[i], p)]++
	}
	var out []BaselineEntry
	for _, e := range b.Entries {
		k := e.Code + "\x00" + e.Path + "\x00" + e.Fingerprint
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, e)
	}
	return out
}
