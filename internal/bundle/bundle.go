// Package bundle decides whether a SPECTRUM-02 resume bundle may be trusted
// (seed 002 §3, SPEC §3.5). The decision is a pure function of the bundle's
// three artifacts and the bytes of its declared outputs: `resumelint bundle
// verify` prints it and the lint rules RL401–RL406 report it, so the two can
// never disagree.
package bundle

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/code"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
)

// Code is a rejection code of seed 002 §5, or one of SPEC §3.5's
// extensions.
type Code string

// The codes in procedure order (seed 002 §3.1): a verdict lists its codes
// in this order. The artifacts must exist before they are parsed, parsed
// before their fields are compared, and a `hashes` key must be a safe path
// before the file it names is looked up and hashed.
const (
	BundleIncomplete        Code = "BUNDLE_INCOMPLETE"
	ArtifactInvalid         Code = "ARTIFACT_INVALID" // ext.
	StatusNotSuccess        Code = "STATUS_NOT_SUCCESS"
	Cmp01NotPass            Code = "CMP01_NOT_PASS"
	ValidatorUnsupported    Code = "VALIDATOR_UNSUPPORTED"
	ValidatorBuildIDMissing Code = "VALIDATOR_BUILD_ID_MISSING"
	ValidatorBuildMismatch  Code = "VALIDATOR_BUILD_MISMATCH"
	PathInvalid             Code = "PATH_INVALID" // ext.
	OutputMissing           Code = "OUTPUT_MISSING"
	HashMismatch            Code = "HASH_MISMATCH"

	// ForbiddenArtifact is a note, never part of a verdict (002 §6.1).
	ForbiddenArtifact Code = "FORBIDDEN_ARTIFACT" // ext.
)

// Codes lists every rejection code in procedure order.
var Codes = []Code{BundleIncomplete, ArtifactInvalid, StatusNotSuccess, Cmp01NotPass, ValidatorUnsupported,
	ValidatorBuildIDMissing, ValidatorBuildMismatch, PathInvalid, OutputMissing, HashMismatch}

func rank(c Code) int {
	for i, x := range Codes {
		if x == c {
			return i
		}
	}
	return len(Codes)
}

// Verdicts.
const (
	Accept = "ACCEPT"
	Reject = "REJECT"
)

// Verdict is the decision on one bundle.
type Verdict struct {
	Path    string // the bundle folder as the user named it
	Verdict string // Accept or Reject
	// Codes holds each failing code once, in procedure order.
	Codes []Code
	// Problems explains every failing check, in procedure order.
	Problems []Problem
	// Notes are observations that do not take part in the decision.
	Notes []Note
}

// Problem is one failing check.
type Problem struct {
	Code    Code
	File    string // the artifact it concerns ("OUTPUT_HASHES.json"); empty for the bundle as a whole
	Key     string // the `hashes` key or expected output it concerns
	Message string
	// Missing are the required artifacts the folder lacks, for the
	// problem that says so (step 0); nil for every other problem.
	Missing []string

	// Doc and Node locate the problem for lint findings (Node may be nil:
	// the start of Doc's file). Doc is nil when no artifact exists.
	Doc  *load.Document
	Node *yaml.Node
	// Related is a secondary position (the other side of a comparison).
	Related *Related
	// Cause groups the problems of one root cause (a flat hash map fails
	// two checks): the linter reports only the first of a group.
	Cause string
	// Declared and Actual are the two digests of a HASH_MISMATCH, in full
	// (the message shortens them).
	Declared, Actual string
}

// Related is a position in another artifact.
type Related struct {
	Doc     *load.Document
	Node    *yaml.Node
	Message string
}

// Note is an observation about the bundle that never changes its verdict.
type Note struct {
	Code    Code
	Path    string // relative to the bundle folder, '/'-separated; folders end in '/'
	Pattern string // the forbidden pattern it matched
	Message string
}

// Base values: what `hashes` keys are relative to.
const (
	BaseBundle = "bundle" // the bundle folder (default)
	BaseRepo   = "repo"   // the repository root
)

// Options configure verification. Start from DefaultOptions.
type Options struct {
	Base     string // BaseBundle or BaseRepo
	RepoRoot string // OS path of the repository root, for BaseRepo
	// Semvers are the supported validator_semver values.
	Semvers []string
	// Forbidden are the patterns of artifacts seed 002 §2.3 forbids.
	Forbidden []string
	// Strict compares validator_build_id with ExpectBuildID.
	Strict        bool
	ExpectBuildID string
	// Jobs is the number of files hashed in parallel (0: all CPUs).
	Jobs   int
	Limits load.Limits
	// Progress, when set, counts the bytes and files to hash and hashed.
	Progress *Progress
	// Mask, when set, gives what hides in a verdict's texts the
	// credentials located in the artifacts (a lint masks its findings
	// itself): bundle verify prints them.
	Mask func(docs []*load.Document) func(string) string
}

// DefaultSemvers are the validator versions supported out of the box.
var DefaultSemvers = []string{"1.0.0", "1.0.1", "1.1.0"}

// DefaultOptions is the configuration every entry point starts from.
func DefaultOptions() Options {
	return Options{
		Base:      BaseBundle,
		Semvers:   append([]string(nil), DefaultSemvers...),
		Forbidden: append([]string(nil), DefaultForbidden...),
		Limits:    load.DefaultLimits,
	}
}

// keysUnderOwnPath reports a bundle whose hashes keys all start with the
// bundle folder's own path from the repository root: its writer (the
// reference system's runner) wrote them relative to the root, so that is
// their base unless a base was set. Outside the repository root (or with
// none), the keys' common start that the folder's path ends with tells
// the root, as bundle verify does outside a work tree. Only the root's
// .git is looked up on disk.
func keysUnderOwnPath(b *load.Bundle, repoRoot string) bool {
	oh := b.Artifacts[outputHashes]
	if oh == nil || b.Folder == nil {
		return false
	}
	hashes := node.Val(oh.Root, "hashes")
	if !node.IsMap(hashes) || len(hashes.Content) == 0 {
		return false
	}
	folder, err := filepath.Abs(b.Folder.OSPath)
	if err != nil {
		return false
	}
	allUnder := func(prefix string) bool {
		for i := 0; i < len(hashes.Content); i += 2 {
			if !strings.HasPrefix(hashes.Content[i].Value, prefix) {
				return false
			}
		}
		return true
	}
	if root, err := filepath.Abs(repoRoot); repoRoot != "" && err == nil {
		if rel, err := filepath.Rel(root, folder); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			if allUnder(filepath.ToSlash(rel) + "/") {
				return true
			}
			if isWorkTree(root) {
				return false
			}
		}
	}
	// Two levels at least (tests/_runs/…): one folder name alone is
	// too common to tell a root by.
	for d := filepath.Dir(folder); d != filepath.Dir(d); d = filepath.Dir(d) {
		rel, err := filepath.Rel(d, folder)
		if err != nil {
			return false
		}
		if strings.Count(rel, string(filepath.Separator)) >= 1 && allUnder(filepath.ToSlash(rel)+"/") {
			return true
		}
	}
	return false
}

// ParseBase checks a --bundle-base or bundle.base value.
func ParseBase(s string) (string, error) {
	switch s {
	case BaseBundle, BaseRepo:
		return s, nil
	}
	return "", fmt.Errorf("unknown bundle base %s (want bundle or repo)", diag.QuoteFull(s))
}

// Progress counts hashing work; every field is updated atomically, so a
// progress display may read it while verification runs.
type Progress struct {
	TotalFiles, TotalBytes atomic.Int64
	DoneFiles, DoneBytes   atomic.Int64
}

// Verify loads the bundle in folder f and decides on it.
func Verify(f *load.Folder, o Options) *Verdict {
	b, probs := load.LoadBundle(f, o.limits())
	v := Check(b, probs, o)
	if o.Mask != nil {
		var docs []*load.Document
		for _, name := range load.BundleArtifacts {
			if d := b.Artifacts[name]; d != nil {
				docs = append(docs, d)
			}
		}
		if m := o.Mask(docs); m != nil {
			v.mask(m)
		}
	}
	return v
}

// mask passes every text of v that comes from the bundle through m.
func (v *Verdict) mask(m func(string) string) {
	for i := range v.Problems {
		p := &v.Problems[i]
		p.Message, p.Key, p.Declared = m(p.Message), m(p.Key), m(p.Declared)
	}
	for i := range v.Notes {
		n := &v.Notes[i]
		n.Message, n.Path = m(n.Message), m(n.Path)
	}
}

// VerifyDir verifies the bundle in dir, shown as dir, reading nothing
// outside dir.
func VerifyDir(dir string, o Options) *Verdict {
	return Verify(&load.Folder{Kind: load.KindBundle, Path: dir, OSPath: dir, Root: dir}, o)
}

func (o *Options) limits() load.Limits {
	if o.Limits == (load.Limits{}) {
		return load.DefaultLimits
	}
	return o.Limits
}

// Check decides on a loaded bundle. loadProblems are the loader's findings
// (they explain why an artifact could not be read); nil is fine.
func Check(b *load.Bundle, loadProblems []diag.Finding, o Options) *Verdict {
	if o.Base == "" && keysUnderOwnPath(b, o.RepoRoot) {
		o.Base = BaseRepo
	}
	if o.Base != BaseRepo {
		o.Base = BaseBundle
	}
	if why := b.OtherFormat(); why != "" {
		// Named explicitly, another format's folder is still answered,
		// fail closed, with the one reason it cannot be verified.
		d := firstArtifact(b)
		p := Problem{Code: BundleIncomplete, Doc: d, Message: why}
		if d != nil {
			p.Node = d.Root
		}
		return &Verdict{Path: b.Folder.Path, Verdict: Reject, Codes: []Code{BundleIncomplete}, Problems: []Problem{p}}
	}
	c := &checker{b: b, o: o, why: map[string]string{}, encoding: map[string]string{}}
	for _, fd := range loadProblems {
		if fd.Code == code.DuplicateKey {
			continue // duplicate keys are looked at where they matter
		}
		if fd.Code == code.Encoding {
			c.encoding[fd.Path] = fd.Message
		}
		if _, ok := c.why[fd.Path]; !ok {
			msg := fd.Message
			if fd.Code == code.ParseError && fd.Start.Line > 0 {
				msg = fmt.Sprintf("%s (line %d, column %d)", msg, fd.Start.Line, fd.Start.Col)
			}
			c.why[fd.Path] = msg
		}
	}
	c.run()
	v := &Verdict{Path: b.Folder.Path, Verdict: Accept, Problems: c.problems, Notes: c.notes}
	sort.SliceStable(v.Problems, func(i, j int) bool { return rank(v.Problems[i].Code) < rank(v.Problems[j].Code) })
	seen := map[Code]bool{}
	for _, p := range v.Problems {
		if !seen[p.Code] {
			seen[p.Code] = true
			v.Codes = append(v.Codes, p.Code)
		}
	}
	if len(v.Problems) > 0 {
		v.Verdict = Reject
	}
	return v
}

type checker struct {
	b *load.Bundle
	o Options
	// root is the repository root, once found (repoRoot); prefix is set
	// when it was told from the keys: the bundle folder's path under it.
	root, prefix string
	rootFound    bool
	why          map[string]string // display path → the loader's reason it was not parsed
	// encoding is the loader's reason a file that parsed is still not
	// what the reference verifier reads (a byte-order mark, which its
	// UTF-8 JSON reader refuses), by display path.
	encoding map[string]string
	problems []Problem
	notes    []Note
}

func (c *checker) add(p Problem) { c.problems = append(c.problems, p) }

const (
	taskSpec     = "TASK_SPEC.json"
	statusFile   = "STATUS.json"
	outputHashes = "OUTPUT_HASHES.json"
)

// firstArtifact is the first required artifact the folder holds, where a
// problem about the bundle as a whole is shown.
func firstArtifact(b *load.Bundle) *load.Document {
	for _, name := range load.BundleArtifacts {
		if d := b.Artifacts[name]; d != nil {
			return d
		}
	}
	return nil
}

func (c *checker) run() {
	// Step 0: the required artifacts (002 §2.1), one problem for all that
	// are missing.
	var missing []string
	for _, name := range load.BundleArtifacts {
		if c.b.Artifacts[name] == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		present := firstArtifact(c.b)
		p := Problem{Code: BundleIncomplete, Doc: present, Missing: missing,
			Message: fmt.Sprintf("the bundle has no %s; SPECTRUM-02 requires TASK_SPEC.json, STATUS.json and OUTPUT_HASHES.json", strings.Join(missing, " or "))}
		if len(missing) == 1 {
			p.File = missing[0]
		}
		if present != nil {
			p.Node = present.Root
		}
		c.add(p)
	}
	// TASK_SPEC.json says what the bundle was to produce (step 3 reads
	// it): one that cannot be read proves nothing, and fails closed.
	c.object(taskSpec)
	// Step 1: STATUS.json.
	if st := c.object(statusFile); st != nil {
		c.statusField(st, "status", "success", StatusNotSuccess)
		c.statusField(st, "cmp01", "pass", Cmp01NotPass)
	}
	// Step 2: the validator, then step 3: the outputs.
	oh := c.object(outputHashes)
	if oh != nil && !c.seedShaped(oh) {
		return
	}
	if oh != nil {
		c.validator(oh)
	}
	var entries []entry
	hashesOK := false
	if oh != nil {
		entries, hashesOK = c.hashEntries(oh)
	}
	if hashesOK {
		c.expectedOutputs(oh, entries)
	}
	c.outputs(entries)
	c.forbidden(entries)
}

// seedShaped reports an OUTPUT_HASHES.json that holds at least one of the
// seed's fields. One that holds none (a flat {path: hash} map, as other
// run formats write) is one cause: it binds the outputs to no validator
// and lists none, reported once under the codes the procedure fails.
func (c *checker) seedShaped(d *load.Document) bool {
	for _, k := range []string{"validator_semver", "validator_build_id", "hashes"} {
		if node.Has(d.Root, k) {
			return true
		}
	}
	what := "has none of the seed's fields"
	if load.IsFlatHashMap(d.Root) {
		what = "is a flat {path: hash} map"
	}
	c.add(Problem{Code: ValidatorUnsupported, File: outputHashes, Doc: d, Node: d.Root, Cause: "shape",
		Message: "OUTPUT_HASHES.json " + what + ": write {validator_semver, validator_build_id, hashes}"})
	c.add(Problem{Code: ValidatorBuildIDMissing, File: outputHashes, Doc: d, Node: d.Root, Cause: "shape",
		Message: "validator_build_id is missing: OUTPUT_HASHES.json " + what})
	return false
}

// object returns an artifact's parsed top-level mapping, or nil after
// reporting why it cannot be read (nil also when it is missing: step 0
// reported that).
func (c *checker) object(name string) *load.Document {
	d := c.b.Artifacts[name]
	if d == nil {
		return nil
	}
	if d.Root == nil {
		why := c.why[d.File.Path]
		if why == "" {
			why = "it is empty or not JSON"
		}
		c.add(Problem{Code: ArtifactInvalid, File: name, Doc: d, Message: fmt.Sprintf("%s cannot be read: %s", name, why)})
		return nil
	}
	if why, bad := c.encoding[d.File.Path]; bad {
		c.add(Problem{Code: ArtifactInvalid, File: name, Doc: d, Message: fmt.Sprintf("%s cannot be read: %s", name, why)})
		return nil
	}
	if !node.IsMap(d.Root) {
		c.add(Problem{Code: ArtifactInvalid, File: name, Doc: d, Node: d.Root,
			Message: fmt.Sprintf("%s must be a JSON object, found %s", name, node.Kind(d.Root))})
		return nil
	}
	return d
}

// field returns the value of a key the procedure reads. A key given twice
// is ambiguous (readers disagree on which value wins), so it is invalid.
func (c *checker) field(d *load.Document, key string) (k, v *yaml.Node, ok bool) {
	var first *yaml.Node
	for i := 0; i+1 < len(d.Root.Content); i += 2 {
		kn := d.Root.Content[i]
		if kn.Value != key {
			continue
		}
		if first != nil {
			c.add(Problem{Code: ArtifactInvalid, File: path.Base(d.File.Path), Doc: d, Node: kn,
				Message: fmt.Sprintf("%s is given twice (lines %d and %d); readers disagree on which value wins, so the bundle cannot be trusted", key, first.Line, kn.Line)})
			return nil, nil, false
		}
		first = kn
		k, v = kn, node.Resolve(d.Root.Content[i+1])
	}
	return k, v, true
}

// statusField checks a field of STATUS.json step 1 reads: anything but
// want (missing, another type, another word) fails with the seed's code.
func (c *checker) statusField(d *load.Document, key, want string, code Code) {
	k, v, ok := c.field(d, key)
	if !ok {
		return
	}
	p := Problem{Code: code, File: path.Base(d.File.Path), Doc: d, Node: v}
	switch s, isStr := node.Str(v); {
	case k == nil:
		p.Node = d.Root
		p.Message = fmt.Sprintf("%s is missing; the run must record %s: %s", key, diag.QuoteFull(key), diag.QuoteFull(want))
	case isStr && s == want:
		return
	default:
		// The status and the error it records, both the run's words:
		// clipped together to one message's length.
		p.Message = diag.FitClip(func(w int) string {
			msg := fmt.Sprintf("%s is %s, not %s", key, showTo(v, min(81, 2*w+1)), diag.QuoteFull(want))
			if e := errorSummary(d, min(121, 2*w+1)); key == "status" && e != "" {
				msg += " (" + e + ")"
			}
			return msg
		})
	}
	c.add(p)
}

// errorSummary quotes STATUS.json's error for a rejection message, its
// message clipped to w characters: an object (seed 002) or the message
// string the reference writer records.
func errorSummary(d *load.Document, w int) string {
	e := node.Val(d.Root, "error")
	if s, ok := node.Str(e); ok && node.IsString(e) && s != "" {
		return "error: " + diag.ClipHead(s, w)
	}
	if !node.IsMap(e) {
		return ""
	}
	code, _ := node.Str(node.Val(e, "code"))
	msg, _ := node.Str(node.Val(e, "message"))
	switch {
	case code != "" && msg != "":
		return "error " + diag.ClipHead(code, 40) + ": " + diag.ClipHead(msg, w)
	case code != "":
		return "error " + diag.ClipHead(code, 40)
	case msg != "":
		return "error: " + diag.ClipHead(msg, w)
	}
	return ""
}

func (c *checker) validator(d *load.Document) {
	// validator_semver must be a supported version (002 §3.1 step 2);
	// missing or not a string, it is in no supported set either.
	supported := strings.Join(c.o.Semvers, ", ")
	if k, v, ok := c.field(d, "validator_semver"); ok {
		p := Problem{Code: ValidatorUnsupported, File: outputHashes, Doc: d, Node: v}
		switch s, isStr := node.Str(v); {
		case k == nil:
			p.Node = d.Root
			p.Message = fmt.Sprintf("validator_semver is missing; the hashes must name a supported validator version (%s)", supported)
		case !isStr:
			p.Message = fmt.Sprintf("validator_semver is %s, not a version string such as %s (supported: %s)", show(v), diag.QuoteFull(suggestSemver(v)), supported)
		case !contains(c.o.Semvers, s):
			p.Message = fmt.Sprintf("validator_semver %s is not supported (supported: %s; bundle.supported_validator_semvers changes them)", diag.QuoteFull(s), supported)
		}
		if p.Message != "" {
			c.add(p)
		}
	}
	// validator_build_id must be present and not empty; in strict mode it
	// must be the expected build.
	k, v, ok := c.field(d, "validator_build_id")
	if !ok {
		return
	}
	s, isStr := node.Str(v)
	switch {
	case k == nil:
		c.add(Problem{Code: ValidatorBuildIDMissing, File: outputHashes, Doc: d, Node: d.Root,
			Message: "validator_build_id is missing; name the validator build, e.g. \"git:abc1234\""})
	case node.IsNull(v):
		c.add(Problem{Code: ValidatorBuildIDMissing, File: outputHashes, Doc: d, Node: v,
			Message: "validator_build_id is null; name the validator build, e.g. \"git:abc1234\""})
	case !isStr:
		c.add(Problem{Code: ArtifactInvalid, File: outputHashes, Doc: d, Node: v,
			Message: fmt.Sprintf("validator_build_id is %s, not a string naming the validator build", show(v))})
	case strings.TrimSpace(s) == "":
		c.add(Problem{Code: ValidatorBuildIDMissing, File: outputHashes, Doc: d, Node: v,
			Message: "validator_build_id is empty; name the validator build, e.g. \"git:abc1234\""})
	case c.o.Strict && s != c.o.ExpectBuildID:
		c.add(Problem{Code: ValidatorBuildMismatch, File: outputHashes, Doc: d, Node: v,
			Message: fmt.Sprintf("validator_build_id is %s, not the expected %s (strict mode)", diag.QuoteFull(s), diag.QuoteFull(c.o.ExpectBuildID))})
	}
}

// entry is one `hashes` key and its declared digest.
type entry struct {
	key     string
	keyNode *yaml.Node
	valNode *yaml.Node
	want    string // lowercase hex, 64 digits; empty when the value is malformed
}

// hashEntries reads `hashes` in key order. ok is false when there is no
// usable mapping.
func (c *checker) hashEntries(d *load.Document) (out []entry, ok bool) {
	k, v, ok := c.field(d, "hashes")
	if !ok {
		return nil, false
	}
	switch {
	case k == nil:
		c.add(Problem{Code: ArtifactInvalid, File: outputHashes, Doc: d, Node: d.Root,
			Message: "hashes is missing, so no output is verified; map each output path to \"sha256:<64 hex digits>\""})
		return nil, false
	case !node.IsMap(v):
		c.add(Problem{Code: ArtifactInvalid, File: outputHashes, Doc: d, Node: v,
			Message: fmt.Sprintf("hashes is %s; map each output path to \"sha256:<64 hex digits>\"", show(v))})
		return nil, false
	}
	count := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		count[v.Content[i].Value]++
	}
	// A key given twice is ambiguous: it is verified against neither digest.
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		kn, vn := v.Content[i], node.Resolve(v.Content[i+1])
		if count[kn.Value] > 1 {
			if f, seen := first[kn.Value]; !seen {
				first[kn.Value] = kn
			} else if f != nil {
				c.add(Problem{Code: ArtifactInvalid, File: outputHashes, Key: kn.Value, Doc: d, Node: kn,
					Message: fmt.Sprintf("hashes key %s is given twice (lines %d and %d); readers disagree on which digest wins", diag.QuoteFull(kn.Value), f.Line, kn.Line)})
				first[kn.Value] = nil
			}
			continue
		}
		// A malformed digest equals no file's: HASH_MISMATCH, reported
		// with the file's digest once it is computed (step 3).
		e := entry{key: kn.Value, keyNode: kn, valNode: vn}
		if s, isStr := node.Str(vn); isStr && isDigest(s) {
			e.want = s[len("sha256:"):]
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, true
}

// isDigest reports "sha256:" followed by 64 lowercase hex digits.
func isDigest(s string) bool {
	const prefix = "sha256:"
	if len(s) != len(prefix)+64 || !strings.HasPrefix(s, prefix) {
		return false
	}
	for i := len(prefix); i < len(s); i++ {
		ch := s[i]
		if (ch < '0' || ch > '9') && (ch < 'a' || ch > 'f') {
			return false
		}
	}
	return true
}

// expectedOutputs reports each output TASK_SPEC.json expects that `hashes`
// does not cover: nothing would prove it was produced (SPEC §3.5 RL401).
// The seed's `expected_outputs` is read, else the reference system's
// `outputs.durable_paths`, whose folders are covered by any key inside
// them. A TASK_SPEC without such a list adds nothing to the decision.
func (c *checker) expectedOutputs(oh *load.Document, entries []entry) {
	ts := c.b.Artifacts[taskSpec]
	if ts == nil || !node.IsMap(ts.Root) {
		return
	}
	list := node.Val(ts.Root, "expected_outputs")
	if list == nil {
		list = node.Val(node.Val(ts.Root, "outputs"), "durable_paths")
	}
	if !node.IsSeq(list) {
		return
	}
	// Keys dropped as invalid still count as declared: the manifest names
	// them, and their own problem rejects the bundle.
	_, hv, _ := c.fieldQuiet(oh, "hashes")
	var have []string
	node.Pairs(hv, func(k, _ *yaml.Node) { have = append(have, path.Clean(k.Value)) })
	// Sorted, the keys inside a folder p follow p+"/" directly: one
	// binary search per expected output, not a scan of every key.
	slices.Sort(have)
	covered := func(p string) bool {
		if _, ok := slices.BinarySearch(have, p); ok {
			return true
		}
		i, _ := slices.BinarySearch(have, p+"/")
		return i < len(have) && strings.HasPrefix(have[i], p+"/")
	}
	for _, it := range node.Resolve(list).Content {
		s, ok := node.Str(it)
		if !ok || s == "" || covered(path.Clean(s)) {
			continue
		}
		c.add(Problem{Code: BundleIncomplete, File: taskSpec, Key: s, Doc: ts, Node: it,
			Message: fmt.Sprintf("expected output %s has no hash in OUTPUT_HASHES.json, so nothing shows it was produced", diag.Quote(s)),
			Related: &Related{Doc: oh, Node: hv, Message: "the hashes that should list it"}})
	}
}

// fieldQuiet is field without reporting duplicates.
func (c *checker) fieldQuiet(d *load.Document, key string) (k, v *yaml.Node, ok bool) {
	k, v = node.Get(d.Root, key)
	return k, v, k != nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// show renders a value for a message: strings quoted, others by kind.
func show(n *yaml.Node) string { return showTo(n, 81) }

// showTo is show with strings clipped to w characters.
func showTo(n *yaml.Node, w int) string {
	n = node.Resolve(n)
	if n == nil {
		return "missing"
	}
	if n.Kind == yaml.ScalarNode {
		if s, ok := node.Str(n); ok {
			return diag.QuoteHead(s, w)
		}
		if node.IsNull(n) {
			return "null"
		}
		return node.Kind(n) + " (" + diag.ClipHead(n.Value, 41) + ")"
	}
	return node.Kind(n)
}

func suggestSemver(n *yaml.Node) string {
	v := node.Resolve(n).Value
	switch strings.Count(v, ".") {
	case 0:
		return v + ".0.0"
	case 1:
		return v + ".0"
	}
	return v
}
