//go:build ignore

// gen_ruleset writes ruleset_gen.go, the credential formats RL005 takes
// from gitleaks' rule set (config/gitleaks.toml), and LICENSE.gitleaks,
// the notice that comes with them. Run by hand (go generate) after
// `go mod download -json github.com/zricethezav/gitleaks/v8@VERSION`:
//
//	go run gen_ruleset.go -dir "$(go mod download -json github.com/zricethezav/gitleaks/v8@latest | sed -n 's/.*"Dir": "\(.*\)",/\1/p')"
//
// It keeps the rules that recognise a token by its own format, whose
// regular expression Go's RE2 accepts; see docs/rules/RL005.md.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// skipped are rules of the token-format kind left out, with the reason.
var skipped = map[string]string{
	"curl-auth-header":                "a command line's context over several lines; the bearer pattern covers the header",
	"curl-auth-user":                  "a command line's context over several lines",
	"facebook-access-token":           "its keyword is not part of the token: the expression alone matches ordinary ids",
	"airtable-personnal-access-token": "its keyword is not part of the token",
	"sourcegraph-access-token":        "matches any 40-digit hexadecimal value, a git commit id",
	"twilio-api-key":                  "its keyword (sk) is in most lines of text",
	"vault-service-token":             "its keyword (s.) is in most lines of text; s. plus 24 letters matches ordinary words",
	"jwt":                             "its keyword (ey) is in most lines of text; the built-in JSON Web Token pattern covers it",
	"private-key":                     "spans lines; the built-in PEM pattern masks the block whole (PGP's too)",
	"github-app-token":                "the built-in GitHub pattern matches every token it does",
	"github-fine-grained-pat":         "the built-in GitHub pattern matches every token it does",
	"github-oauth":                    "the built-in GitHub pattern matches every token it does",
	"github-pat":                      "the built-in GitHub pattern matches every token it does",
	"github-refresh-token":            "the built-in GitHub pattern matches every token it does",
	"anthropic-api-key":               "the built-in sk-ant- pattern matches every token it does",
	"anthropic-admin-api-key":         "the built-in sk-ant- pattern matches every token it does",
	"openai-api-key":                  "the built-in sk- pattern matches every token it does",
	"slack-bot-token":                 "the built-in Slack pattern matches every token it does",
	"slack-legacy-bot-token":          "the built-in Slack pattern matches every token it does",
	"slack-legacy-token":              "the built-in Slack pattern matches its tokens of 10 characters or more after the prefix",
	"slack-legacy-workspace-token":    "the built-in Slack pattern matches its tokens of 10 characters or more after the prefix",
}

// assignment is gitleaks' generic form "a key named like X, then a
// value": it judges a value by its key's name, which RL005 does with its
// own secret-named keys and entropy.
const assignment = `(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// gitleaksEnd is how gitleaks ends most tokens: a quote, a space, a
// semicolon, an escaped newline or the end of the line. In prose a token
// also ends at a full stop, a comma or a bracket, and a mask must hide it
// there too: the rule set's expressions end at any character that cannot
// continue a token.
const gitleaksEnd, tokenEnd = `(?:[\x60'"\s;]|\\[nr]|$)`, `(?:[^0-9A-Za-z_-]|$)`

// delimited marks expressions whose first group is the token, set off
// by the characters around it.
var delimited = []string{`(?:[\x60'"\s;]|\\[nr]|$`, `(?:[^\w-]|\z)`, `(?:$|[\\'"\x60\s<),])`}

type rule struct {
	id, description, regex, path string
	keywords                     []string
	entropy                      float64
	group                        int
}

func main() {
	dir := flag.String("dir", "", "the gitleaks module's folder")
	flag.Parse()
	data, err := os.ReadFile(filepath.Join(*dir, "config", "gitleaks.toml"))
	if err != nil {
		log.Fatal(err)
	}
	rules, err := parse(string(data))
	if err != nil {
		log.Fatal(err)
	}
	var kept []rule
	for _, r := range rules {
		if why := reject(r); why != "" {
			fmt.Fprintf(os.Stderr, "skip %s: %s\n", r.id, why)
			continue
		}
		kept = append(kept, r)
	}
	version := filepath.Base(*dir)
	if err := os.WriteFile("ruleset_gen.go", render(version, kept), 0o644); err != nil {
		log.Fatal(err)
	}
	lic, err := os.ReadFile(filepath.Join(*dir, "LICENSE"))
	if err != nil {
		log.Fatal(err)
	}
	head := "The credential formats in ruleset_gen.go are taken from gitleaks (" + version + "),\nconfig/gitleaks.toml, under this licence:\n\n"
	if err := os.WriteFile("LICENSE.gitleaks", append([]byte(head), lic...), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "kept %d of %d rules\n", len(kept), len(rules))
}

// reject says why a rule is left out, or "".
func reject(r rule) string {
	switch {
	case r.path != "":
		return "it matches file names"
	case len(r.keywords) == 0:
		return "no keywords to screen lines with"
	case strings.Contains(r.regex, assignment):
		return "judges a value by the name of its key"
	case skipped[r.id] != "":
		return skipped[r.id]
	}
	for _, k := range r.keywords {
		if len(k) < 2 {
			return "a keyword shorter than two characters"
		}
	}
	re, err := regexp.Compile(r.regex)
	if err != nil {
		return "Go's regexp does not accept it: " + err.Error()
	}
	if r.group > re.NumSubexp() {
		return "its secret group does not exist"
	}
	return ""
}

// parse reads the [[rules]] of gitleaks.toml: the file is generated in
// one layout (one key per line, arrays one item per line), which this
// reads; anything else stops the generator.
func parse(src string) ([]rule, error) {
	var out []rule
	var cur *rule
	inAllow := false
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		switch {
		case l == "[[rules]]":
			out = append(out, rule{})
			cur, inAllow = &out[len(out)-1], false
			continue
		case strings.HasPrefix(l, "["):
			inAllow = true
			continue
		case cur == nil || inAllow || l == "" || strings.HasPrefix(l, "#"):
			continue
		}
		key, val, ok := strings.Cut(l, " = ")
		if !ok {
			return nil, fmt.Errorf("line %d: %q", i+1, l)
		}
		if val == "[" {
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "]"; i++ {
				val += strings.TrimSpace(lines[i])
			}
			val += "]"
		}
		if err := set(cur, key, val); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	return out, nil
}

// set stores one key of a rule.
func set(r *rule, key, val string) error {
	var err error
	switch key {
	case "id":
		r.id, err = str(val)
	case "description":
		r.description, err = str(val)
	case "regex":
		r.regex, err = str(val)
	case "path":
		r.path, err = str(val)
	case "entropy":
		r.entropy, err = strconv.ParseFloat(val, 64)
	case "secretGroup":
		r.group, err = strconv.Atoi(val)
	case "keywords":
		for _, k := range strings.Split(strings.Trim(val, "[]"), ",") {
			if k = strings.TrimSpace(k); k != "" {
				s, err := str(k)
				if err != nil {
					return err
				}
				r.keywords = append(r.keywords, strings.ToLower(s))
			}
		}
	}
	return err
}

// str decodes a TOML basic or literal string.
func str(v string) (string, error) {
	if strings.HasPrefix(v, "'''") && strings.HasSuffix(v, "'''") && len(v) >= 6 {
		return v[3 : len(v)-3], nil
	}
	if strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") && len(v) >= 2 {
		return v[1 : len(v)-1], nil
	}
	return strconv.Unquote(v)
}

// render writes the Go table.
func render(version string, rules []rule) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by gen_ruleset.go from gitleaks %s, config/gitleaks.toml; DO NOT EDIT.\n", version)
	b.WriteString("// Licence: LICENSE.gitleaks (MIT).\n\npackage secret\n\nimport \"github.com/resumelint/resumelint/internal/lazyre\"\n\n")
	b.WriteString("// rulesetVersion is the gitleaks release the formats come from.\n")
	fmt.Fprintf(&b, "const rulesetVersion = %q\n\n", strings.TrimPrefix(version, "v8@"))
	b.WriteString("// ruleset holds gitleaks' token-format rules that the secret-leak rule uses.\nvar ruleset = []Pattern{\n")
	sort.Slice(rules, func(i, j int) bool { return rules[i].id < rules[j].id })
	for _, r := range rules {
		group := r.group
		if group == 0 && regexp.MustCompile(r.regex).NumSubexp() > 0 {
			for _, d := range delimited {
				if strings.Contains(r.regex, d) {
					group = 1
				}
			}
		}
		r.regex = strings.ReplaceAll(r.regex, gitleaksEnd, tokenEnd)
		fmt.Fprintf(&b, "\t// %s\n", r.description)
		fmt.Fprintf(&b, "\t{ID: %q, What: %q, RE: lazyre.New(%s), Keywords: %#v, Group: %d, Entropy: %v},\n",
			r.id, what(r.id), quote(r.regex), r.keywords, group, r.entropy)
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("%v\n%s", err, b.Bytes())
	}
	return out
}

// what names the kind in a finding's message.
func what(id string) string {
	art := "a"
	if strings.ContainsRune("aeiou", rune(id[0])) {
		art = "an"
	}
	return art + " " + id + " (gitleaks rule)"
}

// quote writes a raw string literal where it can.
func quote(s string) string {
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}
