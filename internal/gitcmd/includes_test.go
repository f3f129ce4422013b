package gitcmd

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// A FIFO a repository's config names for git to read (an include, an
// includeIf, an include of an include, core.excludesFile), inside the
// repository or beside it, refuses the repository before git runs: git
// would wait on it, and no option turns includes off.
func TestConfigIncludesFIFORefused(t *testing.T) {
	cases := map[string]struct {
		config string
		extra  map[string]string // more files, by path from the work tree
		fifo   string            // from the work tree
	}{
		"include in the repository": {"[include]\n\tpath = ../notes.pipe\n", nil, "notes.pipe"},
		"include beside it":         {"[include]\n\tpath = \"../../beside.pipe\" ; a comment\n", nil, "../beside.pipe"},
		"includeIf":                 {"[includeIf \"gitdir:~/never/\"]\n\tpath = ../p.pipe\n", nil, "p.pipe"},
		"include of an include":     {"[include]\n\tpath = ../more.cfg\n", map[string]string{"more.cfg": "[Include]\n  Path = deep.pipe\n"}, "deep.pipe"},
		"core.excludesFile":         {"[core]\n\texcludesFile = ignore.pipe\n", nil, "ignore.pipe"},
		"key on the section's line": {"[include] path = ../x.pipe\n", nil, "x.pipe"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			top := filepath.Join(base, "repo")
			if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(top, ".git", "config"), []byte("[core]\n\tbare = false\n"+tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			for p, data := range tc.extra {
				if err := os.WriteFile(filepath.Join(top, p), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := mkfifo(filepath.Join(top, tc.fifo)); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			var se *SpecialFileError
			if err := CheckRepo(top); !errors.As(err, &se) {
				t.Fatalf("CheckRepo: %v, want the FIFO %s refused", err, tc.fifo)
			}
		})
	}
}

// Includes of regular files, missing ones, a loop of includes and
// /dev/null (how a setting is turned off) pass.
func TestConfigIncludesRegularPass(t *testing.T) {
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[include]\n\tpath = a.cfg\n\tpath = missing.cfg\n[core]\n\texcludesFile = ~/.nothing-here\n\tattributesFile = /dev/null\n[includeIf \"gitdir:~/x/\"]\n\tpath = /dev/null\n"
	for p, data := range map[string]string{".git/config": cfg, ".git/a.cfg": "[include]\n\tpath = config\n"} {
		if err := os.WriteFile(filepath.Join(top, p), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := CheckRepo(top); err != nil {
		t.Fatalf("CheckRepo: %v", err)
	}
}

// An index the environment names (GIT_INDEX_FILE, set inside git commit)
// that is a FIFO refuses the repository before git runs; a regular one,
// or none, passes.
func TestIndexFileFIFORefused(t *testing.T) {
	top := t.TempDir()
	if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(top, "index.pipe")
	if err := mkfifo(pipe); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for name, v := range map[string]string{"absolute": pipe, "relative": "index.pipe"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("GIT_INDEX_FILE", v)
			var se *SpecialFileError
			if err := CheckRepo(top); !errors.As(err, &se) {
				t.Fatalf("CheckRepo: %v, want the FIFO refused", err)
			}
		})
	}
	regular := filepath.Join(top, "index.tmp")
	if err := os.WriteFile(regular, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_INDEX_FILE", regular)
	if err := CheckRepo(top); err != nil {
		t.Fatalf("CheckRepo with a regular index file: %v", err)
	}
}

// A FIFO among the user's own git files git reads (the default excludes
// file, the global config, a file the global config names) refuses the
// repository before git first runs (OpenRepo): git would wait on it. The
// index alone is still read (CheckRepo): no git runs for that.
func TestUserConfigFIFORefused(t *testing.T) {
	cases := map[string]struct {
		fifo    string // under the fake home
		gconfig string // ~/.gitconfig
	}{
		"default excludes file":     {".config/git/ignore", ""},
		"default attributes file":   {".config/git/attributes", ""},
		"global config":             {".gitconfig", ""},
		"core.excludesFile":         {"ignore.pipe", "[core]\n\texcludesFile = ~/ignore.pipe\n"},
		"include of the global one": {"more.pipe", "[include]\n\tpath = more.pipe\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			t.Setenv("GIT_CONFIG_GLOBAL", "")
			top := filepath.Join(t.TempDir(), "repo")
			if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.gconfig != "" {
				if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(tc.gconfig), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := checkUserConfigs(top); err != nil {
				t.Fatalf("before the FIFO: %v", err)
			}
			p := filepath.Join(home, filepath.FromSlash(tc.fifo))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := mkfifo(p); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			var se *SpecialFileError
			if _, err := OpenRepo(top); !errors.As(err, &se) {
				t.Fatalf("OpenRepo: %v, want the FIFO %s refused", err, tc.fifo)
			}
			if err := CheckRepo(top); err != nil {
				t.Errorf("CheckRepo: %v, want the index still readable", err)
			}
		})
	}
}

// The config is read as git reads it, so no spelling git accepts hides an
// include of a FIFO: a byte-order mark, a value going on after a
// backslash, a tab read as a blank, CR LF, a subsection on the section's
// line, "x/.." after a link x (the system follows x first), a "%(…)" that
// is not %(prefix), and ~user. What cannot be checked refuses git too: a
// path climbing out of %(prefix), an unknown user, a config file over
// 1 MiB and more than 32 config files.
func TestConfigIncludesReadAsGitReadsThem(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skipf("user: %v", err)
	}
	cases := map[string]struct {
		config string // .git/config
		fifo   string // from the work tree; "" for an unchecked config
		setup  func(t *testing.T, top string)
	}{
		"byte-order mark":       {"\ufeff[include]\n\tpath = ../bom.pipe\n", "bom.pipe", nil},
		"backslash line break":  {"[core]\n\tbare = false\n[include]\n\tpath = ../cont\\\n.pipe\n", "cont.pipe", nil},
		"tab read as a blank":   {"[include]\n\tpath = ../a\tb.pipe\n", "a b.pipe", nil},
		"backslash at the end":  {"[include]\n\tpath = ../end.pipe\\", "end.pipe", nil},
		"CR LF":                 {"[core]\r\n\tbare = false\r\n[include]\r\n\tpath = ../crlf.pipe\r\n", "crlf.pipe", nil},
		"subsection":            {"[includeIf \"onbranch:main\"] path = ../sub.pipe\n", "sub.pipe", nil},
		"dot-dot after a link":  {"[include]\n\tpath = lnk/../l.pipe\n", "d/l.pipe", linkTo("d/sub")},
		"percent not prefix":    {"[include]\n\tpath = %(x)/../p.pipe\n", ".git/p.pipe", mkdirGit("%(x)")},
		"home of a named user":  {"", "u.pipe", nil},
		"out of the prefix":     {"[include]\n\tpath = \"%(prefix)/../../../../../../../tmp/x\"\n", "", nil},
		"unknown user":          {"[include]\n\tpath = ~no-such-user-here/x\n", "", nil},
		"config over 1 MiB":     {"[core]\n" + strings.Repeat("# padding\n", 110000) + "[include]\n\tpath = ../big.pipe\n", "", nil},
		"more than 32 includes": {"[include]\n\tpath = a.cfg\n", "", chainIncludes(40)},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			top := filepath.Join(t.TempDir(), "repo")
			if err := os.MkdirAll(filepath.Join(top, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			config := tc.config
			if name == "home of a named user" {
				rel, err := filepath.Rel(me.HomeDir, filepath.Join(top, "u.pipe"))
				if err != nil {
					t.Skip(err)
				}
				config = "[include]\n\tpath = ~" + me.Username + "/" + filepath.ToSlash(rel) + "\n"
			}
			if err := os.WriteFile(filepath.Join(top, ".git", "config"), []byte(config), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, top)
			}
			if tc.fifo == "" {
				var ue *UncheckedConfigError
				if err := CheckRepo(top); !errors.As(err, &ue) {
					t.Fatalf("CheckRepo: %v, want the config refused as unchecked", err)
				}
				return
			}
			if err := mkfifo(filepath.Join(top, filepath.FromSlash(tc.fifo))); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			var se *SpecialFileError
			if err := CheckRepo(top); !errors.As(err, &se) {
				t.Fatalf("CheckRepo: %v, want the FIFO %s refused", err, tc.fifo)
			}
		})
	}
}

// linkTo makes .git/lnk a link to the folder dir of the work tree.
func linkTo(dir string) func(t *testing.T, top string) {
	return func(t *testing.T, top string) {
		target := filepath.Join(top, filepath.FromSlash(dir))
		if err := os.MkdirAll(target, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(top, ".git", "lnk")); err != nil {
			t.Skipf("symlink: %v", err)
		}
	}
}

// mkdirGit makes the folder name in .git.
func mkdirGit(name string) func(t *testing.T, top string) {
	return func(t *testing.T, top string) {
		if err := os.Mkdir(filepath.Join(top, ".git", name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// chainIncludes makes .git/a.cfg include n more config files, one after
// the other, the last naming a FIFO that is never looked at.
func chainIncludes(n int) func(t *testing.T, top string) {
	return func(t *testing.T, top string) {
		for i := range n {
			next := fmt.Sprintf("[include]\n\tpath = c%d.cfg\n", i+1)
			name := fmt.Sprintf("c%d.cfg", i)
			if i == 0 {
				name = "a.cfg"
			}
			if err := os.WriteFile(filepath.Join(top, ".git", name), []byte(next), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
