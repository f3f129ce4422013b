package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
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
	path string
	dirs []*directive
	// byLine lists, in order, the line directives covering a line (their
	// own or their target); wholeFile the first valid whole-file directive
	// naming each code: suppress looks a finding up instead of scanning
	// every directive for it.
	byLine    map[int][]*directive
	wholeFile map[string]*directive
	// incomplete: the file did not parse, so its rules did not run and an
	// unused suppression says nothing.
	incomplete bool
}

// directive is one `# resumelint:ignore…` comment (captured at load)
// with its names resolved to rule codes.
type directive struct {
	load.Directive
	codes   []string // resolved rule codes, in the order written
	unknown []string // names that are no rule
	used    map[string]bool
	// cleanup removes what hides nothing (the comment, or the unused
	// codes of it); it is the fix of the finding whose message is cleanupMsg.
	cleanup    *diag.Fix
	cleanupMsg string
}

// PostFile drops the findings of the file at path, whose suppression
// directives are dirs, that are suppressed or ignored.
func (x *Filter) PostFile(path string, dirs []load.Directive, fs []diag.Finding) []diag.Finding {
	sups := x.sups(path, dirs)
	if sups != nil {
		sups.mu.Lock()
		defer sups.mu.Unlock()
	}
	out := make([]diag.Finding, 0, len(fs))
	for i := range fs {
		fd := &fs[i]
		if sups != nil {
			if Unchecked(fd.Code) {
				sups.incomplete = true
			}
			if sups.suppress(fd) {
				continue
			}
		}
		if len(x.cfg.Ignore) > 0 && x.cfg.Ignored(fd, RootRel(x.root, x.cwd, fd.Path)) {
			continue
		}
		out = append(out, *fd)
	}
	return out
}

// sups returns a file's suppressions, resolved once per path; nil when
// it has none.
func (x *Filter) sups(path string, dirs []load.Directive) *fileSups {
	x.mu.Lock()
	defer x.mu.Unlock()
	s, seen := x.files[path]
	if seen || len(dirs) == 0 {
		return s
	}
	s = &fileSups{path: path}
	for _, ld := range dirs {
		d := &directive{Directive: ld, used: map[string]bool{}}
		for _, name := range ld.Names {
			if r := rules.Lookup(name); r != nil {
				d.codes = append(d.codes, r.Code)
			} else {
				d.unknown = append(d.unknown, name)
			}
		}
		s.dirs = append(s.dirs, d)
	}
	s.index()
	x.files[path] = s
	return s
}

func (d *directive) valid() bool { return d.Verb == "ignore" || d.Verb == "ignore-file" }

// Unchecked reports the codes of findings that say a file was not
// checked at all (RL001, RL003, RL004): no comment in the file can hide
// them, since a file that was never parsed could otherwise silence itself.
// Only the configuration's ignore: list can.
func Unchecked(code string) bool {
	return code == rules.ParseError.Code || code == rules.InputLimits.Code || code == rules.Encoding.Code
}

// index fills byLine and wholeFile from dirs.
func (s *fileSups) index() {
	s.byLine = map[int][]*directive{}
	s.wholeFile = map[string]*directive{}
	for _, d := range s.dirs {
		if !d.valid() {
			continue
		}
		if d.WholeFile {
			for _, c := range d.codes {
				if s.wholeFile[c] == nil {
					s.wholeFile[c] = d
				}
			}
			continue
		}
		s.byLine[d.Line] = append(s.byLine[d.Line], d)
		if d.Target != d.Line {
			s.byLine[d.Target] = append(s.byLine[d.Target], d)
		}
	}
}

// suppress reports whether a directive hides fd, and marks it used. A
// suppression of the line wins over one of the whole file; among several,
// the first written.
func (s *fileSups) suppress(fd *diag.Finding) bool {
	if Unchecked(fd.Code) {
		return false
	}
	for _, d := range s.byLine[fd.Start.Line] { // in the order written
		if d.names(fd.Code) {
			d.used[fd.Code] = true
			return true
		}
	}
	if file := s.wholeFile[fd.Code]; file != nil {
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
// hid nothing (RL007), after every PostFile call of the run. Each finding
// carries its directive's line as its snippet.
func (x *Filter) PostRun() []diag.Finding {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []diag.Finding
	for _, s := range x.files {
		if s == nil {
			continue // the marker, but no directive: nothing to report
		}
		s.mu.Lock()
		var fs []diag.Finding
		for _, d := range s.dirs {
			for _, msg := range x.problems(s, d) {
				fd := diag.Finding{Code: rules.UnusedSuppression.Code, Path: s.path,
					Start: diag.Pos{Line: d.Line, Col: d.Col}, End: diag.Pos{Line: d.Line, Col: d.EndCol}, Message: msg,
					NodePath: "suppression", NodeHash: hashText(d.Text), Snippet: d.LineText, HasSnippet: true}
				if msg == d.cleanupMsg {
					fd.Fix = d.cleanup
				}
				fs = append(fs, fd)
			}
		}
		// RL007 findings can themselves be suppressed or ignored.
		for i := range fs {
			if !s.suppress(&fs[i]) && !x.cfg.Ignored(&fs[i], RootRel(x.root, x.cwd, fs[i].Path)) {
				out = append(out, fs[i])
			}
		}
		s.mu.Unlock()
	}
	return out
}

// problems returns the RL007 messages of one directive.
func (x *Filter) problems(s *fileSups, d *directive) []string {
	example := "# resumelint:" + d.Verb + " " + code.StaleResumption + " -- the checkpoint is merged in the next session"
	if len(d.codes) > 0 {
		example = "# resumelint:" + d.Verb + " " + strings.Join(d.codes, ",") + " -- why the finding is acceptable here"
	}
	if !d.valid() {
		return []string{fmt.Sprintf("unknown directive `resumelint:%s`: write `resumelint:ignore CODE -- reason` (this line or the next) or `resumelint:ignore-file CODE -- reason`", d.Verb)}
	}
	var msgs []string
	for _, u := range d.unknown {
		msgs = append(msgs, fmt.Sprintf("`resumelint:%s` names %q, which is no rule (see `resumelint rules`)", d.Verb, u))
	}
	for _, c := range d.codes {
		if Unchecked(c) {
			msgs = append(msgs, fmt.Sprintf("%s %s cannot be suppressed inline: it says the file was not checked at all; to skip the file, list it under ignore: in %s", c, rules.Lookup(c).Name, FileName))
		}
	}
	if len(d.codes) == 0 {
		if len(d.unknown) == 0 {
			msgs = append(msgs, fmt.Sprintf("`resumelint:%s` names no rule: list codes or names, e.g. `%s`", d.Verb, example))
		}
		return msgs
	}
	var unused []string
	if !s.incomplete {
		for _, c := range d.codes {
			if !d.used[c] && c != rules.UnusedSuppression.Code && !Unchecked(c) && (x.Active == nil || x.Active(c)) {
				unused = append(unused, c+" "+rules.Lookup(c).Name)
			}
		}
	}
	switch {
	case len(unused) == len(d.codes) && d.WholeFile:
		msgs = append(msgs, fmt.Sprintf("this suppression hides nothing: the file has no %s finding; remove the comment", strings.Join(unused, " or ")))
	case len(unused) == len(d.codes):
		msgs = append(msgs, fmt.Sprintf("this suppression hides nothing: line %d has no %s finding; remove the comment", d.Target, strings.Join(unused, " or ")))
	case len(unused) > 0 && d.WholeFile:
		is, it := number(len(unused))
		msgs = append(msgs, fmt.Sprintf("%s %s suppressed for the file, which has no such finding; remove %s from the list", strings.Join(unused, " and "), is, it))
	case len(unused) > 0:
		is, it := number(len(unused))
		msgs = append(msgs, fmt.Sprintf("%s %s suppressed here, but line %d has no such finding; remove %s from the list", strings.Join(unused, " and "), is, d.Target, it))
	}
	if len(unused) > 0 {
		d.cleanupMsg, d.cleanup = msgs[len(msgs)-1], cleanupFix(d, unused)
	}
	if d.Reason == "" && len(unused) < len(d.codes) {
		msgs = append(msgs, fmt.Sprintf("suppression without a reason: say why after ` -- `, e.g. `%s`", example))
	}
	return msgs
}

// number is the verb and pronoun for n rules: "is", "it" or "are", "them".
func number(n int) (string, string) {
	if n == 1 {
		return "is", "it"
	}
	return "are", "them"
}

// cleanupFix removes a suppression whose every code hides nothing, or
// rewrites it without the unused ones ("CODE name" each), keeping the
// others as written (RL007's safe fix). A list with names that are no rule
// is left to the user.
func cleanupFix(d *directive, unused []string) *diag.Fix {
	if len(unused) == len(d.codes) {
		if d.Remove == nil {
			return nil
		}
		return &diag.Fix{Applicability: diag.FixSafe, Description: "remove the unused suppression", Edits: []diag.TextEdit{*d.Remove}}
	}
	if len(d.unknown) > 0 || d.Replace == nil {
		return nil
	}
	drop := map[string]bool{}
	for _, u := range unused {
		drop[strings.Fields(u)[0]] = true
	}
	var kept []string
	for i, c := range d.codes {
		if !drop[c] {
			kept = append(kept, d.Names[i]) // as written: a name stays a name (no unknown name, so d.Names pairs with d.codes)
		}
	}
	text := "# resumelint:" + d.Verb + " " + strings.Join(kept, ",")
	if d.Reason != "" {
		text += " -- " + d.Reason
	}
	if strings.ContainsAny(text, "\r\n") {
		return nil
	}
	edit := *d.Replace
	edit.NewText = text
	return &diag.Fix{Applicability: diag.FixSafe, Description: "remove the unused rules from the suppression", Edits: []diag.TextEdit{edit}}
}

func hashText(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}
