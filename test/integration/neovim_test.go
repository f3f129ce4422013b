package integration_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// lagging is an ORCHESTRATION.yaml whose last_checkpoint lags behind
// checkpoints.latest_id (RL104, line 15); the sections it leaves out are
// reported too (RL102).
const lagging = `workflow:
  id: "demo-20260220-001"
  status: "ACTIVE"
pipelines:
  main:
    phases:
      - {id: 1, name: "Research", status: "IN_PROGRESS"}
checkpoints:
  latest_id: "CP-003"
  entries:
    - {id: "CP-002", timestamp: "2026-02-20T12:00:00Z"}
    - {id: "CP-003", timestamp: "2026-02-20T20:00:00Z"}
resumption:
  recovery_state:
    last_checkpoint: "CP-002"
    current_phase: 1
    current_phase_name: "Research"
    workflow_status: "ACTIVE"
    current_activity: "phase-1-agent-execution"
    next_step: "Run the researcher agent"
    updated_at: "2026-02-20T21:00:00Z"
  files_to_read: []
`

// neovimCheck waits for the buffer's diagnostics and writes them, one a
// line: code, line, source and the rule page's link.
const neovimCheck = `vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local out = {}
for _, x in ipairs(vim.diagnostic.get(0)) do
  local lsp = x.user_data and x.user_data.lsp or {}
  local href = lsp.codeDescription and lsp.codeDescription.href or ""
  table.insert(out, (x.code or "?") .. " " .. (x.lnum + 1) .. " " .. (x.source or "") .. " " .. href)
end
vim.fn.writefile(out, vim.env.RESULT)
vim.cmd("qa!")
`

// TestNeovimSetup runs the docs/editors.md Neovim setup for the Neovim
// installed (0.7 to 0.9, 0.10, or 0.11 and later) headless against
// resumelint server and checks the buffer gets RL104 with its rule page.
func TestNeovimSetup(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("no nvim")
	}
	out, err := exec.Command(nvim, "--version").Output()
	if err != nil {
		t.Fatalf("nvim --version: %v", err)
	}
	m := regexp.MustCompile(`NVIM v0\.(\d+)`).FindSubmatch(out)
	if m == nil {
		t.Skipf("unknown Neovim version %q", strings.SplitN(string(out), "\n", 2)[0])
	}
	minor, _ := strconv.Atoi(string(m[1]))
	heading := "Neovim 0.7 to 0.9"
	switch {
	case minor >= 11:
		heading = "Neovim 0.11 or later"
	case minor == 10:
		heading = "Neovim 0.10:"
	case minor < 7:
		t.Skipf("Neovim 0.%d is older than the documented 0.7", minor)
	}
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "editors.md"))
	if err != nil {
		t.Fatal(err)
	}
	snippet := luaAfter(string(doc), heading)
	if snippet == "" {
		t.Fatalf("docs/editors.md has no lua block after %q", heading)
	}
	bin := resumelintBinary(t)
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	for _, d := range []string{filepath.Join(repo, ".git"), filepath.Join(work, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{filepath.Join(repo, "ORCHESTRATION.yaml"): lagging,
		filepath.Join(work, "init.lua"): snippet, filepath.Join(work, "check.lua"): neovimCheck}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	result := filepath.Join(work, "result.txt")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-i", "NONE", "-u", filepath.Join(work, "init.lua"),
		"ORCHESTRATION.yaml", "-c", "luafile "+filepath.Join(work, "check.lua"))
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"RESULT="+result, "HOME="+filepath.Join(work, "home"), "XDG_CONFIG_HOME="+filepath.Join(work, "home"),
		"XDG_STATE_HOME="+filepath.Join(work, "home"), "XDG_DATA_HOME="+filepath.Join(work, "home"))
	msgs, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(msgs), "Error") {
		t.Fatalf("nvim: %v\n%s", err, msgs)
	}
	got, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("no result from Neovim: %v\n%s", err, msgs)
	}
	want := "RL104 15 resumelint https://github.com/resumelint/resumelint/blob/main/docs/rules/RL104.md\n"
	if !strings.Contains(string(got), want) {
		t.Errorf("Neovim 0.%d with the %q setup shows %q, want %q", minor, heading, got, want)
	}
}

// luaAfter returns the first lua block after a line starting with heading.
func luaAfter(doc, heading string) string {
	i := strings.Index(doc, "\n"+heading)
	if i < 0 {
		return ""
	}
	rest := doc[i:]
	a := strings.Index(rest, "```lua\n")
	if a < 0 {
		return ""
	}
	rest = rest[a+len("```lua\n"):]
	b := strings.Index(rest, "```")
	if b < 0 {
		return ""
	}
	return rest[:b]
}
