//go:build bench

// Command p4floor is the floor SPEC §9 quotes for P4: a Go program that
// only reads one file and parses it with the parsers resumelint uses
// (go.yaml.in/yaml/v3, resumelint's JSON parser), and does nothing else.
// Its whole-process time on a machine says what P4 can reach there.
package main

import (
	"log"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"

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
	if strings.HasSuffix(os.Args[1], ".json") {
		_, _, err = load.ParseJSON(data, 1, 256)
	} else {
		var n yaml.Node
		err = yaml.Unmarshal(data, &n)
	}
	if err != nil {
		log.Fatal(err)
	}
}
