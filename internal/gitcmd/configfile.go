package gitcmd

import "strings"

// configEntries calls each with the entries of a git config file, read as
// git's own parser (config.c) reads it, since a file it read differently
// could hide an include from the checks: a byte-order mark at the start is
// skipped, CR LF is a line break, a section is named on its own line or
// with a key after it ("[core] worktree = x"; the name in lower case, then
// a blank and the subsection as written), keys are in lower case, and a
// value has its quotes, escapes and comments decoded, goes on on the next
// line after a backslash ending its line, and has each blank outside
// quotes read as a space (inner ones kept, those at its ends dropped).
// Where git would stop at an error the reading goes on at the next line:
// it reads more than git rather than less. Includes are not followed: git
// reads core.worktree from the repository's config file alone (and
// OpenRepo asks git besides).
func configEntries(cfg []byte, each func(section, key, value string, hasValue bool)) {
	r := &configReader{s: strings.TrimPrefix(string(cfg), "\ufeff")}
	section := ""
	for {
		c, ok := r.next()
		switch {
		case !ok:
			return
		case c == '\n' || configSpace(c):
		case c == '#' || c == ';':
			r.skipLine()
		case c == '[':
			var ok bool
			if section, ok = r.section(); !ok {
				section = ""
				r.skipLine()
			}
		case 'a' <= c|0x20 && c|0x20 <= 'z':
			if key, value, hasValue, ok := r.entry(c); ok {
				each(section, key, value, hasValue)
			} else {
				r.skipLine()
			}
		default:
			r.skipLine()
		}
	}
}

// configReader reads a config file's text byte by byte, as git does.
type configReader struct {
	s string
	i int
}

// next returns the next byte, CR LF read as one LF; false at the end.
func (r *configReader) next() (byte, bool) {
	if r.i >= len(r.s) {
		return 0, false
	}
	c := r.s[r.i]
	r.i++
	if c == '\r' && r.i < len(r.s) && r.s[r.i] == '\n' {
		r.i++
		return '\n', true
	}
	return c, true
}

// skipLine goes past the end of the current line (after an error, git
// would have stopped; a line already ended is not skipped twice only when
// the caller stopped on its line break).
func (r *configReader) skipLine() {
	if r.i > 0 && r.s[r.i-1] == '\n' {
		return
	}
	for {
		if c, ok := r.next(); !ok || c == '\n' {
			return
		}
	}
}

// section reads a section header after its "[": the name, lower case,
// and a quoted subsection after a blank ("[remote \"origin\"]").
func (r *configReader) section() (string, bool) {
	var name strings.Builder
	for {
		c, ok := r.next()
		switch {
		case !ok:
			return "", false
		case c == ']':
			return name.String(), true
		case configSpace(c):
			return r.subsection(name.String(), c)
		case configKeyChar(c) || c == '.':
			name.WriteByte(lower(c))
		default:
			return "", false
		}
	}
}

// subsection reads `"name"]` after the blank c that follows a section's
// name, and returns the section as "name subsection".
func (r *configReader) subsection(name string, c byte) (string, bool) {
	for ok := true; configSpace(c); c, ok = r.next() {
		if c == '\n' || !ok {
			return "", false
		}
	}
	if c != '"' {
		return "", false
	}
	var sub strings.Builder
	for {
		c, ok := r.next()
		if !ok || c == '\n' {
			return "", false
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c, ok = r.next(); !ok || c == '\n' {
				return "", false
			}
		}
		sub.WriteByte(c)
	}
	if c, ok := r.next(); !ok || c != ']' {
		return "", false
	}
	return name + " " + sub.String(), true
}

// entry reads a key that starts with first and its value, if any.
func (r *configReader) entry(first byte) (key, value string, hasValue, ok bool) {
	var k strings.Builder
	k.WriteByte(lower(first))
	c, more := r.next()
	for more && configKeyChar(c) {
		k.WriteByte(lower(c))
		c, more = r.next()
	}
	for more && (c == ' ' || c == '\t') {
		c, more = r.next()
	}
	switch {
	case !more || c == '\n':
		return k.String(), "", false, true
	case c != '=':
		return "", "", false, false
	}
	value, ok = r.value()
	return k.String(), value, true, ok
}

// value reads a value after its "=", up to the end of its line.
func (r *configReader) value() (string, bool) {
	var b strings.Builder
	quote, space := false, 0
	for {
		c, ok := r.next()
		if !ok || c == '\n' {
			return b.String(), !quote // a line break inside quotes: git's error
		}
		if !quote && configSpace(c) {
			if b.Len() > 0 {
				space++
			}
			continue
		}
		if !quote && (c == '#' || c == ';') {
			r.skipLine()
			return b.String(), true
		}
		b.WriteString(strings.Repeat(" ", space))
		space = 0
		switch c {
		case '\\':
			e, ok := r.next()
			if !ok {
				e = '\n' // git reads the end of the file as a line break
			}
			switch e {
			case '\n':
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case 'n':
				b.WriteByte('\n')
			case '\\', '"':
				b.WriteByte(e)
			default:
				return "", false // an escape git does not know: its error
			}
		case '"':
			quote = !quote
		default:
			b.WriteByte(c)
		}
	}
}

// configSpace is git's isspace: blank, tab, CR and LF.
func configSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// configKeyChar is git's iskeychar: a letter, a digit or '-'.
func configKeyChar(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '-'
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
