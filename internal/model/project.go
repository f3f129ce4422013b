package model

import (
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/node"
)

// The files of a project (seed 004): precompact_state.json and the
// resume-context.md front matter.

// precompactKeys are the keys of the flat state (project_id is the nested
// form's name for active_project_id); a top-level mapping holding one of
// them is the nesting seed 004 corrected.
var precompactKeys = []string{"active_project_id", "project_id", "confidence", "detection_method", "timestamp"}

// Precompact is a precompact_state.json seen flat: nested state hoisted to
// the top level, so RL301 and RL304 judge the state itself and the nesting
// is reported once, by RL302.
type Precompact struct {
	View  *yaml.Node       // the flat mapping (the root itself when nothing is nested)
	State *PrecompactState // View read as #PrecompactState
	Nests []Nest
}

// Nest is one mapping that holds state keys, and what flattening it does.
type Nest struct {
	Key     *yaml.Node
	Renames []string // "project_id as active_project_id"
	Drops   []string // keys the top level already has
}

// PrecompactOf reads a precompact state root, nested state hoisted to the
// top level; nil when the root is not a mapping.
func PrecompactOf(root *yaml.Node) *Precompact {
	if !node.IsMap(root) {
		return nil
	}
	pc := &Precompact{View: root}
	var nested [][2]*yaml.Node
	top := map[string]bool{}
	node.Pairs(root, func(k, v *yaml.Node) {
		if k.Value != "metadata" && node.IsMap(v) && hasAnyKey(v, precompactKeys) {
			nested = append(nested, [2]*yaml.Node{k, v})
			return
		}
		top[k.Value] = true
	})
	if len(nested) == 0 {
		pc.State = PrecompactStateOf(nil, root)
		return pc
	}
	view := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: root.Line, Column: root.Column}
	node.Pairs(root, func(k, v *yaml.Node) {
		if top[k.Value] {
			view.Content = append(view.Content, k, v)
		}
	})
	for _, kv := range nested {
		nest := Nest{Key: kv[0]}
		node.Pairs(kv[1], func(k, v *yaml.Node) {
			name := k.Value
			if name == "project_id" {
				name = "active_project_id"
			}
			if top[name] {
				nest.Drops = append(nest.Drops, k.Value)
				return
			}
			top[name] = true
			nk := *k
			nk.Value = name
			view.Content = append(view.Content, &nk, v)
			if name != k.Value {
				nest.Renames = append(nest.Renames, k.Value+" as "+name)
			}
		})
		pc.Nests = append(pc.Nests, nest)
	}
	pc.View, pc.State = view, PrecompactStateOf(nil, view)
	return pc
}

func hasAnyKey(m *yaml.Node, keys []string) bool {
	return slices.ContainsFunc(keys, func(k string) bool { return node.Has(m, k) })
}

// Resume is a resume file's front matter as the rules see it.
type Resume struct {
	View *yaml.Node // what RL311 validates: the legacy resume_version renamed
	Def  string     // #ResumeContext, #ResumeContextV2 for version "2.0", #BuildResumeContext for a build, #ResumeMemo for a memo
	// Memo: the file is a _resume.md in the memo form nexus wrote before
	// resume-context.md (#ResumeMemo).
	Memo bool
	// Build: the file is a nexus build's (build_id where a project has
	// project_id); ProjectID then holds build_id.
	Build bool
	// Version is the declared version as written ("" when there is none).
	Version string
	// Counters: the file keeps nexus's total_tasks/tasks_completed, as
	// execute-project's update-resume.py writes them.
	Counters bool
	// ProjectID, FilesToLoad and CurrentTask are the fields of that name
	// (FilesToLoad's value whatever its type).
	ProjectID   Str
	FilesToLoad *yaml.Node
	CurrentTask Int
}

// V2 reports the "2.0" form init_project.py writes.
func (r *Resume) V2() bool { return r.Def == "#ResumeContextV2" }

// resumeView is the front matter with the legacy resume_version renamed
// (RL312 reports it; an unquoted number becomes its text), so one root
// cause is one finding.
func resumeView(root *yaml.Node) *yaml.Node {
	if !node.Has(root, "resume_version") {
		return root
	}
	hasCanon := node.Has(root, "resume_schema_version")
	view := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: root.Line, Column: root.Column}
	node.Pairs(root, func(k, v *yaml.Node) {
		if k.Value == "resume_version" {
			if hasCanon {
				return
			}
			nk := *k
			nk.Value = "resume_schema_version"
			k = &nk
			if node.IsScalar(v) && !node.IsNull(v) && !node.IsString(v) {
				nv := *v
				nv.Tag, nv.Style = "!!str", yaml.DoubleQuotedStyle
				v = &nv
			}
		}
		view.Content = append(view.Content, k, v)
	})
	return view
}

// ResumeOf reads a resume file's front matter; nil when it is not a
// mapping. legacyName is true for a file named _resume.md, which may be a
// memo (IsResumeMemo).
func ResumeOf(root *yaml.Node, legacyName bool) *Resume {
	if !node.IsMap(root) {
		return nil
	}
	if legacyName && IsResumeMemo(root) {
		return &Resume{View: root, Def: "#ResumeMemo", Memo: true}
	}
	r := &Resume{View: resumeView(root), Def: "#ResumeContext", ProjectID: StrOf(root, "project_id"),
		FilesToLoad: node.Val(root, "files_to_load"), CurrentTask: IntOf(root, "current_task")}
	r.Counters = node.Has(root, "total_tasks") || node.Has(root, "tasks_completed")
	v := node.Val(root, "resume_schema_version")
	if v == nil {
		v = node.Val(root, "resume_version")
	}
	if node.IsScalar(v) && !node.IsNull(v) {
		r.Version = v.Value
	}
	// An unquoted 2.0 is still the 2.0 form (update-resume.py writes it so).
	// A minor version (2.1) adds to it: a 2.0 reader reads it.
	if v2Minor.MatchString(r.Version) || (r.Version == "2" && !node.IsString(v)) {
		r.Def = "#ResumeContextV2"
	}
	if IsBuildResume(root) {
		r.Def, r.Build, r.ProjectID = "#BuildResumeContext", true, StrOf(root, "build_id")
	}
	return r
}

// resumeFormKeys are the keys of the resume-context form (either version,
// or a build's) that a memo never held.
var resumeFormKeys = []string{"resume_schema_version", "resume_version", "project_name", "current_phase",
	"next_action", "files_to_load", "last_updated", "build_id", "build_name"}

// IsResumeMemo reports the front matter of a _resume.md in the memo form
// nexus-template wrote before resume-context.md (#ResumeMemo: updated,
// phase, last_skill, project_id): none of the resume-context form's keys.
func IsResumeMemo(root *yaml.Node) bool { return node.IsMap(root) && !hasAnyKey(root, resumeFormKeys) }

// v2Minor is a 2.x resume_schema_version.
var v2Minor = lazyre.New(`^2\.[0-9]+$`)

// IsBuildResume reports the front matter of a nexus build, as init_build.py
// writes it: build_id or build_name where a project has project_id.
func IsBuildResume(root *yaml.Node) bool {
	return !node.Has(root, "project_id") && (node.Has(root, "build_id") || node.Has(root, "build_name"))
}

// progressRe is #ResumeContext's progress pattern, with the counts captured.
var progressRe = lazyre.New(`^([0-9]+)/([0-9]+) tasks complete$`)

// ProgressOf returns progress N/M and its node, ok false when the file has
// no progress in the schema's form (RL311 reports a malformed one).
func ProgressOf(root *yaml.Node) (done, total int, n *yaml.Node, ok bool) {
	n = node.Val(root, "progress")
	s, isStr := node.Str(n)
	if !isStr {
		return 0, 0, nil, false
	}
	m := progressRe.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, nil, false
	}
	var err1, err2 error
	done, err1 = strconv.Atoi(m[1])
	total, err2 = strconv.Atoi(m[2])
	return done, total, n, err1 == nil && err2 == nil
}

// CountersOf returns nexus's tasks_completed and total_tasks, ok false
// unless both are non-negative integers (RL311 reports other values).
func CountersOf(root *yaml.Node) (done, total int64, doneNode, totalNode *yaml.Node, ok bool) {
	doneNode, totalNode = node.Val(root, "tasks_completed"), node.Val(root, "total_tasks")
	done, okD := node.Int(doneNode)
	total, okT := node.Int(totalNode)
	return done, total, doneNode, totalNode, okD && okT && done >= 0 && total >= 0
}
