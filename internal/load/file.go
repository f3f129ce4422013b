package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"unicode/utf8"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
)

// Limits bound what a hostile input can cost (RL003).
type Limits struct {
	MaxFileSize int64 // bytes; larger files are refused before reading
	MaxDepth    int   // nesting of mappings and sequences
	MaxLineLen  int   // bytes in one line
	MaxNodes    int   // nodes after alias expansion
}

// DefaultLimits are the SPEC §3.1 RL003 defaults.
var DefaultLimits = Limits{
	MaxFileSize: 8 << 20,
	MaxDepth:    256,
	MaxLineLen:  1 << 20,
	MaxNodes:    1_000_000,
}

// File is one input file: where it is and its bytes.
type File struct {
	Path     string // display path, relative to the working directory, '/'-separated
	OSPath   string // path to open
	Kind     Kind
	Template bool
	Explicit bool // named on the command line
	Data     []byte
	// BOM: the bytes read started with a UTF-8 byte-order mark, which
	// CheckBytes reported (RL004) and stripped from Data.
	BOM bool
	// Root is the folder reads of this file may not leave (RootFor): the
	// repository root, or a bundle folder for its artifacts. A file
	// without one is not read (ErrNoRoot): no read is unconfined.
	Root string
	// Directives are the file's inline suppressions, captured when its
	// bytes are read or checked (CheckBytes), each with its line's text:
	// they outlive Release.
	Directives []Directive

	lineStarts []int
	buf        []byte // Data's pooled buffer, handed back by Release
	// lineIx holds long lines' column indexes (lines.go).
	lineIx map[int]*lineIndex
}

// directiveMarker starts an inline suppression (`# resumelint:ignore …`).
var directiveMarker = []byte("resumelint:")

// OnRead, when set, is called each time Read opens a file (tests count
// reads with it: no file is read twice in a run). It must be safe for
// concurrent use.
var OnRead func(osPath string)

// Release drops the file's bytes once its unit is checked: a run's
// memory must not grow with the size of the files it reports on. What a
// finding prints it took while the bytes were read.
func (f *File) Release() {
	f.Data = nil
	f.lineStarts = nil
	f.lineIx = nil
	if f.buf != nil {
		putBuf(f.buf) // nothing keeps a slice of the bytes
		f.buf = nil
	}
}

// Snippet returns the text of line n while the file's bytes are read.
func (f *File) Snippet(n int) (string, bool) {
	if f.Data == nil || n < 1 || n > len(f.LineStarts()) {
		return "", false
	}
	return f.Line(n), true
}

// LineStarts returns the byte offset of the start of each line (index 0 is line 1).
func (f *File) LineStarts() []int {
	if f.lineStarts == nil {
		ls := make([]int, 1, bytes.Count(f.Data, []byte{'\n'})+1)
		for off := 0; ; {
			i := bytes.IndexByte(f.Data[off:], '\n')
			if i < 0 {
				break
			}
			off += i + 1
			ls = append(ls, off)
		}
		f.lineStarts = ls
	}
	return f.lineStarts
}

// Line returns the text of a 1-based line without its line ending.
func (f *File) Line(n int) string { return string(f.LineBytes(n)) }

// LineBytes is Line as the file's own bytes, not copied: valid while the
// file holds them (until Release), and not to be modified.
func (f *File) LineBytes(n int) []byte {
	ls := f.LineStarts()
	if n < 1 || n > len(ls) {
		return nil
	}
	start := ls[n-1]
	end := len(f.Data)
	if n < len(ls) {
		end = ls[n] - 1
	}
	if end > start && f.Data[end-1] == '\r' {
		end--
	}
	if end < start {
		return nil
	}
	return f.Data[start:end:end]
}

// Offset converts a 1-based line and character column to a byte offset.
func (f *File) Offset(p diag.Pos) int {
	ls := f.LineStarts()
	if p.Line < 1 {
		return 0
	}
	if p.Line > len(ls) {
		return len(f.Data)
	}
	off := ls[p.Line-1]
	for c := 1; c < p.Col && off < len(f.Data); c++ {
		if f.Data[off] == '\n' {
			break
		}
		_, w := utf8.DecodeRune(f.Data[off:])
		off += w
	}
	return off
}

// Problem is a finding produced while loading (codes RL001–RL004, RL310).
func Problem(f *File, rule string, pos diag.Pos, format string, args ...any) diag.Finding {
	if pos.Line == 0 {
		pos = diag.Pos{Line: 1, Col: 1}
	}
	return diag.Finding{Code: rule, Path: f.Path, Start: pos, End: pos, Message: fmt.Sprintf(format, args...)}
}

// Read loads a file's bytes after checking its type and size, so a FIFO,
// a device or a huge file is reported instead of blocking or exhausting
// memory. It returns false when the content must not be parsed. It reads
// from disk, unshared: a command's reads go through its Files.
func Read(f *File, lim Limits) ([]diag.Finding, bool) {
	return (*Files)(nil).Read(f, lim)
}

// Read is load.Read served by x: a file the command already read is not
// read again while its bytes are kept.
func (x *Files) Read(f *File, lim Limits) ([]diag.Finding, bool) {
	probs, ok, _ := x.readWith(f, lim, func() (handle, error) { return openToRead(f.Root, f.OSPath) })
	return probs, ok
}

// readWith is Read with the file opened by open (relative to a folder
// already open, for a bundle's artifacts); it also returns the error
// opening the file, so a caller can tell a missing file
// (fs.ErrNotExist) from one that failed a check.
func (x *Files) readWith(f *File, lim Limits, open func() (handle, error)) ([]diag.Finding, bool, error) {
	if probs, ok, err := x.readRaw(f, lim, open); !ok {
		return probs, ok, err
	}
	probs, ok := CheckBytes(f, lim)
	return probs, ok, nil
}

// readRaw sets f.Data to the file's bytes, with readWith's checks of its
// type and size but none of its content.
func readRaw(f *File, lim Limits, open func() (handle, error)) ([]diag.Finding, bool, error) {
	fail := func(err error) ([]diag.Finding, bool, error) {
		if errors.Is(err, ErrOutside) {
			return []diag.Finding{Problem(f, code.InputLimits, diag.Pos{}, "the path leads outside the repository (a symbolic link or \"..\"); not read")}, false, err
		}
		return []diag.Finding{Problem(f, code.ParseError, diag.Pos{}, "cannot read file: %v", unwrapPathErr(err))}, false, err
	}
	if openFlags == 0 {
		// Without non-blocking opens, check the type before opening so a
		// FIFO never blocks the run.
		fi, err := StatIn(f.Root, f.OSPath)
		if err != nil {
			return fail(err)
		}
		if !fi.Mode().IsRegular() {
			return []diag.Finding{Problem(f, code.InputLimits, diag.Pos{}, "not a regular file: it is %s; not read", ModeName(fi.Mode()))}, false, nil
		}
	}
	if OnRead != nil {
		OnRead(f.OSPath)
	}
	fh, err := open()
	if err != nil {
		// A socket cannot be opened at all (ENXIO): say what it is, as
		// for a FIFO, rather than why the open failed.
		if fi, serr := StatIn(f.Root, f.OSPath); serr == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return []diag.Finding{Problem(f, code.InputLimits, diag.Pos{}, "not a regular file: it is %s; not read", ModeName(fi.Mode()))}, false, nil
		}
		return fail(err)
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return fail(err)
	}
	if !fi.Mode().IsRegular() {
		return []diag.Finding{Problem(f, code.InputLimits, diag.Pos{}, "not a regular file: it is %s; not read", ModeName(fi.Mode()))}, false, nil
	}
	if lim.MaxFileSize > 0 && fi.Size() > lim.MaxFileSize {
		return []diag.Finding{TooLarge(f, fi.Size(), lim)}, false, nil
	}
	limit := lim.MaxFileSize
	if limit <= 0 {
		limit = 1 << 62
	}
	// Read into a buffer of the size stat gave; the file may still grow,
	// so read on to one byte past the limit.
	data, pooled := getBuf(int(min(fi.Size(), limit) + 1))
	for {
		want := cap(data) - len(data)
		n, err := fh.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF || (err == nil && n == 0) {
			break
		}
		if err == nil && n < want && int64(len(data)) == fi.Size() {
			break // all stat promised, and short: the end of a regular file
		}
		if err != nil {
			return fail(err)
		}
		if int64(len(data)) > limit {
			return []diag.Finding{TooLarge(f, -1, lim)}, false, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
	f.Data = data
	if pooled {
		f.buf = data
	}
	return nil, true, nil
}

// TooLarge is the RL003 finding of a file of size bytes over the limit,
// the same whether it was read from disk or given (an editor's buffer);
// a size below zero is not known (the file grew while read).
func TooLarge(f *File, size int64, lim Limits) diag.Finding {
	if size < 0 {
		return Problem(f, code.InputLimits, diag.Pos{}, "file is larger than the limit of %s; not read", human(lim.MaxFileSize))
	}
	return Problem(f, code.InputLimits, diag.Pos{}, "file is %s, larger than the limit of %s; not read", human(size), human(lim.MaxFileSize))
}

// CheckBytes applies the size (RL003), encoding (RL004) and line-length
// (RL003) checks to f.Data. A byte-order mark is reported and stripped;
// invalid UTF-8 and NUL bytes stop parsing.
func CheckBytes(f *File, lim Limits) ([]diag.Finding, bool) {
	probs, ok := checkBytes(f, lim)
	f.captureDirectives()
	return probs, ok
}

func checkBytes(f *File, lim Limits) ([]diag.Finding, bool) {
	if size := int64(len(f.Data)); lim.MaxFileSize > 0 && size > lim.MaxFileSize {
		if size == lim.MaxFileSize+1 {
			size = -1 // a read cut one byte past the limit (stdin): size not known
		}
		return []diag.Finding{TooLarge(f, size, lim)}, false
	}
	var out []diag.Finding
	if bytes.HasPrefix(f.Data, []byte{0xEF, 0xBB, 0xBF}) {
		out = append(out, Problem(f, code.Encoding, diag.Pos{Line: 1, Col: 1}, "file starts with a UTF-8 byte-order mark; save it without one"))
		f.Data = f.Data[3:]
		f.BOM = true
		f.lineStarts = nil
		f.lineIx = nil
	} else if enc := wideEncoding(f.Data); enc != "" {
		return append(out, Problem(f, code.Encoding, diag.Pos{Line: 1, Col: 1}, "file is %s encoded; resumelint reads UTF-8 only: save it as UTF-8", enc)), false
	}
	if i := bytes.IndexByte(f.Data, 0); i >= 0 {
		return append(out, Problem(f, code.Encoding, f.posOf(i), "file contains a NUL byte (binary data?); not parsed")), false
	}
	if !utf8.Valid(f.Data) {
		i := firstInvalidUTF8(f.Data)
		return append(out, Problem(f, code.Encoding, f.posOf(i), "invalid UTF-8 byte 0x%02x; not parsed", f.Data[i])), false
	}

	// No line of a file shorter than the limit can exceed it: the common
	// case skips the scan.
	if lim.MaxLineLen > 0 && len(f.Data) > lim.MaxLineLen {
		ls := f.LineStarts()
		for n, start := range ls {
			end := len(f.Data)
			if n+1 < len(ls) {
				end = ls[n+1] - 1 // the line break is not part of the line
				if end > start && f.Data[end-1] == '\r' {
					end--
				}
			}
			if end-start > lim.MaxLineLen {
				return append(out, Problem(f, code.InputLimits, diag.Pos{Line: n + 1, Col: 1}, "line %d is %s long, over the limit of %s; not parsed", n+1, human(int64(end-start)), human(int64(lim.MaxLineLen)))), false
			}
		}
	}
	return out, true
}

// wideEncoding names the UTF-16 or UTF-32 encoding of data, told by its
// byte-order mark or, without one, by the zero bytes around an ASCII first
// character (state files start with "{", "-" or a key); "" for neither.
func wideEncoding(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0, 0}):
		return "UTF-32LE"
	case bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF}):
		return "UTF-32BE"
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return "UTF-16LE"
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return "UTF-16BE"
	case len(data) >= 4 && data[0] != 0 && data[1] == 0 && data[2] == 0 && data[3] == 0:
		return "UTF-32LE"
	case len(data) >= 4 && data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] != 0:
		return "UTF-32BE"
	case len(data) >= 2 && data[0] < 0x80 && data[0] != 0 && data[1] == 0:
		return "UTF-16LE"
	case len(data) >= 2 && data[0] == 0 && data[1] != 0 && data[1] < 0x80:
		return "UTF-16BE"
	}
	return ""
}

func (f *File) posOf(off int) diag.Pos {
	ls := f.LineStarts()
	line := sort.Search(len(ls), func(i int) bool { return ls[i] > off })
	start := ls[line-1]
	col := 1
	for i := start; i < off; {
		_, w := utf8.DecodeRune(f.Data[i:off])
		i += w
		col++
	}
	return diag.Pos{Line: line, Col: col}
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, w := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w == 1 {
			return i
		}
		i += w
	}
	return 0
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// ModeName names a non-regular file's type for messages.
func ModeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "a special file"
}

func human(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		if n%(1<<20) == 0 {
			return fmt.Sprintf("%d MiB", n>>20)
		}
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		if n%(1<<10) == 0 {
			return fmt.Sprintf("%d KiB", n>>10)
		}
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
