package load

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/node"
)

// Kinds by format, not by name alone (SPEC §0, §1): other systems write
// files and folders with the same names for other things. Those are
// skipped, with the reason --verbose prints, instead of being linted
// against a schema they never followed.

// Skip is a file or folder that discovery or the engine left out, and why.
type Skip struct {
	Path   string // display path; folders end in "/"
	Kind   Kind   // the kind its name matched
	Reason string
}

// WorkflowSections are the top-level sections of a workflow's
// ORCHESTRATION.yaml (seeds 000, 001); a file of that name holds at least one.
var WorkflowSections = []string{"resumption", "workflow", "pipelines", "quality_gates", "checkpoints"}

// NotWorkflow says why a parsed ORCHESTRATION*.yaml document is another
// system's file, or returns "" when it is the workflow's (or cannot be
// told: an empty or unparsable file stays linted, RL001/RL100).
func NotWorkflow(root *yaml.Node) string {
	root = node.Resolve(root)
	if root == nil || root.Kind != yaml.MappingNode || len(root.Content) == 0 {
		return ""
	}
	for _, s := range WorkflowSections {
		if node.Has(root, s) {
			return ""
		}
	}
	what := "not a workflow's orchestration file"
	stateful := false
	for _, k := range []string{"state", "status", "current_phase", "gates", "orchestration", "meta"} {
		stateful = stateful || node.Has(root, k)
	}
	switch {
	case node.Has(root, "agents") && (node.Has(root, "routing") || node.Has(root, "routes") || node.Has(root, "phases") && !stateful):
		what = "an agent routing table, not a workflow's orchestration file"
	case stateful:
		what = "a workflow's state in a layout of its own, without the sections the resumption protocol reads"
	case node.Has(root, "waves"):
		what = "a wave plan, not a workflow's orchestration file"
	}
	return what + " (none of " + strings.Join(WorkflowSections, ", ") + "; its keys: " + keysOf(root) + ")"
}

// OtherFormat says why a folder holding a bundle artifact's name is not a
// SPECTRUM-02 bundle, or returns "" when it is one (SPEC §1): it holds
// TASK_SPEC.json beside STATUS.json or OUTPUT_HASHES.json, or TASK_SPEC.json
// in the seed's shape, or an OUTPUT_HASHES.json with `hashes` or validator
// fields, or a STATUS.json with `cmp01`. An artifact that does not parse
// cannot be told apart, so its folder stays a bundle (fail closed).
func (b *Bundle) OtherFormat() string {
	ts, st, oh := b.Artifacts["TASK_SPEC.json"], b.Artifacts["STATUS.json"], b.Artifacts["OUTPUT_HASHES.json"]
	jobSpec := false
	for _, e := range b.Entries {
		if e == "JOBSPEC.json" {
			jobSpec = true
		}
	}
	unreadable := func(d *Document) bool { return d != nil && d.Root == nil }
	switch {
	case oh != nil && node.IsMap(oh.Root) && (node.Has(oh.Root, "hashes") || node.Has(oh.Root, "validator_semver") || node.Has(oh.Root, "validator_build_id")):
		return ""
	case st != nil && node.IsMap(st.Root) && node.Has(st.Root, "cmp01"):
		return ""
	case ts != nil && (st != nil || oh != nil):
		return ""
	case ts != nil && node.IsMap(ts.Root) && (node.Has(ts.Root, "expected_outputs") || node.Has(node.Val(ts.Root, "outputs"), "durable_paths")):
		return ""
	case !jobSpec && (unreadable(ts) || unreadable(st) || unreadable(oh)):
		return ""
	}
	var why []string
	if oh != nil {
		switch {
		case unreadable(oh):
			why = append(why, "OUTPUT_HASHES.json does not parse")
		case IsFlatHashMap(oh.Root):
			why = append(why, "OUTPUT_HASHES.json is a flat {path: hash} map")
		case !node.IsMap(oh.Root):
			why = append(why, "OUTPUT_HASHES.json is "+node.Kind(oh.Root))
		case len(node.Resolve(oh.Root).Content) == 0:
			why = append(why, "OUTPUT_HASHES.json is empty")
		default:
			why = append(why, "OUTPUT_HASHES.json has no hashes or validator fields")
		}
	}
	if st != nil {
		switch {
		case unreadable(st):
			why = append(why, "STATUS.json does not parse")
		case !node.IsMap(st.Root):
			why = append(why, "STATUS.json is "+node.Kind(st.Root))
		default:
			w := "STATUS.json has no cmp01"
			if s, ok := node.Str(node.Val(st.Root, "status")); ok {
				w += " (status " + quote(s) + ")"
			}
			why = append(why, w)
		}
	}
	if ts != nil {
		why = append(why, "TASK_SPEC.json has no expected_outputs and no STATUS.json or OUTPUT_HASHES.json is beside it")
	}
	if jobSpec {
		why = append(why, "JOBSPEC.json marks another run format")
	}
	return "not a SPECTRUM-02 bundle: " + strings.Join(why, ", ")
}

// IsFlatHashMap reports a mapping of paths straight to digests, without
// the seed's `hashes` object: the layout other run formats write.
func IsFlatHashMap(n *yaml.Node) bool {
	n = node.Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "hashes", "validator_semver", "validator_build_id", "generated_at":
			return false
		}
		s, ok := node.Str(n.Content[i+1])
		if !ok || !looksLikeDigest(s) {
			return false
		}
	}
	return true
}

// looksLikeDigest accepts 64 hex digits of either case, with or without
// a "sha256:" prefix of either case.
func looksLikeDigest(s string) bool {
	if len(s) == 71 && strings.EqualFold(s[:7], "sha256:") {
		s = s[7:]
	}
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// quote shows a value from the file: masked, then clipped (diag.QuoteHead).
func quote(s string) string { return diag.QuoteHead(s, 41) }

// nexusResumeKeys are keys of a nexus resume file's front matter (seed 004
// and the forms nexus-template's writers produce): one of them, or the
// file's place, makes a resume-context.md or _resume.md nexus's.
var nexusResumeKeys = []string{"resume_schema_version", "resume_version", "project_id", "project_name",
	"build_id", "build_name", "files_to_load", "next_action", "current_phase", "current_task", "progress",
	"tasks_completed", "total_tasks"}

// InNexusPlace reports a path (an absolute or display path, '/' or OS
// separated) where nexus keeps a resume file: a 01-planning/ folder, or a
// project or build folder under 02-projects/ or 02-builds/.
func InNexusPlace(p string) bool {
	parts := strings.Split(strings.ReplaceAll(p, "\\", "/"), "/")
	if len(parts) < 2 {
		return false
	}
	dirs := parts[:len(parts)-1]
	if dirs[len(dirs)-1] == "01-planning" {
		return true
	}
	for _, d := range dirs {
		if d == "02-projects" || d == "02-builds" {
			return true
		}
	}
	return false
}

// OtherSystems says why a parsed file named like a state file is another
// system's file of that name, which a lint skips (NotWorkflow,
// NotNexusResume, NotNexusPrecompact), or returns "" for one of ours.
// abs is the file's absolute path (its place decides for resume files);
// probs are the parse's problems: a front matter or JSON that did not
// parse cleanly cannot be told apart, and stays linted.
func OtherSystems(abs string, doc *Document, probs []diag.Finding) string {
	switch doc.File.Kind {
	case KindOrchestration:
		return NotWorkflow(doc.Root)
	case KindResumeContext:
		if !parseTrouble(probs) {
			return NotNexusResume(abs, doc)
		}
	case KindPrecompact:
		if len(probs) == 0 {
			return NotNexusPrecompact(abs, doc)
		}
	}
	return ""
}

// parseTrouble reports a parse problem other than a missing or unclosed
// front matter (RL310, which another system's page has by design).
func parseTrouble(probs []diag.Finding) bool {
	for _, p := range probs {
		if p.Code != code.Frontmatter {
			return true
		}
	}
	return false
}

// NotNexusResume says why a file named like a resume file is another
// system's (a Jekyll site's _resume.md CV page, a CV summary or a session
// page called resume-context.md), or returns "" when it is nexus's: it
// sits where nexus keeps one (InNexusPlace) or its front matter carries a
// nexus key. path is the file's absolute path.
func NotNexusResume(path string, doc *Document) string {
	if InNexusPlace(path) {
		return ""
	}
	root := (*yaml.Node)(nil)
	if doc != nil && doc.FrontMatter {
		root = node.Resolve(doc.Root)
	}
	if root != nil && root.Kind == yaml.MappingNode {
		for _, k := range nexusResumeKeys {
			if node.Has(root, k) {
				return ""
			}
		}
	}
	const where = "not in a project's 01-planning/ folder"
	switch {
	case root != nil && node.Has(root, "layout"):
		layout, _ := node.Str(node.Val(root, "layout"))
		return "a site page (layout: " + clipWord(layout) + "), " + where + " and with no nexus key"
	case doc == nil || !doc.FrontMatter:
		return "Markdown without front matter, " + where + ": another system's page, not a nexus resume file"
	case root == nil || root.Kind != yaml.MappingNode:
		return "front matter that is not a mapping, " + where + ": not a nexus resume file"
	}
	return "front matter with no nexus key (its keys: " + keysOf(root) + "), " + where
}

// keysOf lists a mapping's keys for a skip reason (someOf).
func keysOf(m *yaml.Node) string {
	var keys []string
	node.Pairs(m, func(k, _ *yaml.Node) { keys = append(keys, k.Value) })
	return someOf(keys)
}

// someOf joins the first five of names for a skip reason, each clipped
// (clipWord), and "…" when there are more.
func someOf(names []string) string {
	shown := make([]string, 0, 6)
	for i, n := range names {
		if i == 5 {
			shown = append(shown, "…")
			break
		}
		shown = append(shown, clipWord(n))
	}
	return strings.Join(shown, ", ")
}

// clipWord keeps a value shown in a skip reason short, its secrets masked
// first: a clipped credential may no longer match its pattern.
func clipWord(s string) string {
	s = diag.Mask(s)
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// nexusPrecompactKeys are top-level keys of nexus's precompact state: the
// flat state of seed 004 and the nested form its PreCompact hook wrote
// before it (`project_detection`, which RL302 flattens). `timestamp`,
// `session_id` and `metadata` are every state file's, not nexus's.
var nexusPrecompactKeys = []string{"active_project_id", "confidence", "detection_method", "project_detection"}

// nestedPrecompactKeys are the state keys that make a nested object
// nexus's state (model.PrecompactOf hoists it; RL302 reports it).
var nestedPrecompactKeys = []string{"active_project_id", "project_id", "confidence", "detection_method"}

// InNexusCache reports a path (an absolute or display path, '/' or OS
// separated) in the folder nexus's PreCompact hook writes its state to,
// 00-system/.cache/.
func InNexusCache(p string) bool {
	parts := strings.Split(strings.ReplaceAll(p, "\\", "/"), "/")
	n := len(parts)
	return n >= 3 && parts[n-2] == ".cache" && parts[n-3] == "00-system"
}

// NotNexusPrecompact says why a file named precompact_state.json is
// another system's (a hook's own session record, a map of thread ids to
// times), or returns "" when it is nexus's: it sits in 00-system/.cache/
// (InNexusCache) or holds nexus's state keys, flat or nested. A file that
// does not parse, or holds no object or an empty one, cannot be told apart
// and stays linted. path is the file's absolute path.
func NotNexusPrecompact(path string, doc *Document) string {
	if InNexusCache(path) || doc == nil || doc.Root == nil {
		return ""
	}
	root := node.Resolve(doc.Root)
	if root == nil || root.Kind != yaml.MappingNode || len(root.Content) == 0 {
		return ""
	}
	nexus := false
	node.Pairs(root, func(k, v *yaml.Node) {
		if slices.Contains(nexusPrecompactKeys, k.Value) {
			nexus = true
		}
		if m := node.Resolve(v); m != nil && m.Kind == yaml.MappingNode && k.Value != "metadata" {
			for _, nk := range nestedPrecompactKeys {
				if node.Has(m, nk) {
					nexus = true
				}
			}
		}
	})
	if nexus {
		return ""
	}
	return "an object with no nexus state key (its keys: " + keysOf(root) + "), not in 00-system/.cache/: another system's file, not nexus's precompact state"
}

// agentRunFiles and agentRunFolders name what the agentic packs write in a
// run folder (their orchestrator's and subagents' instructions): one of
// them makes a folder under .agent-memory/runs/ one of their runs. A
// summary or a notes file alone does not: other tools keep their own
// records under .agent-memory/.
var (
	agentRunFiles = []string{"task-graph.json", "task-graph.yaml", "task-graph.yml", "prd.md", "plan.md",
		"bootstrap-plan.md", "constitution.md", "manifest.yaml", "workflow-state.json", "dependency-report.md",
		"discovery-notes.md"}
	agentRunFolders = []string{"events", "tasks", "verifications", "verification", "adrs", "lanes", "escalations"}
)

// NotAgentRun says why a folder under .agent-memory/runs/ is another
// tool's, or returns "" when it is an agent run: it holds one of the
// files or folders the agentic packs write there. A folder with no file
// cannot be told apart and stays linted (a run just begun).
func NotAgentRun(f *Folder) string {
	if f == nil || len(f.Files) == 0 {
		return ""
	}
	var names []string
	for _, file := range f.Files {
		rel, ok := strings.CutPrefix(file.Path, f.Path+"/")
		if !ok {
			return "" // a file outside the folder's display path: cannot tell
		}
		top, _, nested := strings.Cut(rel, "/")
		if slices.Contains(agentRunFiles, rel) || nested && slices.Contains(agentRunFolders, top) {
			return ""
		}
		if len(names) < 6 {
			names = append(names, rel)
		}
	}
	return "none of an agent run's files (task-graph.json, prd.md, plan.md, events/, …; its files: " + someOf(names) + "): another tool's folder, not an agent run"
}
