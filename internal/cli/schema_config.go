package cli

import (
	"strings"

	"github.com/resumelint/resumelint/internal/rules"
)

// configRuleKeys narrows the keys of the configuration's rules: to the
// rules resumelint knows, as it reads them. CUE's #Config accepts any key
// of a rule's form (RL999, stale-resumptoin) and the loader refuses those
// naming no rule; an editor has only the JSON Schema, so it lists each
// code and name (with the rule's summary, which editors show on hover and
// in completion) and each code in lower case, which resumelint reads too.
func configRuleKeys(doc any) {
	root, _ := doc.(map[string]any)
	props, _ := root["properties"].(map[string]any)
	rs, _ := props["rules"].(map[string]any)
	pp, _ := rs["patternProperties"].(map[string]any)
	if len(pp) != 1 {
		return
	}
	var sev any
	for _, v := range pp {
		sev = v
	}
	ref, _ := sev.(map[string]any)
	named := map[string]any{}
	var lower []string
	for _, r := range rules.All() {
		for _, key := range []string{r.Code, r.Name} {
			p := map[string]any{"description": r.Summary}
			for k, v := range ref {
				p[k] = v
			}
			named[key] = p
		}
		lower = append(lower, strings.ToLower(r.Code))
	}
	rs["properties"] = named
	rs["patternProperties"] = map[string]any{"^(" + strings.Join(lower, "|") + ")$": sev}
}
