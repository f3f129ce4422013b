package golden

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/txtar"
)

// FixtureDir is where the shared fixtures live, relative to the repository
// root: one txtar archive per fixture, named NAME.txtar.
const FixtureDir = "testdata/golden/fixtures"

// Fixture returns the files of fixture name under dir (a FixtureDir), with
// dest prefixed to each path.
func Fixture(dir, name, dest string) ([]txtar.File, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return nil, fmt.Errorf("fixture %q: a fixture is named by a plain word", name)
	}
	a, err := txtar.ParseFile(filepath.Join(dir, name+".txtar"))
	if err != nil {
		return nil, fmt.Errorf("fixture %s: %v", name, err)
	}
	files := make([]txtar.File, len(a.Files))
	for i, f := range a.Files {
		files[i] = txtar.File{Name: path.Join(dest, f.Name), Data: f.Data}
	}
	return files, nil
}

// Edit applies one edit command (set, del or replace, with the arguments a
// script gives it) to the file data named name.
func Edit(cmd, name string, data []byte, args []string) ([]byte, error) {
	switch {
	case cmd == "set" && len(args) == 2:
		return Set(name, data, args[0], args[1])
	case cmd == "del" && len(args) == 1:
		return Del(name, data, args[0])
	case cmd == "replace" && len(args) == 2:
		return Replace(name, data, args[0], args[1])
	}
	return nil, fmt.Errorf("usage: set FILE PATH VALUE | del FILE PATH | replace FILE OLD NEW")
}

// Inputs returns the input files of the golden case at file as its script
// leaves them before the first command that is not setup: the archive's
// files plus the fixtures it brings in, with its set, del, replace, mv and
// rm applied in order. Tests that read the goldens as a corpus of real
// files use it, so a case written as a fixture plus edits stays in the
// corpus.
func Inputs(file string) ([]txtar.File, error) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	fixtures := filepath.Join(filepath.Dir(file), "fixtures")
	byName := map[string][]byte{}
	var order []string
	put := func(name string, data []byte) {
		if _, ok := byName[name]; !ok {
			order = append(order, name)
		}
		byName[name] = data
	}
	for _, f := range a.Files {
		put(f.Name, f.Data)
	}
	for _, line := range strings.Split(string(a.Comment), "\n") {
		args, err := Fields(line)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		if len(args) == 0 {
			continue
		}
		if err := apply(fixtures, args, byName, put); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
	}
	var out []txtar.File
	for _, name := range order {
		if data, ok := byName[name]; ok && data != nil {
			out = append(out, txtar.File{Name: name, Data: data})
		}
	}
	return out, nil
}

// apply runs one setup line of a script against the files; other commands
// are left to the script.
func apply(fixtures string, args []string, files map[string][]byte, put func(string, []byte)) error {
	switch cmd := args[0]; {
	case cmd == "fixture" && (len(args) == 2 || len(args) == 3):
		dest := ""
		if len(args) == 3 {
			dest = args[2]
		}
		fs, err := Fixture(fixtures, args[1], dest)
		for _, f := range fs {
			put(f.Name, f.Data)
		}
		return err
	case (cmd == "set" || cmd == "del" || cmd == "replace") && len(args) > 1:
		data, ok := files[args[1]]
		if !ok || data == nil {
			return fmt.Errorf("%s: no file %s", cmd, args[1])
		}
		out, err := Edit(cmd, args[1], data, args[2:])
		put(args[1], out)
		return err
	case cmd == "mv" && len(args) == 3:
		if data, ok := files[args[1]]; ok && data != nil {
			put(args[2], data)
			files[args[1]] = nil
			return nil
		}
		// A folder: os.Rename, as testscript's mv, moves what is in it.
		prefix := strings.TrimSuffix(args[1], "/") + "/"
		var moved []string
		for name, data := range files {
			if strings.HasPrefix(name, prefix) && data != nil {
				moved = append(moved, name)
			}
		}
		sort.Strings(moved)
		for _, name := range moved {
			data := files[name]
			files[name] = nil
			put(strings.TrimSuffix(args[2], "/")+"/"+strings.TrimPrefix(name, prefix), data)
		}
	case cmd == "rm":
		for _, name := range args[1:] {
			files[name] = nil
		}
	}
	return nil
}

// Fields splits a script line into words the way testscript does: spaces
// separate words, single quotes group them (two quotes inside are one quote),
// and # starts a comment.
func Fields(line string) ([]string, error) {
	var args []string
	var word strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quoted && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
			word.WriteByte('\'')
			i++
		case c == '\'':
			quoted, inWord = !quoted, true
		case quoted:
			word.WriteByte(c)
		case c == '#' && !inWord:
			return args, nil
		case c == ' ' || c == '\t' || c == '\r':
			if inWord {
				args = append(args, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote in %q", line)
	}
	if inWord {
		args = append(args, word.String())
	}
	return args, nil
}

// WriteFiles writes files under dir; an existing file is an error unless
// replace is set.
func WriteFiles(dir string, files []txtar.File, replace bool) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if _, err := os.Lstat(p); err == nil && !replace {
			return fmt.Errorf("%s already exists: edit it with set, del or replace instead", f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Archive reads the golden case at file like txtar.ParseFile, with its
// Files replaced by its Inputs: the corpus tests' one way to read a case.
func Archive(file string) (*txtar.Archive, error) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	if a.Files, err = Inputs(file); err != nil {
		return nil, err
	}
	return a, nil
}
