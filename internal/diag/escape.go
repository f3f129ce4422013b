package diag

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SafeLine is Safe for text that may begin a line of output (a path, a
// diff line, a message on stderr): a line that starts, after blanks, with
// "::" is a workflow command to GitHub Actions, so its first colon is
// shown as \x3a.
func SafeLine(s string) string {
	return noCommand(Safe(s))
}

// noCommand shows the first colon of a line that starts, after blanks,
// with "::" as \x3a.
func noCommand(s string) string {
	t := strings.TrimLeft(s, " \t")
	if strings.HasPrefix(t, "::") {
		i := len(s) - len(t)
		s = s[:i] + `\x3a` + s[i+1:]
	}
	return s
}

// NoCommands is the last step of a report built of lines whose values
// were made safe one by one (Escape): a line that a value begins after
// the report's own indent ("  ::error …") cannot be a workflow command
// either; every such line's first colon is shown as \x3a.
func NoCommands(s string) string {
	if !strings.Contains(s, "::") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = noCommand(l)
	}
	return strings.Join(lines, "\n")
}

// SafeLines is SafeLine for each line of s: for messages of several lines
// (a configuration's errors), whose line breaks are the message's own.
func SafeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = SafeLine(l)
	}
	return strings.Join(lines, "\n")
}

// SafeMarkdown makes text from a file inert in Markdown and in the HTML
// GitHub and editors allow in it, after masking secrets: punctuation that
// Markdown or a table reads (links, images, emphasis, code) is
// backslash-escaped, <, > and & become entities, and control characters
// (line breaks too) are shown as \xNN or \uNNNN.
func SafeMarkdown(s string) string {
	s = Mask(s)
	var sb strings.Builder
	for _, r := range strings.TrimRight(s, "\n") {
		switch {
		case r == '<':
			sb.WriteString("&lt;")
		case r == '>':
			sb.WriteString("&gt;")
		case r == '&':
			sb.WriteString("&amp;")
		case strings.ContainsRune("\\`*_{}[]()#!|~:@", r):
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r < 0x80 && unicode.IsControl(r):
			fmt.Fprintf(&sb, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029' || unsafeRune(r):
			sb.WriteString(runeCode(r))
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// Escape makes text from a file safe to print on a terminal or in a CI
// log: control characters (C0 but the tab, DEL, C1), line and paragraph
// separators and bidirectional overrides are shown as escapes (\x1b, \r,
// \n, \u2028, \u202e), so file content can neither move the cursor,
// recolour the screen, reorder what is shown, nor start a line of its own
// (a forged "::error" workflow command). Invalid UTF-8 is shown as \xNN.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&sb, `\x%02x`, s[i])
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case unsafeRune(r):
			if r < 0x80 {
				fmt.Fprintf(&sb, `\x%02x`, r)
			} else {
				sb.WriteString(runeCode(r))
			}
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	return sb.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' || c == 0x7f || c >= 0x80 {
			if c < 0x80 {
				return true
			}
			// Multibyte: decide per rune.
			for _, r := range s[i:] {
				if r < 0x80 {
					if r < 0x20 && r != '\t' || r == 0x7f {
						return true
					}
				} else if r == utf8.RuneError || unsafeRune(r) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// RuneEscape is how Escape shows the rune r on its own: "" when r shows
// as itself. Reports that line a caret up under a character escape one
// rune at a time.
func RuneEscape(r rune) string {
	switch {
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case unsafeRune(r) && r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case unsafeRune(r):
		return runeCode(r)
	}
	return ""
}

func unsafeRune(r rune) bool {
	switch {
	case r < 0x20 && r != '\t', r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c: // directional marks
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069: // bidi embeddings, overrides, isolates
		return true
	case r >= 0xa0 && unicode.Is(unicode.Cf, r):
		// Other format characters print as nothing: zero-width spaces and
		// joiners, the word joiner, a byte-order mark, the tag characters
		// (U+E0000…, text a model reads and a reader does not see). A
		// path holding one looks like another path, a value hides text.
		return true
	}
	return false
}

// runeCode is how Escape shows a rune at or above U+0080: \uXXXX, or
// \UXXXXXXXX beyond U+FFFF, whose five hex digits \u would cut.
func runeCode(r rune) string {
	if r > 0xffff {
		return fmt.Sprintf(`\U%08x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
