package bundle

import (
	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// Output paths (seed 002 §2.2: "posix-style relative paths"). A key is
// checked as text first, then resolved one name at a time inside the
// evaluated base, symbolic links read and followed only while they stay
// in it, and only then looked at; nothing outside the base is ever
// opened or looked up.

// lexicalProblem says why a `hashes` key is not a safe relative path, or
// returns "".
func lexicalProblem(key string) string {
	switch {
	case key == "":
		return "is empty"
	case strings.IndexByte(key, 0) >= 0:
		return "contains a NUL byte"
	case !utf8.ValidString(key):
		return "is not valid UTF-8 (a lone surrogate escape such as \\ud800 names no file)"
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

// base is the folder keys are resolved in: its absolute path as given
// and its real path (symbolic links evaluated).
type base struct {
	abs, real string
}

// resolveIn resolves key in the base, through root, an os.Root opened at
// it. The common case costs the key's own depth: a regular file reached
// inside the base through the open root (which follows links only within
// it) needs no walk from the filesystem root, which in a folder 2,000
// levels deep would cost that depth for every key. Anything else
// (missing, a folder, a link leading out) takes resolve's walk, which
// words the finding.
func resolveIn(root *os.Root, b base, key string) resolution {
	if namesFolder(key) {
		// os.Root cleans a trailing "/" or "/." away; the kernel does
		// not: such a key names a folder, and resolve says what it is.
		return resolve(b, key)
	}
	if fi, err := root.Stat(filepath.FromSlash(key)); err == nil && fi.Mode().IsRegular() {
		if fi, err := root.Lstat(filepath.FromSlash(key)); err == nil && fi.Mode().IsRegular() {
			// No link at the last step either: the key is the file's
			// own path, and two keys name one file only if they are
			// equal once cleaned.
			return resolution{rel: filepath.Clean(filepath.FromSlash(key)), size: fi.Size()}
		}
	}
	return resolve(b, key)
}

// maxLinks bounds the symbolic links one key may go through, as the
// kernel does (ELOOP).
const maxLinks = 40

// notFolder is the resolution of a key that goes through a file as if it
// were a folder (ENOTDIR).
var notFolder = resolution{code: OutputMissing, why: "does not exist: part of its path is a file, not a folder"}

// namesFolder reports whether key ends in "/" or "/.", as a folder's
// path may.
func namesFolder(key string) bool {
	return strings.HasSuffix(key, "/") || strings.HasSuffix(key, "/.")
}

// outside is the resolution of a key that leads out of the base.
var outside = resolution{code: PathInvalid, why: "resolves through a symbolic link to a place outside the %BASE%"}

// resolve follows key from the base one name at a time, as the kernel
// would, reading each symbolic link itself, and checks the type of what
// it names with Lstat, never opening it. It stops as soon as the path
// leads out of the base: nothing outside is looked at, so whether a path
// outside exists never changes the answer. The folders above the base are
// known from its real path without looking at them: a link may pass
// through them back into the base (../b/x from the base b), and any
// other name there is outside.
func resolve(b base, key string) resolution {
	cur := b.real // a real path: no link in it, so ".." is its parent
	rest := strings.Split(key, "/")
	links := 0
	var last fs.FileInfo
	for len(rest) > 0 {
		name := rest[0]
		rest = rest[1:]
		switch name {
		case "", ".":
			// "a.txt/" and "a.txt/." go through a.txt as a folder: on a
			// file the kernel answers ENOTDIR, and so does a reader
			// opening the key as written.
			if last != nil && !last.IsDir() {
				return notFolder
			}
			continue
		case "..":
			cur, last = filepath.Dir(cur), nil
			continue
		}
		next := filepath.Join(cur, name)
		if !within(b.real, cur) {
			if !within(next, b.real) {
				return outside
			}
			cur, last = next, nil // a folder above the base, or the base
			continue
		}
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, syscall.ENOTDIR):
			return notFolder
		case errors.Is(err, fs.ErrNotExist):
			return resolution{code: OutputMissing, why: "does not exist"}
		case err != nil:
			return resolution{code: OutputMissing, why: "cannot be resolved: " + plainErr(err)}
		case fi.Mode()&fs.ModeSymlink == 0:
			cur, last = next, fi
			continue
		}
		if links++; links > maxLinks {
			return resolution{code: OutputMissing, why: "cannot be resolved: " + syscall.ELOOP.Error()}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return resolution{code: OutputMissing, why: "cannot be resolved: " + plainErr(err)}
		}
		if filepath.IsAbs(target) {
			target = b.fromAbs(target)
			vol := filepath.VolumeName(target)
			cur, last = vol+string(filepath.Separator), nil
			target = target[len(vol):]
		}
		rest = append(strings.Split(filepath.ToSlash(target), "/"), rest...)
	}
	if !within(b.real, cur) {
		return outside
	}
	if last == nil {
		fi, err := os.Lstat(cur)
		if err != nil {
			return resolution{code: OutputMissing, why: "cannot be read: " + plainErr(err)}
		}
		last = fi
	}
	if !last.Mode().IsRegular() {
		return resolution{code: OutputMissing, why: "is " + load.ModeName(last.Mode()) + ", not a regular file; it was not read"}
	}
	rel, err := filepath.Rel(b.real, cur)
	if err != nil {
		return resolution{code: PathInvalid, why: "cannot be expressed inside the %BASE%"}
	}
	return resolution{rel: rel, size: last.Size()}
}

// fromAbs is an absolute link target with the base's path as given
// replaced by its real path: the kernel resolves that part to the base.
func (b base) fromAbs(target string) string {
	if b.abs == b.real {
		return target
	}
	if target == b.abs {
		return b.real
	}
	if rest, ok := strings.CutPrefix(target, b.abs+string(filepath.Separator)); ok {
		return filepath.Join(b.real, rest)
	}
	return target
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
// worker pool and compared. A malformed declared digest is compared too:
// it equals no file's (HASH_MISMATCH), and the message gives the file's.
func (c *checker) outputs(entries []entry) {
	if len(entries) == 0 {
		return
	}
	sc := c.outputScope()
	var b base
	var err error
	b.abs, err = filepath.Abs(sc.base)
	if err == nil {
		b.real, err = filepath.EvalSymlinks(b.abs)
	}
	var root *os.Root
	if err == nil {
		root, err = os.OpenRoot(b.real)
	}
	if err != nil {
		for _, e := range entries {
			c.failOutput(sc, e, OutputMissing, "cannot be looked up: the "+sc.baseName+" cannot be opened: "+plainErr(err))
		}
		return
	}
	defer root.Close()
	plan := c.planHashes(sc, root, b, entries)
	c.reportMissing(sc, entries, plan)
	results := hashFiles(root, plan.jobs, c.o.Jobs, c.o.Progress)
	for i, e := range entries {
		j := plan.jobOf[i]
		if j < 0 {
			continue
		}
		r := results[j]
		switch {
		case r.code != "":
			c.failOutput(sc, e, r.code, r.why)
		case r.hex != e.want:
			c.add(mismatch(sc.oh, e, r.hex))
		}
	}
}

// outputScope is where the outputs' keys are looked up: the folder they
// are relative to, its name for messages, and which keys it holds.
type outputScope struct {
	oh       *load.Document // the hashes artifact
	base     string
	baseName string
	// inBundle returns a key relative to base, or false when base does
	// not hold it.
	inBundle func(key string) (string, bool)
}

func (c *checker) outputScope() outputScope {
	sc := outputScope{oh: c.b.Artifacts[outputHashes], base: c.b.Folder.OSPath, baseName: "bundle folder",
		inBundle: func(key string) (string, bool) { return key, true }}
	if c.o.Base == BaseRepo {
		sc.base, sc.baseName = c.repoRoot(), "repository root"
		if c.prefix != "" {
			// The root was told from the keys: only what they place in
			// the bundle folder is looked at, relative to it.
			sc.base = c.b.Folder.OSPath
			sc.inBundle = func(key string) (string, bool) { return strings.CutPrefix(key, c.prefix) }
		}
	}
	return sc
}

// failOutput reports a problem with one output.
func (c *checker) failOutput(sc outputScope, e entry, code Code, why string) {
	c.add(Problem{Code: code, File: outputHashes, Key: e.key, Doc: sc.oh, Node: e.keyNode,
		Message: fmt.Sprintf("output %s %s", diag.Quote(e.key), strings.ReplaceAll(why, "%BASE%", sc.baseName))})
}

// hashPlan is the files to hash for the entries, and what was not found.
type hashPlan struct {
	jobs       []hashJob
	jobOf      []int     // entry → job, -1 when not hashed
	missing    []Problem // OUTPUT_MISSING: not found under base
	allMissing bool      // no entry was found, nor had another problem
}

// planHashes resolves and type-checks every entry in key order, reporting
// what is not a file to hash, and lists the files to hash (once each).
func (c *checker) planHashes(sc outputScope, root *os.Root, b base, entries []entry) hashPlan {
	plan := hashPlan{jobOf: make([]int, len(entries)), allMissing: true}
	byRel := map[string]int{}
	for i, e := range entries {
		plan.jobOf[i] = -1
		if why := lexicalProblem(e.key); why != "" {
			c.failOutput(sc, e, PathInvalid, why)
			plan.allMissing = false
			continue
		}
		key, ok := sc.inBundle(e.key)
		if !ok {
			c.failOutput(sc, e, PathInvalid, "lies outside the bundle folder, and outside a git work tree nothing else of the repository is looked at")
			plan.allMissing = false
			continue
		}
		r := resolveIn(root, b, key)
		if r.code != "" {
			if r.code == OutputMissing && r.why == "does not exist" {
				plan.missing = append(plan.missing, Problem{Code: OutputMissing, File: outputHashes, Key: e.key, Doc: sc.oh, Node: e.keyNode,
					Message: fmt.Sprintf("output %s does not exist in the %s%s", diag.Quote(e.key), sc.baseName, c.otherBaseHint(e.key))})
				continue
			}
			c.failOutput(sc, e, r.code, r.why)
			plan.allMissing = false
			continue
		}
		plan.allMissing = false
		// Two keys naming the same file are hashed once.
		if j, ok := byRel[r.rel]; ok {
			plan.jobOf[i] = j
			continue
		}
		byRel[r.rel] = len(plan.jobs)
		plan.jobOf[i] = len(plan.jobs)
		plan.jobs = append(plan.jobs, hashJob{rel: r.rel, size: r.size})
	}
	return plan
}

// reportMissing reports the outputs not found; when every one is missing
// here and present under the repository root, one cause, the base
// setting, is reported once.
func (c *checker) reportMissing(sc outputScope, entries []entry, plan hashPlan) {
	if !plan.allMissing || len(plan.missing) == 0 || c.o.Base == BaseRepo || !c.allUnderRepo(entries) {
		for _, p := range plan.missing {
			c.add(p)
		}
		return
	}
	p := plan.missing[0]
	p.Key = ""
	p.Message = "the declared output is not in the bundle folder but under the repository root: set bundle.base: repo or pass --bundle-base repo"
	if len(plan.missing) > 1 {
		_, p.Node, _ = c.fieldQuiet(sc.oh, "hashes")
		p.Message = fmt.Sprintf("none of the %d declared outputs is in the bundle folder, all are under the repository root: set bundle.base: repo or pass --bundle-base repo", len(plan.missing))
	}
	c.add(p)
}

// mismatch states both digests of a HASH_MISMATCH, shortened in the
// message and in full in Declared and Actual.
func mismatch(oh *load.Document, e entry, hex string) Problem {
	p := Problem{Code: HashMismatch, File: outputHashes, Key: e.key, Doc: oh, Node: e.valNode, Actual: "sha256:" + hex}
	actual := "sha256:" + hex[:12] + "…"
	if e.want != "" {
		p.Declared = "sha256:" + e.want
		declared, actual := abbrevPair(e.want, hex)
		p.Message = fmt.Sprintf("output %s: declared sha256:%s, file has sha256:%s", diag.Quote(e.key), declared, actual)
		return p
	}
	s, isStr := node.Str(e.valNode)
	if isStr {
		p.Declared = s
	}
	switch {
	case isStr && strings.EqualFold(s, "sha256:"+hex):
		p.Message = fmt.Sprintf("output %s: declared %s in uppercase, file has %s; write the digest in lowercase", diag.Quote(e.key), diag.ClipHead(s, 20), actual)
	case isStr && strings.EqualFold(s, hex):
		p.Message = fmt.Sprintf("output %s: declared %s without \"sha256:\", file has %s; add the prefix", diag.Quote(e.key), diag.ClipHead(s, 13), actual)
	case isStr:
		p.Message = fmt.Sprintf("output %s: declared %s, not a sha256:<64 lowercase hex> digest; file has %s", diag.Quote(e.key), diag.QuoteHead(s, 20), actual)
	default:
		p.Message = fmt.Sprintf("output %s: declared %s, not a sha256:<64 lowercase hex> digest; file has %s", diag.Quote(e.key), show(e.valNode), actual)
	}
	return p
}

// abbrevPair shortens two different hex digests so that the part where
// they differ shows: "a12b7cb43c9d…" or, when they begin alike,
// "a12b7cb4…9e9196b66…" and "a12b7cb4…9e9096b66…".
func abbrevPair(a, b string) (string, string) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i < 12 {
		return a[:12] + "…", b[:12] + "…"
	}
	from, to := i-2, min(i+8, len(a), len(b))
	mid := func(s string) string {
		out := s[:8] + "…" + s[from:to]
		if to < len(s) {
			out += "…"
		}
		return out
	}
	return mid(a), mid(b)
}

// repoRoot is what repository-relative keys resolve against: the
// configured root when it is a work tree holding the bundle; else the
// work tree holding the bundle; else, outside any work tree, the folder
// the keys name the bundle from (a key "runs/r1/out/a.txt" of the bundle
// runs/r1), which sets c.prefix; else the configured root.
func (c *checker) repoRoot() string {
	if !c.rootFound {
		c.root, c.prefix = c.findRoot()
		c.rootFound = true
	}
	return c.root
}

func (c *checker) findRoot() (root, prefix string) {
	fallback := c.o.RepoRoot
	if fallback == "" {
		fallback = "."
	}
	folder, err := filepath.Abs(c.b.Folder.OSPath)
	if err != nil {
		return fallback, ""
	}
	if r := c.o.RepoRoot; r != "" {
		if abs, err := filepath.Abs(r); err == nil && isWorkTree(abs) && within(abs, folder) {
			return r, ""
		}
	}
	for d := folder; ; {
		if isWorkTree(d) {
			return d, ""
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	oh := c.b.Artifacts[outputHashes]
	if oh == nil || !node.IsMap(oh.Root) {
		return fallback, ""
	}
	var keys []string
	node.Pairs(node.Val(oh.Root, "hashes"), func(k, _ *yaml.Node) {
		if lexicalProblem(k.Value) == "" {
			keys = append(keys, k.Value)
		}
	})
	for d := filepath.Dir(folder); ; {
		rel, err := filepath.Rel(d, folder)
		if err != nil {
			break
		}
		prefix := filepath.ToSlash(rel) + "/"
		for _, k := range keys {
			if strings.HasPrefix(k, prefix) {
				return d, prefix
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return fallback, ""
}

// repoPath is where a key lies under the repository root, for a look at
// its type; false when the root was told from the keys and this one does
// not lie in the bundle folder (nothing else is looked at).
func (c *checker) repoPath(key string) (string, bool) {
	root := c.repoRoot()
	if c.prefix != "" && !strings.HasPrefix(key, c.prefix) {
		return "", false
	}
	return filepath.Join(root, filepath.FromSlash(key)), true
}

func isWorkTree(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// allUnderRepo reports whether every key names a regular file under the
// repository root (only its type is looked up).
func (c *checker) allUnderRepo(entries []entry) bool {
	root, err := filepath.Abs(c.repoRoot())
	if err != nil {
		return false
	}
	if folder, err := filepath.Abs(c.b.Folder.OSPath); err != nil || folder == root {
		return false
	}
	for _, e := range entries {
		p, ok := c.repoPath(e.key)
		if !ok {
			return false
		}
		fi, err := load.StatIn(root, p)
		if err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// otherBaseHint points at the other base setting when the missing output
// exists there (only its type is looked up).
func (c *checker) otherBaseHint(key string) string {
	other, flag, name := filepath.Join(c.b.Folder.OSPath, filepath.FromSlash(key)), "bundle", "bundle folder"
	if c.o.Base != BaseRepo {
		var ok bool
		if other, ok = c.repoPath(key); !ok {
			return ""
		}
		flag, name = "repo", "repository root"
	}
	// Looked up inside the other base only: a link leading out of it
	// names nothing, so the hint never tells what exists elsewhere.
	otherRoot := c.b.Folder.OSPath
	if c.o.Base != BaseRepo {
		otherRoot = c.repoRoot()
	}
	if fi, err := load.StatIn(otherRoot, other); err == nil && fi.Mode().IsRegular() {
		return fmt.Sprintf(" (it exists in the %s: set bundle.base: %s or pass --bundle-base %s)", name, flag, flag)
	}
	return ""
}
