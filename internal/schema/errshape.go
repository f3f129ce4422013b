package schema

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The shapes of CUE error this package recognises, all in one table. Each
// is recognised from the message's format string (what cue/errors.Error.Msg
// returns) and rewritten into the finding's words. A CUE upgrade that
// rewords a message fails that shape's case in TestErrorShapes instead of
// silently changing the findings; a message no shape recognises is shown
// in CUE's own words.

// shape names one recognised form of CUE error message.
type shape uint8

const (
	shapeOther            shape = iota // not recognised: CUE's own words
	shapeRequired                      // a required field (a!) the data lacks
	shapeIncomplete                    // a regular field the data lacks (no concrete value)
	shapeNotAllowed                    // a field a closed struct does not allow
	shapeEmptyDisjunction              // the summary line over a disjunction's failed arms
	shapeMismatchedTypes               // a value of another kind than the schema's
	shapeConflict                      // a value other than the schema's literal
	shapeInvalidValue                  // a value out of a bound or not matching a pattern
)

// errShape is one row of the table.
type errShape struct {
	shape shape
	name  string
	// match recognises the shape from a message's format and arguments.
	match func(format string, args []any) bool
	// missing: the error names a key the data lacks; the violation is a
	// "missing required keys" one at the parent mapping.
	missing bool
	// typeError: the data has the wrong kind here (for a template
	// placeholder, and for a collection whose contents say more).
	typeError bool
	// word adds the error's reading to the sentence describe builds; nil
	// for a shape that is worded elsewhere or adds nothing.
	word func(w *wording, it errItem, n *yaml.Node)
}

var errShapes = []errShape{
	{shape: shapeRequired, name: "required field missing", missing: true,
		match: func(f string, _ []any) bool { return f == "field is required but not present" }},
	{shape: shapeIncomplete, name: "incomplete value", missing: true,
		match: func(f string, _ []any) bool { return strings.HasPrefix(f, "incomplete value") }},
	{shape: shapeNotAllowed, name: "field not allowed",
		match: func(f string, _ []any) bool { return f == "field not allowed" }},
	{shape: shapeEmptyDisjunction, name: "empty disjunction", typeError: true,
		match: func(f string, _ []any) bool { return strings.Contains(f, "errors in empty disjunction") }},
	{shape: shapeMismatchedTypes, name: "mismatched types", typeError: true, word: wordMismatched,
		match: func(f string, _ []any) bool {
			return strings.HasPrefix(f, "conflicting values") && strings.Contains(f, "mismatched types")
		}},
	{shape: shapeConflict, name: "conflicting values", word: wordConflict,
		match: func(f string, _ []any) bool { return strings.HasPrefix(f, "conflicting values") }},
	{shape: shapeInvalidValue, name: "invalid value", word: wordInvalid,
		match: func(f string, args []any) bool { return strings.HasPrefix(f, "invalid value") && len(args) >= 2 }},
}

// other is the row of a message no shape recognises.
var other = errShape{shape: shapeOther, name: "other", word: func(w *wording, it errItem, _ *yaml.Node) {
	w.others = append(w.others, fmt.Sprintf(it.format, it.args...))
}}

// shapeOf recognises a CUE error message.
func shapeOf(format string, args []any) *errShape {
	for i := range errShapes {
		if errShapes[i].match(format, args) {
			return &errShapes[i]
		}
	}
	return &other
}

// wording collects the readings of one node's errors.
type wording struct {
	found  string   // the data value, as CUE prints it
	shown  string   // the data value as a message shows it (clipped)
	alts   []string // literals the value could have been
	types  []string // kinds the value could have had
	others []string // whole sentences
}

// wordMismatched reads "conflicting values A and B (mismatched types TA
// and TB)": one side is the data; the other is a literal alternative or a
// kind.
func wordMismatched(w *wording, it errItem, n *yaml.Node) {
	if len(it.args) < 4 {
		return
	}
	a, b := fmt.Sprint(it.args[0]), fmt.Sprint(it.args[1])
	want := fmt.Sprint(it.args[3])
	if want == cueKind(n) || !sameValue(a, w.found) && sameValue(b, w.found) {
		want = fmt.Sprint(it.args[2])
	}
	if isLiteral(b) && sameValue(a, w.found) {
		w.alts = append(w.alts, b)
		return
	}
	if isLiteral(a) && sameValue(b, w.found) {
		w.alts = append(w.alts, a)
		return
	}
	w.types = append(w.types, typeName(want))
}

// wordConflict reads "conflicting values A and B": the side that is not
// the data is an alternative.
func wordConflict(w *wording, it errItem, _ *yaml.Node) {
	if len(it.args) < 2 {
		return
	}
	a, b := fmt.Sprint(it.args[0]), fmt.Sprint(it.args[1])
	if a == w.found {
		w.alts = append(w.alts, b)
	} else {
		w.alts = append(w.alts, a)
	}
}

// wordInvalid reads "invalid value V (out of bound B)" and "invalid value
// V (does not match =~P)".
func wordInvalid(w *wording, it errItem, _ *yaml.Node) {
	bound := fmt.Sprint(it.args[1])
	if strings.HasPrefix(bound, "=~") {
		w.others = append(w.others, fmt.Sprintf("%s does not match the pattern %s", w.shown, strings.TrimPrefix(bound, "=~")))
	} else {
		w.others = append(w.others, fmt.Sprintf("%s is out of range (must be %s)", w.shown, bound))
	}
}
