package gitcmd

import (
	"fmt"
	"os"
	"os/user"
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
// git to read, or one those name in turn, is a FIFO, a socket or a device,
// or when it cannot tell: a config file larger than it reads, more than
// maxIncludes of them, or a path it cannot resolve as git would. An
// include is relative to the file naming it; core.excludesFile and
// core.attributesFile to the work tree top, where git runs.
func checkConfigIncludes(top, cfg string) error {
	queue, read := []string{cfg}, map[string]bool{}
	for len(queue) > 0 {
		file := queue[0]
		queue = queue[1:]
		real, err := filepath.EvalSymlinks(file)
		if err != nil || read[real] {
			continue // missing (git skips it), or read already (a loop)
		}
		if len(read) == maxIncludes {
			return &UncheckedConfigError{Path: cfg, Why: fmt.Sprintf("includes more than %d config files", maxIncludes)}
		}
		read[real] = true
		data, err := readConfig(file, real)
		if err != nil {
			return err
		}
		for _, ref := range configReferences(data) {
			base := top
			if ref.include {
				base = configDir(file)
			}
			p, ok := expandConfigPath(base, ref.path)
			if !ok {
				return &UncheckedConfigError{Path: file, Why: fmt.Sprintf("names %q, which resumelint cannot resolve as git would", ref.path)}
			}
			if p == "" || p == os.DevNull {
				continue // /dev/null: how a setting is turned off; git reads nothing
			}
			if err := special(p); err != nil {
				return err
			}
			if ref.include {
				queue = append(queue, p)
			}
		}
	}
	return nil
}

// UncheckedConfigError says a git config file names files for git to read
// that could not be checked for a FIFO; git was not run.
type UncheckedConfigError struct {
	Path string // the config file
	Why  string
}

func (e *UncheckedConfigError) Error() string {
	return fmt.Sprintf("the git config file %q %s, so the files it makes git read were not checked for a FIFO; git was not run", e.Path, e.Why)
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

// expandConfigPath resolves a config path as git does (interpolate_path):
// ~/ from the home folder, ~user/ from that user's, %(prefix)/ from git's
// installation folder, and a relative one from dir, the folder of the file
// that names it (an include's) or the work tree's top. The parts are
// joined as written, never cleaned: the system resolves "x/.." after
// following the link x, as it will for git. "" for a path naming nothing
// and one inside git's installation folder, which a repository cannot
// write to; false for a path that cannot be resolved (an unknown user, or
// one climbing out of git's installation folder to a place unknown here).
func expandConfigPath(dir, p string) (string, bool) {
	p = filepath.FromSlash(p)
	if rest, ok := strings.CutPrefix(p, "%(prefix)"+string(filepath.Separator)); ok {
		return "", filepath.IsLocal(rest)
	}
	if p == "" || p[0] != '~' {
		if filepath.IsAbs(p) || p == "" {
			return p, true
		}
		return dir + string(filepath.Separator) + p, true
	}
	name, rest, _ := strings.Cut(p[1:], string(filepath.Separator))
	var home string
	if name == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		home = h
	} else {
		u, err := user.Lookup(name)
		if err != nil {
			return "", false
		}
		home = u.HomeDir
	}
	return home + string(filepath.Separator) + rest, true
}

// configDir is the folder of the config file p as git takes it: p up to
// its last separator, as written.
func configDir(p string) string {
	if i := strings.LastIndexAny(p, "/"+string(filepath.Separator)); i >= 0 {
		return p[:i]
	}
	return "."
}

// readConfig reads the config file file, whose real path is real: nil for
// anything but a regular file (a FIFO was refused before it was queued),
// an *UncheckedConfigError for one larger than maxConfigSize, which git
// would read whole.
func readConfig(file, real string) ([]byte, error) {
	if fi, err := os.Stat(real); err == nil && fi.Mode().IsRegular() && fi.Size() > maxConfigSize {
		return nil, &UncheckedConfigError{Path: file, Why: "is larger than 1 MiB"}
	}
	data, ok := readRegular(real, maxConfigSize)
	if !ok {
		return nil, nil
	}
	return data, nil
}
