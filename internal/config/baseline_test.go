package config

import (
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// TestBaselineMasksPaths: a baseline names a file whose folder holds a
// credential by its masked path, and still matches its findings when read
// back; two such files stay apart (the fingerprint is of the real path),
// and an entry written with the path unmasked matches too.
func TestBaselineMasksPaths(t *testing.T) {
	const tokA, tokB = "ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2", "ghp_Pq4Ws8Ex2Rc6Tv0Yb3Un7Im1Ok5Lz9Ja2Hs4"
	finding := func(dir string) diag.Finding {
		return diag.Finding{Code: "RL102", Path: "projects/" + dir + "/ORCHESTRATION.yaml", Start: diag.Pos{Line: 130, Col: 22},
			Message:  `resumption.recovery_state.workflow_status: "COMPLETED" is not one of ACTIVE, PAUSED, COMPLETE, FAILED, CANCELLED`,
			NodePath: "resumption.recovery_state.workflow_status", NodeHash: "5d1c9e0f"}
	}
	rel := func(p string) string { return p }
	fs := []diag.Finding{finding(tokA), finding(tokB), finding("docs-refresh")}
	b := NewBaseline(fs, rel)
	for _, e := range b.Entries {
		if strings.Contains(e.Path, "Zr8Qk2Lw") || strings.Contains(e.Path, "Pq4Ws8Ex") {
			t.Errorf("entry path %q holds the token", e.Path)
		}
	}
	if b.Entries[0].Fingerprint == b.Entries[1].Fingerprint {
		t.Errorf("two files whose paths differ in a token share a fingerprint: %+v", b.Entries)
	}
	if kept, hidden := b.Filter(fs, rel); len(kept) != 0 || hidden != 3 {
		t.Errorf("read back, the baseline hides %d and keeps %v; want every finding hidden", hidden, kept)
	}
	if stale := b.Unmatched(fs, rel); len(stale) != 0 {
		t.Errorf("entries match no finding: %+v", stale)
	}
	// The same finding in the other token's folder only: one entry stays.
	if kept, hidden := b.Filter(fs[:1], rel); len(kept) != 0 || hidden != 1 || len(b.Unmatched(fs[:1], rel)) != 2 {
		t.Errorf("one finding: hidden %d, kept %v, unmatched %v", hidden, kept, b.Unmatched(fs[:1], rel))
	}
	// A baseline that recorded the real path still matches.
	old := &Baseline{Version: BaselineVersion}
	for i := range fs {
		old.Entries = append(old.Entries, BaselineEntry{Code: fs[i].Code, Path: fs[i].Path, Fingerprint: diag.Fingerprint(&fs[i], fs[i].Path), Message: fs[i].Message})
	}
	if kept, hidden := old.Filter(fs, rel); len(kept) != 0 || hidden != 3 {
		t.Errorf("an unmasked baseline hides %d and keeps %v; want every finding hidden", hidden, kept)
	}
}
