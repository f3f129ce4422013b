package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/load"
)

func TestFilterDefaultExcludes(t *testing.T) {
	disc := func() *load.Discovery {
		return &load.Discovery{
			Files: []*load.File{
				{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration},
				{Path: "projects/archive/ORCHESTRATION.yaml", Kind: load.KindOrchestration},
				{Path: "_archive/2025/ORCHESTRATION.yaml", Kind: load.KindOrchestration},
			},
			Folders: []*load.Folder{{Path: "runs/_archive/r1", Kind: load.KindBundle}},
		}
	}
	d := disc()
	(&Config{}).Filter(d, "", "")
	if len(d.Files) != 1 || len(d.Folders) != 0 || len(d.Excluded) != 3 {
		t.Fatalf("files %d, folders %d, excluded %+v", len(d.Files), len(d.Folders), d.Excluded)
	}
	if r := d.Excluded[0].Reason; !strings.Contains(r, `"**/archive/**"`) || !strings.Contains(r, "default") {
		t.Errorf("reason = %q", r)
	}
	// exclude: replaces the defaults; an empty list lints archives too.
	d = disc()
	(&Config{Path: ".resumelint.yaml", Exclude: []string{}}).Filter(d, "", "")
	if len(d.Files) != 3 || len(d.Folders) != 1 || len(d.Excluded) != 0 {
		t.Errorf("exclude: []: %+v", d.Excluded)
	}
	d = disc()
	(&Config{Path: ".resumelint.yaml", Exclude: []string{"projects/**"}}).Filter(d, "", "")
	var got []string
	for _, x := range d.Excluded {
		got = append(got, x.Path+" "+x.Reason)
	}
	if want := []string{`projects/archive/ORCHESTRATION.yaml by "projects/**" (exclude in .resumelint.yaml)`}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLoadExcludeEmptyReplacesDefaults(t *testing.T) {
	c, err := loadAt(writeConfig(t, "exclude: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if pats, defaults := c.Excludes(); defaults || len(pats) != 0 {
		t.Errorf("Excludes() = %q, %v", pats, defaults)
	}
	if c, err = loadAt(writeConfig(t, "rules: {RL107: warning}\n")); err != nil {
		t.Fatal(err)
	}
	if _, defaults := c.Excludes(); !defaults {
		t.Error("a configuration without exclude: keeps the defaults")
	}
}

func TestFirstMatchFolderAnywhere(t *testing.T) {
	for p, want := range map[string]string{
		"archive/ORCHESTRATION.yaml":          "**/archive/**",
		"a/b/archive/c/precompact_state.json": "**/archive/**",
		"a/_archive/ORCHESTRATION.yaml":       "**/_archive/**",
		"a/archived/ORCHESTRATION.yaml":       "",
		"a/my_archive/ORCHESTRATION.yaml":     "",
	} {
		if got := firstMatch(load.DefaultExclude, p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
	}
}
