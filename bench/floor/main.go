//go:build bench

// Command floor is the parse-only floor of SPEC §9 P2: it reads and parses
// the same files resumelint checks, with the same YAML and JSON parsers
// (load.Parse: resumelint's fast YAML parser, go.yaml.in/yaml/v3 for what
// it leaves, resumelint's JSON parser), on all cores, and does nothing
// else. A linter in Go cannot be faster.
//
// With -read it is the read-only floor of P2: the same walk and reads,
// no parsing (a byte is summed per file so the reads are not dropped).
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/resumelint/resumelint/internal/load"
)

func main() {
	readOnly := flag.Bool("read", false, "read the files without parsing them")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: floor [-read] DIR")
	}
	var files []string
	err := filepath.WalkDir(flag.Arg(0), func(p string, d fs.DirEntry, err error) error {
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
				if *readOnly {
					if len(data) > 0 {
						nodes.Add(int64(data[len(data)-1]))
					}
					continue
				}
				format := load.FormatYAML
				switch {
				case strings.HasSuffix(files[i], ".json"):
					format = load.FormatJSON
				case strings.HasSuffix(files[i], ".md"):
					format = load.FormatMarkdown
				}
				doc, _ := load.Parse(&load.File{Path: files[i], Data: data}, format, load.DefaultLimits)
				if doc.Root == nil {
					log.Fatalf("%s: not parsed", files[i])
				}
				nodes.Add(int64(len(doc.Root.Content)))
			}
		}()
	}
	wg.Wait()
	verb := "parsed"
	if *readOnly {
		verb = "read"
	}
	fmt.Fprintf(os.Stderr, "%s %d files\n", verb, len(files))
}
