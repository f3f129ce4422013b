package diag

import (
	"strings"
	"testing"
)

// RuneEscape is Escape of the one rune: "" exactly when it shows as
// itself.
func TestRuneEscapeIsEscapeOfOneRune(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		want := Escape(string(r))
		got := RuneEscape(r)
		if got == "" {
			got = string(r)
		}
		if got != want {
			t.Fatalf("RuneEscape(%U) = %q, Escape = %q", r, got, want)
		}
	}
}

// Escape shows each rune after a multi-byte one (where it decides rune
// by rune, as in a message clipped with "…") as RuneEscape does.
func TestEscapeAfterMultiByteRune(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		want := RuneEscape(r)
		if want == "" {
			want = string(r)
		}
		if got := Escape("…" + string(r)); got != "…"+want {
			t.Fatalf("Escape(%q) = %q, want %q", "…"+string(r), got, "…"+want)
		}
	}
	if got := Escape("é\xff"); got != `é\xff` {
		t.Fatalf("Escape of a stray byte after é = %q", got)
	}
}

// TestEscapeIsIdempotent: the engine escapes every finding's text and the
// text report, the github format and the hooks escape what they print
// again; a second escape changes nothing, so nothing is shown escaped
// twice (\\x1b).
func TestEscapeIsIdempotent(t *testing.T) {
	ins := []string{"", "plain text", "k\x1b[2J\x1b]0;TITLE\x07\r\n::error::FORGED\u202eabc", "\xff\xe2\x82 tail", `already \x1b escaped \u202e`,
		"\u0085\u2028\u2029\u200e\u061c\u2066\u2069\x7f\t"}
	for r := rune(0); r < 0x3000; r++ {
		ins = append(ins, "a"+string(r)+"b")
	}
	for _, s := range ins {
		once := Escape(s)
		if twice := Escape(once); twice != once {
			t.Errorf("Escape(Escape(%q)) = %q, want %q", s, twice, once)
		}
		if line := SafeLine(s); SafeLine(line) != line {
			t.Errorf("SafeLine(SafeLine(%q)) = %q, want %q", s, SafeLine(line), line)
		}
	}
}

// TestSafeText: a finding's message, related messages and fix description
// are masked and escaped.
func TestSafeText(t *testing.T) {
	f := Finding{Message: "unknown key k\x1b[2J\r\n::error::x\u202e ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2",
		Related: []Related{{Message: "first \x07 here"}}, Fix: &Fix{Description: "rename k\x1b to ghp_Zr8Qk2Lw9Vx4Nb7Tp1Hs6Dy3Fg0Jm5CaQ1W2"}}
	SafeText(&f)
	if want := `unknown key k\x1b[2J\r\n::error::x\u202e ****`; f.Message != want {
		t.Errorf("message %q, want %q", f.Message, want)
	}
	if want := `first \x07 here`; f.Related[0].Message != want {
		t.Errorf("related message %q, want %q", f.Related[0].Message, want)
	}
	if want := `rename k\x1b to ****`; f.Fix.Description != want {
		t.Errorf("fix description %q, want %q", f.Fix.Description, want)
	}
}

// TestEscapeShowsInvisibleCharacters: format characters print as nothing,
// so a path or value holding one looks like another (a folder
// "07-project\u200b" beside "07-project") or hides text a model reads and a
// reader does not see (tag characters). Each is shown as its code, as a
// quoted value shows it; a code beyond U+FFFF has its eight digits.
func TestEscapeShowsInvisibleCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"07-project\u200b/ORCHESTRATION.yaml": `07-project\u200b/ORCHESTRATION.yaml`,
		"a\u200c\u200d\u2060\u2064\ufeffb":    `a\u200c\u200d\u2060\u2064\ufeffb`,
		"soft\u00adhyphen":                    `soft\u00adhyphen`,
		"next\U000e0069\U000e0067\U000e006e":  `next\U000e0069\U000e0067\U000e006e`,
		"café, naïve, 東京, ™":                  "café, naïve, 東京, ™",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if got := Escape(Escape(in)); got != want {
			t.Errorf("Escape twice of %q = %q", in, got)
		}
		if got := SafeMarkdown(in); strings.ContainsAny(got, "\u200b\u200c\u200d\u2060\u2064\ufeff\u00ad\U000e0069") {
			t.Errorf("SafeMarkdown(%q) = %q keeps an invisible character", in, got)
		}
	}
	if got := RuneEscape(0xe0041); got != `\U000e0041` {
		t.Errorf("RuneEscape(U+E0041) = %q", got)
	}
}
