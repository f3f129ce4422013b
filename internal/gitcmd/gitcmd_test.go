package gitcmd

import (
	"strings"
	"testing"
	"time"
)

func TestTimeout(t *testing.T) {
	for _, c := range []struct {
		env  string
		want time.Duration
	}{
		{"", DefaultTimeout},
		{"90s", 90 * time.Second},
		{"20m", 20 * time.Minute},
		{"0s", DefaultTimeout},
		{"-1m", DefaultTimeout},
		{"soon", DefaultTimeout},
	} {
		t.Setenv(TimeoutVar, c.env)
		if got := Timeout(); got != c.want {
			t.Errorf("%s=%q: %v, want %v", TimeoutVar, c.env, got, c.want)
		}
	}
}

// TestNoProtocolAllowed: a repository's protocol.<name>.allow wins over
// protocol.allow, so every protocol is refused by name on the command
// line, and by GIT_ALLOW_PROTOCOL (which overrides any configuration) in
// the environment, an inherited value replaced.
func TestNoProtocolAllowed(t *testing.T) {
	args := strings.Join(Args("."), " ")
	for _, p := range []string{"ext", "file", "git", "ssh", "http", "https"} {
		if !strings.Contains(args, "-c protocol."+p+".allow=never") {
			t.Errorf("Args does not refuse protocol %s: %s", p, args)
		}
	}
	t.Setenv("GIT_ALLOW_PROTOCOL", "ext:file")
	var got []string
	for _, kv := range Env() {
		if strings.HasPrefix(kv, "GIT_ALLOW_PROTOCOL=") {
			got = append(got, kv)
		}
	}
	if len(got) != 1 || got[0] != "GIT_ALLOW_PROTOCOL=none" {
		t.Errorf("Env sets %v, want only GIT_ALLOW_PROTOCOL=none", got)
	}
}
