package schema

import "testing"

// The resume-context definitions compile completely, so nexus's files are
// proved valid without CUE.
func TestResumeContextFastPath(t *testing.T) {
	for _, def := range []string{"#ResumeContext", "#ResumeContextV2", "#BuildResumeContext"} {
		var out []string
		unknowns(fastChecker(def), def, &out, 0)
		for _, u := range out {
			t.Errorf("%s falls back to CUE at %s", def, u)
		}
	}
}
