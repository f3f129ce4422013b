package hook

import (
	"os"
	"path/filepath"
	"testing"
)

// A session's cwd and the file it wrote may name the repository through
// different links (a link to the checkout, macOS's /tmp and
// /private/tmp): the file is the repository's, taken under root. Only the
// folders naming the repository are resolved: a link inside it that leads
// out is not followed, through the other name either.
func TestTargetThroughAnAlias(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(name, target string) {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Skipf("no symbolic links: %v", err)
		}
	}
	write("real/.git/HEAD", "ref: refs/heads/main\n")
	write("real/ORCHESTRATION.yaml", "workflow: {}\n")
	write("real/wf/ORCHESTRATION.yaml", "workflow: {}\n")
	write("outside/ORCHESTRATION.yaml", "workflow: {}\n")
	link("link", "real")
	link("up", ".")
	link("real/out", filepath.Join(dir, "outside"))
	link("outside/back", filepath.Join(dir, "real"))
	real, alias := filepath.Join(dir, "real"), filepath.Join(dir, "link")

	cases := []struct {
		name, root, file string
		wantPath         string // "" when the file is ignored
		wantRel          string
	}{
		{"root via link, file via real path", alias, filepath.Join(real, "wf/ORCHESTRATION.yaml"), filepath.Join(alias, "wf/ORCHESTRATION.yaml"), "wf/ORCHESTRATION.yaml"},
		{"root via real path, file via link", real, filepath.Join(alias, "ORCHESTRATION.yaml"), filepath.Join(real, "ORCHESTRATION.yaml"), "ORCHESTRATION.yaml"},
		{"a link to a folder above the repository", real, filepath.Join(dir, "up/up/real/wf/ORCHESTRATION.yaml"), filepath.Join(real, "wf/ORCHESTRATION.yaml"), "wf/ORCHESTRATION.yaml"},
		{"relative, through the link", real, "../link/ORCHESTRATION.yaml", filepath.Join(real, "ORCHESTRATION.yaml"), "ORCHESTRATION.yaml"},
		{"outside", real, filepath.Join(dir, "outside/ORCHESTRATION.yaml"), "", ""},
		{"a link inside leading out, through the alias", real, filepath.Join(alias, "out/ORCHESTRATION.yaml"), "", ""},
		{"out and back in, through the alias", real, filepath.Join(alias, "out/back/ORCHESTRATION.yaml"), "", ""},
		{"out and back in, as written", real, filepath.Join(real, "out/back/ORCHESTRATION.yaml"), "", ""},
		{"missing through the alias", real, filepath.Join(alias, "gone/ORCHESTRATION.yaml"), "", ""},
		{"the repository itself through the alias", real, alias, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, rel, ok := Target(tc.root, tc.root, tc.file)
			if tc.wantPath == "" {
				if ok {
					t.Fatalf("Target(%q) = %q, %q; want it ignored", tc.file, p, rel)
				}
				return
			}
			if !ok || p != tc.wantPath || rel != tc.wantRel {
				t.Fatalf("Target(%q) = %q, %q, %v; want %q, %q", tc.file, p, rel, ok, tc.wantPath, tc.wantRel)
			}
		})
	}
}
