//go:build unix

package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// A file with a byte-order mark keeps it when fixed, so its fixes are
// checked against the file as it will be written: with the mark, whose
// RL004 leaves its suppressions unjudged before and after. Linted without
// it, an unused suppression read as an RL007 the fix added, and every safe
// fix of the file was refused.
func TestFixOfAFileWithAByteOrderMark(t *testing.T) {
	repo, _ := hostileRepo(t)
	content := strings.Replace(decisionsAlias(t), "  files_to_read:", "  # resumelint:ignore RL110 -- nothing to hide here\n  files_to_read:", 1)
	p := write(t, repo, "ORCHESTRATION.yaml", "\xEF\xBB\xBF"+content)
	code, out := runIn(t, repo, "fix", "ORCHESTRATION.yaml")
	if !strings.Contains(out, "applied RL103") {
		t.Errorf("exit %d, the rename was not applied:\n%s", code, out)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")) || !bytes.Contains(b, []byte("  decision_log:")) {
		t.Errorf("fixed file:\n%.200s", b)
	}
}
