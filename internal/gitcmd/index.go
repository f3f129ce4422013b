package gitcmd

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
)

// MaxIndexSize bounds the index file TrackedFiles reads itself; a larger
// one (some 600,000 files) is git's to list.
const MaxIndexSize = 64 << 20

// indexVars are the environment variables that make git read another
// index, repository or work tree than the one found on disk, or stop its
// search for the repository before it.
var indexVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"}

// TrackedFiles returns what `git ls-files -z -c -- .` run in dir prints
// (the paths of the index below dir, relative to it, in index order; a
// conflicted path once per stage), read from the index of the work tree
// at top without running git: a git process took 20 ms to start and read
// the index of ten thousand files, on the path of every run. ok is false
// when git must be asked, for whatever git would read or check
// differently: a .git that is not a plain folder (a linked work tree, a
// submodule), a config that sets core.worktree, a commondir file, a repository git would not trust (another owner), the
// environment naming another index, a SHA-256 repository, index versions
// and required extensions (split or sparse index) this reader does not
// know, or an index that is not whole (git refuses it).
func TrackedFiles(top, dir string) (paths [][]byte, ok bool) {
	for _, v := range indexVars {
		if _, set := os.LookupEnv(v); set {
			return nil, false
		}
	}
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, false
	}
	gitDir := filepath.Join(top, ".git")
	if !ownedDir(top) || !ownedDir(gitDir) || !isGitDir(gitDir) {
		return nil, false
	}
	cfg, ok := readRegular(filepath.Join(gitDir, "config"), 1<<20)
	if !ok || bytes.Contains(bytes.ToLower(cfg), []byte("objectformat")) {
		return nil, false
	}
	// What could send git to another work tree or repository is git's to
	// answer, and OpenRepo's to refuse.
	if _, set := coreWorktree(cfg); set {
		return nil, false
	}
	if _, err := os.Lstat(filepath.Join(gitDir, "commondir")); err == nil {
		return nil, false
	}
	idx, ok := readRegular(filepath.Join(gitDir, "index"), MaxIndexSize)
	if !ok {
		return nil, false
	}
	if idx == nil {
		return nil, true // no index yet: nothing is tracked
	}
	prefix := ""
	if rel != "." {
		prefix = filepath.ToSlash(rel) + "/"
	}
	return parseIndex(idx, []byte(prefix))
}

// isGitDir reports whether git would take gitDir for a repository
// (setup.c's is_git_directory): objects and refs folders, and a HEAD that
// names a branch or a commit. A folder that only looks like one is left
// to git, which refuses it.
func isGitDir(gitDir string) bool {
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Lstat(filepath.Join(gitDir, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	head, ok := readRegular(filepath.Join(gitDir, "HEAD"), 4096)
	if !ok || head == nil {
		return false
	}
	if bytes.HasPrefix(head, []byte("ref: refs/")) {
		return true
	}
	hex := bytes.TrimRight(head, "\n")
	if len(hex) != 2*sha1.Size {
		return false
	}
	for _, c := range hex {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Index entry layout (Documentation/gitformat-index.txt): ten 32-bit
// stat fields, a SHA-1, then 16 bits of flags.
const (
	entryFixed   = 40 + sha1.Size + 2
	flagExtended = 0x4000
	nameMask     = 0x0fff
)

// parseIndex lists the paths of an index file that start with prefix,
// without it.
func parseIndex(idx, prefix []byte) (paths [][]byte, ok bool) {
	if len(idx) < 12+sha1.Size || string(idx[:4]) != "DIRC" {
		return nil, false
	}
	body, sum := idx[:len(idx)-sha1.Size], idx[len(idx)-sha1.Size:]
	if bytes.Equal(sum, make([]byte, sha1.Size)) { // all zeros: index.skipHash
		return indexEntries(body, prefix)
	}
	// The checksum is taken beside the parse: reading the index is the
	// start of every lint, and the walk that runs meanwhile leaves cores
	// for it only once the tree is large.
	summed := make(chan bool, 1)
	go func() {
		got := sha1.Sum(body)
		summed <- bytes.Equal(got[:], sum)
	}()
	paths, ok = indexEntries(body, prefix)
	if !<-summed {
		return nil, false
	}
	return paths, ok
}

// indexEntries is parseIndex after the checksum: body is the index
// without its trailing hash.
func indexEntries(body, prefix []byte) (paths [][]byte, ok bool) {
	if len(body) < 12 || string(body[:4]) != "DIRC" {
		return nil, false
	}
	version := binary.BigEndian.Uint32(body[4:])
	if version < 2 || version > 4 {
		return nil, false
	}
	n := binary.BigEndian.Uint32(body[8:])
	if uint64(n) > uint64(len(body))/entryFixed {
		return nil, false
	}
	p := &indexReader{b: body, at: 12, v4: version == 4}
	for range n {
		name, ok := p.entry()
		if !ok {
			return nil, false
		}
		if bytes.HasPrefix(name, prefix) && len(name) > len(prefix) {
			paths = append(paths, name[len(prefix):])
		}
	}
	if !p.extensionsKnown() {
		return nil, false
	}
	return paths, true
}

// indexReader walks an index file's entries.
type indexReader struct {
	b    []byte
	at   int
	v4   bool
	prev []byte // the previous path, which version 4 compresses against
}

// entry reads one entry and returns its path: in the index's bytes up to
// version 3, a copy in version 4.
func (p *indexReader) entry() ([]byte, bool) {
	start := p.at
	if len(p.b)-start < entryFixed {
		return nil, false
	}
	flags := binary.BigEndian.Uint16(p.b[start+entryFixed-2:])
	at := start + entryFixed
	if flags&flagExtended != 0 {
		at += 2
	}
	if at > len(p.b) {
		return nil, false
	}
	var name []byte
	if p.v4 {
		strip, w := gitVarint(p.b[at:])
		if w == 0 || strip > uint64(len(p.prev)) {
			return nil, false
		}
		at += w
		end := bytes.IndexByte(p.b[at:], 0)
		if end < 0 {
			return nil, false
		}
		name = append(append([]byte(nil), p.prev[:len(p.prev)-int(strip)]...), p.b[at:at+end]...)
		at += end + 1
	} else {
		end := bytes.IndexByte(p.b[at:], 0)
		if end < 0 {
			return nil, false
		}
		if l := int(flags & nameMask); l != nameMask && l != end {
			return nil, false
		}
		name = p.b[at : at+end : at+end]
		// Padded with 1-8 NULs to a multiple of 8 bytes from the entry's start.
		at = start + (at-start+end+8)&^7
		if at > len(p.b) {
			return nil, false
		}
	}
	if len(name) == 0 {
		return nil, false
	}
	p.prev, p.at = name, at
	return name, true
}

// extensionsKnown reads the extensions after the entries: an optional one
// (its signature starts with a capital) is skipped, a required one
// (lower case: a split or a sparse index) is one this reader cannot
// follow, so git must list the files.
func (p *indexReader) extensionsKnown() bool {
	for p.at < len(p.b) {
		if len(p.b)-p.at < 8 {
			return false
		}
		sig := p.b[p.at : p.at+4]
		size := binary.BigEndian.Uint32(p.b[p.at+4:])
		if sig[0] < 'A' || sig[0] > 'Z' || uint64(size) > uint64(len(p.b)-p.at-8) {
			return false
		}
		p.at += 8 + int(size)
	}
	return true
}

// gitVarint decodes git's variable-length integer (varint.c: seven bits a
// byte, most significant first, each continuation adding one), and how
// many bytes it took; 0 when it is cut short or overflows.
func gitVarint(b []byte) (v uint64, n int) {
	for n < len(b) {
		c := b[n]
		n++
		v += uint64(c & 127)
		if c&128 == 0 {
			return v, n
		}
		if v >= 1<<56 {
			return 0, 0
		}
		v = (v + 1) << 7
	}
	return 0, 0
}
