package load

import "testing"

// A resume file is nexus's by place (01-planning/, a project or build
// folder) or by a nexus key; another system's page of the same name is not.
func TestNotNexusResume(t *testing.T) {
	fm := func(src string) *Document {
		f := &File{Path: "x.md", Kind: KindResumeContext, Data: []byte(src)}
		d, _ := Parse(f, FormatMarkdown, DefaultLimits)
		return d
	}
	for _, tc := range []struct {
		name, path, src string
		nexus           bool
	}{
		{"planning folder, no front matter", "/r/02-projects/07-a/01-planning/resume-context.md", "# notes\n", true},
		{"build folder", "/r/02-builds/active/05-b/_resume.md", "# notes\n", true},
		{"nexus key elsewhere", "/r/notes/resume-context.md", "---\nproject_id: \"07-a\"\n---\n", true},
		{"jekyll page", "/r/_pages/_resume.md", "---\nlayout: page\ntitle: CV\n---\nBody\n", false},
		{"cv summary", "/r/interview/resume-context.md", "# Candidate\n- Go\n", false},
		{"other front matter", "/r/_resume.md", "---\ntitle: CV\n---\n", false},
	} {
		why := NotNexusResume(tc.path, fm(tc.src))
		if (why == "") != tc.nexus {
			t.Errorf("%s: NotNexusResume = %q, want nexus %v", tc.name, why, tc.nexus)
		}
	}
}
