package rules

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/docs"
	"github.com/resumelint/resumelint/internal/diag"
)

// A rule is done when it has a doc page and golden cases (see
// docs/architecture.md). These tests keep the catalog, the pages that
// `resumelint explain` prints and the golden cases in step.

const goldenDir = "../../testdata/golden"

func rulePage(r *Rule) (string, bool) {
	b, err := fs.ReadFile(docs.Rules, "rules/"+r.Code+".md")
	return string(b), err == nil
}

func TestRulePages(t *testing.T) {
	for _, r := range All() {
		page, ok := rulePage(r)
		if !ok {
			t.Errorf("%s %s: no doc page docs/rules/%s.md (resumelint explain %s would fail)", r.Code, r.Name, r.Code, r.Code)
			continue
		}
		title, _, _ := strings.Cut(page, "\n")
		if want := "# " + r.Code + " " + r.Name; strings.TrimRight(title, " \r") != want {
			t.Errorf("docs/rules/%s.md: title line is %q, want %q", r.Code, title, want)
		}
		for _, section := range []string{"\n## Failing example\n", "\n## Passing example\n", "\n## How to fix\n"} {
			if !strings.Contains(page, section) {
				t.Errorf("docs/rules/%s.md: no %q section", r.Code, strings.TrimSpace(section))
			}
		}
		if !strings.Contains(page, "`resumelint") || !strings.Contains(page, "["+r.Code+" "+r.Name+"]") {
			t.Errorf("docs/rules/%s.md: the failing example does not show what resumelint reports (a line ending in [%s %s])", r.Code, r.Code, r.Name)
		}
	}
}

// TestRulePageHeaders checks the severity, kinds and fix line against the
// catalog, so a page cannot drift from what `resumelint rules` says.
// (A missing page is TestRulePages's to report.)
func TestRulePageHeaders(t *testing.T) {
	for _, r := range All() {
		page, ok := rulePage(r)
		if !ok {
			continue
		}
		lines := strings.Split(page, "\n")
		var header string
		for _, l := range lines {
			if strings.HasPrefix(l, "**Severity:**") {
				header = l
				break
			}
		}
		if header == "" {
			t.Errorf("docs/rules/%s.md: no **Severity:** line", r.Code)
			continue
		}
		fields := map[string]string{}
		for _, part := range strings.Split(header, " · ") {
			name, val, ok := strings.Cut(strings.TrimPrefix(part, "**"), ":** ")
			if ok {
				fields[name] = strings.TrimSpace(val)
			}
		}
		if sev, _, _ := strings.Cut(fields["Severity"], " "); sev != r.Severity.String() {
			t.Errorf("docs/rules/%s.md: severity %q, the catalog says %s", r.Code, fields["Severity"], r.Severity)
		}
		wantFix := string(r.Fix)
		if r.Fix == diag.FixNone {
			wantFix = "none"
		}
		if fix, _, _ := strings.Cut(fields["Fix"], " "); fix != wantFix {
			t.Errorf("docs/rules/%s.md: fix %q, the catalog says %s", r.Code, fields["Fix"], wantFix)
		}
		wantKinds := "all"
		if len(r.Kinds) > 0 {
			var ks []string
			for _, k := range r.Kinds {
				ks = append(ks, string(k))
			}
			wantKinds = strings.Join(ks, ", ")
		}
		if !sameSet(fields["Kinds"], wantKinds) {
			t.Errorf("docs/rules/%s.md: kinds %q, the catalog says %s", r.Code, fields["Kinds"], wantKinds)
		}
	}
}

func sameSet(a, b string) bool {
	split := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, x := range strings.Split(s, ",") {
			m[strings.TrimSpace(x)] = true
		}
		return m
	}
	ma, mb := split(a), split(b)
	if len(ma) != len(mb) {
		return false
	}
	for k := range ma {
		if !mb[k] {
			return false
		}
	}
	return true
}

// TestPagesNameRules finds pages left behind by a renamed or removed rule.
func TestPagesNameRules(t *testing.T) {
	entries, err := fs.ReadDir(docs.Rules, "rules")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		code := strings.TrimSuffix(e.Name(), ".md")
		if r := Lookup(code); r == nil || r.Code != code {
			t.Errorf("docs/rules/%s names no registered rule", e.Name())
		}
	}
}

func TestRuleGoldenCases(t *testing.T) {
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatalf("reading the golden cases: %v", err)
	}
	have := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || path.Ext(name) != ".txtar" {
			continue
		}
		if code, _, ok := strings.Cut(name, "_"); ok {
			have[code] = true
		}
	}
	for _, r := range All() {
		code := strings.ToLower(r.Code)
		if !have[code] {
			t.Errorf("%s %s: no golden case %s", r.Code, r.Name, filepath.Join("testdata/golden", code+"_*.txtar"))
		}
	}
}
