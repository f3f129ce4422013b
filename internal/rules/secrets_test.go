package rules

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
)

// TestSecretsToMask: what the engine masks does not depend on RL005
// running; secrets.allow takes out a value found only by its entropy under
// a credential key (the user says it is no secret), never one with a
// credential's shape, which every output masks anyway.
func TestSecretsToMask(t *testing.T) {
	const text = `resumption:
  recovery_state:
    workflow_status: "ghp_Zr8Qk2Lw9Vx4Nb\
      7Tp1Hs6Dy3Fg0Jm5CaQ1W2"
    deploy_token: "Qm7vT2xK9pL4wR8nZ3cY6hB1dF5gJ0sA"
    next_step: "Push with sk-test-Zq8Lw3Rt6Yp1Nc4Vb7Hx"
`
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(text)}
	d, _ := load.Parse(f, load.FormatYAML, load.DefaultLimits)
	lines := func(allow ...string) []int {
		p := NewPass(nil, &Options{SecretAllow: allow}, d, nil)
		var out []int
		for _, s := range SecretsToMask(p)[f.Path] {
			out = append(out, s.Line)
		}
		return out
	}
	for _, c := range []struct {
		allow []string
		want  []int
	}{
		{nil, []int{6, 3, 5}},
		{[]string{"^ghp_", "^sk-test-"}, []int{6, 3, 5}},
		{[]string{"^Qm7v"}, []int{6, 3}},
	} {
		if got := lines(c.allow...); !equalInts(got, c.want) {
			t.Errorf("allow %q: secrets on lines %v, want %v", c.allow, got, c.want)
		}
	}
}

// TestQuotedSecretSpansItsLines: a token split by an escaped line break
// of a double-quoted scalar (whose value then holds no newline) is
// located from the scalar's opening quote to its closing one, past
// escaped quotes and backslashes, so every line of it is masked.
func TestQuotedSecretSpansItsLines(t *testing.T) {
	for _, c := range []struct {
		yaml          string
		endLine, endC int
	}{
		{"a:\n  token: \"ghp_Zr8Qk2Lw9Vx4Nb\\\n    7Tp1Hs6Dy3Fg0Jm5CaQ1W2\"\nb: 1\n", 3, 28},
		{"a:\n  note: \"pushed with ghp_Zr8Qk2Lw9Vx4Nb\\\n    7Tp1Hs6Dy3Fg0Jm5CaQ1W2 \\\"ok\\\"\n    today\"\n", 4, 11},
		{"a:\n  note: \"C:\\\\tmp ghp_Zr8Qk2Lw9Vx4Nb\\\n  7Tp1Hs6Dy3Fg0Jm5CaQ1W2\" # \"x\"\n", 3, 26},
	} {
		f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(c.yaml)}
		d, _ := load.Parse(f, load.FormatYAML, load.DefaultLimits)
		spans := FindSecrets(f, []*yaml.Node{d.Root})
		var got []SecretSpan
		for _, s := range spans {
			if s.Line == 2 {
				got = append(got, s)
			}
		}
		if len(got) != 1 || got[0].EndLine != c.endLine || got[0].EndCol != c.endC {
			t.Errorf("%q: spans %+v, want one from line 2 to %d:%d", c.yaml, spans, c.endLine, c.endC)
		}
	}
}

// TestEmbeddedSecrets: a credential written inside a value (a command an
// agent noted, a pasted config line, a connection string, a Basic header)
// is located where its text is; names, placeholders, lower-case words,
// digests and what a credential-named reference holds are not.
func TestEmbeddedSecrets(t *testing.T) {
	for _, c := range []struct {
		value string
		want  string // the located text, "" for none
	}{
		{`ran export AWS_SECRET_ACCESS_KEY=Tq9vR2mXw8LpZ4sK7yH1nB6cF3dJ0gA5eU2iO8rW then retried`, "Tq9vR2mXw8LpZ4sK7yH1nB6cF3dJ0gA5eU2iO8rW"},
		{`config: api_key=Tq9vR2mXw8LpZ4sK7yH1nB6cF3dJ0gA5`, "Tq9vR2mXw8LpZ4sK7yH1nB6cF3dJ0gA5"},
		{`client_secret: Qm7vT2xK9pL4wR8nZ3cY6hB1dF5g in the env`, "Qm7vT2xK9pL4wR8nZ3cY6hB1dF5g"},
		{`db at postgres://admin:Zx8qP3wL9mK2vB7n@db.internal:5432/app`, "Zx8qP3wL9mK2vB7n"},
		{`curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZDEyMw=='`, "dXNlcjpwYXNzd29yZDEyMw=="},
		{`token_budget=12000 tokens used of 200000`, ""},
		{`auth_flow=implement-oauth-callback-handler`, ""},
		{`password_policy=Minimum-Length-Sixteen-Chars`, ""},
		{`api_key=${DOCS_API_KEY_FROM_VAULT}`, ""},
		{`postgres://user:password@localhost/app`, ""},
		{`secret_digest: sha256:5f1a9c0e7b3d2a4c6e8f0a1b3c5d7e9f`, ""},
		{`the access_key_name=deploy-bot-primary-key is rotated`, ""},
		// Paths, work items and branches written after such a name.
		{`credentials: docs/design/ADR-014-credential-rotation.md`, ""},
		{`secret: EN-201-worktracker-skill-extraction`, ""},
		{`Fix token_refresh: src/jerry/context/TokenRefresher.py`, ""},
		{`password_reset=src/auth/PasswordReset2026.ts`, ""},
		{`api-key: feat/EN-108-api-key-rotation branch`, ""},
		{`Basic dXNlcm5hbWU6cGFzc3dvcmQ=`, ""}, // username:password
		// An AWS secret access key holds slashes.
		{`set AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kW2vLp`, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kW2vLp"},
	} {
		text := "resumption:\n  next_step: \"" + c.value + "\"\n"
		f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(text)}
		d, _ := load.Parse(f, load.FormatYAML, load.DefaultLimits)
		spans := FindSecrets(f, []*yaml.Node{d.Root})
		got := ""
		if len(spans) > 0 {
			sp := spans[0]
			line := []rune(f.Line(sp.Line))
			got = string(line[sp.Col-1 : sp.EndCol-1])
		}
		if got != c.want || len(spans) > 1 {
			t.Errorf("%s: located %q (%d spans), want %q", c.value, got, len(spans), c.want)
		}
	}
}

// TestMaskFileWrittenCredential: the text fix --diff shows of a file hides
// a credential written inside a value, which no pattern's keyword flags.
func TestMaskFileWrittenCredential(t *testing.T) {
	const secret = "Gh7kP2vQ9xWm"
	data := []byte("{\"id\": \"see https://u:" + secret + "@h.example.net\"}\n")
	got := string(MaskFile("cx-001.json", load.KindCheckpoint, data))
	if strings.Contains(got, secret[:8]) || !strings.Contains(got, "u:************@") {
		t.Errorf("MaskFile: %q", got)
	}
}

// TestMayEmbedBytes: the byte gate agrees with the string one on words
// in any case, at the ends of the data and nowhere else.
func TestMayEmbedBytes(t *testing.T) {
	for _, s := range []string{"", "k", "ke", "key", "a KEY", "x: Basic", "https://h", "passwd", "PWD", "Credentials", "lorem ipsum", "tok", "secre"} {
		if got, want := mayEmbedBytes([]byte(s)), mayEmbed(s); got != want {
			t.Errorf("mayEmbedBytes(%q) = %v, mayEmbed says %v", s, got, want)
		}
	}
}

// MaskText hides what RL005 finds inside a value, besides the patterns,
// in text from outside one; prose without a credential is left as it is.
func TestMaskText(t *testing.T) {
	cases := map[string]string{
		"export DOCS_API_TOKEN=Tq9vR2mXw8LpZ4sK7yH1nB6cF3dJ0gA5": "export DOCS_API_TOKEN=****",
		"postgres://admin:Zx8qP3wL9mK2vB7n@db/x":                 "postgres://admin:****@db/x",
		"run 2026-06-18-auth-rework":                             "run 2026-06-18-auth-rework",
		"token ghp_a1B2c3D4e5a1B2c3D4e5a1B2c3D4e5a1B2c3 leaked":  "token **** leaked",
		"api_key: see the vault entry":                           "api_key: see the vault entry",
	}
	for in, want := range cases {
		if got := MaskText(in); got != want {
			t.Errorf("MaskText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSecretsOutsideValues: a credential no parsed value holds is located
// on its line all the same (judged as one inside a value is): in a
// comment, in a Markdown body, on a JSONL line that does not parse, in a
// file that does not parse; a # inside quotes starts no comment, and a
// comment without a credential's name or shape locates nothing.
func TestSecretsOutsideValues(t *testing.T) {
	const tok = "Tq9vR2mXw8LpZ4sK7yH1nB6cF3dJ0gA5"
	for _, c := range []struct {
		name, path, text string
		kind             load.Kind
		want             [][2]int // line, column
	}{
		{"comment", "ORCHESTRATION.yaml", "workflow:  # reason -- export API_TOKEN=" + tok + "\n  id: x\n", load.KindOrchestration, [][2]int{{1, 41}}},
		{"comment line", "ORCHESTRATION.yaml", "# see https://docs:Gh7kP2vQ9xWm@h.example.net\nworkflow: {id: x}\n", load.KindOrchestration, [][2]int{{1, 20}}},
		{"hash in quotes", "ORCHESTRATION.yaml", "a: \"x # b\"\nb: 1  # plain words in a comment that mention a token\n", load.KindOrchestration, nil},
		{"body", "02-projects/07-x/01-planning/resume-context.md", "---\nproject_id: \"07-x\"\n---\n\nRun `export DOCS_API_TOKEN=" + tok + "` first.\n", load.KindResumeContext, [][2]int{{5, 28}}},
		{"bad jsonl line", ".agent-memory/runs/r1/events/a/events.jsonl", "{\"event\": \"task_started\"}\n{\"note\": \"password: " + tok + "\n", load.KindAgentRun, [][2]int{{2, 21}}},
		{"unparsable", "ORCHESTRATION.yaml", "resumption:\n  password: \"" + tok + "\n  next: [\n", load.KindOrchestration, [][2]int{{2, 14}}},
		{"escaped key", "ORCHESTRATION.yaml", "a:\n  \"ghp_Q7mK2xW9vLpR4tY8\\x6eB3cF6hJ1dS5gA0eU2iZ\": 1\n", load.KindOrchestration, [][2]int{{2, 3}}},
		{"alias-like", "ORCHESTRATION.yaml", "resumption:\n  password: *" + tok + "\n", load.KindOrchestration, [][2]int{{2, 14}}},
	} {
		f := &load.File{Path: c.path, Kind: c.kind, Data: []byte(c.text)}
		d, _ := load.Parse(f, load.FormatOf(f.Kind, f.Path), load.DefaultLimits)
		var got [][2]int
		for _, s := range FindSecrets(f, docTrees(d)) {
			got = append(got, [2]int{s.Line, s.Col})
		}
		if len(got) != len(c.want) || len(got) > 0 && got[0] != c.want[0] {
			t.Errorf("%s: secrets at %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCommentStart: a # starts a comment at a line's start or after a
// blank, outside a quoted scalar; a quote inside a plain scalar opens
// none, and escaped quotes do not close one.
func TestCommentStart(t *testing.T) {
	for line, want := range map[string]int{
		`a: 1 # c`:                  5,
		`# c`:                       0,
		`a: "x # y" # c`:            11,
		`a: 'it''s # y' # c`:        15,
		`trigger: scheduled 'x # c`: 22,
		`note: say "hi # c`:         14,
		`a-'b # c`:                  5,
		`"say \"hi\" " # c`:         14,
		`- "x # y"`:                 -1,
		`{a: "x # y", b: 'z'} # c`:  21,
		`url: http://h/p#frag`:      -1,
		"a: 1\t# c":                 5,
	} {
		if got := commentStart(line); got != want {
			t.Errorf("commentStart(%q) = %d, want %d", line, got, want)
		}
	}
}
