package config

import (
	"os"
	"path/filepath"
	"testing"
)

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSetNearestConfigPerFolder(t *testing.T) {
	outer := t.TempDir()
	repo := filepath.Join(outer, "repo")
	writeFile(t, filepath.Join(outer, FileName), "staleness:\n  max_age: 1h\n") // above the repository: never read
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(repo, FileName), "staleness:\n  max_age: 72h\n")
	writeFile(t, filepath.Join(repo, "svc", FileName), "staleness:\n  max_age: 24h\n")
	for _, d := range []string{"docs/deep", "svc/a/b"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewSet(repo, repo, "")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		dir, root, age string
	}{
		{"docs/deep", repo, "72h0m0s"},
		{"svc/a/b", filepath.Join(repo, "svc"), "24h0m0s"},
		{"svc", filepath.Join(repo, "svc"), "24h0m0s"},
		{".", repo, "72h0m0s"},
	}
	for _, c := range cases {
		sc := s.For(filepath.Join(repo, c.dir))
		if sc.Root != c.root || sc.Config.MaxAge.String() != c.age {
			t.Errorf("%s: scope root %s max_age %s, want %s %s", c.dir, sc.Root, sc.Config.MaxAge, c.root, c.age)
		}
	}
	if n := len(s.Scopes()); n != 2 {
		t.Errorf("read %d configurations, want 2 (each once, none above the repository)", n)
	}
	if err := s.Err(); err != nil {
		t.Error(err)
	}
}

func TestSetExplicitConfigGovernsEverything(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), "")
	writeFile(t, filepath.Join(repo, "sub", FileName), "staleness:\n  max_age: 24h\n")
	explicit := filepath.Join(repo, "ci.yaml")
	writeFile(t, explicit, "staleness:\n  max_age: 48h\n")
	s, err := NewSet(repo, repo, explicit)
	if err != nil {
		t.Fatal(err)
	}
	if sc := s.For(filepath.Join(repo, "sub")); sc.OSPath != explicit || sc.Root != repo {
		t.Errorf("--config must govern every folder, got %s anchored at %s", sc.OSPath, sc.Root)
	}
}

func TestSetInvalidNestedConfigStopsTheRun(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), "")
	writeFile(t, filepath.Join(repo, "sub", FileName), "staleness: [\n")
	s, err := NewSet(repo, repo, "")
	if err != nil {
		t.Fatal(err)
	}
	if sc := s.For(filepath.Join(repo, "sub")); sc != s.Defaults() {
		t.Errorf("an unreadable configuration's folder falls back to the defaults until the run stops")
	}
	if s.Err() == nil {
		t.Error("an invalid nested configuration must be reported")
	}
}

func TestSetOutsideRepositoryWalksToFilesystemRoot(t *testing.T) {
	top := t.TempDir()
	writeFile(t, filepath.Join(top, FileName), "staleness:\n  max_age: 36h\n")
	deep := filepath.Join(top, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := NewSet(deep, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if sc := s.For(deep); sc.Root != top {
		t.Errorf("outside a repository the walk goes up to %s, got %s", top, sc.Root)
	}
}

// A git listing tells which folders hold a configuration: folders inside
// it are not looked in one by one.
func TestSetListingKnowsNestedConfigs(t *testing.T) {
	repo := t.TempDir()
	writeFile(t, filepath.Join(repo, ".git", "HEAD"), "")
	writeFile(t, filepath.Join(repo, FileName), "staleness:\n  max_age: 72h\n")
	writeFile(t, filepath.Join(repo, "svc", FileName), "staleness:\n  max_age: 24h\n")
	// On disk but not in the listing (git ignores it): not read.
	writeFile(t, filepath.Join(repo, "tmp", FileName), "staleness:\n  max_age: 1h\n")
	s, err := NewSet(repo, repo, "")
	if err != nil {
		t.Fatal(err)
	}
	s.Listed(repo, [][]byte{[]byte(FileName), []byte("svc/" + FileName), []byte("svc/a/b/ORCHESTRATION.yaml"), []byte("tmp/x.md"), []byte("docs/not" + FileName)})
	for dir, want := range map[string]string{"svc/a/b": "24h0m0s", "svc": "24h0m0s", "tmp": "72h0m0s", "docs": "72h0m0s", ".": "72h0m0s"} {
		if got := s.For(filepath.Join(repo, dir)).Config.MaxAge.String(); got != want {
			t.Errorf("%s: max_age %s, want %s", dir, got, want)
		}
	}
}

// A later listing of a folder replaces the earlier one and says whether
// the configurations it shows changed.
func TestSetListedAgain(t *testing.T) {
	repo := t.TempDir()
	s, err := NewSet(repo, repo, "")
	if err != nil {
		t.Fatal(err)
	}
	tracked := [][]byte{[]byte(FileName), []byte("svc/a/ORCHESTRATION.yaml")}
	if !s.Listed(repo, tracked) {
		t.Error("a first listing changes what governs")
	}
	if s.Listed(repo, append(tracked, []byte("svc/a/notes.md"))) {
		t.Error("no new configuration, yet changed")
	}
	if !s.Listed(repo, append(tracked, []byte("svc/"+FileName))) {
		t.Error("a nested configuration among the untracked files is a change")
	}
	if len(s.listings) != 1 || !s.listings[0].configs[filepath.Join(repo, "svc")] {
		t.Errorf("listings %+v", s.listings)
	}
}
