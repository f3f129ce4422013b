package node

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// decodedBool is Bool as the decoder alone answers it.
func decodedBool(n *yaml.Node) (bool, bool) {
	n = Resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		return false, false
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, false
	}
	return b, true
}

// TestBoolIsDecoded holds Bool's spellings to the decoder's answer for
// every scalar style and tag a document can give a boolean-looking value.
func TestBoolIsDecoded(t *testing.T) {
	values := []string{"true", "True", "TRUE", "false", "False", "FALSE", "tRue", "yes", "Yes", "no", "on", "off",
		"y", "n", "1", "0", "", "~", "null", "true ", " false", "truE", "FALSE\n"}
	tags := []string{"", "!!bool", "tag:yaml.org,2002:bool", "!!str", "!bool", "!"}
	styles := []yaml.Style{0, yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle, yaml.LiteralStyle}
	checked := 0
	for _, v := range values {
		for _, tag := range tags {
			for _, style := range styles {
				n := &yaml.Node{Kind: yaml.ScalarNode, Value: v, Tag: tag, Style: style}
				gb, gok := Bool(n)
				wb, wok := decodedBool(n)
				if gb != wb || gok != wok {
					t.Errorf("Bool(%q tag %q style %v) = %v, %v; the decoder says %v, %v", v, tag, style, gb, gok, wb, wok)
				}
				if wok {
					checked++
				}
			}
		}
	}
	// The spellings parsed from a document, tag resolved as it does.
	for _, src := range []string{"a: true", "a: False", "a: !!bool TRUE", "a: !!bool yes", "a: 'true'", "a: &x true\nb: *x", "a: yes"} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
			t.Fatal(err)
		}
		for _, v := range oddOf(doc.Content[0].Content) {
			gb, gok := Bool(v)
			wb, wok := decodedBool(v)
			if gb != wb || gok != wok {
				t.Errorf("Bool in %q = %v, %v; the decoder says %v, %v", src, gb, gok, wb, wok)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d cases were booleans: the table no longer tests Bool", checked)
	}
}

// oddOf returns a mapping's values (every second node of its content).
func oddOf(content []*yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	for i := 1; i < len(content); i += 2 {
		out = append(out, content[i])
	}
	return out
}
