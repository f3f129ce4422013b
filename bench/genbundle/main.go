//go:build bench

// Command genbundle writes a SPECTRUM-02 bundle of random outputs for the
// hashing benchmark (SPEC §9 P5): the outputs under out/, the three
// artifacts with their digests, and a sha256sum manifest of the same files.
//
//	genbundle -dir bench/out/hash/bundle -files 1000 -bytes 1073741824
//
// Sizes vary (from a quarter to seven quarters of the mean) so the workers
// get uneven files, and add up to exactly -bytes. The data is
// pseudo-random from a fixed seed: a second run writes the same bundle and
// skips the work when it is already there.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir := flag.String("dir", "", "bundle folder to write")
	files := flag.Int("files", 1000, "number of output files")
	total := flag.Int64("bytes", 1<<30, "total size of the outputs")
	flag.Parse()
	if *dir == "" || *files <= 0 || *total < int64(*files) {
		fmt.Fprintln(os.Stderr, "usage: genbundle -dir DIR [-files N] [-bytes B]")
		os.Exit(2)
	}
	stamp := filepath.Join(*dir, ".complete")
	want := fmt.Sprintf("%d %d\n", *files, *total)
	if b, err := os.ReadFile(stamp); err == nil && string(b) == want {
		return
	}
	if err := os.RemoveAll(*dir); err != nil {
		fail(err)
	}
	if err := os.MkdirAll(filepath.Join(*dir, "out"), 0o755); err != nil {
		fail(err)
	}
	rng := rand.New(rand.NewPCG(2, 26))
	sizes := make([]int64, *files)
	var sum int64
	mean := *total / int64(*files)
	for i := range sizes {
		sizes[i] = mean/4 + rng.Int64N(mean*3/2+1)
		sum += sizes[i]
	}
	// Scale to the exact total; the last file takes the rounding.
	var acc int64
	for i := range sizes {
		if i == len(sizes)-1 {
			sizes[i] = *total - acc
		} else {
			sizes[i] = sizes[i] * *total / sum
		}
		acc += sizes[i]
	}

	src := rand.NewChaCha8([32]byte{'r', 'e', 's', 'u', 'm', 'e', 'l', 'i', 'n', 't'})
	hashes := map[string]string{}
	var manifest strings.Builder
	var expected []string
	buf := make([]byte, 1<<20)
	for i, size := range sizes {
		rel := fmt.Sprintf("out/f%04d.bin", i)
		f, err := os.Create(filepath.Join(*dir, filepath.FromSlash(rel)))
		if err != nil {
			fail(err)
		}
		h := sha256.New()
		w := io.MultiWriter(f, h)
		for left := size; left > 0; {
			n := min(left, int64(len(buf)))
			_, _ = src.Read(buf[:n])
			if _, err := w.Write(buf[:n]); err != nil {
				fail(err)
			}
			left -= n
		}
		if err := f.Close(); err != nil {
			fail(err)
		}
		sum := hex.EncodeToString(h.Sum(nil))
		hashes[rel] = "sha256:" + sum
		expected = append(expected, rel)
		fmt.Fprintf(&manifest, "%s  %s\n", sum, rel)
	}
	writeJSON(*dir, "TASK_SPEC.json", map[string]any{"task_id": "bench-hash", "inputs": []string{}, "expected_outputs": expected,
		"constraints": map[string]any{}, "created_at": "2026-02-20T10:00:00Z"})
	writeJSON(*dir, "STATUS.json", map[string]any{"status": "success", "cmp01": "pass", "completed_at": "2026-02-20T10:05:00Z", "error": nil})
	writeJSON(*dir, "OUTPUT_HASHES.json", map[string]any{"validator_semver": "1.0.0", "validator_build_id": "git:bench00",
		"generated_at": "2026-02-20T10:05:01Z", "hashes": hashes})
	if err := os.WriteFile(filepath.Join(*dir, "SHA256SUMS"), []byte(manifest.String()), 0o644); err != nil {
		fail(err)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		fail(err)
	}
}

func writeJSON(dir, name string, v any) {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), append(data, '\n'), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "genbundle:", err)
	os.Exit(1)
}
