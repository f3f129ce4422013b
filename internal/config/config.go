// Package config reads .resumelint.yaml (SPEC §7) into plain data
// (severities, options, globs) the command maps onto a run, and holds the filters a run's findings pass through: inline suppressions
// (suppress.go), the configuration's ignore list, and baselines
// (baseline.go).
package config

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/rules"
	"github.com/resumelint/resumelint/internal/schema"
)

// FileName is the configuration looked for at the repository root.
const FileName = ".resumelint.yaml"

// Config is a validated .resumelint.yaml. Paths and globs in it are
// relative to the repository root.
type Config struct {
	Path        string // display path of the file read; "" when there is none
	Kinds       map[load.Kind]KindConfig
	Exclude     []string
	Severity    map[string]diag.Severity // by rule code
	MaxAge      time.Duration
	RunMaxAge   time.Duration
	Bundle      rules.BundleOptions
	SecretAllow []string
	// AllowKeys are keys RL010 accepts, per kind: a name allowed in any
	// mapping, or a dotted path (resumption.defect_summary.critical_defects).
	AllowKeys map[load.Kind][]string
	Ignore    []Ignore
	FailOn    diag.Severity // SevOff when not set
}

// KindConfig replaces a kind's discovery globs and adds excludes.
type KindConfig struct {
	Globs   []string
	Exclude []string
}

// Ignore hides findings of files matching Path; Codes nil means every rule.
type Ignore struct {
	Path  string
	Codes map[string]bool
}

// Problem is one configuration error at a position of the file.
type Problem struct {
	Path      string
	Line, Col int
	Message   string
}

// String is the problem on one line: its path and message (which may
// quote the file: an invalid regular expression is echoed as written)
// are masked and their line breaks and control characters escaped
// (diag.Safe), so a configuration cannot start a line of the error output.
// The message quotes values of the file: a credential written inside one
// (a URL's password, "password=…"), which no pattern finds alone, is
// masked as a finding's is.
func (p Problem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", diag.Safe(p.Path), p.Line, p.Col, diag.Safe(rules.MaskText(p.Message)))
}

// Error lists every problem of a configuration file (exit code 2).
type Error struct{ Problems []Problem }

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Find returns the OS path of the configuration at the repository root,
// or "" when there is none.
func Find(root string) string {
	p := filepath.Join(root, FileName)
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		return p
	}
	return ""
}

// Load reads and validates a configuration file against #Config, then
// checks what the schema cannot (rule names, regexes, globs, durations).
// Every problem is reported, each at its node. display is the path used
// in messages. root confines the read (load.RootFor): a configuration
// linked from outside the repository is not read.
func Load(osPath, display, root string) (*Config, error) {
	f := &load.File{Path: display, OSPath: osPath, Root: root}
	probs, ok := load.Read(f, load.DefaultLimits)
	if !ok && f.Data == nil && len(probs) > 0 {
		// Not read at all (missing, outside the repository, not a
		// regular file, too large): nothing of it can be shown.
		return nil, fmt.Errorf("cannot read configuration %s: %s", display, strings.TrimPrefix(probs[0].Message, "cannot read file: "))
	}
	var doc *load.Document
	if ok {
		var ps []diag.Finding
		doc, ps = load.Parse(f, load.FormatYAML, load.DefaultLimits)
		probs = append(probs, ps...)
	}
	l := &loader{f: f, reported: map[*yaml.Node]bool{},
		cfg: &Config{Path: display, Kinds: map[load.Kind]KindConfig{}, Severity: map[string]diag.Severity{}}}
	for _, p := range probs {
		l.errs = append(l.errs, Problem{Path: display, Line: p.Start.Line, Col: p.Start.Col, Message: p.Message})
	}
	if len(l.errs) > 0 {
		return nil, &Error{l.errs}
	}
	if doc.Root == nil {
		return l.cfg, nil // empty file
	}
	if !node.IsMap(doc.Root) {
		// Not a configuration at all (a file of another kind under this
		// name): its content is not quoted.
		l.errorf(doc.Root, "the configuration must be a mapping of settings, found %s", node.Kind(doc.Root))
		return nil, &Error{l.errs}
	}
	vs, err := schema.Validate("#Config", doc.Root, schema.Options{})
	if err != nil {
		return nil, err
	}
	ruleKeys := map[*yaml.Node]bool{}
	l.pairs(node.Val(doc.Root, "rules"), func(k, _ *yaml.Node) { ruleKeys[k] = true })
	for _, v := range vs {
		n := v.Node
		if v.Key != nil {
			n = v.Key
		}
		if ruleKeys[v.Key] && rules.Lookup(v.Key.Value) == nil {
			continue // no rule of that name: decodeRule says so once, with the hint
		}
		l.reported[v.Node] = true
		l.errorf(n, "%s", v.Message)
	}
	if node.IsMap(doc.Root) {
		l.decode(doc.Root)
	}
	if len(l.errs) > 0 {
		sort.SliceStable(l.errs, func(i, j int) bool {
			a, b := l.errs[i], l.errs[j]
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, &Error{l.errs}
	}
	return l.cfg, nil
}

type loader struct {
	f        *load.File
	cfg      *Config
	errs     []Problem
	reported map[*yaml.Node]bool // nodes the schema already reported
}

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	p := node.Pos(n)
	l.errs = append(l.errs, Problem{Path: l.f.Path, Line: p.Line, Col: p.Col, Message: fmt.Sprintf(format, args...)})
}

// str returns a string scalar the schema did not already report.
func (l *loader) str(n *yaml.Node) (string, bool) {
	if n == nil || l.reported[n] {
		return "", false
	}
	return node.Str(n)
}

// list calls fn for each string of a list the schema did not reject.
func (l *loader) list(n *yaml.Node, fn func(s string, n *yaml.Node)) {
	if !node.IsSeq(n) || l.reported[n] {
		return
	}
	for _, c := range node.Resolve(n).Content {
		if s, ok := l.str(c); ok {
			fn(s, c)
		}
	}
}

// globs returns the valid glob patterns of a list and reports the others.
func (l *loader) globs(n *yaml.Node, where string) []string {
	var out []string
	over := false
	l.list(n, func(s string, c *yaml.Node) {
		if len(out) == load.MaxGlobs {
			if !over {
				l.errorf(c, "%s: more than %d patterns; use fewer, wider ones", where, load.MaxGlobs)
			}
			over = true
			return
		}
		if err := checkRelGlob(s); err != nil {
			l.errorf(c, "%s: %q %v", where, s, err)
			return
		}
		out = append(out, relGlob(s))
	})
	return out
}

// checkRelGlob is load.CheckGlob for a pattern matched against paths
// relative to a folder: an absolute one, or one leading out of the folder,
// would match nothing.
func checkRelGlob(p string) error {
	if err := load.CheckGlob(p); err != nil {
		return err
	}
	switch p = relGlob(p); {
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("is an absolute path, which matches nothing: write it relative to the folder holding the configuration")
	case p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("leads out of the folder holding the configuration, so it matches nothing")
	}
	return nil
}

// relGlob is a pattern relative to the configuration's folder without a
// leading "./", which the paths it is matched against never have: written
// so, an exclude or ignore path would match nothing.
func relGlob(p string) string {
	for strings.HasPrefix(p, "./") && len(p) > 2 {
		p = p[2:]
	}
	return p
}

// pairs calls fn for the entries of a mapping the schema did not reject.
func (l *loader) pairs(n *yaml.Node, fn func(k, v *yaml.Node)) {
	if node.IsMap(n) && !l.reported[n] {
		node.Pairs(n, fn)
	}
}

// decode fills the Config and checks what #Config cannot express. It runs
// even when the schema found problems, skipping the nodes it reported, so
// one run shows every problem of the file.
func (l *loader) decode(root *yaml.Node) {
	l.pairs(root, l.decodeKey)
}

// decodeKey decodes one top-level key.
func (l *loader) decodeKey(k, v *yaml.Node) {
	c := l.cfg
	switch k.Value {
	case "kinds":
		l.pairs(v, func(kk, kv *yaml.Node) {
			where := "kinds." + kk.Value
			c.Kinds[load.Kind(kk.Value)] = KindConfig{Globs: l.globs(node.Val(kv, "globs"), where+".globs"), Exclude: l.globs(node.Val(kv, "exclude"), where+".exclude")}
		})
	case "exclude":
		c.Exclude = append([]string{}, l.globs(v, "exclude")...) // set, even empty: it replaces the defaults
	case "rules":
		l.pairs(v, l.decodeRule)
	case "staleness":
		l.pairs(v, l.decodeStaleness)
	case "bundle":
		l.decodeBundle(v)
	case "secrets":
		l.list(node.Val(v, "allow"), func(s string, n *yaml.Node) {
			if _, err := regexp.Compile(s); err != nil {
				l.errorf(n, "secrets.allow: %q is not a valid regular expression: %v", s, regexpReason(err))
				return
			}
			c.SecretAllow = append(c.SecretAllow, s)
		})
	case "schema":
		l.pairs(node.Val(v, "allow_keys"), func(kk, kv *yaml.Node) {
			if c.AllowKeys == nil {
				c.AllowKeys = map[load.Kind][]string{}
			}
			l.list(kv, func(s string, _ *yaml.Node) {
				c.AllowKeys[load.Kind(kk.Value)] = append(c.AllowKeys[load.Kind(kk.Value)], s)
			})
		})
	case "ignore":
		l.decodeIgnore(v)
	case "fail_on":
		if s, ok := l.str(v); ok {
			c.FailOn, _ = diag.ParseSeverity(s)
		}
	}
}

// decodeRule decodes one entry of rules: a rule's severity, "on" or "off".
func (l *loader) decodeRule(rk, rv *yaml.Node) {
	r := rules.Lookup(rk.Value)
	if r == nil {
		l.errorf(rk, "rules: no rule is called %q (see `resumelint rules`)", rk.Value)
		return
	}
	if s, ok := l.str(rv); ok {
		if s == "on" {
			l.cfg.Severity[r.Code] = r.Severity // an opt-in rule at its own severity
		} else if sev, err := diag.ParseSeverity(s); err == nil {
			l.cfg.Severity[r.Code] = sev
		}
	}
}

// decodeStaleness decodes one entry of staleness.
func (l *loader) decodeStaleness(sk, sv *yaml.Node) {
	s, ok := l.str(sv)
	if !ok {
		return
	}
	d, err := ParseDuration(s)
	switch {
	case err != nil:
		l.errorf(sv, "staleness.%s: %v", sk.Value, err)
	case sk.Value == "max_age":
		l.cfg.MaxAge = d
	case sk.Value == "run_max_age":
		l.cfg.RunMaxAge = d
	}
}

// decodeBundle decodes bundle.
func (l *loader) decodeBundle(v *yaml.Node) {
	c := l.cfg
	if s, ok := l.str(node.Val(v, "base")); ok {
		c.Bundle.Base = s
	}
	if n := node.Val(v, "supported_validator_semvers"); n != nil {
		c.Bundle.Semvers = []string{}
		l.list(n, func(s string, _ *yaml.Node) { c.Bundle.Semvers = append(c.Bundle.Semvers, s) })
	}
	if n := node.Val(v, "forbidden"); n != nil {
		c.Bundle.Forbidden = append([]string{}, l.globs(n, "bundle.forbidden")...)
	}
}

// decodeIgnore decodes the ignore list.
func (l *loader) decodeIgnore(v *yaml.Node) {
	if !node.IsSeq(v) || l.reported[v] {
		return
	}
	for i, e := range node.Resolve(v).Content {
		where := fmt.Sprintf("ignore[%d]", i)
		pat, ok := l.str(node.Val(e, "path"))
		if !ok {
			continue
		}
		if err := checkRelGlob(pat); err != nil {
			l.errorf(node.Val(e, "path"), "%s.path: %q %v", where, pat, err)
			continue
		}
		ig := Ignore{Path: relGlob(pat)}
		l.list(node.Val(e, "rules"), func(name string, n *yaml.Node) {
			r := rules.Lookup(name)
			if r == nil {
				l.errorf(n, "%s.rules: no rule is called %q (see `resumelint rules`)", where, name)
				return
			}
			if ig.Codes == nil {
				ig.Codes = map[string]bool{}
			}
			ig.Codes[r.Code] = true
		})
		l.cfg.Ignore = append(l.cfg.Ignore, ig)
	}
}

func regexpReason(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

var dayRe = lazyre.New(`([0-9]+)d`)

// ParseDuration reads Go durations plus days: "72h", "14d", "1d12h".
func ParseDuration(s string) (time.Duration, error) {
	var bad error
	conv := dayRe.ReplaceAllStringFunc(s, func(m string) string {
		n, err := strconv.ParseInt(strings.TrimSuffix(m, "d"), 10, 64)
		if err != nil || n > 100000 {
			bad = fmt.Errorf("%q is too long a duration", s)
			return m
		}
		return strconv.FormatInt(n*24, 10) + "h"
	})
	if bad != nil {
		return 0, bad
	}
	d, err := time.ParseDuration(conv)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (e.g. 72h, 14d, 1d12h)", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q must be longer than zero", s)
	}
	return d, nil
}

// Classifier returns the discovery classifier with the configured globs.
// Globs that do not start with **/ are anchored at the repository root, so
// they mean the same from any working directory.
func (c *Config) Classifier(root string) *load.Classifier {
	cl := load.NewClassifier()
	for k, kc := range c.Kinds {
		if kc.Globs == nil {
			continue
		}
		g := make([]string, len(kc.Globs))
		for i, p := range kc.Globs {
			g[i] = anchor(root, p)
		}
		cl.Globs[k] = g
	}
	return cl
}

func anchor(root, pattern string) string {
	if strings.HasPrefix(pattern, "**/") || pattern == "**" {
		return pattern
	}
	r := filepath.ToSlash(root)
	var sb strings.Builder
	for _, ch := range r {
		if strings.ContainsRune(`*?[]{}\`, ch) {
			sb.WriteByte('\\')
		}
		sb.WriteRune(ch)
	}
	return strings.TrimSuffix(sb.String(), "/") + "/" + strings.TrimPrefix(pattern, "./")
}

// Ignored reports whether the ignore list hides a finding; rel is its
// path relative to the folder the configuration's globs are anchored at
// (RootRel).
func (c *Config) Ignored(fd *diag.Finding, rel string) bool {
	for _, ig := range c.Ignore {
		if (ig.Codes == nil || ig.Codes[fd.Code]) && matchAny([]string{ig.Path}, rel) {
			return true
		}
	}
	return false
}

func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		if ok, _ := doublestar.Match(pat, p); ok {
			return true
		}
		// A folder pattern covers what is inside it.
		if ok, _ := doublestar.Match(strings.TrimSuffix(pat, "/")+"/**", p); ok && !strings.HasSuffix(pat, "**") {
			return true
		}
	}
	return false
}

// RootRel turns a display path (relative to cwd) into a path relative to
// the repository root; paths outside the root stay as they are.
func RootRel(root, cwd, p string) string {
	if root == "" || root == cwd || p == "" {
		return p
	}
	abs := load.Abs(cwd, p)
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return path.Clean(filepath.ToSlash(rel))
}
