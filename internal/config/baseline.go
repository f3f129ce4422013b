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
//
// A baseline is a report file like any other: an entry's path is the
// repository-relative path masked (diag.Mask), since a file or folder
// name may hold a credential, and its message is the finding's, masked
// by the engine. The fingerprint is a hash of the real path, so entries
// of files whose paths differ only in a credential stay apart. An entry
// matches a finding by code, masked path and fingerprint.
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
		b.Entries = append(b.Entries, BaselineEntry{Code: fs[i].Code, Path: diag.Mask(p), Fingerprint: diag.Fingerprint(&fs[i], p), Message: fs[i].Message})
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
	budget := b.count()
	kept = make([]diag.Finding, 0, len(fs))
	var mask pathMask
	for i := range fs {
		k := findingKey(&fs[i], rel, &mask)
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
	var mask pathMask
	for i := range fs {
		have[findingKey(&fs[i], rel, &mask)]++
	}
	var out []BaselineEntry
	mask = pathMask{}
	for _, e := range b.Entries {
		k := entryKey(e.Code, mask.of(e.Path), e.Fingerprint)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, e)
	}
	return out
}

// count is how many entries the baseline holds of each key (entryKey).
func (b *Baseline) count() map[string]int {
	n := map[string]int{}
	var mask pathMask
	for _, e := range b.Entries {
		n[entryKey(e.Code, mask.of(e.Path), e.Fingerprint)]++
	}
	return n
}

// entryKey identifies an entry: its code, masked path and fingerprint.
func entryKey(code, maskedPath, fingerprint string) string {
	return code + "\x00" + maskedPath + "\x00" + fingerprint
}

// findingKey is the entryKey of the entry NewBaseline writes for f.
func findingKey(f *diag.Finding, rel func(string) string, mask *pathMask) string {
	p := rel(f.Path)
	return entryKey(f.Code, mask.of(p), diag.Fingerprint(f, p))
}

// pathMask masks paths as a baseline stores them (diag.Mask), keeping the
// last one: findings and entries come sorted by path. An entry written
// with its path unmasked (before baselines masked them) is masked when
// read, so it still matches.
type pathMask struct{ last, masked string }

func (m *pathMask) of(p string) string {
	if p != m.last || m.masked == "" {
		m.last, m.masked = p, diag.Mask(p)
	}
	return m.masked
}

// MaskedPath is a repository-relative path as a baseline entry holds it.
func MaskedPath(p string) string { return diag.Mask(p) }
