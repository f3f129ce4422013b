package main

import (
	"os/exec"
	"strings"
	"testing"
)

// `go install ./...`, which pre-commit runs to install the hook, installs
// resumelint and nothing else: the benchmark's commands need -tags bench.
func TestInstallOnlyResumelint(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(gobin, "list", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "./...")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	got := strings.Fields(string(out))
	if len(got) != 1 || got[0] != "github.com/resumelint/resumelint/cmd/resumelint" {
		t.Errorf("go install ./... would install %v, want only github.com/resumelint/resumelint/cmd/resumelint", got)
	}
}
