package load

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// countReads counts the files Read and ReadFile open, by OS path.
func countReads(t *testing.T) map[string]int {
	t.Helper()
	var mu sync.Mutex
	reads := map[string]int{}
	OnRead = func(p string) { mu.Lock(); reads[p]++; mu.Unlock() }
	t.Cleanup(func() { OnRead = nil })
	return reads
}

// A command's Files serves a unit read again, and a rule's read of a
// unit's file, from the first read's bytes (BOM and all, so the findings
// are the same); it keeps files apart by root, and past the units' part of
// its budget lets units be read again.
func TestFilesReadOnce(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "precompact_state.json")
	big := filepath.Join(dir, "cx-001-checkpoint.json")
	writeFile(t, small, "\xEF\xBB\xBF{\"checkpoint_id\": \"cx-001\"}\n")
	writeFile(t, big, "{\"notes\": \""+string(make([]byte, 8<<10))+"\"}\n")
	reads := countReads(t)
	x := NewFiles(nil)
	x.unitBudget = 5 << 10 // room for the small file's buffer only
	for range 3 {
		for _, p := range []string{small, big} {
			f := &File{Path: filepath.Base(p), OSPath: p, Root: dir}
			probs, _ := x.Read(f, DefaultLimits)
			if p == small && (len(probs) != 1 || string(f.Data) != "{\"checkpoint_id\": \"cx-001\"}\n") {
				t.Errorf("%s: %q, %v", p, f.Data, probs)
			}
			f.Release()
		}
	}
	if data, err := x.ReadFile(dir, small, DefaultLimits.MaxFileSize); err != nil || string(data) != "\xEF\xBB\xBF{\"checkpoint_id\": \"cx-001\"}\n" {
		t.Errorf("ReadFile(%s) = %q, %v", small, data, err)
	}
	if _, err := x.ReadFile(dir, small, 10); !errors.Is(err, ErrNotRead) {
		t.Errorf("ReadFile under a smaller limit: %v, want ErrNotRead", err)
	}
	x.Read(&File{Path: "precompact_state.json", OSPath: small, Root: filepath.Dir(dir)}, DefaultLimits)
	if reads[small] != 2 || reads[big] != 3 {
		t.Errorf("reads %v: want the small file read once per root, the big one every time", reads)
	}
}

// A file a rule read is not read again as a unit; a read past the budget
// drops the oldest kept read, which is then read again.
func TestFilesKeepLatestReads(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "resume-context.md")
	b := filepath.Join(dir, "steps.md")
	writeFile(t, a, "# Resume context\n")
	writeFile(t, b, "# Steps\n\n1. Plan\n")
	reads := countReads(t)
	x := NewFiles(nil)
	read := func(p string) {
		t.Helper()
		if _, err := x.ReadFile(dir, p, 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	read(a)
	x.budget = x.held.Load() // room for one of them
	read(a)
	read(b)
	read(b)
	f := &File{Path: "steps.md", OSPath: b, Root: dir}
	if _, ok := x.Read(f, DefaultLimits); !ok || string(f.Data) != "# Steps\n\n1. Plan\n" {
		t.Fatalf("Read: %q", f.Data)
	}
	f.Release()
	read(a)
	if reads[a] != 2 || reads[b] != 1 {
		t.Errorf("reads %v: want %s twice (dropped for %s), %s once", reads, a, b, b)
	}
	if held := x.held.Load(); held > x.budget || x.keptReads() != 1 {
		t.Errorf("held %d of %d bytes in %d reads; want one read", held, x.budget, x.keptReads())
	}
}

// Of many files read in turn, the latest are kept and the first dropped;
// failed reads count against the budget too, so their entries stay bounded.
func TestFilesBudgetKeepsTheLatest(t *testing.T) {
	dir, paths := notesFiles(t, 40)
	reads := countReads(t)
	x := NewFiles(nil)
	x.budget = 12 << 10
	for _, p := range paths {
		if _, err := x.ReadFile(dir, p, 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 1000 {
		x.ReadFile(dir, filepath.Join(dir, fmt.Sprintf("missing-%04d.md", i)), 1<<20)
	}
	if kept := x.keptReads(); kept > int(x.budget/entryCost) {
		t.Errorf("%d reads kept within a budget of %d bytes", kept, x.budget)
	}
	for _, p := range paths[:5] {
		x.ReadFile(dir, p, 1<<20)
	}
	for _, p := range paths[:5] { // now the latest
		x.ReadFile(dir, p, 1<<20)
	}
	for i, p := range paths[:5] {
		if reads[p] != 2 {
			t.Errorf("file %d read %d times; want twice (dropped, then kept)", i, reads[p])
		}
	}
	if held := x.held.Load(); held > x.budget {
		t.Errorf("held %d bytes; want at most the budget %d", held, x.budget)
	}
}

// Readers on every core keep no more than the budget between them, and
// what a Wrote drops is given back to it.
func TestFilesBudgetHoldsOnEveryCore(t *testing.T) {
	dir, paths := notesFiles(t, 64)
	x := NewFiles(nil)
	x.budget = 10 << 10
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range paths {
				if _, err := x.ReadFile(dir, paths[(i+w*8)%len(paths)], 1<<20); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if held := x.held.Load(); held > x.budget || held == 0 {
		t.Errorf("held %d bytes; want some, at most the budget %d", held, x.budget)
	}
	x.Wrote(paths...)
	if held, kept := x.held.Load(), x.keptReads(); held != 0 || kept != 0 {
		t.Errorf("after Wrote: held %d bytes in %d reads; want none", held, kept)
	}
}

// After Wrote, every look-up of the file sees the disk as it is now: its
// bytes as a unit and as a rule reads them, its size, its folder's listing.
func TestFilesWroteReadsNewBytes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ORCHESTRATION.yaml")
	writeFile(t, p, "# resumelint:ignore-file RL101 -- unused\nworkflow:\n  id: demo\n")
	x := NewFiles(nil)
	f := &File{Path: "ORCHESTRATION.yaml", OSPath: p, Root: dir}
	x.Read(f, DefaultLimits)
	f.Release()
	x.ReadFile(dir, p, 0)
	x.Stat(dir, p)
	x.ReadDir(dir, dir)
	const fixed = "workflow:\n  id: demo\n"
	writeFile(t, p, fixed)
	writeFile(t, filepath.Join(dir, "resume-context.md"), "# Resume context\n")
	x.Wrote(p, filepath.Join(dir, "resume-context.md"))
	g := &File{Path: "ORCHESTRATION.yaml", OSPath: p, Root: dir}
	if _, ok := x.Read(g, DefaultLimits); !ok || string(g.Data) != fixed {
		t.Errorf("Read after Wrote: %q", g.Data)
	}
	if data, err := x.ReadFile(dir, p, 0); err != nil || string(data) != fixed {
		t.Errorf("ReadFile after Wrote: %q, %v", data, err)
	}
	if fi, err := x.Stat(dir, p); err != nil || fi.Size() != int64(len(fixed)) {
		t.Errorf("Stat after Wrote: %v, %v", fi, err)
	}
	if ents, err := x.ReadDir(dir, dir); err != nil || len(ents) != 2 {
		t.Errorf("ReadDir after Wrote: %d entries, %v", len(ents), err)
	}
}

// TestFilesKeepsNoStatAndBoundedListings: what Files keeps does not grow
// with the repository: no stat answer is kept, and folder listings only
// up to maxDirEntries entries, the latest.
func TestFilesKeepsNoStatAndBoundedListings(t *testing.T) {
	root := t.TempDir()
	big := filepath.Join(root, "big")
	if err := os.Mkdir(big, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		if err := os.WriteFile(filepath.Join(big, fmt.Sprintf("f%02d.json", i)), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	x := NewFiles(nil)
	for i := 0; i < 40; i++ {
		if !x.Exists(root, filepath.Join(big, fmt.Sprintf("f%02d.json", i))) {
			t.Fatalf("f%02d.json not found", i)
		}
	}
	if x.keptReads() != 0 || len(x.dirs) != 0 {
		t.Errorf("stats kept %d reads and %d listings; want none", x.keptReads(), len(x.dirs))
	}
	small := filepath.Join(root, "small")
	if err := os.Mkdir(small, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(small, "a.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	x.dirBudget = 42 // big's 40 entries, small's 1, root's 2
	for _, c := range []struct {
		dir  string
		kept []string
	}{
		{big, []string{big}},
		{small, []string{big, small}},
		{root, []string{small, root}}, // big, the oldest, makes room
		{big, []string{root, big}},    // and small
	} {
		if _, err := x.ReadDir(root, c.dir); err != nil {
			t.Fatal(err)
		}
		var kept []string
		for k := range x.dirs {
			kept = append(kept, k.path)
		}
		if slices.Sort(kept); !slices.Equal(kept, slices.Sorted(slices.Values(c.kept))) || x.dirsN > x.dirBudget {
			t.Errorf("after listing %s: kept %v (%d entries), want %v", c.dir, kept, x.dirsN, c.kept)
		}
	}
	x.dirBudget = 30
	x.ReadDir(root, small)
	if _, err := x.ReadDir(root, big); err != nil {
		t.Fatal(err)
	}
	if _, kept := x.dirs[lookKey{root, big}]; kept {
		t.Errorf("a listing larger than the budget was kept")
	}
}

// keptReads is how many reads x keeps.
func (x *Files) keptReads() int {
	n := 0
	for i := range x.reads {
		sh := &x.reads[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}

// The units' bytes are kept from the first while their part of the budget
// has room, never dropped for a later unit or a rule's read: a dry run
// reads the units again in the same order, and finds the first ones.
func TestFilesKeepTheFirstUnits(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for i := range 10 {
		p := filepath.Join(dir, fmt.Sprintf("cx-%03d-checkpoint.json", i))
		writeFile(t, p, `{"checkpoint_id": "cx-`+fmt.Sprintf("%03d", i)+`", "notes": "`+strings.Repeat("x", 900)+`"}`+"\n")
		paths = append(paths, p)
	}
	reads := countReads(t)
	x := NewFiles(nil)
	x.unitBudget = 3 * (1000 + int64(len(dir)+len(paths[0])) + entryCost) // three of them
	x.budget = 2 << 10                                                    // and the rules' reads: two
	for range 2 {
		for _, p := range paths {
			f := &File{Path: filepath.Base(p), OSPath: p, Root: dir}
			if _, ok := x.Read(f, DefaultLimits); !ok {
				t.Fatalf("%s not read", p)
			}
			f.Release()
			if _, err := x.ReadFile(dir, filepath.Join(dir, "steps.md"), 1<<20); err == nil {
				t.Fatal("steps.md read")
			}
		}
	}
	for i, p := range paths {
		if want := map[bool]int{true: 1, false: 2}[i < 3]; reads[p] != want {
			t.Errorf("unit %d read %d times, want %d", i, reads[p], want)
		}
	}
	if u := x.units.Load(); u > x.unitBudget {
		t.Errorf("units keep %d bytes, over their %d", u, x.unitBudget)
	}
}

// notesFiles writes n files of 1,000 bytes in a new folder and returns
// the folder and their paths.
func notesFiles(t *testing.T, n int) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("notes-%02d.md", i))
		writeFile(t, p, strings.Repeat("x", 1000))
		paths = append(paths, p)
	}
	return dir, paths
}
