package load

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/resumelint/resumelint/internal/diag"
)

func TestCheckBytes(t *testing.T) {
	cases := []struct {
		name string
		data string
		ok   bool
		code string
		pos  diag.Pos
		want string
	}{
		{"clean", "a: 1\nb: é\n", true, "", diag.Pos{}, ""},
		{"NUL", "a: 1\nb:\x00 2\n", false, "RL004", diag.Pos{Line: 2, Col: 3}, "NUL byte"},
		{"invalid UTF-8", "a: 1\nnaïve: \xff\n", false, "RL004", diag.Pos{Line: 2, Col: 8}, "invalid UTF-8 byte 0xff"},
		{"truncated sequence", "ab\xc3", false, "RL004", diag.Pos{Line: 1, Col: 3}, "0xc3"},
		{"UTF-16 LE", "\xff\xfea\x00", false, "RL004", diag.Pos{Line: 1, Col: 1}, "UTF-16"},
		{"UTF-16 BE", "\xfe\xff\x00a", false, "RL004", diag.Pos{Line: 1, Col: 1}, "UTF-16"},
		{"UTF-32 LE with a mark", "\xff\xfe\x00\x00{\x00\x00\x00", false, "RL004", diag.Pos{Line: 1, Col: 1}, "UTF-32LE"},
		{"UTF-32 BE with a mark", "\x00\x00\xfe\xff\x00\x00\x00{", false, "RL004", diag.Pos{Line: 1, Col: 1}, "UTF-32BE"},
		{"UTF-32 LE without a mark", "{\x00\x00\x00}\x00\x00\x00", false, "RL004", diag.Pos{Line: 1, Col: 1}, "UTF-32LE"},
		{"UTF-16 LE without a mark", "{\x00}\x00", false, "RL004", diag.Pos{Line: 1, Col: 1}, "UTF-16LE"},
	}
	for _, c := range cases {
		f := &File{Path: "x.yaml", Data: []byte(c.data)}
		probs, ok := CheckBytes(f, DefaultLimits)
		if ok != c.ok {
			t.Errorf("%s: ok = %v", c.name, ok)
		}
		if c.code == "" {
			if len(probs) != 0 {
				t.Errorf("%s: %s", c.name, codesOf(probs))
			}
			continue
		}
		if len(probs) != 1 || probs[0].Code != c.code || probs[0].Start != c.pos || !strings.Contains(probs[0].Message, c.want) {
			t.Errorf("%s: %s; want %s at %v containing %q", c.name, codesOf(probs), c.code, c.pos, c.want)
		}
	}
}

func TestCheckBytesBOM(t *testing.T) {
	f := &File{Path: "x.json", Data: []byte("\xef\xbb\xbf{\n  \"a\": 1\n}\n")}
	_ = f.LineStarts() // cached before stripping: must be recomputed
	probs, ok := CheckBytes(f, DefaultLimits)
	if !ok {
		t.Fatal("a BOM must not stop parsing")
	}
	if len(probs) != 1 || probs[0].Code != "RL004" || probs[0].Start != (diag.Pos{Line: 1, Col: 1}) || !strings.Contains(probs[0].Message, "byte-order mark") {
		t.Fatalf("probs = %s", codesOf(probs))
	}
	if !bytes.Equal(f.Data, []byte("{\n  \"a\": 1\n}\n")) {
		t.Errorf("BOM not stripped: %q", f.Data)
	}
	if f.Line(2) != `  "a": 1` || f.LineStarts()[1] != 2 {
		t.Errorf("line index not rebuilt: %q %v", f.Line(2), f.LineStarts())
	}
	doc, pp := Parse(f, FormatJSON, DefaultLimits)
	if doc.Root == nil || len(pp) != 0 || doc.Root.Column != 1 {
		t.Errorf("parse after BOM: %v %s", doc.Root, codesOf(pp))
	}
}

func TestCheckBytesLongLine(t *testing.T) {
	lim := DefaultLimits
	lim.MaxLineLen = 10
	// Exactly at the limit is fine, with or without a line break.
	for _, data := range []string{"0123456789\nshort\n", "ok\n0123456789", "0123456789\r\n"} {
		f := &File{Path: "x.yaml", Data: []byte(data)}
		if probs, ok := CheckBytes(f, lim); !ok || len(probs) != 0 {
			t.Errorf("%q: %s", data, codesOf(probs))
		}
	}
	f := &File{Path: "x.yaml", Data: []byte("a: 1\nb: 2\nc: 01234567\nd: 4\n")}
	probs, ok := CheckBytes(f, lim)
	if ok || len(probs) != 1 || probs[0].Code != "RL003" || probs[0].Start != (diag.Pos{Line: 3, Col: 1}) || !strings.Contains(probs[0].Message, "line 3 is 11 bytes long") {
		t.Errorf("long line: ok %v %s", ok, codesOf(probs))
	}
	// A BOM is reported along with a long line.
	f = &File{Path: "x.yaml", Data: []byte("\xef\xbb\xbf0123456789A\n")}
	probs, ok = CheckBytes(f, lim)
	if ok || len(probs) != 2 || probs[0].Code != "RL004" || probs[1].Code != "RL003" {
		t.Errorf("BOM and long line: ok %v %s", ok, codesOf(probs))
	}
}

func TestFileLineAndOffset(t *testing.T) {
	f := &File{Data: []byte("ab\r\nçd\n\nlast")}
	for n, want := range map[int]string{0: "", 1: "ab", 2: "çd", 3: "", 4: "last", 5: ""} {
		if got := f.Line(n); got != want {
			t.Errorf("Line(%d) = %q, want %q", n, got, want)
		}
	}
	// Columns count characters: column 2 of "çd" is after the two-byte ç.
	for _, c := range []struct {
		pos  diag.Pos
		want int
	}{{diag.Pos{Line: 1, Col: 1}, 0}, {diag.Pos{Line: 2, Col: 2}, 6}, {diag.Pos{Line: 2, Col: 99}, 7}, {diag.Pos{Line: 9, Col: 1}, len(f.Data)}, {diag.Pos{}, 0}} {
		if got := f.Offset(c.pos); got != c.want {
			t.Errorf("Offset(%v) = %d, want %d", c.pos, got, c.want)
		}
	}
}

func writeFile(t *testing.T, path, data string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, "ORCHESTRATION.yaml"), "\xef\xbb\xbfa: 1\n")
	f := &File{Path: "ORCHESTRATION.yaml", OSPath: p, Root: filepath.Dir(p)}
	probs, ok := Read(f, DefaultLimits)
	if !ok || len(probs) != 1 || probs[0].Code != "RL004" || string(f.Data) != "a: 1\n" {
		t.Errorf("ok %v probs %s data %q", ok, codesOf(probs), f.Data)
	}
}

func TestReadMissingAndFolder(t *testing.T) {
	dir := t.TempDir()
	f := &File{Path: "gone.json", OSPath: filepath.Join(dir, "gone.json"), Root: filepath.Dir(filepath.Join(dir, "gone.json"))}
	probs, ok := Read(f, DefaultLimits)
	if ok || len(probs) != 1 || probs[0].Code != "RL001" || !strings.Contains(probs[0].Message, "no such file") {
		t.Errorf("missing: %s", codesOf(probs))
	}
	sub := filepath.Join(dir, "cx-001.json")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	f = &File{Path: "cx-001.json", OSPath: sub, Root: filepath.Dir(sub)}
	probs, ok = Read(f, DefaultLimits)
	if ok || len(probs) != 1 || probs[0].Code != "RL003" || !strings.Contains(probs[0].Message, "a folder") {
		t.Errorf("folder: %s", codesOf(probs))
	}
}

func TestReadTooLarge(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cx-001.json")
	fh, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: large on paper, cheap on disk.
	if err := fh.Truncate(DefaultLimits.MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	f := &File{Path: "cx-001.json", OSPath: p, Root: filepath.Dir(p)}
	probs, ok := Read(f, DefaultLimits)
	if ok || f.Data != nil || len(probs) != 1 || probs[0].Code != "RL003" || !strings.Contains(probs[0].Message, "larger than the limit of 8 MiB") {
		t.Fatalf("ok %v data %d probs %s", ok, len(f.Data), codesOf(probs))
	}
	// The size is checked before the file is opened: an unreadable large
	// file is reported for its size, not for its permissions.
	if os.Geteuid() != 0 && runtime.GOOS != "windows" { // Windows: mode 0 is only read-only
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		probs, _ = Read(&File{Path: "cx-001.json", OSPath: p, Root: filepath.Dir(p)}, DefaultLimits)
		if len(probs) != 1 || probs[0].Code != "RL003" {
			t.Errorf("unreadable large file: %s", codesOf(probs))
		}
	}
	// Exactly at the limit is read.
	lim := DefaultLimits
	lim.MaxFileSize = 8
	small := writeFile(t, filepath.Join(dir, "small.json"), "[1,2,3]\n")
	if probs, ok := Read(&File{Path: "small.json", OSPath: small, Root: filepath.Dir(small)}, lim); !ok || len(probs) != 0 {
		t.Errorf("at the limit: %s", codesOf(probs))
	}
}

func TestReadUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	if runtime.GOOS == "windows" {
		t.Skip("Windows: mode 0 only makes a file read-only")
	}
	dir := t.TempDir()
	p := writeFile(t, filepath.Join(dir, "ORCHESTRATION.yaml"), "a: 1\n")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	probs, ok := Read(&File{Path: "ORCHESTRATION.yaml", OSPath: p, Root: filepath.Dir(p)}, DefaultLimits)
	if ok || len(probs) != 1 || probs[0].Code != "RL001" || !strings.Contains(probs[0].Message, "permission denied") || probs[0].Path != "ORCHESTRATION.yaml" {
		t.Errorf("ok %v probs %s", ok, codesOf(probs))
	}
}

func TestHuman(t *testing.T) {
	for n, want := range map[int64]string{12: "12 bytes", 2048: "2 KiB", 1536: "1.5 KiB", 8 << 20: "8 MiB", 3 << 30: "3 GiB", 5<<20 + 1<<19: "5.5 MiB"} {
		if got := human(n); got != want {
			t.Errorf("human(%d) = %q, want %q", n, got, want)
		}
	}
}

// Release keeps no line: snippets are taken while the bytes are read.
func TestReleaseKeepsNoLine(t *testing.T) {
	f := &File{Path: "x.yaml", Data: []byte("a: 1\r\nb: 2\nc: 3")}
	if s, ok := f.Snippet(2); !ok || s != "b: 2" {
		t.Fatalf("before release: Snippet(2) = %q, %v", s, ok)
	}
	if s, ok := f.Snippet(1); !ok || s != "a: 1" {
		t.Fatalf("before release: Snippet(1) = %q, %v", s, ok)
	}
	f.Release()
	if f.Data != nil {
		t.Fatal("bytes kept")
	}
	for _, n := range []int{0, 1, 2, 3, 9} {
		if s, ok := f.Snippet(n); ok {
			t.Errorf("released: Snippet(%d) = %q", n, s)
		}
	}
}
