package cli

import (
	"strings"

	"github.com/resumelint/resumelint/internal/node"
	"github.com/resumelint/resumelint/internal/rules"
)

// The exported schemas must accept every document lint accepts (an editor
// that marks a file lint passes teaches users to ignore it). Two things
// lint decides outside CUE are written into the JSON Schema here: unknown
// keys are RL010 warnings, not errors, and a finished workflow is history
// (SPEC §0 Lifecycle), which needs no resumption section and gets no shape
// finding.

// openUnknownKeys drops `additionalProperties: false`, which CUE writes
// for its closed definitions: lint reports unknown keys as RL010 warnings
// and validates the rest, so an editor must not reject them. The
// configuration stays closed: an unknown key there is a usage error.
func openUnknownKeys(v any) {
	switch x := v.(type) {
	case map[string]any:
		if b, ok := x["additionalProperties"].(bool); ok && !b {
			delete(x, "additionalProperties")
		}
		for _, e := range x {
			openUnknownKeys(e)
		}
	case []any:
		for _, e := range x {
			openUnknownKeys(e)
		}
	}
}

// lifecyclePaths are the values that state a workflow's lifecycle, in the
// order rules.RecordOf reads them: the first that is a non-blank string
// decides whether the workflow is finished.
var lifecyclePaths = [][]string{
	{"workflow", "status"},
	{"resumption", "recovery_state", "workflow_status"},
	{"resumption", "workflow_status"},
	{"status"},
	{"resumption", "current_state"},
}

// enumChecked is how many of lifecyclePaths a finished workflow must spell
// in the workflow_status enum (RL106: a reader comparing exact values would
// resume it); a top-level status is free text.
const enumChecked = 3

// terminalEnum are the enum's finished states.
var terminalEnum = []any{"CANCELLED", "COMPLETE", "FAILED"}

// finishedPattern matches a status rules.IsFinishedStatus calls finished
// as it stands: one of its words in any case, with surrounding space.
// ECMA-262 patterns have no (?i), so each letter is a class.
func finishedPattern() string {
	return `^\s*(` + finishedWords() + `)\s*$`
}

// decoratedFinishedPattern matches every status rules.IsFinishedStatus
// calls finished, decorated as files write it ("✅ DONE - shipped",
// "COMPLETE (with notes)", "WORKFLOW COMPLETE. All phases done."), and
// some it leaves live ("COMPLETE (pending QA)", "COMPLETE_PHASE_1"): a
// finished word between marks, after the record's name or not, then
// anything after a mark. It decides only which documents the schema
// leaves unchecked, so erring wide accepts more, never less, than lint.
func decoratedFinishedPattern() string {
	return `^[^A-Za-z0-9]*((` + anyCase(node.RecordSubjects()) + `)[ _-]+)?(` + finishedWords() + `)([^A-Za-z0-9][\s\S]*)?$`
}

// finishedWords are rules.FinishedStatusWords as alternatives in any case.
func finishedWords() string { return anyCase(rules.FinishedStatusWords()) }

// anyCase writes words as alternatives in any case.
func anyCase(words []string) string {
	alts := make([]string, len(words))
	for i, w := range words {
		var b strings.Builder
		for _, r := range w {
			if lo := strings.ToLower(string(r)); lo != string(r) {
				b.WriteString("[" + string(r) + lo + "]")
			} else {
				b.WriteRune(r)
			}
		}
		alts[i] = b.String()
	}
	return strings.Join(alts, "|")
}

// at is a schema requiring the value at path to be a string matching
// pattern (and each mapping on the way to be an object).
func at(path []string, pattern string) map[string]any {
	v := map[string]any{"type": "string", "pattern": pattern}
	for i := len(path) - 1; i >= 0; i-- {
		v = map[string]any{"type": "object", "required": []any{path[i]}, "properties": map[string]any{path[i]: v}}
	}
	return v
}

// under applies leaf to the value at path when it is there.
func under(path []string, leaf map[string]any) map[string]any {
	v := leaf
	for i := len(path) - 1; i >= 0; i-- {
		v = map[string]any{"properties": map[string]any{path[i]: v}}
	}
	return v
}

// finishedWorkflow is the schema of an orchestration file rules.RecordOf
// calls finished: the first lifecycle value that is a non-blank string
// is a finished word.
func finishedWorkflow() map[string]any {
	term := decoratedFinishedPattern()
	var anyOf []any
	for i, p := range lifecyclePaths {
		all := []any{at(p, term)}
		for _, before := range lifecyclePaths[:i] {
			all = append(all, map[string]any{"not": at(before, `\S`)})
		}
		anyOf = append(anyOf, map[string]any{"allOf": all})
	}
	return map[string]any{"anyOf": anyOf}
}

// terminalSpelling is what lint still asks of a finished workflow: a
// lifecycle value that says it is over is spelled as the enum spells it.
func terminalSpelling() map[string]any {
	var all []any
	for _, p := range lifecyclePaths[:enumChecked] {
		all = append(all, under(p, map[string]any{
			"if":   map[string]any{"type": "string", "pattern": finishedPattern()},
			"then": map[string]any{"enum": terminalEnum},
		}))
	}
	return map[string]any{"allOf": all}
}

// schemaMeta are the root keywords that describe the document rather than
// constrain it; they stay at the root when the constraints move.
var schemaMeta = map[string]bool{"$schema": true, "$id": true, "title": true, "description": true, "$defs": true}

// orchestrationLifecycle makes the generated orchestration schema apply
// only to live workflows: a finished one (history) needs no resumption
// section, its sections are not checked, and only the spelling of its
// terminal status is. Written as anyOf rather than if/then/else, which
// CUE's own JSON Schema decoder does not read back with $refs inside.
func orchestrationLifecycle(doc any) {
	root, ok := doc.(map[string]any)
	if !ok {
		return
	}
	live := map[string]any{}
	for k, v := range root {
		if !schemaMeta[k] {
			live[k] = v
			delete(root, k)
		}
	}
	root["type"] = "object"
	root["anyOf"] = []any{
		map[string]any{"allOf": []any{finishedWorkflow(), terminalSpelling()}},
		map[string]any{"allOf": []any{map[string]any{"not": finishedWorkflow()}, live}},
	}
}
