package load

import (
	"strings"
	"testing"
)

// toldCase is a file of a known name and whether it is the system's own.
type toldCase struct {
	name, path, src string
	own             bool
}

// checkTold runs tell, which says why a file is another system's, over
// cases parsed in format.
func checkTold(t *testing.T, tell func(path string, d *Document) string, format Format, cases []toldCase) {
	t.Helper()
	for _, tc := range cases {
		d, _ := Parse(&File{Path: tc.path, Data: []byte(tc.src)}, format, DefaultLimits)
		if why := tell(tc.path, d); (why == "") != tc.own {
			t.Errorf("%s: %q, want the system's own %v", tc.name, why, tc.own)
		}
	}
}

// A resume file is nexus's by place (01-planning/, a project or build
// folder) or by a nexus key; another system's page of the same name is not.
func TestNotNexusResume(t *testing.T) {
	checkTold(t, NotNexusResume, FormatMarkdown, []toldCase{
		{"planning folder, no front matter", "/r/02-projects/07-a/01-planning/resume-context.md", "# notes\n", true},
		{"build folder", "/r/02-builds/active/05-b/_resume.md", "# notes\n", true},
		{"nexus key elsewhere", "/r/notes/resume-context.md", "---\nproject_id: \"07-a\"\n---\n", true},
		{"jekyll page", "/r/_pages/_resume.md", "---\nlayout: page\ntitle: CV\n---\nBody\n", false},
		{"cv summary", "/r/interview/resume-context.md", "# Candidate\n- Go\n", false},
		{"other front matter", "/r/_resume.md", "---\ntitle: CV\n---\n", false},
	})
}

// A precompact_state.json is nexus's by place (00-system/.cache/) or by a
// state key, flat or nested; another system's state of the same name is
// not, and what cannot be told apart stays linted.
func TestNotNexusPrecompact(t *testing.T) {
	checkTold(t, NotNexusPrecompact, FormatJSON, []toldCase{
		{"cache folder, any content", "/r/00-system/.cache/precompact_state.json", `{"session_id": "s"}`, true},
		{"cache folder, Windows path", `C:\r\00-system\.cache\precompact_state.json`, `{"session_id": "s"}`, true},
		{"flat state elsewhere", "/r/state/precompact_state.json", `{"active_project_id": null}`, true},
		{"detection method alone", "/r/precompact_state.json", `{"detection_method": "cache"}`, true},
		{"nested under project_detection", "/r/old/precompact_state.json", `{"project_detection": null}`, true},
		{"nested under another key", "/r/old/precompact_state.json", `{"state": {"project_id": "07-a"}}`, true},
		{"empty object", "/r/precompact_state.json", `{}`, true},
		{"a list", "/r/precompact_state.json", `[1, 2]`, true},
		{"does not parse", "/r/precompact_state.json", `{"session_id": `, true},
		{"a hook's session record", "/r/tasks/precompact_state.json", `{"session_id": "s", "project": "p", "actions_count": 3}`, false},
		{"thread ids to times", "/r/precompact_state.json", `{"019b2f4e-7c1a": 1780531200123}`, false},
		{"metadata is not the state", "/r/precompact_state.json", `{"metadata": {"confidence": "high"}, "timestamp": "t"}`, false},
		{"cache folder elsewhere", "/r/.cache/precompact_state.json", `{"session_id": "s"}`, false},
	})
}

// A skip reason shows keys and values from the file clipped, and masks a
// credential before it clips it: a JSON Web Token cut after 40 characters
// no longer matches its pattern, and the mask at the output would let its
// header and claims through.
func TestSkipReasonsMaskBeforeClip(t *testing.T) {
	const jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg"
	parse := func(name, src string, format Format) *Document {
		d, _ := Parse(&File{Path: name, Data: []byte(src)}, format, DefaultLimits)
		return d
	}
	long := strings.Repeat("k", 300)
	for name, why := range map[string]string{
		"precompact": NotNexusPrecompact("/r/precompact_state.json", parse("precompact_state.json", `{"`+jwt+`": 1, "`+long+`": 2}`, FormatJSON)),
		"resume":     NotNexusResume("/r/_resume.md", parse("_resume.md", "---\nlayout: "+jwt+"\n---\n", FormatMarkdown)),
		"resume key": NotNexusResume("/r/_resume.md", parse("_resume.md", "---\n"+jwt+": 1\n---\n", FormatMarkdown)),
		"workflow":   NotWorkflow(parse("ORCHESTRATION.yaml", jwt+": 1\n"+long+": 2\n", FormatYAML).Root),
	} {
		if why == "" {
			t.Errorf("%s: not skipped", name)
			continue
		}
		if strings.Contains(why, "eyJ") || strings.Contains(why, long[:41]) {
			t.Errorf("%s: reason %q shows the token or a key unclipped", name, why)
		}
	}
}

// A folder under .agent-memory/runs/ is an agent run when it holds one of
// the files or folders the agentic packs write in a run; another tool's
// records there are not, and a folder with nothing in it cannot be told.
func TestNotAgentRun(t *testing.T) {
	folder := func(names ...string) *Folder {
		f := &Folder{Kind: KindAgentRun, Path: ".agent-memory/runs/r1"}
		for _, n := range names {
			f.Files = append(f.Files, &File{Path: f.Path + "/" + n, Kind: KindAgentRun})
		}
		return f
	}
	for _, tc := range []struct {
		name  string
		f     *Folder
		isRun bool
	}{
		{"a PRD alone", folder("prd.md"), true},
		{"a task graph", folder("notes.md", "task-graph.json"), true},
		{"a YAML task graph", folder("task-graph.yaml"), true},
		{"events only", folder("events/executor/2026-06-18.jsonl"), true},
		{"a task card", folder("tasks/T001.md"), true},
		{"the memory layout's manifest", folder("manifest.yaml", "lanes/l1/notes.md"), true},
		{"a verification report, singular folder", folder("verification/T001-verification.yaml"), true},
		{"nothing in it", folder(), true},
		{"a display path it does not start", &Folder{Path: ".", Files: []*File{{Path: "summary.json"}}}, true},
		{"a session summary", folder("summary.json"), false},
		{"a transcript", folder("transcript/turns.jsonl"), false},
		{"a file named like a folder of a run", folder("events"), false},
		{"a plan one level down", folder("old/plan.md"), false},
	} {
		why := NotAgentRun(tc.f)
		if (why == "") != tc.isRun {
			t.Errorf("%s: NotAgentRun = %q, want run %v", tc.name, why, tc.isRun)
		}
	}
}
