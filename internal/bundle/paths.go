package bundle

import (
	"github.com/resumelint/resumelint/internal/load"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Output paths (seed 002 §2.2: "posix-style relative paths"). A key is
// checked as text first, then resolved with symbolic links followed and
// checked against the evaluated base, and only then looked at; nothing
// outside the base is ever opened.

// lexicalProblem says why a `hashes` key is not a safe relative path, or
// returns "".
func lexicalProblem(key string) string {
	switch {
	case key == "":
		return "is empty"
	case strings.IndexByte(key, 0) >= 0:
		return "contains a NUL byte"
	case strings.Contains(key, `\`):
		return `contains a backslash; keys are posix-style paths separated by "/"`
	case strings.HasPrefix(key, "/"):
		return "is an absolute path; keys are relative to the %BASE%"
	case len(key) >= 2 && key[1] == ':' && isLetter(key[0]):
		return "starts with a drive letter; keys are relative posix-style paths"
	case filepath.IsAbs(key) || filepath.VolumeName(key) != "":
		return "is an absolute path; keys are relative to the %BASE%"
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == ".." {
			return `contains ".."; an output must lie inside the %BASE%`
		}
	}
	return ""
}

func isLetter(b byte) bool { return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }

// within reports whether p is base or lies below it (both cleaned, evaluated).
func within(base, p string) bool {
	if p == base {
		return true
	}
	if strings.HasSuffix(base, string(filepath.Separator)) {
		return strings.HasPrefix(p, base)
	}
	return strings.HasPrefix(p, base+string(filepath.Separator))
}

// resolution is where a key leads.
type resolution struct {
	rel  string // the evaluated path relative to the base, for opening
	size int64
	code Code // non-empty: the key fails with this code
	why  string
}

// resolve follows key from baseReal (an evaluated absolute path) and checks
// the type of what it names with Lstat, never opening it.
func resolve(baseReal, key string) resolution {
	full := filepath.Join(baseReal, filepath.FromSlash(key))
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		if danglingEscape(baseReal, full) {
			return resolution{code: PathInvalid, why: "resolves through a symbolic link to a place outside the %BASE%"}
		}
		if errors.Is(err, fs.ErrNotExist) {
			return resolution{code: OutputMissing, why: "does not exist"}
		}
		if errors.Is(err, syscall.ENOTDIR) {
			return resolution{code: OutputMissing, why: "does not exist: part of its path is a file, not a folder"}
		}
		return resolution{code: OutputMissing, why: "cannot be resolved: " + plainErr(err)}
	}
	if !within(baseReal, real) {
		return resolution{code: PathInvalid, why: "resolves through a symbolic link to a place outside the %BASE%"}
	}
	fi, err := os.Lstat(real)
	if err != nil {
		return resolution{code: OutputMissing, why: "cannot be read: " + plainErr(err)}
	}
	if !fi.Mode().IsRegular() {
		return resolution{code: OutputMissing, why: "is " + load.ModeName(fi.Mode()) + ", not a regular file; it was not read"}
	}
	rel, err := filepath.Rel(baseReal, real)
	if err != nil {
		return resolution{code: PathInvalid, why: "cannot be expressed inside the %BASE%"}
	}
	return resolution{rel: rel, size: fi.Size()}
}

// danglingEscape tells, for a key that does not fully resolve, whether the
// part that exists leads outside the base: a dangling symbolic link to
// /etc/missing is a path problem, not a missing output. It follows at most
// 40 links and only reads link targets.
func danglingEscape(baseReal, full string) bool {
	p := full
	for {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		parent := filepath.Dir(p)
		if parent == p || !within(baseReal, parent) {
			return false
		}
		p = parent
	}
	for hops := 0; hops < 40; hops++ {
		fi, err := os.Lstat(p)
		if err != nil {
			return !within(baseReal, p)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			real, err := filepath.EvalSymlinks(p)
			return err == nil && !within(baseReal, real)
		}
		target, err := os.Readlink(p)
		if err != nil {
			return false
		}
		dir := filepath.Dir(p)
		if d, err := filepath.EvalSymlinks(dir); err == nil {
			dir = d
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		p = filepath.Clean(target)
		if !within(baseReal, p) {
			return true
		}
	}
	return false
}

func plainErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// outputs runs step 3 of the procedure: every `hashes` entry is resolved
// and type-checked in key order, then the regular files are hashed on the
// worker pool and compared.
func (c *checker) outputs(entries []entry) {
	if len(entries) == 0 {
		return
	}
	oh := c.b.Artifacts[outputHashes]
	base, baseName := c.b.Folder.OSPath, "bundle folder"
	if c.o.Base == BaseRepo && c.o.RepoRoot != "" {
		base, baseName = c.o.RepoRoot, "repository root"
	}
	fail := func(e entry, code Code, why string) {
		p := Problem{Code: code, File: outputHashes, Key: e.key, Doc: oh, Node: e.keyNode,
			Message: fmt.Sprintf("output %q %s", e.key, strings.ReplaceAll(why, "%BASE%", baseName))}
		if code == HashMismatch {
			p.Node = e.valNode
		}
		c.add(p)
	}
	baseReal, err := filepath.Abs(base)
	if err == nil {
		baseReal, err = filepath.EvalSymlinks(baseReal)
	}
	var root *os.Root
	if err == nil {
		root, err = os.OpenRoot(baseReal)
	}
	if err != nil {
		for _, e := range entries {
			fail(e, OutputMissing, "cannot be looked up: the "+baseName+" cannot be opened: "+plainErr(err))
		}
		return
	}
	defer root.Close()

	var jobs []hashJob
	jobOf := make([]int, len(entries)) // entry → job, -1 when not hashed
	byRel := map[string]int{}
	for i, e := range entries {
		jobOf[i] = -1
		if why := lexicalProblem(e.key); why != "" {
			fail(e, PathInvalid, why)
			continue
		}
		r := resolve(baseReal, e.key)
		if r.code != "" {
			if r.code == OutputMissing && r.why == "does not exist" {
				r.why += " in the %BASE%" + c.otherBaseHint(e.key)
			}
			fail(e, r.code, r.why)
			continue
		}
		if e.want == "" {
			continue // its digest is invalid (reported); nothing to compare
		}
		// Two keys naming the same file are hashed once.
		if j, ok := byRel[r.rel]; ok {
			jobOf[i] = j
			continue
		}
		byRel[r.rel] = len(jobs)
		jobOf[i] = len(jobs)
		jobs = append(jobs, hashJob{rel: r.rel, size: r.size})
	}
	results := hashFiles(root, jobs, c.o.Jobs, c.o.Progress)
	for i, e := range entries {
		j := jobOf[i]
		if j < 0 {
			continue
		}
		r := results[j]
		switch {
		case r.code != "":
			fail(e, r.code, r.why)
		case r.hex != e.want:
			fail(e, HashMismatch, fmt.Sprintf("has SHA-256 %s but OUTPUT_HASHES.json declares %s: the file changed after the bundle was written", r.hex, e.want))
		}
	}
}

// otherBaseHint points at the other base setting when the missing output
// exists there (only its type is looked up).
func (c *checker) otherBaseHint(key string) string {
	var other, flag string
	switch {
	case c.o.Base == BaseRepo && c.o.RepoRoot != "":
		other, flag = c.b.Folder.OSPath, "bundle"
	case c.o.RepoRoot != "":
		other, flag = c.o.RepoRoot, "repo"
	default:
		return ""
	}
	if fi, err := os.Lstat(filepath.Join(other, filepath.FromSlash(key))); err == nil && !fi.IsDir() {
		return fmt.Sprintf(" (it exists relative to the %s: use --bundle-base %s or bundle.base: %s)",
			map[string]string{"bundle": "bundle folder", "repo": "repository root"}[flag], flag, flag)
	}
	return ""
}
