package gitcmd

import (
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
