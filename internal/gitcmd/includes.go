package gitcmd

import (
	"os"
	"path/filepath"
	"strings"
)

// A repository's config may name more files for git to read: include.path
// and includeIf.<condition>.path (config files read in turn, whatever
// their condition, which is git's to decide), core.excludesFile and
// core.attributesFile. Each may be a FIFO anywhere, inside the repository
// or not, and git would wait on it; no option turns includes off, so they
// are checked before git runs, as the git folder's own files are.

// maxIncludes bounds how many config files one check reads (git itself
// stops at a depth of 10).
const maxIncludes = 32

// maxConfigSize is the largest config file read for its includes.
const maxConfigSize = 1 << 20

// checkConfigs refuses the git folder gitDir of the work tree at top when
// a file its config files name for git to read is a FIFO, a socket or a
// device.
func checkConfigs(top, gitDir string) error {
	for _, f := range []string{"config", "config.worktree"} {
		if err := checkConfigIncludes(top, filepath.Join(gitDir, f)); err != nil {
			return err
		}
	}
	return nil
}

// checkUserConfigs refuses to run git when a file of the user's own git
// configuration that git reads is a FIFO, a socket or a device: the
// global config (GIT_CONFIG_GLOBAL, else ~/.gitconfig and
// $XDG_CONFIG_HOME/git/config) with the files it names, and the default
// excludes and attributes files ($XDG_CONFIG_HOME/git/ignore, …/attributes,
// which git ls-files -o and check-attr read). The system config is off
// (Env).
func checkUserConfigs(top string) error {
	home, _ := os.UserHomeDir()
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var cfgs []string
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		cfgs = append(cfgs, g)
	} else {
		if home != "" {
			cfgs = append(cfgs, filepath.Join(home, ".gitconfig"))
		}
		if xdg != "" {
			cfgs = append(cfgs, filepath.Join(xdg, "git", "config"))
		}
	}
	if xdg != "" {
		for _, f := range []string{"ignore", "attributes"} {
			if err := special(filepath.Join(xdg, "git", f)); err != nil {
				return err
			}
		}
	}
	for _, c := range cfgs {
		if c == os.DevNull {
			continue
		}
		if err := special(c); err != nil {
			return err
		}
		if err := checkConfigIncludes(top, c); err != nil {
			return err
		}
	}
	return nil
}

// checkConfigIncludes refuses the config file cfg when a file it names for
// git to read, or one those name in turn, is a FIFO, a socket or a device.
// An include is relative to the file naming it; core.excludesFile and
// core.attributesFile to the work tree top, where git runs.
func checkConfigIncludes(top, cfg string) error {
	queue, seen := []string{cfg}, map[string]bool{cfg: true}
	for len(queue) > 0 && len(seen) <= maxIncludes {
		file := queue[0]
		queue = queue[1:]
		data, ok := readFollowed(file)
		if !ok {
			continue
		}
		for _, ref := range configReferences(data) {
			base := top
			if ref.include {
				base = filepath.Dir(file)
			}
			p := expandConfigPath(base, ref.path)
			if p == "" || p == os.DevNull {
				continue // /dev/null: how a setting is turned off; git reads nothing
			}
			if err := special(p); err != nil {
				return err
			}
			if ref.include && !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return nil
}

// configReference is a path a config file names: an include (read as a
// config file) or a file git reads as it is.
type configReference struct {
	path    string
	include bool
}

// configReferences reads the paths of include.path, includeIf.*.path,
// core.excludesFile and core.attributesFile in a git config file. It reads
// more than git would rather than less: every condition is taken as met.
func configReferences(data []byte) []configReference {
	var out []configReference
	configEntries(data, func(section, key, value string, hasValue bool) {
		name, _, _ := strings.Cut(section, " ")
		name, _, _ = strings.Cut(name, ".")
		switch {
		case !hasValue:
		case key == "path" && (name == "include" || name == "includeif"):
			out = append(out, configReference{path: value, include: true})
		case section == "core" && (key == "excludesfile" || key == "attributesfile"):
			out = append(out, configReference{path: value})
		}
	})
	return out
}

// expandConfigPath resolves a config path as git does: ~/ from the home
// folder, a relative one (an include's) from the folder of the file that
// names it. "" when it cannot be resolved.
func expandConfigPath(dir, p string) string {
	switch {
	case p == "":
		return ""
	case p == "~" || strings.HasPrefix(p, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		return filepath.Join(home, p[1:])
	case strings.HasPrefix(p, "~"), strings.HasPrefix(p, "%("):
		return "" // another user's home, or a runtime prefix: not followed
	}
	return resolveFrom(dir, filepath.FromSlash(p))
}

// readFollowed reads the regular file p, links followed; false for
// anything else (a FIFO is never opened) or a file over maxConfigSize.
func readFollowed(p string) ([]byte, bool) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, false
	}
	data, ok := readRegular(real, maxConfigSize)
	return data, ok && data != nil
}
