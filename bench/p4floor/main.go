//go:build bench

// Command p4floor is the floor SPEC §9 quotes for P4: a Go program that
// only reads one file and parses it with the parsers resumelint uses
// (load.Parse), and does nothing else.
// Its whole-process time on a machine says what P4 can reach there.
package main

import (
	"log"
	"os"
	"strings"

	"github.com/resumelint/resumelint/internal/load"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: p4floor FILE")
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	format := load.FormatYAML
	if strings.HasSuffix(os.Args[1], ".json") {
		format = load.FormatJSON
	}
	if doc, _ := load.Parse(&load.File{Path: os.Args[1], Data: data}, format, load.DefaultLimits); doc.Root == nil {
		log.Fatal("not parsed")
	}
}
