package secret

import (
	"bytes"
	"maps"
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	for in, want := range map[string][2]string{
		"key ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i.":                                                   {"key ****.", "key ****************************************."},
		"a -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- b":                        {"a **** b", "a " + stars(31+1+4+1+29) + " b"},
		"a -----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBGXz\n=a1b2\n-----END PGP PRIVATE KEY BLOCK----- b": {"a **** b", "a " + stars(37+1+8+1+5+1+35) + " b"},
		"ghp_<your token here>": {"ghp_<your token here>", "ghp_<your token here>"},
		"no credential, résumé": {"no credential, résumé", "no credential, résumé"},
	} {
		if got := Mask(in); got != want[0] {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want[0])
		}
		if got := MaskInPlace(in); got != want[1] {
			t.Errorf("MaskInPlace(%q) = %q, want %q", in, got, want[1])
		}
	}
}

func stars(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '*'
	}
	return string(b)
}

// rulesetTokens are credentials of formats the built-in patterns miss,
// recognised through gitleaks' rule set (generated, not real).
var rulesetTokens = map[string]string{
	"stripe-access-token":      "sk_live_aEhWzjRci8hIoTWijVcQdioI",
	"stripe-access-token (rk)": "rk_live_UCHAnLfhbX84zvmnvzxM9pnU",
	"gcp-api-key":              "AIzanALQJd9d1lwinj1YybfVH3CPZnnYBUxmvP0",
	"gitlab-pat":               "glpat-oEcqvsvKzEPP1u9nVgYX",
	"npm-access-token":         "npm_t5lJN7I1Rsflmb6YMxS9gQzs6tP14mhDmZvC",
	"shopify-access-token":     "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",
	"huggingface-access-token": "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",
	"digitalocean-pat":         "dop_v1_4b3b69c513d647c96d97811f886db6c1ec676ab9b3627ffe85d12f49f008c899",
	"sendgrid-api-token":       "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",
	"slack-webhook-url":        "https://hooks.slack.com/services/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",
}

func TestMaskRulesetTokens(t *testing.T) {
	for kind, tok := range rulesetTokens {
		for _, in := range []string{
			`next_step: "deploy with ` + tok + ` then run the gate"`,
			`{"note": "key=` + tok + `"}`,
			"export TOKEN=" + tok + ".",
		} {
			got := Mask(in)
			if strings.Contains(got, tok[len(tok)-8:]) || !strings.Contains(got, "****") {
				t.Errorf("%s: Mask(%q) = %q, want the token hidden", kind, in, got)
			}
			if got := MaskInPlace(in); len(got) != len(in) || strings.Contains(got, tok[len(tok)-8:]) {
				t.Errorf("%s: MaskInPlace(%q) = %q", kind, in, got)
			}
		}
	}
}

// TestRulesetQuiet: ordinary values of state files hold keywords of the
// rule set (api-, pat., sk_, hf_) without being credentials.
func TestRulesetQuiet(t *testing.T) {
	for _, in := range []string{
		`next_step: "Run ps-writer-001 on the remaining 14 pages of the api-gateway docs"`,
		`commit: "9f2c1e4b7a0d3c5e8f1a2b4c6d8e0f1a3b5c7d9e"`,
		`sha256: "3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b"`,
		`path: "src/api/handlers/pat.go", owner: "sk_team", flag: "hf_disable"`,
		`"timestamp": "2026-02-20T21:00:00Z", "session_id": "sess_01HV8ZK2M3N4P5Q6R7S8T9V0W1"`,
		`see https://docs.gitlab.com/ee/user/profile/personal_access_tokens.html (glpat- tokens)`,
		`STRIPE_KEY=sk_live_XXXXXXXXXXXXXXXXXXXXXXXX`,
		`google: AIza<your-key-here>`,
		`npm_config_registry: "npm_cache_dir_for_ci_runner_builds_v2"`,
	} {
		if got := Mask(in); got != in {
			t.Errorf("Mask(%q) = %q, want it unchanged", in, got)
		}
	}
}

func TestRulesetTable(t *testing.T) {
	if len(ruleset) < 80 {
		t.Fatalf("ruleset has %d patterns", len(ruleset))
	}
	seen := map[string]bool{}
	for i, p := range Patterns {
		p.RE.Regexp() // every pattern compiles (panics otherwise)
		if p.Group > p.RE.Regexp().NumSubexp() {
			t.Errorf("%s: group %d of %d", p.ID, p.Group, p.RE.Regexp().NumSubexp())
		}
		if len(p.Keywords) == 0 || (FromRuleset(i) && (p.ID == "" || seen[p.ID])) {
			t.Errorf("pattern %d (%s): keywords %v, id %q", i, p.What, p.Keywords, p.ID)
		}
		seen[p.ID] = true
		for _, k := range p.Keywords {
			if k != strings.ToLower(k) || !MayHold("x "+strings.ToUpper(k)+" y") || !Candidates(k).Has(i) {
				t.Errorf("%s: keyword %q is not found", p.What, k)
			}
		}
	}
	if MayHold("plain text of a state file, 2026-02-20") {
		t.Error("a line without keywords may hold a credential")
	}
}

// BenchmarkScreenFile screens an 8 KB state file without credentials, as
// MaskFile does before it looks further (docs/performance.md).
func BenchmarkScreenFile(b *testing.B) {
	line := []byte(`    - id: "ps-writer-001"  # Content Migration, gateway pages; see ORCHESTRATION_PLAN.md#phase-2` + "\n")
	data := bytes.Repeat(line, 8192/len(line))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if MayHoldBytes(data) {
			b.Fatal("no credential in the file")
		}
	}
}

// LineCandidates finds, in one pass, what screening each line on its
// own finds: the same lines, the same patterns.
func TestLineCandidatesIsPerLine(t *testing.T) {
	for _, text := range append(strings.Split("|ghp_|token: ghp_abcdefghijklmnopqrstuvwxyz0123456789\nnext_action: none\n", "|"),
		"a\r\nAKIA1234567890ABCDEF\r\n\r\nsk-ant-xyz\nno keyword here\nprivate\nkey\n-----BEGIN RSA PRIVATE KEY-----", // CRLF, a keyword split by a newline
		"xox\nox\nxoxb-1\n\n\nBearer abc eyJ\nlast line without newline sc_",
		strings.Repeat("context_window: next_action ext_ sc_ scauth_ authress_\n", 20), // keywords inside words
	) {
		data := []byte(text)
		starts := []int{0}
		for i, c := range data {
			if c == '\n' {
				starts = append(starts, i+1)
			}
		}
		want := map[int]Set{}
		for n := range starts {
			end := len(data)
			if n+1 < len(starts) {
				end = starts[n+1] - 1
			}
			if set := candidates(data[starts[n]:end]); !set.Empty() {
				want[n] = set
			}
		}
		got := map[int]Set{}
		last := -1
		LineCandidates(data, starts, func(line int, set Set) {
			if line <= last {
				t.Errorf("%q: line %d after line %d", text, line, last)
			}
			last = line
			got[line] = set
		})
		if !maps.Equal(got, want) {
			t.Errorf("%q:\n got %v\nwant %v", text, got, want)
		}
	}
}

// BenchmarkMaskLines masks lines that hold the patterns' keywords, with
// and without a credential (the lines of a file that run regular
// expressions at all): the cost of the patterns themselves.
func BenchmarkMaskLines(b *testing.B) {
	lines := []string{
		`    next_step: "Push with GH_TOKEN=ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i then run the researcher"`,
		`    last_checkpoint: "CP-ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2_v2"`,
		`  - {id: "task-sk-migration", name: "Risk-ask-sk-review of the desk-ant-colony module", status: "DONE"}`,
		`      summary: "AKIA and ASIA prefixes are AWS ids; see the runbook for the ASIAPACIFIC region rollout"`,
		`    token_note: "Bearer tokens come from the vault; eyJ-prefixed values are JWTs (header.payload.sig)"`,
		`"checkpoint_id": "cx-014", "github_pat_note": "use github_pat_ tokens only in CI", "xoxb": "not set"`,
		`    api_key: "sk-ant-api03-Zq7Xw2Lk9Vb4Nm1Pt6Rs3Yh8Jd5Fg0CeWu", id: "feat001-impl-20260220-001"`,
	}
	text := strings.Repeat(strings.Join(lines, "\n")+"\n", 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		for _, l := range strings.Split(text, "\n") {
			MaskInPlace(l)
		}
	}
}

// Credentials glued into identifiers, as they land in state files: a
// checkpoint id, a key, a file name built from a pasted token.
var gluedTokens = map[string]string{
	"github":     "ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2",
	"github-pat": "github_pat_11ABCDEFG0aBcDeFgHiJkLmN_oPqRsTuVwXyZ0918273645aBcDeFgHiJkLmNoPqRsTuVwXyZ091827364",
	"anthropic":  "sk-ant-api03-Zq7Xw2Lk9Vb4Nm1Pt6Rs3Yh8Jd5Fg0CeWu",
	"aws":        "AKIAQ7XK2LMN4PRS8TUV",
	"jwt":        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjaS1kZXBsb3kifQ.Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5Ca",
	"slack":      "xoxb-263594206564-FGqddMF8t08v8N7Oq4i57vs1",
}

func TestMaskGluedTokens(t *testing.T) {
	for kind, tok := range gluedTokens {
		for _, in := range []string{
			`    last_checkpoint: "CP-` + tok + `_v2"`,
			`    ` + tok + `_key: "kept from the last session"`,
			`    note: "x_` + tok + `"`,
			`ORCHESTRATION_` + tok + `.yaml`,
			`{"id": "run-` + tok + `-2"}`,
			`x_` + tok + ` ` + tok + `,` + tok, // several on one line, one character apart
		} {
			if kind != "anthropic" {
				in += " a" + tok // after a letter: only prefixes no word ends in
			}
			if kind == "aws" {
				in += " " + tok + "_x" + " key" + tok
			}
			got := Mask(in)
			if l := leaked(got, tok); l != "" {
				t.Errorf("%s: Mask(%q) = %q, shows %q", kind, in, got, l)
			}
			if got := MaskInPlace(in); len(got) != len(in) || leaked(got, tok) != "" {
				t.Errorf("%s: MaskInPlace(%q) = %q", kind, in, got)
			}
		}
	}
}

// leaked returns a run of 8 characters of tok that s still holds.
func leaked(s, tok string) string {
	for i := 0; i+8 <= len(tok); i++ {
		if strings.Contains(s, tok[i:i+8]) {
			return tok[i : i+8]
		}
	}
	return ""
}

// TestBoundsQuiet: text of state files that holds a pattern's prefix, or
// is long, random-looking and glued, without being a credential.
func TestBoundsQuiet(t *testing.T) {
	for _, in := range []string{
		`  - {id: "feat001-impl-20260220-001", name: "Risk-ask review of the desk-ant-colony-simulation-module", status: "DONE"}`,
		`    current_activity: "task_sk-migration-of-the-billing-exporter", owner: "risk_sk-team-platform-reliability"`,
		`    summary: "Rolled out to ASIAPACIFICREGION2026Q3 and EUWESTAKIA0000000000000000 hosts"`,
		`    region_code: "SOUTHEASTASIA1234567890ABCD"`,
		`    commit: "9f2c1e4b7a0d3c5e8f1a2b4c6d8e0f1a3b5c7d9e", sha256: "3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b"`,
		`    run_id: "3f2b8c1e-7a4d-4e9b-9c2f-1a5d7e3b9c4f", session: "sess_01HV8ZK2M3N4P5Q6R7S8T9V0W1"`,
		`    payload: "eyJzdGVwIjoiZGVwbG95IiwicGhhc2UiOjIsImdhdGUiOiJxZy0yIn0="`,
		`    blob: "U2FsdGVkX1+vupppZksvRf5pq5g5XjFRlipRkwB0K1Y96Qsv2Lm+31cmzaAILwytX/z66ZVWEQM/ccf1g+9m5Ubu1+sit+A9cenD"`,
		`    attachment: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="`,
		`    note: "keyJsonParser.eyJumpTable output, see keyJ docs"`,
		`    owner: "xoxo-team", label: "boxoxo", status: "GHP_DISABLED", flag: "ghp_token_rotation_enabled"`,
		`    files_to_read: ["projects/PROJ-009-llm-deception-research/ORCHESTRATION.yaml", "docs/ghp_notes.md"]`,
		`    branch: "sk-learning-rate-schedule-experiments", notes: "sk-ant-colony-simulation-results-v2"`,
		`    - {id: "sk-proj-billing-export-rewrite", owner: "sk", next: "sk-wip-fix-the-ledger-rounding-bug"}`,
	} {
		if got := Mask(in); got != in {
			t.Errorf("Mask(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestBuiltinsFindSkippedRules: gitleaks' rules left out of the rule set
// because a built-in pattern finds what they find (gen_ruleset.go,
// skipped) do not hide a credential: a token of each, where gitleaks'
// regular expression matches it (github-* and the legacy Slack rules have
// no bounds: glued after a letter or _ too), is masked whole.
func TestBuiltinsFindSkippedRules(t *testing.T) {
	type form struct {
		rule, tok string
		glued     bool // gitleaks' regex has no leading bound
	}
	for _, f := range []form{
		{"github-pat", "ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2", true},
		{"github-oauth", "gho_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2", true},
		{"github-app-token", "ghu_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2", true},
		{"github-app-token", "ghs_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2", true},
		{"github-refresh-token", "ghr_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2", true},
		{"github-fine-grained-pat", "github_pat_" + strings.Repeat("Zr8Qk2Lw9_", 8) + "x2", true},
		{"anthropic-api-key", "sk-ant-api03-" + strings.Repeat("Zr8Qk2Lw9-Vx4Nb7Tp1_", 4) + "Hs6Dy3Fg0Jm5CaQ" + "AA", false},
		{"anthropic-admin-api-key", "sk-ant-admin01-" + strings.Repeat("Zr8Qk2Lw9-Vx4Nb7Tp1_", 4) + "Hs6Dy3Fg0Jm5CaQ" + "AA", false},
		{"openai-api-key", "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", false},
		{"openai-api-key", "sk-proj-" + strings.Repeat("Zr8Qk2Lw9Vx4Nb7Tp1H_", 3) + "s6Dy3Fg0Jm5CaQ1W2Z" + "T3BlbkFJ" + strings.Repeat("Zr8Qk2Lw9Vx4Nb7Tp1H-", 3) + "s6Dy3Fg0Jm5CaQ1W2Z", false},
		{"slack-bot-token", "xoxb-781236542736-2364535789652-GkwFDQoHqzXDVsC6GzqYUypD", true},
		{"slack-legacy-bot-token", "xoxb-263594206564-FGqddMF8t08v8N7Oq4i57vs1", true},
		{"slack-legacy-token", "xoxs-416843729158-132049654-5609968301-e708ba56e1", true},
		{"slack-legacy-workspace-token", "xoxa-2-511111111-31111111111-3111111111111-e039d02840a0b9379c", true},
		{"slack-legacy-workspace-token", "xoxr-Zr8Qk2Lw9Vx4", true},
	} {
		contexts := []string{`token: "` + f.tok + `"`, "export TOKEN=" + f.tok + ";", `"` + f.tok + `\n"`}
		if f.glued {
			contexts = append(contexts, "x"+f.tok, "x_"+f.tok+"_v2")
		}
		for _, in := range contexts {
			if got := Mask(in); leaked(got, f.tok) != "" {
				t.Errorf("%s: Mask(%q) = %q", f.rule, in, got)
			}
		}
	}
}

// The sk- shapes leave out lower-case words (a branch or task name) but
// not a key whose body is lower-case hexadecimal, whole or in groups.
func TestSkKeysThatAreNotWords(t *testing.T) {
	for _, key := range []string{
		"sk-3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e",
		"sk-1b4e28ba-2fa1-11d2-883f-0016d3cca427",
		"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",
		"sk-ant-api03-Zq7Xw2Lk9Vb4Nm1Pt6Rs3Yh8Jd5Fg0CeWu",
	} {
		in := `    api_key: "` + key + `"`
		if got, want := Mask(in), `    api_key: "****"`; got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

// Find names the first credential of a short text and spans it to the end
// of its token, as the mask does (a file name's extension with it); a name
// that only looks like one is none.
func TestFind(t *testing.T) {
	const tok = "ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2"
	for _, c := range []struct {
		name, what, found string
	}{
		{"cx-007-" + tok + ".json", "a GitHub token", tok + ".json"},
		{"cx-007-" + tok + "_v2.json", "a GitHub token", tok + "_v2.json"},
		{tok + " notes", "a GitHub token", tok},
		{"cx-001-checkpoint.json", "", ""},
		{"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.json", "", ""},
		{"sk-learning-rate-schedule-experiments.md", "", ""},
	} {
		what, sp, ok := Find(c.name)
		if c.what == "" {
			if ok {
				t.Errorf("Find(%q) = %q at %v; want none", c.name, what, sp)
			}
			continue
		}
		if !ok || what != c.what || c.name[sp[0]:sp[1]] != c.found {
			t.Errorf("Find(%q) = %q %v %v; want %q over %q", c.name, what, sp, ok, c.what, c.found)
		}
	}
}
