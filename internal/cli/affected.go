package cli

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/par"
)

// affectedUnits maps changed paths (what pre-commit passes: files that
// were added, modified or deleted, of any kind or none) to the units that
// must be checked again (SPEC §8):
//
//   - a changed file of a known kind: that file;
//   - anything in an agent run folder: the run;
//   - anything in a bundle folder, or a file a bundle's OUTPUT_HASHES.json
//     or TASK_SPEC.json names (relative to the bundle folder or to the
//     repository root, whichever the bundle uses): the bundle;
//   - a path another file of a known kind rests on (evidence): that file.
//
// Paths of no kind in no unit are dropped without a finding: a commit
// touching only other files checks nothing and passes. The units come
// back as command-line arguments, sorted, and apart the OS paths of those
// checked only as evidence.
func (c *Command) affectedUnits(paths []string, lc *lintConfig) ([]string, map[string]bool, error) {
	abs := make(map[string]bool, len(paths))
	units := map[string]bool{}
	for _, p := range paths {
		a := load.Abs(c.Cwd, p)
		a = filepath.Clean(a)
		abs[a] = true
		slash := filepath.ToSlash(a)
		if run, ok := load.RunDir(slash); ok {
			units[filepath.FromSlash(run)] = true
			continue
		}
		if _, ok := lc.classifierFor(filepath.Dir(a)).BundleDir(slash); ok {
			units[filepath.Dir(a)] = true
			continue
		}
		if lc.kindOf(load.Display(c.Cwd, a)) != load.KindUnknown && exists(a) {
			units[a] = true
		}
	}
	// Every bundle of the repository: one holding a changed path, or
	// declaring one as an output, is verified again.
	var evidence map[string]bool
	disc, err := load.Discover([]string{lc.root}, lc.discoverOptions(c.Cwd))
	if err == nil {
		for _, f := range disc.Folders {
			if f.Kind != load.KindBundle || units[f.OSPath] {
				continue
			}
			if bundleAffected(f, lc.root, abs) {
				units[f.OSPath] = true
			}
		}
		evidence = lc.evidenced(disc.Files, abs, units)
		for p := range evidence {
			units[p] = true
		}
	}
	out := make([]string, 0, len(units))
	for u := range units {
		out = append(out, u)
	}
	sort.Strings(out)
	return out, evidence, nil
}

// bundleAffected reports whether a changed path lies in the bundle folder
// or is named by its OUTPUT_HASHES.json or TASK_SPEC.json.
func bundleAffected(f *load.Folder, root string, changed map[string]bool) bool {
	prefix := f.OSPath + string(filepath.Separator)
	for p := range changed {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	b, _ := load.LoadBundle(f, load.DefaultLimits)
	var names []string
	for _, art := range []string{"OUTPUT_HASHES.json", "TASK_SPEC.json"} {
		doc := b.Artifacts[art]
		if doc == nil || doc.Root == nil || !node.IsMap(doc.Root) {
			continue
		}
		// The seed's {hashes: {path: digest}}, a flat {path: digest} map,
		// and TASK_SPEC's outputs in any of their shapes: every key and
		// string that may be a path.
		node.Walk(doc.Root, func(n, k *yaml.Node) {
			if k != nil {
				names = append(names, k.Value)
			}
			if n.Kind == yaml.ScalarNode {
				names = append(names, n.Value)
			}
		})
	}
	for _, n := range names {
		if n == "" || filepath.IsAbs(n) {
			continue
		}
		rel := filepath.FromSlash(n)
		if changed[filepath.Join(f.OSPath, rel)] || changed[filepath.Join(root, rel)] {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// evidenced returns the OS paths of the files, neither changed nor in
// skip, whose findings the changed paths (absolute, clean) may be
// evidence for (evidence.restsOn). Each file is read at most once, on
// every core: a commit's few changes are matched against every file of a
// known kind in the repository.
func (lc *lintConfig) evidenced(files []*load.File, changed, skip map[string]bool) map[string]bool {
	ev := newEvidence(lc.root, changed)
	var rest []*load.File
	for _, f := range files {
		switch {
		case changed[filepath.Clean(f.OSPath)]:
			withText(f, func(data []byte) { ev.learn(f, data) })
		case !skip[f.OSPath]:
			rest = append(rest, f)
		}
	}
	hit := make([]bool, len(rest))
	par.Each(len(rest), 16, func(i int) {
		f := rest[i]
		if hit[i] = ev.placed(f); !hit[i] {
			withText(f, func(data []byte) { hit[i] = ev.textRestsOn(f, data) })
		}
	})
	out := map[string]bool{}
	for i, f := range rest {
		if hit[i] {
			out[f.OSPath] = true
		}
	}
	return out
}

// withText calls use with f's text when it can be read, and lets it go.
func withText(f *load.File, use func([]byte)) {
	if _, ok := load.Read(f, load.DefaultLimits); ok && f.Data != nil {
		use(f.Data)
	}
	f.Release()
}
