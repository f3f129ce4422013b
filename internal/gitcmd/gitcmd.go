// Package gitcmd builds every git command resumelint runs. A repository
// under review is hostile input, and so is its .git/config (an extracted
// archive, a checkout whose config a previous step wrote): git must never
// run a program that config names. The commands used (ls-files, rev-parse,
// ls-tree, diff-index --cached, cat-file --batch) never touch the work
// tree's content, so no clean or smudge filter, textconv or external diff
// runs; the options below turn off the rest: the fsmonitor hook, hooks,
// pagers, the system config, prompts and optional locks.
package gitcmd

import (
	"os"
	"os/exec"
	"strings"
)

// safeConfig overrides every configuration key of the repository that
// names a program git could run for these commands.
var safeConfig = []string{
	"core.fsmonitor=false",
	"core.hooksPath=/dev/null",
	"core.pager=cat",
	"core.untrackedCache=false",
	"core.askPass=",
	"core.sshCommand=",
	"credential.helper=",
	"diff.external=",
	"protocol.allow=never",
	"log.showSignature=false",
}

// Args returns the arguments that run git in dir with args, safely.
func Args(dir string, args ...string) []string {
	out := make([]string, 0, 3+2*len(safeConfig)+len(args))
	out = append(out, "--no-pager")
	if dir != "" {
		out = append(out, "-C", dir)
	}
	for _, c := range safeConfig {
		out = append(out, "-c", c)
	}
	return append(out, args...)
}

// Env is the environment of every git command: the caller's, without
// variables that would make git run a program or read another config, and
// with the system config, prompts, pagers and optional locks off.
func Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_SSH", "GIT_SSH_COMMAND",
			"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_EDITOR", "EDITOR", "VISUAL":
			continue
		}
		if strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_PAGER=cat",
		"PAGER=cat",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_NO_LAZY_FETCH=1",
		"LC_ALL=C",
	)
}

// Command returns the git command for args in dir, with Args and Env.
func Command(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", Args(dir, args...)...)
	cmd.Env = Env()
	return cmd
}
