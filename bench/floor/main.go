//go:build bench

// Command floor is the parse-only floor of SPEC §9 P2: it reads and parses
// the same files resumelint checks, with the same YAML and JSON parsers, on
// all cores, and does nothing else. A linter in Go cannot be faster.
package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/load"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: floor DIR")
	}
	var files []string
	err := filepath.WalkDir(os.Args[1], func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case d.IsDir():
		case strings.HasPrefix(name, "ORCHESTRATION") && strings.HasSuffix(name, ".yaml"),
			strings.HasSuffix(name, ".json"), name == "resume-context.md":
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	var next, nodes atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					return
				}
				data, err := os.ReadFile(files[i])
				if err != nil {
					log.Fatal(err)
				}
				var root *yaml.Node
				switch {
				case strings.HasSuffix(files[i], ".json"):
					root, _, err = load.ParseJSON(data, 1, 256)
				case strings.HasSuffix(files[i], ".md"):
					_, rest, _ := bytes.Cut(data, []byte("---\n"))
					fm, _, _ := bytes.Cut(rest, []byte("\n---\n"))
					var n yaml.Node
					err = yaml.Unmarshal(fm, &n)
					root = &n
				default:
					var n yaml.Node
					err = yaml.Unmarshal(data, &n)
					root = &n
				}
				if err != nil {
					log.Fatalf("%s: %v", files[i], err)
				}
				nodes.Add(int64(len(root.Content)))
			}
		}()
	}
	wg.Wait()
	fmt.Fprintf(os.Stderr, "parsed %d files\n", len(files))
}
