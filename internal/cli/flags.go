package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
)

// Every command parses its flags with newFlagSet and parseArgs:
// -h prints the command's own usage on stdout (exit 0); a bad flag is one
// line on stderr, with a "did you mean" when a flag is close, and a pointer
// to -h (exit 2). The flag package's own messages and usage dumps are not
// printed.

// usageHeads holds, by command, what -h prints above the flags.
var usageHeads = map[string]string{
	"lint": `Usage: resumelint [lint] [flags] [PATH|GLOB ...]

Lints the state files in the paths (folders: every file of a known kind
inside; default: the repository here) and reports the findings.
`,
	"fix": `Usage: resumelint fix [flags] [PATH|GLOB ...]

Applies the safe fixes (--unsafe-fixes: the unsafe ones too) to the files
in the paths, then reports what remains; --diff previews them and writes
nothing. The same as 'resumelint lint --fix'.
`,
	"bundle verify": `Usage: resumelint bundle verify [flags] DIR ...

Decides, for each SPECTRUM-02 bundle folder, whether a resuming agent may
trust it (seed 002 §3): ACCEPT, or REJECT with the rejection codes.
Exit code 0 only if every bundle is accepted.
`,
	"status": `Usage: resumelint status [flags] [PATH ...]

Reports where work stands and what comes next: an agent run (the only
incomplete one under .agent-memory/runs/, or RUN_DIR), each active
ORCHESTRATION workflow (phase, gate, next step, what lint finds stale or
contradictory) and each active nexus project and build. Without PATH, the
repository is searched; a PATH names a run folder, an ORCHESTRATION.yaml,
a project or build folder, or a folder to search.
`,
	"rules": `Usage: resumelint rules [--format text|json]

Lists every rule: code, name, severity, whether it runs by default, fix.
`,
	"explain": `Usage: resumelint explain RULE

Prints a rule's documentation page. RULE is a code (` + code.StaleResumption + `) or a name
(stale-resumption); 'resumelint rules' lists them.
`,
	"schema export": `Usage: resumelint schema export [--out DIR] [KIND]

Writes the JSON Schemas generated from the CUE definitions, for editors:
one KIND to stdout, or every kind into DIR with --out.
`,
	"version": `Usage: resumelint version

Prints the version.
`,
}

// newFlagSet returns a flag set for the command name as typed after
// "resumelint" (a key of usageHeads).
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// helpRequest is returned for -h: Main prints the usage on stdout.
type helpRequest struct{ text string }

func (h *helpRequest) Error() string { return "help requested" }

// helpOf renders a flag set's usage: its head, then its flags.
func helpOf(fs *flag.FlagSet) *helpRequest {
	var sb strings.Builder
	sb.WriteString(usageHeads[fs.Name()])
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		sb.WriteString("\nFlags:\n")
		fs.SetOutput(&sb)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return &helpRequest{sb.String()}
}

// versionRequest is returned for -V or --version among a command's
// flags: Main prints the version, exit 0, as for a leading -V.
type versionRequest struct{}

func (*versionRequest) Error() string { return "version requested" }

// parseArgs parses a command's flags, which may follow positional
// arguments, as users of linters expect ("resumelint lint . --format
// json"). Before the first "--", an argument that reads as a flag but
// names a file or folder here is refused: pre-commit and `$(git diff
// --name-only)` pass a repository's file names as arguments, and a file
// a pull request names `--exit-zero` or `--output-file=README.md` must not
// switch the gate off or overwrite a file. Paths after "--" are paths.
func (c *Command) parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || strings.ContainsRune(a, 0) {
			continue
		}
		if _, err := os.Lstat(filepath.Join(c.Cwd, a)); err == nil {
			return nil, usagef("%s is a file here and also reads as a flag; put file names after -- (resumelint %s [flags] -- FILE...)", diag.SafeLine(a), fs.Name())
		}
	}
	return parseInterspersed(fs, args)
}

func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(fs, err)
		}
		rest := fs.Args()
		// The flag package consumes the "--" that ends the flags: what
		// follows it is all paths, even when it reads as a flag.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		args = rest
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// flagError turns the flag package's error into one line naming the
// command's -h.
func flagError(fs *flag.FlagSet, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return helpOf(fs)
	}
	hint := fmt.Sprintf("run 'resumelint %s -h' for its flags", fs.Name())
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		name = strings.TrimPrefix(name, "-")
		if name == "V" || name == "version" {
			return &versionRequest{}
		}
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if s := suggest(name, names); s != "" {
			return usagef("unknown flag --%s; did you mean --%s? (%s)", name, s, hint)
		}
		return usagef("unknown flag --%s (%s)", name, hint)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return usagef("flag --%s needs a value (%s)", strings.TrimPrefix(name, "-"), hint)
	}
	// "invalid value ... for flag -x: ...", "bad flag syntax: ..."
	msg = longFlag.Regexp().ReplaceAllString(msg, "for${1} --${2}")
	return usagef("%s (%s)", msg, hint)
}

// longFlag is a flag of two or more letters named in a flag package
// error; one-letter flags keep their single dash (-o).
var longFlag = lazyre.New(`for( flag)? -([A-Za-z][A-Za-z0-9-]+)`)

// suggest returns the candidate closest to s when it is close enough to
// be a typo: at most 2 edits (1 for short names), or a unique prefix.
func suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	var prefixed []string
	for _, c := range candidates {
		if s != "" && strings.HasPrefix(c, s) {
			prefixed = append(prefixed, c)
		}
		if d := editDistance(s, c); d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(s) <= 3 {
		limit = 1
	}
	if bestD <= limit {
		return best
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}

// editDistance is the Damerau–Levenshtein distance (adjacent swaps count
// one edit) between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// commandNames lists the subcommands, sorted, for suggestions.
func commandNames() []string {
	names := make([]string, 0, len(subcommands))
	for n := range subcommands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
