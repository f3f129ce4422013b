package load

import (
	"bytes"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
)

// A merge that conflicts leaves its markers in the file: <<<<<<< before
// one side, ||||||| before the base (diff3), ======= between the sides,
// >>>>>>> after the other. No reader parses a state file holding them, and
// the parser's own error ("could not find expected ':'") names neither the
// cause nor the remedy, so a file that does not parse and holds a conflict
// gets one finding that says so.

// ConflictMarker reports whether a line is one of a merge's conflict
// markers.
func ConflictMarker(line []byte) bool {
	line = bytes.TrimRight(line, "\r")
	if len(line) < 7 {
		return false
	}
	switch c := line[0]; c {
	case '<', '>', '|', '=':
		for _, b := range line[1:7] {
			if b != c {
				return false
			}
		}
		if c == '=' {
			return len(line) == 7
		}
		return len(line) == 7 || line[7] == ' '
	}
	return false
}

// conflictRegion returns the lines of the first <<<<<<< marker and of the
// >>>>>>> that closes it (the last line when none does), or ok false when
// the data holds no opening marker.
func conflictRegion(data []byte) (first, last int, ok bool) {
	line := 1
	for len(data) > 0 {
		ln, next, _ := bytes.Cut(data, []byte("\n"))
		if len(ln) >= 7 && ConflictMarker(ln) {
			switch {
			case ln[0] == '<' && first == 0:
				first = line
			case ln[0] == '>' && first != 0:
				return first, line, true
			}
		}
		data = next
		line++
	}
	return first, line - 1, first != 0
}

// withConflict replaces the parse errors of a file holding a merge's
// conflict markers by one finding at the first marker.
func withConflict(f *File, out []diag.Finding) []diag.Finding {
	parseErr := false
	for _, x := range out {
		if x.Code == code.ParseError {
			parseErr = true
			break
		}
	}
	if !parseErr {
		return out
	}
	first, last, ok := conflictRegion(f.Data)
	if !ok {
		return out
	}
	kept := out[:0]
	for _, x := range out {
		if x.Code != code.ParseError {
			kept = append(kept, x)
		}
	}
	fd := Problem(f, code.ParseError, diag.Pos{Line: first, Col: 1}, "a merge left its conflict markers in the file (lines %d–%d); resolve the conflict and delete the marker lines", first, last)
	fd.End = diag.Pos{Line: first, Col: 8}
	return append(kept, fd)
}
