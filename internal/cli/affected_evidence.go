package cli

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/load"
)

// evidence is what a set of changed paths may be evidence for: files of a
// known kind the change did not touch whose findings rest on those paths
// (a cross-file rule's other side), so that pre-commit's --affected reports
// on them what a lint of the whole repository does:
//
//   - a resume file in a project's or build's 01-planning/ rests on the
//     project folder: its steps file (RL319), the files its files_to_load
//     names (RL314, RL317);
//   - an ORCHESTRATION file below the repository root rests on its folder:
//     the checkpoint log it keeps there (RL123), the outputs of its phases
//     (RL124); and on its work item (RL125): the entity file of a jerry
//     work item folder holding it, or whose id it names;
//   - any file rests on the paths it names (files_to_read, files_to_load,
//     checkpoint_file): a changed path, or a folder holding one, that a
//     word of its text names from the repository root, from the file's own
//     folder, or as the end of the changed path (a base the file declares,
//     such as jerry's paths.base); a bare file name counts only for the
//     file beside it or at the root, so the ORCHESTRATION_PLAN.md of one
//     workflow does not check every workflow naming its own;
//   - a checkpoint a changed file of a known kind names (the compaction
//     events of a workflow merging it, RL206).
//
// Names are matched as the words of a file's text, not parsed: a file
// that names a changed path in prose is checked too, which costs a check
// and never misses one.
type evidence struct {
	root  string
	paths []string // changed paths, absolute and clean
	// byName holds the changed paths below the root and their folders of
	// two segments or more ('/'-separated), by their last segment.
	byName map[string][]string
	ids    map[string]bool // the ids of changed work item files (FEAT-012)
	named  map[string]bool // the words of the changed files of a known kind
	items  []string        // the folders of changed work item files
}

// workItem matches the id at the start of a jerry work item's folder, whose
// entity file is the folder's name with ".md" (RL125 reads its Status).
var workItem = lazyre.New(`^(?:EPIC|FEAT|EN)-[0-9]+`)

// newEvidence prepares the matching of changed paths (absolute, clean).
func newEvidence(root string, changed map[string]bool) *evidence {
	ev := &evidence{root: root, byName: map[string][]string{}, ids: map[string]bool{}, named: map[string]bool{}}
	seen := map[string]bool{}
	for p := range changed {
		ev.paths = append(ev.paths, p)
		if dir := filepath.Dir(p); filepath.Base(p) == filepath.Base(dir)+".md" {
			if id := workItem.Regexp().FindString(filepath.Base(dir)); id != "" {
				ev.items = append(ev.items, dir)
				ev.ids[id] = true
			}
		}
		rel, ok := load.Contained(root, p)
		if !ok || rel == "." {
			continue
		}
		for d := filepath.ToSlash(rel); d != "." && !seen[d]; d = path.Dir(d) {
			if d != filepath.ToSlash(rel) && !strings.Contains(d, "/") {
				break // a top folder names too much ("docs", "src")
			}
			seen[d] = true
			ev.byName[path.Base(d)] = append(ev.byName[path.Base(d)], d)
		}
	}
	return ev
}

// minNameLen is the shortest file name matched as a word: shorter ones
// ("a", "x") are words of any text.
const minNameLen = 3

// learn adds the words of a changed file of a known kind.
func (ev *evidence) learn(data []byte) {
	forWords(data, func(w string) bool {
		ev.named[path.Base(w)] = true
		return false
	})
}

// restsOn reports whether f, which the change did not touch, has a
// finding the changed paths may be evidence for; data is its text.
func (ev *evidence) restsOn(f *load.File, data []byte) bool {
	if f.Kind == load.KindCheckpoint {
		base := filepath.Base(f.OSPath)
		if ev.named[base] || ev.named[strings.TrimSuffix(strings.TrimSuffix(base, ".json"), "-checkpoint")] {
			return true
		}
	}
	if ev.placed(f) {
		return true
	}
	relDir := ""
	if rel, ok := load.Contained(ev.root, filepath.Dir(f.OSPath)); ok && rel != "." {
		relDir = filepath.ToSlash(rel)
	}
	return forWords(data, func(w string) bool { return ev.names(w, relDir) })
}

// names reports whether word w, in a file in the folder relDir (from the
// root; "" at the root), names a changed path or a folder holding one.
func (ev *evidence) names(w, relDir string) bool {
	if ev.ids[w] {
		return true
	}
	cands := ev.byName[path.Base(w)]
	if len(cands) == 0 {
		return false
	}
	w = path.Clean(w)
	for _, c := range cands {
		if c == w || relDir != "" && c == path.Join(relDir, w) ||
			strings.Contains(w, "/") && strings.HasSuffix(c, "/"+w) {
			return true
		}
	}
	return false
}

// placed reports whether f rests on a changed path by where it lies,
// whatever its text says: below a changed work item (an ORCHESTRATION
// file), or holding a changed path in its scope (scopeOf).
func (ev *evidence) placed(f *load.File) bool {
	if f.Kind == load.KindOrchestration {
		for _, dir := range ev.items {
			if within(dir, f.OSPath) {
				return true
			}
		}
	}
	if scope := ev.scopeOf(f); scope != "" {
		for _, p := range ev.paths {
			if within(scope, p) {
				return true
			}
		}
	}
	return false
}

// scopeOf is the folder whose every file f's findings may rest on: a
// resume file's project or build folder, an ORCHESTRATION file's own
// folder when that is not the repository root (where it would make every
// change check it). "" when none.
func (ev *evidence) scopeOf(f *load.File) string {
	dir := filepath.Dir(f.OSPath)
	switch f.Kind {
	case load.KindResumeContext:
		if filepath.Base(dir) == "01-planning" {
			return filepath.Dir(dir)
		}
	case load.KindOrchestration:
		if filepath.Clean(dir) != filepath.Clean(ev.root) {
			return dir
		}
	}
	return ""
}

// within reports whether p lies in the folder dir.
func within(dir, p string) bool {
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// forWords calls match with each word of data that may be a path (a run
// of bytes between spaces, quotes, brackets and separators, without a
// "#anchor", "./" or trailing "/") until match says true.
func forWords(data []byte, match func(string) bool) bool {
	start := -1
	for i := 0; i <= len(data); i++ {
		if i < len(data) && !isWordBreak(data[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			if w := cleanWord(string(data[start:i])); w != "" && match(w) {
				return true
			}
			start = -1
		}
	}
	return false
}

func isWordBreak(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', ',', '[', ']', '{', '}', '(', ')', '<', '>', '|', '*', '=', ';':
		return true
	}
	return false
}

// cleanWord trims what surrounds a path in prose and YAML: a key's colon,
// a sentence's full stop, an anchor, a leading "./" and a trailing "/".
func cleanWord(w string) string {
	if i := strings.IndexByte(w, '#'); i >= 0 {
		w = w[:i]
	}
	w = strings.TrimRight(w, ":.,/")
	for strings.HasPrefix(w, "./") {
		w = w[2:]
	}
	if len(w) < minNameLen {
		return ""
	}
	return w
}
