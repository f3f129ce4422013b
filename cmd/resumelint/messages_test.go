package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/test/golden"
)

// A finding's message is one sentence of what is wrong and what to do
// (SPEC §6: GitHub annotations and terminals show one line). The why and
// the seed it comes from belong in the rule's page, which `explain` and
// SARIF's helpUri show. Every golden input is linted with every rule on.
func TestMessagesShort(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	all := allCodes(t)
	checked := 0
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			doc := lintGoldenInputs(t, path, all)
			if doc == nil {
				return
			}
			for _, f := range doc.Findings {
				checked++
				if n := utf8.RuneCountInString(f.Message); n > diag.MaxMessage {
					t.Errorf("%s:%d: %s message is %d characters, over %d (move the why to docs/rules/%s.md):\n  %s", f.Path, f.Line, f.Code, n, diag.MaxMessage, f.Code, f.Message)
				}
				if strings.Contains(f.Message, "seed 00") {
					t.Errorf("%s:%d: %s message cites a seed (the citation belongs in docs/rules/%s.md):\n  %s", f.Path, f.Line, f.Code, f.Code, f.Message)
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("no finding was checked")
	}
}

// findingLine is a finding as the text format prints it.
var findingLine = regexp.MustCompile(`(?:error|warning): (.*) \[RL[0-9]+ [a-z0-9-]+\]$`)

// TestGoldenMessagesShort holds the findings the goldens print under
// other commands and flags (--base, fix) to the same bar.
func TestGoldenMessagesShort(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, path := range cases {
		ar, err := golden.Archive(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want") {
				continue
			}
			for _, line := range strings.Split(string(f.Data), "\n") {
				m := findingLine.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				checked++
				msg := m[1]
				if i := strings.Index(msg, " (fix not applied: "); i >= 0 {
					msg = msg[:i] // the fix command's note, not the finding's
				}
				if n := utf8.RuneCountInString(msg); n > diag.MaxMessage || strings.Contains(msg, "seed 00") {
					t.Errorf("%s: %s: message of %d characters over %d or citing a seed:\n  %s", filepath.Base(path), f.Name, n, diag.MaxMessage, msg)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no finding was checked")
	}
}
