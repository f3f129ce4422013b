package rules

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// A rule reads through its pass only inside the repository: a symbolic
// link to a file outside, a ".." path and an overlay buffer for a path
// outside all fail, and Stat says such a path does not exist.
func TestPassReadFileStaysInsideRoot(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("api_key: not-for-rules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	inside := filepath.Join(repo, "notes.md")
	if err := os.WriteFile(inside, []byte("# Notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(repo, "notes-link.md")
	if err := os.Symlink(secret, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	overlay := map[string][]byte{filepath.Join(outside, "buffer.md"): []byte("unsaved\n")}
	var out []diag.Finding
	p := NewPass(nil, &Options{Cwd: repo, RepoRoot: repo, Limits: load.DefaultLimits}, nil, &out)
	p.Files = load.NewFiles(overlay)

	if data, err := p.ReadFile(inside); err != nil || string(data) != "# Notes\n" {
		t.Fatalf("ReadFile(inside) = %q, %v", data, err)
	}
	for _, path := range []string{link, filepath.Join(repo, "..", filepath.Base(outside), "secret.txt"), secret, filepath.Join(outside, "buffer.md")} {
		data, err := p.ReadFile(path)
		if err == nil || len(data) > 0 {
			t.Errorf("ReadFile(%s) = %q, %v; want an error and no bytes", path, data, err)
		}
		if _, err := p.Stat(path); !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, load.ErrOutside) {
			t.Errorf("Stat(%s): %v, want not found", path, err)
		}
	}
	rp := NewRepoPass(nil, &Options{Cwd: repo, RepoRoot: repo, Limits: load.DefaultLimits}, nil, &out)
	rp.Files = p.Files
	if data, err := rp.ReadFile(link); err == nil || len(data) > 0 {
		t.Errorf("RepoPass.ReadFile(link) = %q, %v; want an error", data, err)
	}
}
