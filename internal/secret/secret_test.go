package secret

import (
	"bytes"
	"maps"
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	for in, want := range map[string][2]string{
		"key ghp_R8x2LmQ4vN7kT1pZ9yW3cB6dF0hJ5sA2eG4i.":                            {"key ****.", "key ****************************************."},
		"a -----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- b": {"a **** b", "a " + stars(31+1+4+1+29) + " b"},
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
