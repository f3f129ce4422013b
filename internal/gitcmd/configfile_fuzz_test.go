package gitcmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzConfigEntries reads arbitrary config files as git's parser does:
// never a panic, and, where git itself reads the whole file (git config
// --list exits 0), exactly git's entries, in order. The include checks
// rest on that reading: a file read differently could hide an include.
func FuzzConfigEntries(f *testing.F) {
	for _, s := range []string{
		"[core]\n\trepositoryformatversion = 0\n\tbare = false\n",
		"[include]\n\tpath = \"../other.cfg\" ; a comment\n",
		"[includeIf \"gitdir:~/work/\"]\n\tpath = ~/.gitconfig-work\n",
		"\ufeff[Core] WorkTree = x\\\n y\r\n",
		"[remote \"origin\"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n",
		"[a.B]\nk = \"q\\\"uo\\ted\" # c\nflag\n",
		"[x]\n\tv =   a  \"  b \"  c   \n",
	} {
		f.Add([]byte(s))
	}
	git, _ := exec.LookPath("git")
	f.Fuzz(func(t *testing.T, cfg []byte) {
		var got []string
		configEntries(cfg, func(section, key, value string, hasValue bool) {
			name := key // git lists a key before any section by itself
			if section != "" {
				name = strings.Replace(section, " ", ".", 1) + "." + key
			}
			if hasValue {
				name += "\n" + value
			}
			got = append(got, name)
		})
		if git == "" || bytes.IndexByte(cfg, 0) >= 0 {
			return
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "config")
		if err := os.WriteFile(p, cfg, 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "config", "--file", p, "--list", "-z")
		cmd.Env = []string{"HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "PATH=" + os.Getenv("PATH")}
		out, err := cmd.Output()
		if err != nil {
			return // git stops at an error; the reading goes on (reads more)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(out) == 0 {
			want = nil
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("config %q:\n got %q\nwant %q (git config --list)", cfg, got, want)
		}
	})
}
