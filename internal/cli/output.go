package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/report"
	"github.com/resumelint/resumelint/internal/rules"
)

// lintFormats are the output formats of lint and fix (SPEC §6).
var lintFormats = []string{"text", "json", "sarif", "github", "junit", "codeclimate", "markdown"}

func knownFormat(f string) bool {
	for _, k := range lintFormats {
		if k == f {
			return true
		}
	}
	return false
}

// output is one report of a run: a format and where it goes ("" or "-"
// is standard output).
type output struct {
	format, path string
}

// outputList is the repeatable -o FORMAT=PATH flag.
type outputList []output

func (l *outputList) String() string {
	var parts []string
	for _, o := range *l {
		parts = append(parts, o.format+"="+o.path)
	}
	return strings.Join(parts, ",")
}

func (l *outputList) Set(v string) error {
	format, path, ok := strings.Cut(v, "=")
	if !ok || path == "" {
		return fmt.Errorf("want FORMAT=PATH, e.g. sarif=results.sarif")
	}
	if !knownFormat(format) {
		return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(lintFormats, ", "))
	}
	*l = append(*l, output{format, path})
	return nil
}

// outputFlags choose where a run's reports go.
type outputFlags struct {
	file       string // --output-file: the --format report goes here instead of stdout
	extra      outputList
	statistics bool
}

func (of *outputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&of.file, "output-file", "", "write the --format report to this file instead of standard output")
	fs.Var(&of.extra, "o", "also write a report, as `FORMAT=PATH` (PATH \"-\" is standard output); repeat for several, e.g. -o sarif=results.sarif -o junit=report.xml")
	fs.Var(&of.extra, "output", "the same as -o `FORMAT=PATH`")
	fs.BoolVar(&of.statistics, "statistics", false, "print the number of findings per rule instead of the findings (text or json)")
}

// outputs returns every report of the run, the --format one first, and
// checks that no two go to the same place.
func (of *outputFlags) outputs(format, cwd string) ([]output, error) {
	if of.statistics && format != "text" && format != "json" {
		return nil, usagef("--statistics prints text or json, not --format %s (write the %s report with -o %s=PATH)", format, format, format)
	}
	all := append([]output{{format, of.file}}, of.extra...)
	seen := map[string]bool{}
	for _, o := range all {
		key := "-"
		if o.path != "" && o.path != "-" {
			key = o.path
			key = load.Abs(cwd, key)
			key = filepath.Clean(key)
		}
		if seen[key] {
			where := "standard output"
			if key != "-" {
				where = o.path
			}
			return nil, usagef("two reports would go to %s (--output-file and -o each need their own file)", where)
		}
		seen[key] = true
	}
	return all, nil
}

// writeOutputs renders every report; files are written whole, their
// folders created when missing. Colour is only ever for the terminal.
func (c *Command) writeOutputs(outs []output, in *report.Input, statistics bool, lc *lintConfig) error {
	for i, o := range outs {
		toStdout := o.path == "" || o.path == "-"
		oin := *in
		oin.Color = in.Color && toStdout
		stats := statistics && i == 0
		if toStdout {
			// Streamed: a run with many findings never holds its report whole.
			bw := bufio.NewWriterSize(c.Stdout, 64<<10)
			if err := render(bw, o.format, &oin, stats, lc); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
			continue
		}
		osPath := load.Abs(c.Cwd, o.path)
		if err := writeReport(lc.root, c.Cwd, osPath, func(w io.Writer) error { return render(w, o.format, &oin, stats, lc) }); err != nil {
			return usagef("writing the %s report to %s: %v", o.format, load.Display(c.Cwd, osPath), err)
		}
	}
	return nil
}

// writeReport writes a report file atomically (fix.WriteOut): inside the
// repository when the path lies in it, so a folder link on the way is
// refused; a failed run leaves no half report, and a link or a FIFO at
// the report's path is replaced, never followed. Outside the repository
// and the working directory, a device or a pipe that is being read is
// written into instead (writeInPlace).
func writeReport(repoRoot, cwd, osPath string, write func(io.Writer) error) error {
	if done, err := writeInPlace(repoRoot, cwd, osPath, write); done {
		return err
	}
	root, err := fix.OutputRoot(repoRoot, osPath)
	if err != nil {
		return err
	}
	return fix.WriteOut(root, osPath, 0o644, write)
}

// writeInPlace writes a report into what stands at osPath when that is a
// device (/dev/null, a terminal) or a pipe with a reader (/dev/stdout in a
// CI log, a shell's >(…)), reached through links or not, and osPath lies
// outside both the repository and the working directory: a path the user
// named, which nothing linted can have planted. Replacing it would put a
// regular file where the device was (as root, over /dev/null) and send
// the report nowhere. A pipe nobody reads is left to the rename, as
// before: opening it never waits. done is false when the path is left to
// writeReport's atomic write.
func writeInPlace(repoRoot, cwd, osPath string, write func(io.Writer) error) (done bool, err error) {
	for _, tree := range []string{repoRoot, cwd} {
		if _, in := load.Contained(tree, osPath); in && tree != "" {
			return false, nil
		}
	}
	fi, err := os.Stat(osPath)
	if err != nil || fi.Mode()&(os.ModeCharDevice|os.ModeNamedPipe) == 0 {
		return false, nil
	}
	f, err := os.OpenFile(osPath, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if fi.Mode()&os.ModeNamedPipe != 0 {
			return false, nil // no reader
		}
		return true, err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return true, err
}

func render(w io.Writer, format string, in *report.Input, statistics bool, lc *lintConfig) error {
	switch {
	case statistics && format == "json":
		return report.StatisticsJSON(w, in)
	case statistics:
		return report.StatisticsText(w, in)
	}
	switch format {
	case "json":
		return report.JSON(w, in)
	case "sarif":
		in.Rules = ruleInfos()
		return report.SARIF(w, in, lc.rel)
	case "github":
		return report.GitHub(w, in, lc.rel)
	case "junit":
		return report.JUnit(w, in, lc.rel)
	case "codeclimate":
		return report.CodeClimate(w, in, lc.rel)
	case "markdown":
		return report.Markdown(w, in, lc.rel)
	}
	return report.Text(w, in)
}

// printsSnippets reports whether a report prints the source lines
// findings point at (text does); the run keeps those lines only then.
func printsSnippets(outs []output) bool {
	for _, o := range outs {
		if o.format == "text" {
			return true
		}
	}
	return false
}

// ruleInfos describes the catalog's rules for the output formats.
func ruleInfos() []report.RuleInfo {
	all := rules.All()
	out := make([]report.RuleInfo, 0, len(all))
	for _, r := range all {
		out = append(out, report.NewRuleInfo(r.Code, r.Name, r.Summary, r.Severity, r.Family))
	}
	return out
}
