package agentrun

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Load reads a run once: a file that cannot be read is a finding, and the
// report names it among the files not read.
func TestLoadNamesUnreadFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".agent-memory", "runs", "r1")
	if err := os.MkdirAll(filepath.Join(dir, "events", "builder"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "events", "builder", "log.jsonl"), []byte("\xff\xfe{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, probs := Load(dir, dir, dir)
	if r == nil || len(probs) == 0 {
		t.Fatalf("run %v, problems %v: want the unreadable log as a problem", r, probs)
	}
	st := NewStatus(r, probs, time.Now(), time.Hour)
	if len(st.UnreadFiles) != 1 || st.UnreadFiles[0].Path != "events/builder/log.jsonl" {
		t.Errorf("unread files %+v, want events/builder/log.jsonl", st.UnreadFiles)
	}
}
