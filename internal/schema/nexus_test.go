package schema

import "testing"

// The resume-context definitions (and the legacy memo) compile completely, so nexus's files are
// proved valid without CUE.
func TestResumeContextFastPath(t *testing.T) {
	for _, def := range []string{"#ResumeContext", "#ResumeContextV2", "#BuildResumeContext", "#ResumeMemo"} {
		var out []string
		unknowns(fastChecker(def), def, &out, 0)
		for _, u := range out {
			t.Errorf("%s falls back to CUE at %s", def, u)
		}
	}
}
