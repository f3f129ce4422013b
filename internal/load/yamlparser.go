package load

import (
	"fmt"
	"sync/atomic"
)

// YAMLParserVar names the environment variable that picks the YAML
// parser: "fast" (the default) tries the fast parser first (fastyaml.go);
// "yaml.v3" parses every document with go.yaml.in/yaml/v3's decoder, so
// a difference between the two can be bisected on the files at hand.
const YAMLParserVar = "RESUMELINT_YAML_PARSER"

// decoderOnly is set for a process whose YAMLParserVar is yaml.v3.
var decoderOnly atomic.Bool

// OnFastParse, when set, is called each time the fast parser is tried
// (tests check with it which parser ran). It must be safe for concurrent
// use.
var OnFastParse func()

// SetYAMLParser chooses the parser from YAMLParserVar's value: "" or
// "fast", or "yaml.v3"; any other value is an error and changes nothing.
func SetYAMLParser(value string) error {
	switch value {
	case "", "fast":
		decoderOnly.Store(false)
	case "yaml.v3":
		decoderOnly.Store(true)
	default:
		return fmt.Errorf("%s=%s: use fast (the default) or yaml.v3", YAMLParserVar, value)
	}
	return nil
}
