// Package hook speaks Claude Code's hook protocol: it reads the event JSON
// a hook receives on stdin, decides cheaply whether a written file is one
// resumelint checks, keeps the paths of the event inside the session's
// repository, and renders findings in the forms the protocol reads back
// (stderr on exit code 2, a JSON object on stdout).
//
// The parts that need the engine and the configuration live in
// internal/cli (hook.go); nothing here loads a CUE schema, so the answer
// for a file of no known kind costs a JSON decode and a few stats.
package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Event names resumelint answers; every other event is answered with
// exit code 0 and no output.
const (
	PostToolUse  = "PostToolUse"
	PreCompact   = "PreCompact"
	SessionStart = "SessionStart"
)

// MaxEventSize bounds the event read from stdin. A Write event carries the
// whole written content in tool_input.content: the bound holds a file of
// the largest size resumelint reads (8 MiB) JSON-escaped, as the language
// server's message bound does; a larger event is refused, not held.
const MaxEventSize = 24 << 20

// Event is the part of a hook event resumelint reads. Unknown fields are
// ignored: Claude Code adds fields between versions.
type Event struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	// Source is SessionStart's: startup, resume, clear or compact.
	Source string `json:"source"`
	// Trigger is PreCompact's: manual or auto.
	Trigger string `json:"trigger"`
}

// EventWait bounds the wait for the event: Claude Code writes it and
// closes stdin at once, and a hook that waits on a stdin nobody closes
// would hold the session until the hook's own timeout.
var EventWait = 20 * time.Second

// ReadEvent decodes one event from r, read within EventWait.
func ReadEvent(r io.Reader) (*Event, error) {
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, MaxEventSize+1))
		done <- read{data, err}
	}()
	var data []byte
	select {
	case got := <-done:
		if got.err != nil {
			return nil, fmt.Errorf("reading the hook event: %w", got.err)
		}
		data = got.data
	case <-time.After(EventWait):
		return nil, fmt.Errorf("no complete hook event on stdin within %s (stdin was not closed)", EventWait)
	}
	if len(data) > MaxEventSize {
		return nil, fmt.Errorf("the hook event is larger than %d MiB", MaxEventSize>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("no hook event on stdin (resumelint hook is run by Claude Code, which writes the event as JSON)")
	}
	var ev Event
	if err := json.Unmarshal(data, &ev); err != nil {
		return nil, fmt.Errorf("the hook event is not a JSON object: %v", err)
	}
	return &ev, nil
}

// FilePath is tool_input.file_path, the file a Write, Edit or MultiEdit
// call wrote; "" when the tool input names none.
func (e *Event) FilePath() string {
	var in struct {
		FilePath string `json:"file_path"`
	}
	if len(e.ToolInput) == 0 || json.Unmarshal(e.ToolInput, &in) != nil {
		return ""
	}
	return in.FilePath
}

// WriteTools are the tools whose PostToolUse events name a written file.
var WriteTools = map[string]bool{"Write": true, "Edit": true, "MultiEdit": true}

// InRepository reports whether root, as RepoRoot found it, holds a .git
// marker (RepoRoot falls back to the folder itself outside any).
func InRepository(root string) bool {
	_, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil
}

// RepoRoot is the top of the git work tree containing dir, or dir itself.
// It reads .git markers instead of running git.
func RepoRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Target resolves the file an event names. The event is untrusted: a
// relative file is taken relative to cwd; the file must lie inside root
// both as written and with every symbolic link resolved, and must exist
// and not be a folder. A file named through another path to root (a link
// to the repository or to a folder above it; macOS's /tmp for
// /private/tmp) is taken under root (viaAlias). One that is not a regular
// file (a FIFO, a socket) is linted as lint does, which reports it unread
// (RL003) without opening it. It returns the cleaned path (as written
// when it lies under root, else under root) and its root-relative
// '/'-separated form.
func Target(root, cwd, file string) (osPath, rel string, ok bool) {
	if file == "" || strings.ContainsRune(file, 0) {
		return "", "", false
	}
	file = load.Abs(cwd, file)
	file = filepath.Clean(file)
	r, ok := within(root, file)
	if !ok {
		if file, ok = viaAlias(root, file); !ok {
			return "", "", false
		}
		if r, ok = within(root, file); !ok {
			return "", "", false
		}
	}
	rel = r
	// Looked up inside root only: a link leading out is answered like a
	// missing file, and nothing outside is looked at.
	fi, err := load.StatIn(root, file)
	if err != nil || fi.IsDir() {
		return "", "", false
	}
	return file, rel, true
}

// aliasMaxDepth bounds the folders of a path viaAlias looks at.
const aliasMaxDepth = 64

// viaAlias takes file, an absolute clean path outside root as written, to
// the same file under root when one of its folders is root under another
// name: the first folder, from the top, that is root itself (links
// followed, compared as files, not as names) is replaced by root. Only
// the folders up to that one are resolved; the rest of the path is then
// looked up under root as any path is, so a link inside the repository
// that leads out of it is not followed. At most aliasMaxDepth folders
// are looked at, and none past one that does not exist.
func viaAlias(root, file string) (string, bool) {
	rootInfo, err := os.Stat(root)
	if err != nil || !rootInfo.IsDir() {
		return "", false
	}
	sep := string(filepath.Separator)
	vol := filepath.VolumeName(file)
	rest := strings.TrimPrefix(file[len(vol):], sep)
	dir := vol + sep
	for range aliasMaxDepth {
		name, after, more := strings.Cut(rest, sep)
		if !more {
			return "", false // the file itself: a folder is what names root
		}
		dir = filepath.Join(dir, name)
		fi, err := os.Stat(dir)
		if err != nil {
			return "", false
		}
		if os.SameFile(fi, rootInfo) {
			return filepath.Join(root, after), true
		}
		rest = after
	}
	return "", false
}

// within returns p relative to root ('/'-separated) when p lies inside it.
func within(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// MayBeKnown reports whether the root-relative path rel may be a file
// resumelint checks: a file kind, a bundle marker or artifact, or a file
// of an agent run, under the default globs or the kinds.<kind>.globs of a
// .resumelint.yaml that may govern it (any from rel's folder up to root,
// each pattern relative to its own folder, as lint anchors them). The
// configurations are read here without validation (validation needs the
// CUE schemas); a file they may hold is then classified again with the
// validated configuration that governs it, so matching more of them than
// the nearest only costs that second look. A configuration that does not
// parse answers true, so that the full path reports it.
func MayBeKnown(root, rel string) bool {
	c := load.NewClassifier()
	if c.FileKind(rel) != load.KindUnknown {
		return true
	}
	if _, ok := load.RunDir(rel); ok {
		return true
	}
	if _, ok := c.BundleDir(rel); ok || path.Base(rel) == "VALIDATOR_VERSION" {
		return true
	}
	for dir := path.Dir(rel); ; dir = path.Dir(dir) {
		globs, ok := configuredGlobs(root, dir)
		if !ok {
			return true
		}
		sub := rel
		if dir != "." {
			sub = strings.TrimPrefix(rel, dir+"/")
		}
		for _, g := range globs {
			g = strings.TrimPrefix(g, "./")
			if m, _ := doublestar.Match(g, sub); m {
				return true
			}
		}
		if dir == "." || dir == "/" {
			return false
		}
	}
}

// configuredGlobs reads kinds.<kind>.globs of the .resumelint.yaml in
// dir, a root-relative '/'-separated folder; ok is false when the file
// exists but cannot be read as YAML.
func configuredGlobs(root, dir string) (globs []string, ok bool) {
	name := path.Join(dir, ".resumelint.yaml")
	f := &load.File{Path: name, OSPath: filepath.Join(root, filepath.FromSlash(name)), Root: root}
	if !load.ExistsIn(root, f.OSPath) {
		return nil, true
	}
	// Read as every configuration is: inside the repository, never a
	// FIFO, never past the limit.
	if _, ok := load.Read(f, load.Limits{MaxFileSize: 1 << 20}); !ok {
		return nil, false
	}
	data := f.Data
	var cfg struct {
		Kinds map[string]struct {
			Globs []string `yaml:"globs"`
		} `yaml:"kinds"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, false
	}
	// As the configuration's loader takes them: a pattern it rejects
	// (malformed, or with braces that would cost 2^k per path) is none,
	// and a kind has at most load.MaxGlobs.
	for _, k := range cfg.Kinds {
		n := 0
		for _, g := range k.Globs {
			if n < load.MaxGlobs && load.CheckGlob(g) == nil {
				globs = append(globs, g)
				n++
			}
		}
	}
	return globs, true
}

// Clean escapes control characters (and other non-printing runes) of
// text taken from a file, so a finding cannot move the cursor or forge
// lines in the agent's or the user's view.
func Clean(s string) string {
	if strings.IndexFunc(s, notPrintable) < 0 {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		if notPrintable(r) {
			q := fmt.Sprintf("%+q", string(r))
			sb.WriteString(q[1 : len(q)-1])
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

func notPrintable(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }

// CleanLine is Clean for text that begins a line: a line that starts,
// after blanks, with "::" is a workflow command to GitHub Actions, so its
// first colon is shown as \x3a, as diag.SafeLine shows it in lint's text
// report.
func CleanLine(s string) string { return diag.NoCommands(Clean(s)) }

// FindingLine is one finding as the agent reads it: path:line:col, the
// code and name, the message, and the fix when resumelint has a safe one.
// The path is text from the repository like the message: masked, then
// escaped, and, as it starts the line, never the start of a workflow
// command (CleanLine).
func FindingLine(fd *diag.Finding) string {
	var sb strings.Builder
	path := diag.Mask(fd.Path)
	fmt.Fprintf(&sb, "%s:%d:%d: %s %s %s: %s", CleanLine(path), fd.Start.Line, fd.Start.Col, fd.Severity, fd.Code, fd.Name, Clean(fd.Message))
	if fx := fd.Fix; fx != nil && fx.Applicability == diag.FixSafe && fx.Description != "" {
		fmt.Fprintf(&sb, "\n  safe fix: %s (resumelint fix %s applies it)", Clean(fx.Description), shellWord(path))
	}
	return sb.String()
}

// shellWord quotes a path for a command line the agent may copy.
func shellWord(p string) string {
	if p != "" && strings.IndexFunc(p, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) < 0 {
		return p
	}
	return "'" + strings.ReplaceAll(Clean(p), "'", `'\''`) + "'"
}

// Output is the JSON object a hook prints on stdout with exit code 0.
type Output struct {
	// SystemMessage is shown to the user, not to the model.
	SystemMessage      string          `json:"systemMessage,omitempty"`
	HookSpecificOutput *SpecificOutput `json:"hookSpecificOutput,omitempty"`
}

// SpecificOutput carries additionalContext, which the model reads.
type SpecificOutput struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// Write prints o as one line of JSON.
func (o *Output) Write(w io.Writer) error {
	data, err := json.Marshal(o)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// CleanText is Clean for text of several lines: newlines and tabs stay.
func CleanText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\t")
		for j, p := range parts {
			parts[j] = Clean(p)
		}
		lines[i] = strings.Join(parts, "\t")
	}
	return strings.Join(lines, "\n")
}
