package load

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// match answers the simple patterns without doublestar, and must answer
// exactly as doublestar.Match does, for every pattern and every path.
func TestNameGlobIsDoublestar(t *testing.T) {
	patterns := []string{"**/ORCHESTRATION.yaml", "**/ORCHESTRATION_*.yaml", "**/ORCHESTRATION.template.yaml",
		"**/.jerry/checkpoints/*.json", "**/precompact_state.json", "**/resume-context.md", "**/_resume.md",
		"**/TASK_SPEC.json", "**/*.json", "**/a*", "**/a*a", "**/*", "**/x/y/z", "**/state/*-checkpoint.json",
		"**/.agent-memory/runs/*/**", "**/a?.json", "**/[ab].json", "**/{a,b}.json", "**//a", "**/a/", "**/", "docs/*.md", "*/ORCHESTRATION.yaml"}
	names := []string{"ORCHESTRATION.yaml", "ORCHESTRATION_.yaml", "ORCHESTRATION_x.yaml", "ORCHESTRATION.yaml.bak", "ORCHESTRATION_.yam",
		"x.json", ".json", "json", "a", "ab.json", "z", "cx-001-checkpoint.json", "resume-context.md", "_resume.md", "", "aa", "*", "a*b"}
	dirs := []string{"", "/", "/a", "a", "a/", "a//b", ".jerry/checkpoints", "p/.jerry/checkpoints", "p.jerry/checkpoints", ".jerry/checkpoints/x",
		"x/y", "w/x/y", "wx/y", "state", "p/state", ".agent-memory/runs/r1", "p/.agent-memory/runs/r1/sub"}
	for _, pat := range patterns {
		for _, d := range dirs {
			for _, n := range names {
				p := n
				if d != "" {
					p = d + "/" + n
				}
				want, err := doublestar.Match(pat, p)
				if err != nil {
					want = false
				}
				if got := match([]string{pat}, p); got != want {
					t.Errorf("match(%q, %q) = %v, doublestar says %v", pat, p, got, want)
				}
			}
		}
	}
}

// The default patterns are all simple: none goes to doublestar.
func TestDefaultGlobsAreSimple(t *testing.T) {
	for k, pats := range DefaultGlobs {
		for _, pat := range pats {
			if !parseNameGlob(pat).simple && !strings.HasSuffix(pat, "/**") {
				t.Errorf("%s pattern %q is matched by doublestar", k, pat)
			}
		}
	}
}

func TestBraceAlternatives(t *testing.T) {
	for _, c := range []struct {
		pat  string
		want int
	}{
		{"**/ORCHESTRATION.yaml", 1},
		{"**/*.{yaml,yml}", 2},
		{"{a,b}/{c,d,e}", 6},
		{"{a,{b,c}}/x", 3},    // nested: a, b, c
		{"{a,{b,c}{d,e}}", 5}, // a, bd, be, cd, ce
		{`\{a,b\}/{c,d}`, 2},  // escaped braces are literal
		{"[{,}]{a,b}", 2},     // a class's braces are literal
		{"{a,b,}", 3},         // an empty alternative counts
		{strings.Repeat("{*,*}", 26), MaxGlobAlternatives + 1}, // counted no further
	} {
		if got := braceAlternatives(c.pat); got != c.want {
			t.Errorf("braceAlternatives(%q) = %d, want %d", c.pat, got, c.want)
		}
	}
	if err := CheckGlob(strings.Repeat("{a,b}", 5)); err != nil {
		t.Errorf("32 alternatives refused: %v", err)
	}
	if err := CheckGlob(strings.Repeat("{a,b}", 6)); err == nil {
		t.Error("64 alternatives accepted")
	}
	if err := CheckGlob("**/" + strings.Repeat("a", MaxGlobLength)); err == nil {
		t.Error("a pattern past the length bound accepted")
	}
	if err := CheckGlob("fixtures/[ab.json"); err == nil {
		t.Error("a malformed pattern accepted")
	}
}
