//go:build unix

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Every entry point has lint's limits (docs/security.md "Only regular
// files, never past their limit, never a hang"): the language server
// reports a buffer over the file limit as lint reports such a file, and
// neither it nor the hook holds a message or an event past its bound.

// repeatReader yields n bytes of one repeated line without holding them.
type repeatReader struct {
	line []byte
	n, i int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.i >= r.n {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.i < r.n {
		p[k] = r.line[r.i%int64(len(r.line))]
		k++
		r.i++
	}
	return k, nil
}

// allocated returns the bytes the process allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// sendDidOpen streams a didOpen notification whose text is size bytes of
// a comment line, without building it in memory.
func (c *lspClient) sendDidOpen(uri string, size int64) {
	c.t.Helper()
	head := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"languageId":"yaml","version":1,"text":"`, uri)
	tail := `"}}}`
	line := []byte(`# notes kept by hand\n`) // JSON-escaped newline: 22 bytes, 21 of text
	n := size / 21 * int64(len(line))
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", int64(len(head))+n+int64(len(tail)), head); err != nil {
		c.t.Fatal(err)
	}
	if _, err := io.Copy(c.w, &repeatReader{line: line, n: n}); err != nil {
		c.t.Fatal(err)
	}
	if _, err := io.WriteString(c.w, tail); err != nil {
		c.t.Fatal(err)
	}
}

func TestServerLimitsDocuments(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := startServer(t, dir)
	uri := fileURI(filepath.Join(dir, "ORCHESTRATION.yaml"))
	for _, tc := range []struct {
		size     int64
		want     string
		maxAlloc uint64
	}{
		// Held (under the message bound), over the file limit: lint's RL003.
		{9 << 20, "file is 9.0 MiB, larger than the limit of 8 MiB; not read [RL003 input-limits]", 256 << 20},
		// Over the message bound: skipped as it arrives, still reported.
		{30_000_000, "file is larger than the limit of 8 MiB; not read [RL003 input-limits]", 64 << 20},
	} {
		var diags []testDiag
		alloc := allocated(func() {
			c.sendDidOpen(uri, tc.size)
			diags = c.diagnostics(uri)
		})
		if len(diags) != 1 || diags[0].Code != "RL003" || diags[0].Severity != 1 || diags[0].Message != tc.want {
			t.Errorf("%d bytes: diagnostics %+v, want one RL003 error %q", tc.size, diags, tc.want)
		}
		if alloc > tc.maxAlloc {
			t.Errorf("%d bytes: the server allocated %d MiB, want at most %d MiB", tc.size, alloc>>20, tc.maxAlloc>>20)
		}
	}
	// The server goes on: the same document, now small, is linted.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": brokenOrchestration}}})
	if diags := c.diagnostics(uri); len(diags) != 1 || diags[0].Code != "RL104" {
		t.Errorf("after a small change: %+v, want the RL104 of the document", diags)
	}
}

func TestHookEventIsBounded(t *testing.T) {
	dir := hookRepo(t, false)
	head := fmt.Sprintf(`{"session_id":"s","cwd":%q,"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"big.log","content":"`, dir)
	var stderr bytes.Buffer
	code := 0
	alloc := allocated(func() {
		in := io.MultiReader(strings.NewReader(head), &repeatReader{line: []byte(`log line\n`), n: 100 << 20}, strings.NewReader(`"}}`))
		c := &Command{Stdin: in, Stdout: io.Discard, Stderr: &stderr, Cwd: dir, Getenv: func(string) string { return "" }}
		code = c.Main([]string{"hook"})
	})
	if code != hookProblem || !strings.Contains(stderr.String(), "larger than 24 MiB") {
		t.Errorf("a 100 MiB event: exit %d, stderr %q; want exit 1 saying it is too large", code, stderr.String())
	}
	if alloc > 128<<20 {
		t.Errorf("a 100 MiB event allocated %d MiB, want at most 128 MiB", alloc>>20)
	}
}

// lint of stdin over the limit is reported as lint reports such a file,
// not linted as an empty one.
func TestLintStdinOverTheLimit(t *testing.T) {
	dir := t.TempDir()
	in := strings.Repeat("# notes kept by hand\n", 9<<20/21+1)
	code, stdout, _ := run(t, dir, in, "lint", "--stdin-filename", "ORCHESTRATION.yaml", "-")
	if code != ExitFindings || !strings.Contains(stdout, "file is larger than the limit of 8 MiB; not read [RL003 input-limits]") || strings.Contains(stdout, "RL100") {
		t.Errorf("exit %d, want 1 and one RL003:\n%s", code, stdout)
	}
}
