package cli

import (
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/test/golden"
)

// A credential planted in every field a rule quotes, at every length and
// place in the value, shows no run of 8 of its characters in any output:
// every report format, the baseline, fix --diff, status, the three hook
// events and the language server.

// plantedToken is a credential and the part of it no output may show.
type plantedToken struct{ name, value, secret string }

var plantedTokens = []plantedToken{
	{"github", "ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i", "R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i"},
	{"github-pat", "github_pat_11ABCDEFG0aBcDeFgHiJkLmN_oPqRsTuVwXyZ0918273645aBcDeFgHiJkLmNoPqRsTuVwXyZ091827364",
		"11ABCDEFG0aBcDeFgHiJkLmN_oPqRsTuVwXyZ0918273645aBcDeFgHiJkLmNoPqRsTuVwXyZ091827364"},
	{"anthropic", "sk-ant-api03-Zq7Xw2Lk9Vb4Nm1Pt6Rs3Yh8Jd5Fg0CeWu", "Zq7Xw2Lk9Vb4Nm1Pt6Rs3Yh8Jd5Fg0CeWu"},
	{"aws", "AKIAQ7XK2LMN4PRS8TUV", "Q7XK2LMN4PRS8TUV"},
	// Formats from gitleaks' rule set (internal/secret/ruleset_gen.go).
	{"stripe", "sk_live_aEhWzjRci8hIoTWijVcQdioI", "aEhWzjRci8hIoTWijVcQdioI"},
	{"gcp", "AIzanALQJd9d1lwinj1YybfVH3CPZnnYBUxmvP0", "nALQJd9d1lwinj1YybfVH3CPZnnYBUxmvP0"},
	{"pem", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAq9Zr7Lw2Vx4Nb8Tp\nHs6Dy3Fg0Jm5CaKt1Qe\n-----END RSA PRIVATE KEY-----",
		"MIIEpAIBAAKCAQEAq9Zr7Lw2Vx4Nb8Tp\nHs6Dy3Fg0Jm5CaKt1Qe"},
}

// plantedShapes place the token at the start, middle and end of values
// shorter and longer than the 60 characters a message shows.
var plantedShapes = map[string]func(tok string) string{
	"whole": func(tok string) string { return tok },
	"end":   func(tok string) string { return "CP-001 pushed with deploy key " + tok },
	"start": func(tok string) string { return tok + " was the key CP-001 was pushed with" },
	"middle": func(tok string) string {
		return "CP-001 was pushed by the release job with key " + tok + " before the phase-2 gate ran"
	},
	// Glued into an identifier, where \b finds no edge (the built-in
	// patterns only: the rule set's formats keep gitleaks' own bounds).
	"glued": func(tok string) string { return "CP-" + tok + "_v2" },
}

// gluedBuiltin are the planted tokens a built-in pattern finds glued.
var gluedBuiltin = map[string]bool{"github": true, "github-pat": true, "anthropic": true, "aws": true}

// plantSite is one field a rule quotes: in file of the golden case, old
// is replaced by new with {V} the planted value (a JSON/YAML string).
type plantSite struct {
	file, old, new string
	code           string // a rule that quotes the value
}

var plantSites = []plantSite{
	{"ORCHESTRATION.yaml", `last_checkpoint: "CP-002"`, `last_checkpoint: {V}`, "RL104"},
	{"ORCHESTRATION.yaml", `workflow_status: "ACTIVE"`, `workflow_status: {V}`, "RL102"},
	{"ORCHESTRATION.yaml", `current_activity: "phase-1-agent-execution"`, `current_activity: {V}`, ""},
	{"ORCHESTRATION.yaml", `next_step: "Run the researcher agent"`, `next_step: {V}`, ""},
	{"ORCHESTRATION.yaml", `files_to_read: []`, `files_to_read: [{V}]`, "RL113"},
	{"ORCHESTRATION.yaml", `    context_fill_at_update: null`, "    context_fill_at_update: null\n    {K}: \"kept from the last session\"", "RL010"},
	{"ORCHESTRATION.yaml", `id: "demo-20260220-001"`, `id: {V}`, ""},
	{"ORCHESTRATION.yaml", `{id: 1, name: "Research", status: "IN_PROGRESS"}`, `{id: 1, name: {V}, status: "IN_PROGRESS"}`, ""},
	{"ORCHESTRATION.yaml", `current_phase_name: "Research"`, `current_phase_name: {V}`, ""},
	{"ORCHESTRATION.yaml", "checkpoints:\n  latest_id", "barriers:\n  - {id: {V}, name: {V}, status: \"PENDING\", depends_on: [{V}]}\nquality_gates:\n  qg-1: {name: {V}, status: {V}}\ncheckpoints:\n  latest_id", ""},
	{"02-projects/07-billing-export/01-planning/resume-context.md", "next_action: execute-project", "next_action: {V}", ""},
	{".jerry/checkpoints/cx-002.json", `"tier": "nominal"`, `"tier": {V}`, "RL204"},
	{"00-system/.cache/precompact_state.json", `"active_project_id": "07-billing-export"`, `"active_project_id": {V}`, "RL301"},
	{"02-projects/07-billing-export/01-planning/resume-context.md", "  - 01-planning/steps.md\n", "  - 01-planning/steps.md\n  - {V}\n", "RL314"},
	{"02-projects/07-billing-export/01-planning/resume-context.md", `project_id: "07-billing-export"`, `project_id: {V}`, ""},
	{".agent-memory/runs/2026-06-18-auth-rework/task-graph.json", `"title": "Map the session store"`, `"title": {V}`, ""},
	{".agent-memory/runs/2026-06-18-auth-rework/task-graph.json", `{"id": "T6", "title": "Rotate production keys", "depends_on": ["T1"]}`, `{"id": "T6", "title": "Rotate production keys", "depends_on": [{V}]}`, "RL502"},
}

// plantedRepo writes a repository of every kind from the golden cases,
// with value planted at every site.
func plantedRepo(t *testing.T, value string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"ORCHESTRATION.yaml": brokenOrchestration, ".git/HEAD": "ref: refs/heads/main\n"}
	for name, prefixes := range map[string][]string{
		"rl204_runtime_tier.txtar":  {".jerry/checkpoints/cx-002.json"},
		"rl314_files_to_load.txtar": {"00-system/", "02-projects/"},
		"status_json.txtar":         {".agent-memory/"},
	} {
		ar, err := golden.Archive(filepath.Join("..", "..", "testdata", "golden", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			for _, p := range prefixes {
				if strings.HasPrefix(f.Name, p) {
					files[f.Name] = string(f.Data)
				}
			}
		}
	}
	quoted, _ := json.Marshal(value)
	key := value
	if strings.ContainsAny(key, " \n") {
		key = "notes"
	}
	for _, s := range plantSites {
		text, ok := files[s.file]
		if !ok || !strings.Contains(text, s.old) {
			t.Fatalf("%s: no %q to plant in", s.file, s.old)
		}
		planted := strings.NewReplacer("{V}", string(quoted), "{K}", key).Replace(s.new)
		files[s.file] = strings.Replace(text, s.old, planted, 1)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// leak returns the first run of 8 characters of secret in out, with some
// context, or "".
func leak(out, secret string) string {
	for _, part := range strings.Split(secret, "\n") {
		for i := 0; i+8 <= len(part); i++ {
			if j := strings.Index(out, part[i:i+8]); j >= 0 {
				return strconv.Quote(out[max(0, j-40):min(len(out), j+48)])
			}
		}
	}
	return ""
}

// runIn runs resumelint in dir with stdin and returns exit code and output.
func runIn(dir, stdin string, args ...string) (int, string) {
	var out strings.Builder
	c := &Command{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &out, Cwd: dir, Getenv: func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1782000000"
		}
		return ""
	}}
	return c.Main(args), out.String()
}

// TestSecretNeverPrinted plants each credential in every site, in every
// shape, and reads every output resumelint gives for the repository.
func TestSecretNeverPrinted(t *testing.T) {
	for _, tok := range plantedTokens {
		for shape, form := range plantedShapes {
			if shape == "glued" && !gluedBuiltin[tok.name] {
				continue
			}
			t.Run(tok.name+"/"+shape, func(t *testing.T) {
				dir := plantedRepo(t, form(tok.value))
				outputs := plantedOutputs(t, dir)
				for what, out := range outputs {
					if l := leak(out, tok.secret); l != "" {
						t.Errorf("%s shows part of the %s token: %s", what, tok.name, l)
					}
				}
			})
		}
	}
}

// plantedOutputs runs every command that prints or writes what it found.
func plantedOutputs(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	formats := []string{"json", "sarif", "github", "junit", "codeclimate", "markdown"}
	args := []string{"lint", "--verbose"}
	for _, f := range formats {
		args = append(args, "-o", f+"=out."+f)
	}
	_, out["lint (text, --verbose)"] = runIn(dir, "", append(args, ".")...)
	_, out["lint --write-baseline"] = runIn(dir, "", "lint", "--write-baseline", "out.baseline", ".")
	_, out["lint --disable RL005"] = runIn(dir, "", "lint", "--disable", "RL005", ".")
	for _, f := range append(formats, "baseline") {
		name := "out." + f
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("lint wrote no %s: %v\n%s", name, err, out["lint (text, --verbose)"])
		}
		out["lint --format "+f] = string(b)
		os.Remove(filepath.Join(dir, name))
	}
	var res struct{ Findings []struct{ Code string } }
	if err := json.Unmarshal([]byte(out["lint --format json"]), &res); err != nil {
		t.Fatal(err)
	}
	for _, s := range plantSites {
		found := s.code == ""
		for _, f := range res.Findings {
			found = found || f.Code == s.code
		}
		if !found {
			t.Errorf("no %s finding for the value planted in %s:\n%s", s.code, s.file, out["lint (text, --verbose)"])
		}
	}
	_, out["fix --diff --unsafe-fixes"] = runIn(dir, "", "fix", "--diff", "--unsafe-fixes", ".")
	_, out["fix --verbose --unsafe-fixes"] = runIn(copyDir(t, dir), "", "fix", "--verbose", "--unsafe-fixes", ".")
	for _, f := range []string{"text", "json", "mermaid"} {
		_, out["status --format "+f] = runIn(dir, "", "status", "--format", f)
		_, out["status ORCHESTRATION.yaml --format "+f] = runIn(dir, "", "status", "--format", f, "ORCHESTRATION.yaml")
		_, out["status PROJECT --format "+f] = runIn(dir, "", "status", "--format", f, "02-projects/07-billing-export")
	}
	for _, what := range []string{"status ORCHESTRATION.yaml --format text", "status --format text"} {
		if !strings.Contains(out[what], "WORKFLOW: ") || !strings.Contains(out[what], "- Next step: ") {
			t.Errorf("%s gave no workflow report:\n%s", what, out[what])
		}
	}
	if !strings.Contains(out["status PROJECT --format text"], "PROJECT: ") {
		t.Errorf("status PROJECT gave no project report:\n%s", out["status PROJECT --format text"])
	}
	if !strings.Contains(out["status --format mermaid"], "classDef blocked") || !strings.Contains(out["status --format mermaid"], "{{") {
		t.Errorf("status --format mermaid drew no workflow:\n%s", out["status --format mermaid"])
	}
	orch := filepath.Join(dir, "ORCHESTRATION.yaml")
	for _, ev := range []string{"PostToolUse", "PreCompact", "SessionStart"} {
		_, out["hook "+ev] = runIn(dir, hookEvent(dir, ev, "Write", orch), "hook")
	}
	if !strings.Contains(out["hook SessionStart"], "resume state of ORCHESTRATION.yaml") {
		t.Errorf("the SessionStart hook gave no resume report:\n%s", out["hook SessionStart"])
	}
	out["server"] = serverOutput(t, dir, orch)
	return out
}

// copyDir copies the repository, for a command that writes to it.
func copyDir(t *testing.T, dir string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// serverOutput opens path in the language server and returns everything
// it sent: the diagnostics and the hover on each of them.
func serverOutput(t *testing.T, dir, path string) string {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var all strings.Builder
	go func() {
		_, _ = runInPipes(dir, inR, outW)
		outW.Close()
	}()
	defer inW.Close()
	c := newLSPClient(t, inW, outR, func(body []byte) { all.Write(body) })
	c.call("initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String(), "capabilities": map[string]any{}})
	c.notify("initialized", map[string]any{})
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": string(text)}})
	var hovers []string
	for _, d := range c.diagnostics(uri) {
		res := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": d.Range.Start})
		hovers = append(hovers, string(res))
	}
	c.call("shutdown", nil)
	c.notify("exit", nil)
	for range c.msgs {
	}
	return all.String() + strings.Join(hovers, "\n")
}

func runInPipes(dir string, in io.Reader, out io.Writer) (int, error) {
	c := &Command{Stdin: in, Stdout: out, Stderr: io.Discard, Cwd: dir, Getenv: func(k string) string {
		if k == "SOURCE_DATE_EPOCH" {
			return "1782000000"
		}
		return ""
	}}
	return c.Main([]string{"server", "--stdio"}), nil
}

// TestServerHoverEscapesMarkdown: a value quoted in a finding cannot put
// an image, a link or HTML into the editor's hover.
func TestServerHoverEscapesMarkdown(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ORCHESTRATION.yaml")
	doc := strings.Replace(brokenOrchestration, `last_checkpoint: "CP-002"`, `last_checkpoint: "![x](https://example.test/t.png) <img src=x> [go](https://example.test)"`, 1)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := serverOutput(t, dir, path)
	if !strings.Contains(hoverText(out), `\\!\\[x\\]\\(https`) {
		t.Fatalf("no escaped value in the hover:\n%s", out)
	}
	for _, bad := range []string{"![x](", "[go](", "\\u003cimg"} {
		if strings.Contains(hoverText(out), bad) {
			t.Errorf("the hover renders %q from the file:\n%s", bad, hoverText(out))
		}
	}
}

// hoverText is the part of serverOutput after the messages: the hovers.
func hoverText(out string) string {
	if i := strings.LastIndex(out, `"contents"`); i >= 0 {
		return out[i:]
	}
	return ""
}

// TestFixDescriptionMasked: a fix whose description names a value from
// the file (RL104 moves last_checkpoint to the latest id) shows it
// masked, in the hook's answer and in fix's report.
func TestFixDescriptionMasked(t *testing.T) {
	// RL104 moves a pointer only along one series of ids, so the latest
	// id is a key of the sk- form (20 characters or more after "sk-")
	// and the pointer the same series' shorter, unremarkable id.
	const series = "sk-Zq7Xw2Lk9Vb4Nm1PtR"
	latest, last := series+"1003", series+"2"
	doc := strings.ReplaceAll(brokenOrchestration, `"CP-003"`, `"`+latest+`"`)
	doc = strings.ReplaceAll(doc, `"CP-002"`, `"`+last+`"`)
	dir := plantedRepo(t, "CP-002")
	orch := filepath.Join(dir, "ORCHESTRATION.yaml")
	if err := os.WriteFile(orch, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	// The fix would copy the key into last_checkpoint (one more RL005):
	// fix refuses it, so the hook does not offer it either; fix's report
	// names it, masked.
	_, hookOut := runIn(dir, hookEvent(dir, "PostToolUse", "Write", orch), "hook")
	if strings.Contains(hookOut, "safe fix") {
		t.Errorf("the hook offers a fix that fix refuses:\n%s", hookOut)
	}
	_, fixOut := runIn(dir, "", "fix", "--verbose", "ORCHESTRATION.yaml")
	if !strings.Contains(fixOut, "move last_checkpoint forward to ****") {
		t.Errorf("fix does not name the fix, masked:\n%s", fixOut)
	}
	// The pointer is printed (it is no secret): only what the key adds to
	// it must not be.
	for what, out := range map[string]string{"hook": hookOut, "fix": fixOut} {
		if l := leak(out, latest[len(latest)-8:]); l != "" {
			t.Errorf("%s shows part of the key: %s", what, l)
		}
	}
}

// tokenFolderRepo copies examples/broken with its workflow, project,
// bundle and agent run each in a folder named like a token.
func tokenFolderRepo(t *testing.T, tok string) string {
	t.Helper()
	src := filepath.Join("..", "..", "examples", "broken")
	dir := t.TempDir()
	moved := map[string]string{
		"ORCHESTRATION.yaml":                 "projects/" + tok + "/ORCHESTRATION.yaml",
		"ORCHESTRATION_PLAN.md":              "projects/" + tok + "/ORCHESTRATION_PLAN.md",
		"02-projects/07-example-project/":    "02-projects/" + tok + "/",
		"bundles/site-build-0142/":           "bundles/" + tok + "/",
		".agent-memory/runs/2026-02-20-001/": ".agent-memory/runs/" + tok + "/",
	}
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		for from, to := range moved {
			if rel == from || strings.HasSuffix(from, "/") && strings.HasPrefix(rel, from) {
				rel = to + strings.TrimPrefix(rel, from)
			}
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSecretInPathNeverPrinted: a workflow, project, bundle and agent run
// whose folders are named like a token have findings; no output names the
// token, and a baseline written of them, read back, hides each of them
// and names none stale.
func TestSecretInPathNeverPrinted(t *testing.T) {
	tok := plantedToken{"github", "ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2", "Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2"}
	dir := tokenFolderRepo(t, tok.value)
	// A checkpoint cut off mid-write, which the configuration ignores by
	// its real path; --verbose names it.
	cp, err := os.ReadFile(filepath.Join(dir, ".jerry", "checkpoints", "cx-001-checkpoint.json"))
	if err != nil {
		t.Fatal(err)
	}
	half := filepath.Join(dir, "projects", tok.value, ".jerry", "checkpoints", "cx-002-checkpoint.json")
	if err := os.MkdirAll(filepath.Dir(half), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(half, cp[:len(cp)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	ignore := "ignore:\n  - path: \"projects/*/.jerry/checkpoints/cx-002-checkpoint.json\"\n"
	if err := os.WriteFile(filepath.Join(dir, ".resumelint.yaml"), []byte(ignore), 0o644); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	formats := []string{"text", "json", "sarif", "github", "junit", "codeclimate", "markdown"}
	for _, f := range formats {
		_, out["lint --format "+f] = runIn(dir, "", "lint", "--format", f, ".")
	}
	_, out["lint --verbose"] = runIn(dir, "", "lint", "--verbose", ".")
	if !strings.Contains(out["lint --verbose"], "hidden by ignore: in the configuration: projects/****") {
		t.Errorf("--verbose does not name the ignored checkpoint, masked:\n%s", out["lint --verbose"])
	}
	if !strings.Contains(out["lint --format json"], `"path": "projects/****"`) ||
		!strings.Contains(out["lint --format json"], `"path": "bundles/****"`) ||
		!strings.Contains(out["lint --format json"], `"path": ".agent-memory/runs/****"`) ||
		!strings.Contains(out["lint --format json"], `"path": "02-projects/****"`) {
		t.Errorf("lint names no finding in each token folder, masked:\n%s", out["lint --format json"])
	}
	code, written := runIn(dir, "", "lint", "--write-baseline", "baseline.json", ".")
	out["lint --write-baseline"] = written
	b, err := os.ReadFile(filepath.Join(dir, "baseline.json"))
	if err != nil {
		t.Fatalf("exit %d, no baseline: %v\n%s", code, err, written)
	}
	out["the baseline"] = string(b)
	code, again := runIn(dir, "", "lint", "--baseline", "baseline.json", ".")
	if code != 0 || strings.Contains(again, "matches no finding") {
		t.Errorf("the baseline read back: exit %d, want 0 and no stale entry:\n%s", code, again)
	}
	out["lint --baseline"] = again
	orch := filepath.Join(dir, "projects", tok.value, "ORCHESTRATION.yaml")
	for _, ev := range []string{"PostToolUse", "PreCompact", "SessionStart"} {
		_, out["hook "+ev] = runIn(dir, hookEvent(dir, ev, "Write", orch), "hook")
	}
	if !strings.Contains(out["hook PostToolUse"], "projects/****") {
		t.Errorf("the PostToolUse hook names no finding, masked:\n%s", out["hook PostToolUse"])
	}
	for _, f := range []string{"text", "json"} {
		_, out["bundle verify --format "+f] = runIn(dir, "", "bundle", "verify", "--format", f, filepath.Join("bundles", tok.value))
		_, out["status --format "+f] = runIn(dir, "", "status", "--format", f)
	}
	for what, o := range out {
		if l := leak(o, tok.secret); l != "" {
			t.Errorf("%s shows part of the token in a path: %s", what, l)
		}
	}
}

// TestServerDiagnosticEscapesKey: an unknown key holding control
// characters and a bidi override reaches the editor's diagnostic, its
// hover and its related messages escaped, as in every other output.
func TestServerDiagnosticEscapesKey(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ORCHESTRATION.yaml")
	doc := strings.Replace(brokenOrchestration, "  recovery_state:\n", "  recovery_state:\n    \"k\\e[2J\\e]0;TITLE\\a\\r\\n::error::FORGED\\u202Eabc\": \"kept from the last session\"\n", 1)
	if doc == brokenOrchestration {
		t.Fatal("no recovery_state to add a key to")
	}
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := serverOutput(t, dir, path)
	if !strings.Contains(out, `unknown key k\\x1b[2J\\x1b]0;TITLE\\x07\\r\\n::error::FORGED\\u202eabc`) {
		t.Fatalf("no escaped key in the diagnostics:\n%s", out)
	}
	for _, bad := range []string{`\u001b`, `\u0007`, "\u202e", `\r\n::`} {
		if strings.Contains(out, bad) {
			t.Errorf("the server sends %q from the key:\n%s", bad, out)
		}
	}
}
