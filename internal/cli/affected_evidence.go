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
//   - a resume file in a project's or build's 01-planning/, or directly in
//     its folder, rests on the project folder: its steps file (RL319), the
//     files its files_to_load names (RL314, RL317);
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
//     events of a workflow merging it, RL206), and the workflow whose id a
//     changed checkpoint names (which is to merge it, RL603 T5).
//
// Names are matched as the words of a file's text, not parsed: a file
// that names a changed path in prose is checked too, which costs a check
// and never misses one.
type evidence struct {
	root string
	// dirs holds the folders below the root holding a changed path
	// ('/'-separated, from the root), for the files resting on everything
	// in a folder (placed).
	dirs map[string]bool
	// known holds the changed paths below the root and their folders of
	// two segments or more ('/'-separated); bases their last segments, and
	// tails the same by their last two segments (a word naming one by its
	// end).
	known map[string]bool
	bases map[string]bool
	tails map[string][]string
	ids   map[string]bool // the ids of changed work item files (FEAT-012)
	named map[string]bool // the words of the changed files of a known kind
	items map[string]bool // the folders of changed work item files
	// workflows holds the workflow ids changed checkpoints name: the
	// workflow a checkpoint belongs to is to merge it (RL603 T5).
	workflows map[string]bool
}

// workItem matches the id at the start of a jerry work item's folder, whose
// entity file is the folder's name with ".md" (RL125 reads its Status).
var workItem = lazyre.New(`^(?:EPIC|FEAT|EN)-[0-9]+`)

// checkpointWorkflow matches the workflow id a checkpoint names
// (orchestration_state.workflow_id, or the runtime form's resumption_state).
var checkpointWorkflow = lazyre.New(`"workflow_id"[ \t\r\n]*:[ \t\r\n]*"([^"\\\r\n]{1,200})"`)

// newEvidence prepares the matching of changed paths (absolute, clean).
// Every look-up it prepares is by key, so a commit of thousands of paths
// costs each file of the repository the same.
func newEvidence(root string, changed map[string]bool) *evidence {
	ev := &evidence{root: root, dirs: map[string]bool{}, known: map[string]bool{}, bases: map[string]bool{},
		tails: map[string][]string{}, ids: map[string]bool{}, named: map[string]bool{}, items: map[string]bool{},
		workflows: map[string]bool{}}
	for p := range changed {
		if dir := filepath.Dir(p); filepath.Base(p) == filepath.Base(dir)+".md" {
			if id := workItem.Regexp().FindString(filepath.Base(dir)); id != "" {
				ev.items[dir] = true
				ev.ids[id] = true
			}
		}
		if rel, ok := load.Contained(root, p); ok && rel != "." {
			ev.addPath(filepath.ToSlash(rel))
		}
	}
	return ev
}

// addPath adds a changed path ('/'-separated, from the root) and the
// folders holding it, each folder once.
func (ev *evidence) addPath(rel string) {
	ev.addKnown(rel)
	for i := strings.LastIndexByte(rel, '/'); i > 0; {
		d := rel[:i]
		if ev.dirs[d] {
			return // and every folder above it
		}
		ev.dirs[d] = true
		i = strings.LastIndexByte(d, '/')
		if i >= 0 {
			ev.addKnown(d) // a top folder names too much ("docs", "src")
		}
	}
}

// addKnown adds a path a word may name.
func (ev *evidence) addKnown(p string) {
	ev.known[p] = true
	ev.bases[path.Base(p)] = true
	if t := lastTwo(p); t != "" {
		ev.tails[t] = append(ev.tails[t], p)
	}
}

// lastTwo is the last two segments of a '/'-separated path, "" for one of
// a single segment.
func lastTwo(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[strings.LastIndexByte(p[:i], '/')+1:]
}

// minNameLen is the shortest file name matched as a word: shorter ones
// ("a", "x") are words of any text.
const minNameLen = 3

// learn adds the words of a changed file of a known kind, and the
// workflow a changed checkpoint names.
func (ev *evidence) learn(f *load.File, data []byte) {
	forWords(data, func(w string) bool {
		ev.named[path.Base(w)] = true
		return false
	})
	if f.Kind == load.KindCheckpoint {
		for _, m := range checkpointWorkflow.Regexp().FindAllSubmatch(data, -1) {
			ev.workflows[string(m[1])] = true
		}
	}
}

// restsOn reports whether f, which the change did not touch, has a
// finding the changed paths may be evidence for; data is its text.
func (ev *evidence) restsOn(f *load.File, data []byte) bool {
	return ev.placed(f) || ev.textRestsOn(f, data)
}

// textRestsOn is restsOn by what f's text names, for a file that does not
// rest on a change by where it lies (placed).
func (ev *evidence) textRestsOn(f *load.File, data []byte) bool {
	if f.Kind == load.KindCheckpoint {
		base := filepath.Base(f.OSPath)
		if ev.named[base] || ev.named[strings.TrimSuffix(strings.TrimSuffix(base, ".json"), "-checkpoint")] {
			return true
		}
	}
	relDir := ""
	if rel, ok := load.Contained(ev.root, filepath.Dir(f.OSPath)); ok && rel != "." {
		relDir = filepath.ToSlash(rel)
	}
	owner := f.Kind == load.KindOrchestration && len(ev.workflows) > 0
	return forWords(data, func(w string) bool { return ev.names(w, relDir) || owner && ev.workflows[w] })
}

// names reports whether word w, in a file in the folder relDir (from the
// root; "" at the root), names a changed path or a folder holding one.
func (ev *evidence) names(w, relDir string) bool {
	if ev.ids[w] {
		return true
	}
	if !ev.bases[path.Base(w)] {
		return false
	}
	w = path.Clean(w)
	// A bare name names the file beside this one; from the root, only
	// for a file at the root: CLAUDE.md or pyproject.toml in a nested
	// workflow's prose is no reference to the root's.
	if relDir != "" && ev.known[path.Join(relDir, w)] || (relDir == "" || strings.Contains(w, "/")) && ev.known[w] {
		return true
	}
	if !strings.Contains(w, "/") {
		return false
	}
	end := "/" + w
	for _, c := range ev.tails[lastTwo(w)] {
		if strings.HasSuffix(c, end) {
			return true
		}
	}
	return false
}

// placed reports whether f rests on a changed path by where it lies,
// whatever its text says: below a changed work item (an ORCHESTRATION
// file), or holding a changed path in its scope (scopeOf).
func (ev *evidence) placed(f *load.File) bool {
	if f.Kind == load.KindOrchestration && len(ev.items) > 0 {
		for d := filepath.Dir(f.OSPath); d != ev.root && d != filepath.Dir(d); d = filepath.Dir(d) {
			if ev.items[d] {
				return true
			}
		}
	}
	if scope := ev.scopeOf(f); scope != "" {
		rel, ok := load.Contained(ev.root, scope)
		return ok && ev.dirs[filepath.ToSlash(rel)]
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
		// As rules.ProjectOf finds it: the folder above 01-planning/, or
		// the folder of a resume file directly in 02-projects/<id>/ or
		// 02-builds/<id>/ (where older projects kept _resume.md).
		switch filepath.Base(filepath.Dir(dir)) {
		case "02-projects", "02-builds":
			return dir
		}
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
