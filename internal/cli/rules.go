package cli

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"text/tabwriter"

	"github.com/resumelint/resumelint/docs"
	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/rules"
)

type ruleJSON struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Fix      string `json:"fix"`
	// Default is "on", or "opt-in" for style checks that run only when
	// enabled (--enable, or a severity in the configuration).
	Default string   `json:"default"`
	Kinds   []string `json:"kinds"`
	Summary string   `json:"summary"`
	Doc     string   `json:"doc"`
}

func (c *Command) rules(args []string) (int, error) {
	fset := newFlagSet("rules")
	format := fset.String("format", "text", "output format: text or json")
	rest, err := c.parseArgs(fset, args)
	if err != nil {
		return ExitUsage, err
	}
	if len(rest) > 0 {
		return ExitUsage, usagef("rules takes no arguments; to read a rule's page: resumelint explain %s", rest[0])
	}
	all := rules.All()
	switch *format {
	case "json":
		out := []ruleJSON{}
		for _, r := range all {
			kinds := []string{}
			for _, k := range r.Kinds {
				kinds = append(kinds, string(k))
			}
			out = append(out, ruleJSON{Code: r.Code, Name: r.Name, Severity: r.Severity.String(), Fix: string(r.Fix), Default: defaultState(r), Kinds: kinds, Summary: r.Summary, Doc: "docs/rules/" + r.Code + ".md"})
		}
		enc := json.NewEncoder(c.Stdout)
		enc.SetIndent("", "  ")
		return ExitOK, enc.Encode(out)
	case "text":
		tw := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CODE\tNAME\tSEVERITY\tDEFAULT\tFIX\tSUMMARY")
		for _, r := range all {
			fix := string(r.Fix)
			if fix == "" {
				fix = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Code, r.Name, r.Severity, defaultState(r), fix, r.Summary)
		}
		return ExitOK, tw.Flush()
	}
	return ExitUsage, usagef("unknown --format %q (want text or json)", *format)
}

// defaultState says whether a rule runs unless configured otherwise.
func defaultState(r *rules.Rule) string {
	if r.OptIn {
		return "opt-in"
	}
	return "on"
}

func (c *Command) explain(args []string) (int, error) {
	args, err := c.parseArgs(newFlagSet("explain"), args)
	if err != nil {
		return ExitUsage, err
	}
	if len(args) != 1 {
		return ExitUsage, usagef("usage: resumelint explain RULE (a code like " + code.StaleResumption + " or a name like stale-resumption)")
	}
	r := rules.Lookup(args[0])
	if r == nil {
		var names []string
		for _, r := range rules.All() {
			names = append(names, r.Code, r.Name)
		}
		if s := suggest(args[0], names); s != "" {
			return ExitUsage, usagef("unknown rule %q; did you mean %s? (see 'resumelint rules')", args[0], s)
		}
		return ExitUsage, usagef("unknown rule %q (see 'resumelint rules')", args[0])
	}
	page, err := fs.ReadFile(docs.Rules, "rules/"+r.Code+".md")
	if err != nil {
		return ExitInternal, fmt.Errorf("no documentation page for %s", r.Code)
	}
	text := string(page)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, err = fmt.Fprint(c.Stdout, text)
	return ExitOK, err
}
