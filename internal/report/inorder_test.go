package report

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

// manyFindings are enough findings for several blocks, with snippets,
// secrets, related locations and fixes among them.
func manyFindings(n int) []diag.Finding {
	fs := make([]diag.Finding, n)
	for i := range fs {
		line := fmt.Sprintf("    - path: \"docs/notes-%d.md\"\t# api_key: ghp_%036d", i, i)
		fs[i] = diag.Finding{Code: fmt.Sprintf("RL1%02d", i%20), Name: "files-to-read", Severity: diag.Severity(i % 3),
			Path: fmt.Sprintf("projects/PROJ-%03d/ORCHESTRATION.yaml", i/7), Start: diag.Pos{Line: i%90 + 1, Col: 5}, End: diag.Pos{Line: i%90 + 1, Col: 20},
			Message: fmt.Sprintf("files_to_read[%d] \"docs/notes-%d.md\" resolves nowhere: correct or remove it", i%5, i),
			Snippet: line, HasSnippet: i%4 != 0, Secret: i%11 == 0}
		if i%6 == 0 {
			fs[i].Related = []diag.Related{{Path: "a.md", Line: 2, Column: 1, Message: "named here"}}
		}
		if i%5 == 0 {
			fs[i].Fix = &diag.Fix{Applicability: diag.FixSafe}
		}
	}
	return fs
}

// TestReportsOnEveryCoreAsOnOne: the text and JSON reports of thousands
// of findings, rendered on several cores, are the bytes one core writes.
func TestReportsOnEveryCoreAsOnOne(t *testing.T) {
	in := &Input{Findings: manyFindings(7*blockSize + 13), Version: "v1", Checked: 400}
	render := func(procs int) (text, js string) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var tb, jb bytes.Buffer
		if err := Text(&tb, in); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&jb, in); err != nil {
			t.Fatal(err)
		}
		return tb.String(), jb.String()
	}
	text1, json1 := render(1)
	textN, jsonN := render(4)
	if text1 != textN {
		t.Error("the text report on 4 cores differs from the one on 1")
	}
	if json1 != jsonN {
		t.Error("the JSON report on 4 cores differs from the one on 1")
	}
	if strings.Count(text1, "resolves nowhere") != len(in.Findings) || strings.Count(json1, `"code"`) != len(in.Findings) {
		t.Errorf("a report lost findings")
	}
}

type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n--; w.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestInOrderStopsWritingAtAnError: the first write error is returned,
// nothing is written after it, and every block is still taken (no
// goroutine is left waiting).
func TestInOrderStopsWritingAtAnError(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	w := &failAfter{n: 2}
	err := inOrder(w, 20*blockSize, func(buf *bytes.Buffer, i int) { buf.WriteString("x") })
	if err == nil || err.Error() != "disk full" {
		t.Errorf("err = %v, want disk full", err)
	}
	if w.n != -1 {
		t.Errorf("%d writes after the error", -1-w.n)
	}
}
