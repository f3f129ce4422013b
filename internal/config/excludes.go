package config

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/par"
)

// Excludes are the global exclude patterns of a run: the configuration's
// `exclude:` when it has one (an empty list lints everything), else
// load.DefaultExclude.
func (c *Config) Excludes() (patterns []string, defaults bool) {
	if c.Exclude == nil {
		return load.DefaultExclude, true
	}
	return c.Exclude, false
}

// Filter drops the discovered files and folders that the global or their
// kind's excludes match (paths relative to the repository root), and
// records each in d.Excluded with the pattern. Named files are dropped
// too: pre-commit passes every changed file by name.
func (c *Config) Filter(d *load.Discovery, root, cwd string) {
	filter(d, func(string, bool) (*Config, string) { return c, root }, cwd)
}

// Filter is Config.Filter with each unit's own configuration.
func (s *Set) Filter(d *load.Discovery) {
	filter(d, func(osPath string, isDir bool) (*Config, string) {
		sc := s.ForPath(osPath, isDir)
		return sc.Config, sc.Root
	}, s.cwd)
}

// Excluded reports whether the configuration governing the file at osPath
// excludes it as a file of kind k (the global excludes, or that kind's).
func (s *Set) Excluded(osPath string, k load.Kind) bool {
	sc := s.Beside(filepath.Dir(osPath))
	return sc.Config.excludedBy(k, RootRel(sc.Root, s.cwd, load.Display(s.cwd, osPath)), true) != ""
}

func filter(d *load.Discovery, scope func(osPath string, isDir bool) (*Config, string), cwd string) {
	d.Files = keep(d, d.Files, func(f *load.File) load.Skip {
		c, root := scope(f.OSPath, false)
		return load.Skip{Path: f.Path, Kind: f.Kind, Reason: c.excludedBy(f.Kind, RootRel(root, cwd, f.Path), true)}
	})
	d.Folders = keep(d, d.Folders, func(f *load.Folder) load.Skip {
		c, root := scope(f.OSPath, true)
		return load.Skip{Path: f.Path + "/", Kind: f.Kind, Reason: c.excludedBy(f.Kind, RootRel(root, cwd, f.Path), true)}
	})
	d.Unknown = keep(d, d.Unknown, func(f *load.File) load.Skip {
		c, root := scope(f.OSPath, false)
		return load.Skip{Path: f.Path, Reason: c.excludedBy(load.KindUnknown, RootRel(root, cwd, f.Path), false)}
	})
}

// excludedBy says which exclude pattern of the configuration matches a
// path relative to its root, and where it is written; "" for none.
func (c *Config) excludedBy(k load.Kind, rel string, withKind bool) string {
	global, defaults := c.Excludes()
	if pat := firstMatch(global, rel); pat != "" {
		where := "exclude in " + c.Path
		if defaults {
			where = "a default exclude; exclude: in .resumelint.yaml replaces the defaults"
		}
		return fmt.Sprintf("by %q (%s)", pat, where)
	}
	if withKind {
		if pat := firstMatch(c.Kinds[k].Exclude, rel); pat != "" {
			return fmt.Sprintf("by %q (kinds.%s.exclude in %s)", pat, k, c.Path)
		}
	}
	return ""
}

// keep filters xs in place, dropping those skip gives a reason for and
// recording them in d.Excluded, in order. The reasons are found on every
// core: matching each of thousands of discovered files against the
// excludes was a serial part of a run.
func keep[T any](d *load.Discovery, xs []T, skip func(T) load.Skip) []T {
	skips := make([]load.Skip, len(xs))
	par.Each(len(xs), 128, func(i int) { skips[i] = skip(xs[i]) })
	out := xs[:0]
	for i, x := range xs {
		if skips[i].Reason == "" {
			out = append(out, x)
		} else {
			d.Excluded = append(d.Excluded, skips[i])
		}
	}
	return out
}

// firstMatch returns the first pattern that matches p ("" for none); a
// pattern naming a folder covers what is inside it.
func firstMatch(patterns []string, p string) string {
	for _, pat := range patterns {
		// "**/name/**" (the defaults) is a folder anywhere on the path: a
		// substring test, as every discovered file is filtered.
		if name, ok := strings.CutPrefix(pat, "**/"); ok && strings.HasSuffix(name, "/**") && !strings.ContainsAny(name[:len(name)-3], "*?[{\\") {
			if hasSegments(p, name[:len(name)-3]) {
				return pat
			}
			continue
		}
		if ok, _ := doublestar.Match(pat, p); ok {
			return pat
		}
		if ok, _ := doublestar.Match(strings.TrimSuffix(pat, "/")+"/**", p); ok && !strings.HasSuffix(pat, "**") {
			return pat
		}
	}
	return ""
}

// hasSegments reports whether name is one or more whole segments of the
// slash-separated path p: strings.Contains("/"+p+"/", "/"+name+"/"),
// without making either string for each of thousands of files.
func hasSegments(p, name string) bool {
	if name == "" {
		return strings.Contains("/"+p+"/", "//")
	}
	for i := 0; i <= len(p); {
		j := strings.Index(p[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || p[j-1] == '/') && (end == len(p) || p[end] == '/') {
			return true
		}
		i = j + 1
	}
	return false
}
