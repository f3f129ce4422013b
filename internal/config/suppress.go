package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/fix"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// Filter is the engine's PostFile and PostRun hook: it drops findings that
// an inline suppression comment or the configuration's ignore list hides,
// and at the end of the run reports suppressions that hid nothing (RL007).
// PostFile may be called for one file several times (its own findings,
// then cross-file ones), so "unused" is decided only in PostRun.
type Filter struct {
	cfg       *Config
	root, cwd string
	// Active reports whether a rule ran in this run; a suppression of a
	// rule that did not run is not reported as unused.
	Active func(code string) bool

	mu    sync.Mutex
	files map[string]*fileSups
}

// NewFilter returns the filter of a run; cfg may be nil.
func NewFilter(cfg *Config, root, cwd string) *Filter {
	if cfg == nil {
		cfg = &Config{}
	}
	return &Filter{cfg: cfg, root: root, cwd: cwd, files: map[string]*fileSups{}}
}

// fileSups are the suppression comments of one file.
type fileSups struct {
	mu   sync.Mutex
	file *load.File
	dirs []*directive
	// incomplete: the file did not parse, so its rules did not run and an
	// unused suppression says nothing.
	incomplete bool
}

// directive is one `# resumelint:ignore…` comment.
type directive struct {
	line, col, endCol int    // the comment's position
	verb              string // ignore, ignore-file, or what was written
	wholeFile         bool
	target            int      // ignore: the line it covers
	codes             []string // resolved rule codes, in the order written
	unknown           []string // names that are no rule
	reason            string
	text              string // the comment, for the fingerprint
	used              map[string]bool
	// cleanup removes what hides nothing (the comment, or the unused
	// codes of it); it is the fix of the finding whose message is cleanupMsg.
	cleanup    *diag.Fix
	cleanupMsg string
}

var marker = []byte("resumelint:")

// PostFile drops the findings of f that are suppressed or ignored.
func (x *Filter) PostFile(f *load.File, fs []diag.Finding) []diag.Finding {
	var sups *fileSups
	if f != nil {
		sups = x.sups(f)
	}
	if sups != nil {
		sups.mu.Lock()
		defer sups.mu.Unlock()
	}
	out := make([]diag.Finding, 0, len(fs))
	for i := range fs {
		fd := &fs[i]
		if sups != nil {
			if fd.Code == rules.ParseError.Code || fd.Code == rules.InputLimits.Code || fd.Code == rules.Encoding.Code {
				sups.incomplete = true
			}
			if sups.suppress(fd) {
				continue
			}
		}
		if len(x.cfg.Ignore) > 0 && x.cfg.ignored(fd, RootRel(x.root, x.cwd, fd.Path)) {
			continue
		}
		out = append(out, *fd)
	}
	return out
}

// sups returns f's suppressions, read once per path; nil when it has none.
func (x *Filter) sups(f *load.File) *fileSups {
	x.mu.Lock()
	s, seen := x.files[f.Path]
	x.mu.Unlock()
	if seen {
		return s
	}
	if f.Data == nil || !bytes.Contains(f.Data, marker) {
		return nil
	}
	s = parseSuppressions(f)
	x.mu.Lock()
	if prev, ok := x.files[f.Path]; ok {
		s = prev
	} else {
		x.files[f.Path] = s
	}
	x.mu.Unlock()
	return s
}

// parseSuppressions reads the directives of a YAML file, or of a Markdown
// file's front matter; other formats have no comments.
func parseSuppressions(f *load.File) *fileSups {
	// A copy: the engine releases a checked file's bytes, and an unused
	// suppression's removal fix is computed from them at the end of the run.
	own := *f
	s := &fileSups{file: &own}
	first, last := 1, len(f.LineStarts())
	switch load.FormatOf(f.Kind, f.Path) {
	case load.FormatYAML:
	case load.FormatMarkdown:
		if strings.TrimRight(f.Line(1), " \t") != "---" {
			return nil
		}
		first, last = 2, 0
		for i := 2; i <= len(f.LineStarts()); i++ {
			if t := strings.TrimRight(f.Line(i), " \t"); t == "---" || t == "..." {
				last = i - 1
				break
			}
		}
	default:
		return nil
	}
	for i := first; i <= last; i++ {
		line := f.Line(i)
		if d := parseDirective(line); d != nil {
			d.line = i
			if !d.wholeFile {
				d.target = i
				if strings.TrimSpace(line[:byteCol(line, d.col)]) == "" {
					// A comment on a line of its own covers the next line
					// that is not a comment itself (stacked suppressions).
					d.target = i + 1
					for d.target <= last && strings.HasPrefix(strings.TrimSpace(f.Line(d.target)), "#") {
						d.target++
					}
				}
			}
			s.dirs = append(s.dirs, d)
		}
	}
	if len(s.dirs) == 0 {
		return nil
	}
	return s
}

func byteCol(line string, col int) int {
	i := 0
	for n := 1; n < col && i < len(line); n++ {
		_, w := utf8.DecodeRuneInString(line[i:])
		i += w
	}
	return i
}

// parseDirective parses `# resumelint:VERB CODE[,CODE] -- reason` in a
// comment of line; nil when the line has none.
func parseDirective(line string) *directive {
	at := strings.Index(line, string(marker))
	if at < 0 {
		return nil
	}
	hash := strings.LastIndexByte(line[:at], '#')
	if hash < 0 || strings.TrimSpace(line[hash+1:at]) != "" || (hash > 0 && line[hash-1] != ' ' && line[hash-1] != '\t') {
		return nil
	}
	rest := line[at+len(marker):]
	verbEnd := 0
	for verbEnd < len(rest) && (rest[verbEnd] == '-' || rest[verbEnd] >= 'a' && rest[verbEnd] <= 'z' || rest[verbEnd] >= 'A' && rest[verbEnd] <= 'Z') {
		verbEnd++
	}
	d := &directive{
		col:    utf8.RuneCountInString(line[:hash]) + 1,
		endCol: utf8.RuneCountInString(strings.TrimRight(line, " \t")) + 1,
		verb:   rest[:verbEnd],
		text:   strings.TrimSpace(line[hash:]),
		used:   map[string]bool{},
	}
	d.wholeFile = d.verb == "ignore-file"
	list := rest[verbEnd:]
	if i := strings.Index(list, "--"); i >= 0 {
		d.reason = strings.TrimSpace(list[i+2:])
		list = list[:i]
	}
	for _, name := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		if r := rules.Lookup(name); r != nil {
			d.codes = append(d.codes, r.Code)
		} else {
			d.unknown = append(d.unknown, name)
		}
	}
	return d
}

func (d *directive) valid() bool { return d.verb == "ignore" || d.verb == "ignore-file" }

// suppress reports whether a directive hides fd, and marks it used. A
// suppression of the line wins over one of the whole file.
func (s *fileSups) suppress(fd *diag.Finding) bool {
	var file *directive
	for _, d := range s.dirs {
		if !d.valid() || !d.names(fd.Code) {
			continue
		}
		if !d.wholeFile && (d.target == fd.Start.Line || d.line == fd.Start.Line) {
			d.used[fd.Code] = true
			return true
		}
		if d.wholeFile && file == nil {
			file = d
		}
	}
	if file != nil {
		file.used[fd.Code] = true
		return true
	}
	return false
}

func (d *directive) names(code string) bool {
	for _, c := range d.codes {
		if c == code {
			return true
		}
	}
	return false
}

// PostRun reports the suppressions that are malformed, give no reason or
// hid nothing (RL007), after every PostFile call of the run.
func (x *Filter) PostRun() ([]diag.Finding, []*load.File) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []diag.Finding
	var files []*load.File
	for _, s := range x.files {
		if s == nil {
			continue // the marker, but no directive: nothing to report
		}
		s.mu.Lock()
		var fs []diag.Finding
		for _, d := range s.dirs {
			for _, msg := range x.problems(s, d) {
				fd := diag.Finding{Code: rules.UnusedSuppression.Code, Path: s.file.Path,
					Start: diag.Pos{Line: d.line, Col: d.col}, End: diag.Pos{Line: d.line, Col: d.endCol}, Message: msg,
					NodePath: "suppression", NodeHash: hashText(d.text)}
				if msg == d.cleanupMsg {
					fd.Fix = d.cleanup
				}
				fs = append(fs, fd)
			}
		}
		// RL007 findings can themselves be suppressed or ignored.
		kept := 0
		for i := range fs {
			if !s.suppress(&fs[i]) && !x.cfg.ignored(&fs[i], RootRel(x.root, x.cwd, fs[i].Path)) {
				out = append(out, fs[i])
				kept++
			}
		}
		if kept > 0 {
			files = append(files, s.file)
		}
		s.mu.Unlock()
	}
	return out, files
}

// problems returns the RL007 messages of one directive.
func (x *Filter) problems(s *fileSups, d *directive) []string {
	example := "# resumelint:" + d.verb + " RL107 -- the checkpoint is merged in the next session"
	if len(d.codes) > 0 {
		example = "# resumelint:" + d.verb + " " + strings.Join(d.codes, ",") + " -- why the finding is acceptable here"
	}
	if !d.valid() {
		return []string{fmt.Sprintf("unknown directive `resumelint:%s`: write `resumelint:ignore CODE -- reason` (this line or the next) or `resumelint:ignore-file CODE -- reason`", d.verb)}
	}
	var msgs []string
	for _, u := range d.unknown {
		msgs = append(msgs, fmt.Sprintf("`resumelint:%s` names %q, which is no rule (see `resumelint rules`)", d.verb, u))
	}
	if len(d.codes) == 0 {
		if len(d.unknown) == 0 {
			msgs = append(msgs, fmt.Sprintf("`resumelint:%s` names no rule: list codes or names, e.g. `%s`", d.verb, example))
		}
		return msgs
	}
	var unused []string
	if !s.incomplete {
		for _, c := range d.codes {
			if !d.used[c] && c != rules.UnusedSuppression.Code && (x.Active == nil || x.Active(c)) {
				unused = append(unused, c+" "+rules.Lookup(c).Name)
			}
		}
	}
	switch {
	case len(unused) == len(d.codes) && d.wholeFile:
		msgs = append(msgs, fmt.Sprintf("this suppression hides nothing: the file has no %s finding; remove the comment", strings.Join(unused, " or ")))
	case len(unused) == len(d.codes):
		msgs = append(msgs, fmt.Sprintf("this suppression hides nothing: line %d has no %s finding; remove the comment", d.target, strings.Join(unused, " or ")))
	case len(unused) > 0 && d.wholeFile:
		msgs = append(msgs, fmt.Sprintf("%s is suppressed for the file, which has no such finding; remove it from the list", strings.Join(unused, " and ")))
	case len(unused) > 0:
		msgs = append(msgs, fmt.Sprintf("%s is suppressed here, but line %d has no such finding; remove it from the list", strings.Join(unused, " and "), d.target))
	}
	if len(unused) > 0 {
		d.cleanupMsg, d.cleanup = msgs[len(msgs)-1], cleanupFix(s.file, d, unused)
	}
	if d.reason == "" && len(unused) < len(d.codes) {
		msgs = append(msgs, fmt.Sprintf("suppression without a reason: say why after ` -- `, e.g. `%s`", example))
	}
	return msgs
}

// cleanupFix removes a suppression whose every code hides nothing, or
// rewrites it without the unused ones ("CODE name" each) (RL007's safe
// fix). A list with names that are no rule is left to the user.
func cleanupFix(f *load.File, d *directive, unused []string) *diag.Fix {
	if len(unused) == len(d.codes) {
		return fix.RemoveComment(f, d.line, d.col)
	}
	if len(d.unknown) > 0 {
		return nil
	}
	drop := map[string]bool{}
	for _, u := range unused {
		drop[strings.Fields(u)[0]] = true
	}
	var kept []string
	for _, c := range d.codes {
		if !drop[c] {
			kept = append(kept, c)
		}
	}
	text := "# resumelint:" + d.verb + " " + strings.Join(kept, ",")
	if d.reason != "" {
		text += " -- " + d.reason
	}
	return fix.ReplaceComment(f, d.line, d.col, text)
}

func hashText(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}
