package cli

import (
	"testing"
	"time"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/rules"
)

// The configuration's data lands in the run's settings; --bundle-base
// given on the command line wins over the configuration's bundle.base.
func TestApplyConfig(t *testing.T) {
	cfg := &config.Config{Severity: map[string]diag.Severity{"RL107": diag.SevWarning}, MaxAge: 72 * time.Hour,
		Bundle: rules.BundleOptions{Base: "repo", Semvers: []string{"1.0.0"}}, SecretAllow: []string{"^sk-test-"}}
	var s engine.Settings
	applyConfig(cfg, &s)
	if s.Severity["RL107"] != diag.SevWarning || s.Opts.MaxAge != 72*time.Hour || s.Opts.Bundle.Base != "repo" ||
		len(s.Opts.Bundle.Semvers) != 1 || len(s.Opts.SecretAllow) != 1 {
		t.Errorf("settings = %+v", s)
	}
	s2 := engine.Settings{Opts: rules.Options{Bundle: rules.BundleOptions{Base: "bundle"}}}
	applyConfig(cfg, &s2)
	if s2.Opts.Bundle.Base != "bundle" {
		t.Errorf("the flag lost to the configuration: %q", s2.Opts.Bundle.Base)
	}
}
