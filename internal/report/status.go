package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/resumelint/resumelint/internal/agentrun"
	"github.com/resumelint/resumelint/internal/diag"
)

// The renderers of `resumelint status`: text (seed 003's template), json
// (the same as data) and mermaid (the task graph with each task's state as
// a class). Mermaid is printed raw, without a ```mermaid fence: it can be
// piped into a .mmd file or the Mermaid CLI as is, and wrapping it for a
// Markdown comment is one line of shell, while a fence would have to be
// stripped everywhere else.
//
// Text from the run's files goes through mask (credentials hidden as lint
// hides them in messages) before it is printed; the text format also
// escapes control characters as text output does, so a task title can
// neither leak a token nor forge a line.

const statusRule = "═══════════════════════════════════════════════════════════"

// StatusText writes seed 003's resume report.
//
// lint, when given, is what a lint of the run's folder found: listed after
// the warnings, so the report never shows a state (no runnable task) without
// the contradiction that explains it (a dependency cycle).
func StatusText(w io.Writer, st *agentrun.Status, lint *FindingSummary, mask func(string) string) error {
	safe := func(s string) string { return diag.Escape(mask(s)) }
	var sb strings.Builder
	last := "none"
	if st.LastActivity != nil {
		last = *st.LastActivity
	}
	completed := "none"
	if lc := st.LastCompleted; lc != nil {
		completed = agentrun.Label(lc.ID, lc.Title)
	}
	fmt.Fprintf(&sb, "%s\nRESUMING RUN: %s\n\nCurrent State:\n", statusRule, safe(st.RunID))
	fmt.Fprintf(&sb, "- Phase: %d\n- Tasks: %d/%d complete\n- Last activity: %s\n- Last completed: %s\n", st.Phase, st.TasksDone, st.TasksTotal, safe(last), safe(completed))
	if len(st.Warnings) > 0 {
		sb.WriteString("\nWarnings:\n")
		for _, x := range st.Warnings {
			sb.WriteString("- " + safe(x) + "\n")
		}
	}
	if lint != nil && lint.Total > 0 {
		var lb strings.Builder
		writeFindingsText(&lb, lint, safe)
		sb.WriteString("\nLint:\n" + strings.TrimSuffix(lb.String(), "\n"))
	}
	sb.WriteString("\nNext Action:\n")
	for _, a := range st.NextActions() {
		sb.WriteString("- " + safe(a) + "\n")
	}
	fmt.Fprintf(&sb, "\nContinuing...\n%s\n", statusRule)
	_, err := io.WriteString(w, diag.NoCommands(sb.String()))
	return err
}

// StatusJSON writes the report as an indented JSON object; with lint, its
// "findings" are those of a lint of the run's folder, as a workflow's.
func StatusJSON(w io.Writer, st *agentrun.Status, lint *FindingSummary, mask func(string) string) error {
	if lint == nil {
		return writeMaskedJSON(w, st, mask)
	}
	return writeMaskedJSON(w, struct {
		*agentrun.Status
		Findings *FindingSummary `json:"findings"`
	}{st, lint}, mask)
}

// writeMaskedJSON writes v as indented JSON whose every string is masked
// of secrets, then escaped as the text outputs escape it (diag.Escape):
// the JSON encoder leaves C1 controls and bidirectional overrides raw, and
// turns other controls into escapes a reader decodes back into them.
func writeMaskedJSON(w io.Writer, v any, mask func(string) string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	out, err := safeJSONStrings(buf.Bytes(), func(s string) string { return diag.Escape(mask(s)) })
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// safeJSONStrings rewrites each string literal of the encoded JSON data
// as safe makes its value, keeping everything between them as it is.
func safeJSONStrings(data []byte, safe func(string) string) ([]byte, error) {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); {
		if data[i] != '"' {
			out = append(out, data[i])
			i++
			continue
		}
		j := i + 1
		for j < len(data) && data[j] != '"' {
			if data[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(data) {
			return nil, fmt.Errorf("unterminated JSON string")
		}
		var s string
		if err := json.Unmarshal(data[i:j+1], &s); err != nil {
			return nil, err
		}
		if t := safe(s); t != s {
			q, err := json.Marshal(t)
			if err != nil {
				return nil, err
			}
			out = append(out, q...)
		} else {
			out = append(out, data[i:j+1]...)
		}
		i = j + 1
	}
	return out, nil
}

// mermaidClasses style each state; a pending task whose dependencies are
// done is drawn as runnable.
var mermaidClasses = []string{
	"classDef done fill:#d3f9d8,stroke:#2b8a3e,color:#1b4332",
	"classDef in_progress fill:#d0ebff,stroke:#1971c2,color:#0b3a66",
	"classDef failed fill:#ffe3e3,stroke:#c92a2a,color:#5c0a0a",
	"classDef blocked fill:#fff3bf,stroke:#e67700,color:#5c3a00",
	"classDef runnable fill:#ffffff,stroke:#2b8a3e,stroke-width:3px,color:#1b4332",
	"classDef pending fill:#f1f3f5,stroke:#868e96,color:#343a40",
}

// mermaidText is text from a file (masked, then its control characters
// escaped) as Mermaid shows it in a quoted label or a comment line: every
// character that could end the label (`"`), start a directive or a comment
// (`%%{init: …}%%`), carry HTML (`<`, `>`, `&`), open a Markdown string
// (a backtick) or form an entity code (`#`) is written as Mermaid's entity
// code for it, which Mermaid shows as the character itself. It is masked
// before it is escaped: an escaped credential would no longer match what
// the output's mask hides.
func mermaidText(s string, mask func(string) string) string {
	return mermaidEscaper.Replace(diag.Safe(mask(s)))
}

var mermaidEscaper = strings.NewReplacer(
	`"`, "#quot;", "%", "#37;", "#", "#35;", "<", "#lt;", ">", "#gt;", "&", "#amp;", "`", "#96;",
	"\n", " ", "\r", " ")

// StatusMermaid writes the run's task graph as a Mermaid flowchart.
func StatusMermaid(w io.Writer, r *agentrun.Run, st *agentrun.Status, mask func(string) string) error {
	var sb strings.Builder
	sb.WriteString("flowchart TD\n")
	fmt.Fprintf(&sb, "    %%%% run %s: phase %d, %d/%d tasks complete\n", mermaidText(st.RunID, mask), st.Phase, st.TasksDone, st.TasksTotal)
	for _, s := range st.SkippedLines {
		fmt.Fprintf(&sb, "    %%%% skipped %s:%d (%s)\n", mermaidText(s.Path, mask), s.Line, mermaidText(s.Reason, mask))
	}
	ids := map[string]string{}
	for i, t := range r.Tasks {
		ids[t.ID] = fmt.Sprintf("t%d", i)
	}
	if len(r.Tasks) == 0 {
		sb.WriteString("    empty[\"no tasks in task-graph.json\"]:::pending\n")
	}
	for _, t := range r.Tasks {
		class := string(r.State(t.ID))
		if r.State(t.ID) == agentrun.Pending && r.IsRunnable(t) {
			class = "runnable"
		}
		fmt.Fprintf(&sb, "    %s[\"%s\"]:::%s\n", ids[t.ID], mermaidText(agentrun.Label(t.ID, t.Title), mask), class)
	}
	for _, t := range r.Tasks {
		for _, d := range t.Deps {
			if from, ok := ids[d]; ok {
				fmt.Fprintf(&sb, "    %s --> %s\n", from, ids[t.ID])
			}
		}
	}
	for _, cd := range mermaidClasses {
		sb.WriteString("    " + cd + "\n")
	}
	_, err := io.WriteString(w, mask(sb.String()))
	return err
}

// RunList writes the incomplete runs under runsDir (a display path) to
// choose from: a JSON object with an error and the runs for format
// "json", a flowchart of one node per run for "mermaid", a list otherwise.
func RunList(w io.Writer, format, runsDir string, runs []agentrun.RunSummary, mask func(string) string) error {
	if format == "mermaid" {
		return runListMermaid(w, runsDir, runs, mask)
	}
	if format == "json" {
		out := struct {
			Error string                `json:"error"`
			Runs  []agentrun.RunSummary `json:"runs"`
		}{Error: "several incomplete runs: name the one to resume", Runs: runs}
		return writeMaskedJSON(w, out, mask)
	}
	safe := func(s string) string { return diag.Escape(mask(s)) }
	var sb strings.Builder
	fmt.Fprintf(&sb, "Incomplete runs under %s/:\n", safe(runsDir))
	for _, r := range runs {
		last := "none"
		if r.LastActivity != nil {
			last = *r.LastActivity
		}
		fmt.Fprintf(&sb, "- %s: phase %d, %d/%d tasks complete, last activity %s\n", safe(r.RunID), r.Phase, r.TasksDone, r.TasksTotal, safe(last))
	}
	_, err := io.WriteString(w, diag.NoCommands(sb.String()))
	return err
}

// runListMermaid is RunList as a Mermaid flowchart: what --format mermaid
// prints is a diagram even when it cannot pick the run to draw.
func runListMermaid(w io.Writer, runsDir string, runs []agentrun.RunSummary, mask func(string) string) error {
	var sb strings.Builder
	sb.WriteString("flowchart TD\n")
	fmt.Fprintf(&sb, "    %%%% %d incomplete runs under %s/: name the one to resume (resumelint status RUN_DIR)\n", len(runs), mermaidText(runsDir, mask))
	for i, r := range runs {
		last := "none"
		if r.LastActivity != nil {
			last = *r.LastActivity
		}
		fmt.Fprintf(&sb, "    r%d[\"%s<br/>phase %d, %d/%d tasks complete<br/>last activity %s\"]:::in_progress\n",
			i, mermaidText(r.RunID, mask), r.Phase, r.TasksDone, r.TasksTotal, mermaidText(last, mask))
	}
	for _, cd := range mermaidClasses {
		sb.WriteString("    " + cd + "\n")
	}
	_, err := io.WriteString(w, mask(sb.String()))
	return err
}
