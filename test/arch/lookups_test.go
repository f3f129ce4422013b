package arch

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// stringLookup is a field read by its key's text instead of through a
// generated view (internal/model/views_gen.go, from the .cue files).
var stringLookup = regexp.MustCompile(`node\.(Get|Val|Has|Lookup)|model\.StrOf`)

// maxLookups is how many lines of non-test Go files in each package may
// still read a field by its key's text: what no definition describes (a
// history diff over any keys, near-miss spellings, a key chosen at run
// time). Lower a number when a look-up goes; never raise it, describe the
// shape in cue/ (or cue/views/) instead.
var maxLookups = map[string]int{
	"internal/rules": 9,
	"internal/cli":   2,
	"internal/fix":   1,
	"internal/hook":  0,
}

// TestStringLookupsDoNotGrow fails when a package reads more fields by key
// text than maxLookups allows.
func TestStringLookupsDoNotGrow(t *testing.T) {
	for dir, limit := range maxLookups {
		n, where := countLookups(t, filepath.Join("..", "..", dir))
		if n > limit {
			t.Errorf("%s: %d lines read fields by key text, at most %d allowed; read them through the views (internal/model):\n%s", dir, n, limit, strings.Join(where, "\n"))
		}
	}
}

func countLookups(t *testing.T, dir string) (int, []string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var where []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if stringLookup.MatchString(line) {
				n++
				where = append(where, filepath.ToSlash(filepath.Join(dir, name))+":"+strconv.Itoa(i+1))
			}
		}
	}
	return n, where
}
