package engine

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
)

// unitFindings makes the findings of unit u: every field a report
// prints, in the forms units give them (a rule's name or another, no
// position, related locations and fixes, secrets, snippets shared by a
// line's findings or not, many paths, a unit too big for a block).
func unitFindings(u int) []diag.Finding {
	var fs []diag.Finding
	line := fmt.Sprintf(`  - "projects/PROJ-%05d/notes/WORKTRACKER.md"  # %s`, u, strings.Repeat("é", u%5))
	for i := 0; i < u%9; i++ {
		fd := diag.Finding{
			Code: code.FilesToRead, Name: "files-to-read", Severity: diag.SevError,
			Path:  fmt.Sprintf("projects/PROJ-%05d/ORCHESTRATION.yaml", u),
			Start: diag.Pos{Line: 200 + i, Col: 13}, End: diag.Pos{Line: 200 + i, Col: 61},
			Message:  fmt.Sprintf("files_to_read[%d] \"%d\" resolves nowhere (tried repo root and this folder): correct or remove it", i, u),
			NodePath: fmt.Sprintf("resumption.files_to_read[%d]", i),
			NodeHash: fmt.Sprintf("%016x", u*100+i),
		}
		switch i {
		case 1:
			fd.Snippet, fd.HasSnippet = line, true
			fd.Start.Line = 7
		case 2:
			fd.Snippet, fd.HasSnippet = line, true // the same line's text
			fd.Start.Line = 7
		case 3:
			fd.Code, fd.Name, fd.Severity = InternalCode, "internal-error", diag.SevError
			fd.Start, fd.End = diag.Pos{}, diag.Pos{}
		case 4:
			fd.Related = []diag.Related{{Path: "a/ORCHESTRATION.yaml", Line: 3, Column: 5, Message: "the other side"}}
		case 5:
			fd.Fix = &diag.Fix{Description: "migrate"}
			fd.Related = []diag.Related{}
		case 6:
			fd.Secret, fd.HasSnippet = true, true
			fd.Path = fmt.Sprintf("projects/PROJ-%05d/.jerry/checkpoints/cx-%03d-checkpoint.json", u, i)
		case 7:
			fd.Name, fd.Severity = "not-the-rules-name", diag.SevWarning
			fd.Snippet, fd.HasSnippet = line+" ", true // as long, another text
		}
		fs = append(fs, fd)
	}
	switch u {
	case 398: // many paths
		for i := range 40 {
			fs = append(fs, diag.Finding{Code: code.EventCorrupt, Name: "event-corrupt", Path: fmt.Sprintf("run/events/e%02d.jsonl", i%20), Start: diag.Pos{Line: i, Col: 1}, Message: "bad line"})
		}
	case 399: // past a quarter of a block
		fs = append(fs, diag.Finding{Code: code.ParseError, Message: strings.Repeat("x", packBlock)})
	}
	return fs
}

// Packing keeps every field of every finding, across blocks, for units
// too big for one, and on every core at once: no unit's records land in
// bytes another unit writes.
func TestFindingPackKeepsFindings(t *testing.T) {
	p := &findingPack{}
	const units = 400
	got := make([]*packed, units)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := w; u < units; u += 8 {
				got[u] = p.pack(unitFindings(u))
			}
		}()
	}
	wg.Wait()
	for u := range units {
		want := unitFindings(u)
		if len(want) == 0 {
			if got[u] != nil {
				t.Errorf("unit %d: packed %d findings of none", u, got[u].n)
			}
			continue
		}
		out := make([]diag.Finding, got[u].n)
		got[u].unpack(out)
		if !reflect.DeepEqual(out, want) {
			for i := range want {
				if i >= len(out) || !reflect.DeepEqual(out[i], want[i]) {
					t.Fatalf("unit %d finding %d:\n got %#v\nwant %#v", u, i, out[i], want[i])
				}
			}
			t.Fatalf("unit %d: %d findings, want %d", u, len(out), len(want))
		}
	}
}

// A nil pack (a run's parts called alone) keeps the records in memory of
// their own.
func TestFindingPackNil(t *testing.T) {
	var p *findingPack
	want := unitFindings(8)
	u := p.pack(want)
	out := make([]diag.Finding, u.n)
	u.unpack(out)
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got %#v\nwant %#v", out, want)
	}
}

// The findings on one line share one copy of its text, however many:
// thousands on a minified JSON line cost it once.
func TestFindingPackSharesSnippets(t *testing.T) {
	line := strings.Repeat(`{"k": 1}, `, 10000)
	var fs []diag.Finding
	for i := range 2000 {
		l := 1 + i%2 // two long lines in turn
		fs = append(fs, diag.Finding{Code: code.ResumptionV1, Path: "cx.json", Start: diag.Pos{Line: l, Col: 1 + i}, Message: "m", Snippet: line, HasSnippet: true})
	}
	u := (&findingPack{}).pack(fs)
	if len(u.strs) != 3 {
		t.Errorf("%d strings (a path, snippets) kept for 2,000 findings on two lines; want 3", len(u.strs))
	}
	if len(u.recs) > 40*len(fs) {
		t.Errorf("records of %d bytes for %d findings", len(u.recs), len(fs))
	}
}

// Any finding comes back from its record as it went in: strings of any
// bytes and length, positions of any size or sign, every flag.
func FuzzFindingPack(f *testing.F) {
	f.Add(code.FilesToRead, "files-to-read", "projects/P/ORCHESTRATION.yaml", "msg", "resumption.files_to_read[0]", "00ff00ff00ff00ff", "  - x", 3, 5, 3, 9, uint8(2), uint8(3))
	f.Add("", "", "", "", "", "", "", -1, 0, 1<<40, -1<<40, uint8(0), uint8(255))
	f.Fuzz(func(t *testing.T, code, name, path, msg, nodePath, hash, snippet string, sl, sc, el, ec int, sev, flags uint8) {
		fd := diag.Finding{Code: code, Name: name, Severity: diag.Severity(sev), Path: path,
			Start: diag.Pos{Line: sl, Col: sc}, End: diag.Pos{Line: el, Col: ec},
			Message: msg, NodePath: nodePath, NodeHash: hash, Snippet: snippet,
			Secret: flags&1 != 0, HasSnippet: flags&2 != 0, Live: flags&8 != 0}
		if flags&4 != 0 {
			fd.Related = []diag.Related{{Path: path, Line: sl, Message: msg}}
		}
		fs := []diag.Finding{fd, fd}
		fs[1].Path, fs[1].Start.Line = path+"/other", sl+1
		u := (&findingPack{}).pack(fs)
		out := make([]diag.Finding, u.n)
		u.unpack(out)
		if !reflect.DeepEqual(out, fs) {
			t.Fatalf("got %#v\nwant %#v", out, fs)
		}
	})
}

// A field added to diag.Finding must be added to the records too (or
// make its findings whole): a record would drop it silently.
func TestFindingPackKnowsEveryField(t *testing.T) {
	packed := []string{"Code", "Name", "Severity", "Path", "Start", "End", "Message", "Related", "Fix",
		"NodePath", "NodeHash", "Secret", "Snippet", "HasSnippet", "Live"}
	var got []string
	for f := range reflect.TypeFor[diag.Finding]().Fields() {
		got = append(got, f.Name)
	}
	if !reflect.DeepEqual(got, packed) {
		t.Errorf("diag.Finding has the fields %v; the records know %v (record and unpack in pack.go)", got, packed)
	}
}
