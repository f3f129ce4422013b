package node

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// decodedBool is Bool as the decoder alone answers it.
func decodedBool(n *yaml.Node) (bool, bool) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, false
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, false
	}
	return b, true
}

// TestBoolIsDecoded holds Bool's spellings to the decoder's answer for
// every scalar style and tag a document can give a boolean-looking value.
func TestBoolIsDecoded(t *testing.T) {
	values := []string{"true", "True", "TRUE", "false", "False", "FALSE", "tRue", "yes", "Yes", "no", "on", "off",
		"y", "n", "1", "0", "", "~", "null", "true ", " false", "truE", "FALSE\n"}
	tags := []string{"", "!!bool", "tag:yaml.org,2002:bool", "!!str", "!bool", "!"}
	styles := []yaml.Style{0, yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle, yaml.LiteralStyle}
	checked := 0
	for _, v := range values {
		for _, tag := range tags {
			for _, style := range styles {
				n := &yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: tag, Style: style}
				gb, gok := Bool(n)
				wb, wok := decodedBool(n)
				if gb != wb || gok != wok {
					t.Errorf("Bool(%q tag %q style %v) = %v, %v; the decoder says %v, %v", v, tag, style, gb, gok, wb, wok)
				}
				if wok {
					checked++
				}
			}
		}
	}
	// The spellings parsed from a document, tag resolved as it does.
	for _, src := range []string{"a: true", "a: False", "a: !!bool TRUE", "a: !!bool yes", "a: 'true'", "a: &x true\nb: *x", "a: yes"} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		for _, v := range oddOf(doc.Content[0].Content) {
			gb, gok := Bool(v)
			wb, wok := decodedBool(v)
			if gb != wb || gok != wok {
				t.Errorf("Bool in %q = %v, %v; the decoder says %v, %v", src, gb, gok, wb, wok)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d cases were booleans: the table no longer tests Bool", checked)
	}
}

// oddOf returns a mapping's values (every second node of its content).
func oddOf(content []*yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	for i := 1; i < len(content); i += 2 {
		out = append(out, content[i])
	}
	return out
}

// TestStatusWordUndecorated: the marks and remarks files put around a
// status are not part of it, unless the remark holds it back.
func TestStatusWordUndecorated(t *testing.T) {
	for in, want := range map[string]string{
		"in-progress":                    "IN_PROGRESS",
		"✅ COMPLETE":                     "COMPLETE",
		"COMPLETE ✅":                     "COMPLETE",
		"**DONE**":                       "DONE",
		"COMPLETE (with notes)":          "COMPLETE",
		"✅ PASS":                         "PASS",
		"N/A":                            "N/A",
		"COMPLETE (pending QA)":          "COMPLETE_(PENDING_QA)",
		"COMPLETE (not verified)":        "COMPLETE_(NOT_VERIFIED)",
		"Done?":                          "DONE?",
		"COMPLETE - reopened":            "COMPLETE___REOPENED",
		"✅":                              "✅",
		"":                               "",
		"PHASE_5_COMPLETE":               "PHASE_5_COMPLETE",
		"IN_PROGRESS (80%)":              "IN_PROGRESS",
		"Blocked (waiting on API)":       "BLOCKED_(WAITING_ON_API)",
		"COMPLETE - READY FOR ARCHIVE":   "COMPLETE",
		"Done: merged in #42":            "DONE",
		"COMPLETED 2026-02-21":           "COMPLETED",
		"COMPLETE, 2026-02-21T10:00:00Z": "COMPLETE",
		"Complete — published":           "COMPLETE",
		"DONE - not verified":            "DONE___NOT_VERIFIED",
		"COMPLETE: pending sign-off":     "COMPLETE:_PENDING_SIGN_OFF",
		"ACTIVE|PAUSED|COMPLETE":         "ACTIVE|PAUSED|COMPLETE",
		"Phase 3: COMPLETE":              "PHASE_3",
		"IN PROGRESS - phase 2 of 3":     "IN_PROGRESS",
		"COMPLETE. All phases merged.":   "COMPLETE",
		"COMPLETE\nAll phases merged.":   "COMPLETE",
		"COMPLETE. Pending sign-off.":    "COMPLETE._PENDING_SIGN_OFF.",
	} {
		if got := StatusWord(in); got != want {
			t.Errorf("StatusWord(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFinishedWord: the one reading of a finished status, over the
// spellings files write, the near misses that are not finished, and typos.
func TestFinishedWord(t *testing.T) {
	for in, want := range map[string]string{
		"COMPLETE": "COMPLETE", "Complete": "COMPLETE", "done": "DONE", "Done ✅": "DONE",
		"✅ COMPLETE": "COMPLETE", "**COMPLETE**": "COMPLETE", "COMPLETE (2026-01-02)": "COMPLETE",
		"COMPLETE - all phases merged": "COMPLETE", "COMPLETE ": "COMPLETE", "cancelled": "CANCELLED",
		"completed_successfully": "COMPLETED", "COMPLETE READY FOR ARCHIVE": "COMPLETE", "ABORTED": "ABORTED",
		"COMPELTE": "COMPLETE", "COMPLTED": "COMPLETED", "Finsihed": "FINISHED", "SUPERCEDED": "SUPERSEDED",
		"ARCHIVE": "ARCHIVED", "OCMPLETE": "COMPLETE", "afiled": "FAILED", "LCOSED": "CLOSED",
		// not finished
		"COMPLETE_PENDING_GATE": "", "COMPLETE (pending QA)": "", "IN_PROGRESS": "", "ACTIVE": "",
		"not complete": "", "INCOMPLETE": "", "PARTIALLY_COMPLETE": "", "DONE?": "", "COMPLETE?": "",
		"PHASE_5_COMPLETE": "", "PAUSED": "", "BLOCKED": "", "NONE": "", "GONE": "", "PASSED": "",
		"SKIPPED": "", "CLOSE": "", "execution": "", "RESOLVED": "", "SHIPPED": "",
		// the record named before the word; a sentence after it
		"WORKFLOW COMPLETE": "COMPLETE", "WORKFLOW_COMPLETE": "COMPLETE", "Project done": "DONE",
		"WORKFLOW COMPLETE. All 4 phases done.": "COMPLETE", "COMPLETE. All phases merged.": "COMPLETE",
		"Workflow finished; archived": "FINISHED", "✅ WORKFLOW COMPLETE": "COMPLETE", "RUN_FAILED": "FAILED",
		"complete_with_warnings": "COMPLETE", "COMPLETE (all gates passed)": "COMPLETE",
		"WORKFLOW NOT COMPLETE": "", "WORKFLOW": "", "PIPELINE_COMPLETE": "", "WORKFLOW COMPLETE?": "",
		// a part of the record done, or the last of them
		"COMPLETE_PHASE_1": "", "Complete (phase 1 of 3)": "", "COMPLETE 3/5 phases": "", "DONE_WITH_PHASE_1": "",
		"COMPLETED_PHASE_3": "", "COMPLETE: Phase 1": "", "Complete (1/3)": "", "COMPLETE - 2 of 4": "",
		"COMPLETE (phase 3 of 3)": "COMPLETE", "COMPLETE 5/5": "COMPLETE", "COMPLETE (5 of 5 phases)": "COMPLETE",
		// still at work
		"FAILED - retrying": "", "FAILED_GATE_RETRYING": "", "Failed, retrying": "",
		"PENDING_COMPLETE": "", "Completion pending": "", "COMPLETE. Pending sign-off.": "",
		// real words one letter from a finished one: states of their own
		"CLONED": "", "Cloned": "", "MAILED": "", "SAILED": "", "CLOSER": "", "COMPETE": "",
		"COMPLETES": "", "FINISHES": "", "ARCHIVES": "", "SUPERSEDES": "", "CANCELER": "",
		// a changed first letter makes other words, never a typo
		"BAILED": "", "TAILED": "", "HAILED": "", "PAILED": "", "XOMPLETE": "",
	} {
		if got := FinishedWord(in); got != want {
			t.Errorf("FinishedWord(%q) = %q, want %q", in, got, want)
		}
	}
}
