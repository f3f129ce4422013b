package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/resumelint/resumelint/internal/diag"
)

// The renderers of `resumelint status` for ORCHESTRATION workflows and nexus
// projects and builds (docs/status.md). internal/cli reads the files and
// fills a Recovery; these functions only print it. Every string in it comes
// from a file and reaches the output through mask, then escaping.

// Recovery is what `status` reports about the workflows and projects of a
// repository.
type Recovery struct {
	Workflows []WorkflowState `json:"workflows"`
	Projects  []ProjectState  `json:"projects"`
	// Finished are the records that are history (SPEC §0): one line each.
	Finished []FinishedRecord `json:"finished"`
	// Run is the agent run's own status report (or the list of runs to
	// choose from) when the repository has agent runs too; JSON only.
	Run any `json:"run,omitempty"`
}

// WorkflowState is one active workflow's recovery state.
type WorkflowState struct {
	Path              string          `json:"path"`
	ID                string          `json:"id"`
	Status            string          `json:"status"`
	ResumptionVersion string          `json:"resumption_version"`
	CurrentPhase      *int            `json:"current_phase"`
	CurrentPhaseName  string          `json:"current_phase_name"`
	CurrentActivity   string          `json:"current_activity"`
	CurrentGate       string          `json:"current_gate"`
	GateIteration     *int            `json:"current_gate_iteration"`
	LastCheckpoint    string          `json:"last_checkpoint"`
	NextStep          string          `json:"next_step"`
	UpdatedAt         string          `json:"updated_at"`
	Age               string          `json:"age"`
	FilesToRead       []string        `json:"files_to_read"`
	Pipelines         []PipelineState `json:"pipelines"`
	Gates             []GateState     `json:"quality_gates"`
	Barriers          []GateState     `json:"barriers"`
	Findings          FindingSummary  `json:"findings"`
}

// PipelineState is one pipeline and its phases, in file order.
type PipelineState struct {
	Key    string       `json:"key"` // its key under pipelines (depends_on names it)
	ID     string       `json:"id"`
	Phases []PhaseState `json:"phases"`
}

// PhaseState is one phase; State is its status folded onto done,
// in_progress, pending, blocked or failed.
type PhaseState struct {
	ID     string `json:"id"`
	Num    int    `json:"num"`
	Name   string `json:"name"`
	Status string `json:"status"`
	State  string `json:"state"`
}

// GateState is one quality gate or barrier; After names what it depends
// on (phase or gate ids as written).
type GateState struct {
	ID     string   `json:"id"`
	Name   string   `json:"name"`
	Status string   `json:"status"`
	State  string   `json:"state"`
	After  []string `json:"after"`
	Before []string `json:"before"`
}

// FindingSummary counts the lint findings on a record's files and lists
// the first few.
type FindingSummary struct {
	Errors   int           `json:"errors"`
	Warnings int           `json:"warnings"`
	Total    int           `json:"total"`
	Top      []FindingLine `json:"top"`
}

// FindingLine is one finding as the summary shows it.
type FindingLine struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// ProjectState is a nexus project's or build's resume context.
type ProjectState struct {
	Path        string         `json:"path"`
	Kind        string         `json:"kind"` // project or build
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Phase       string         `json:"current_phase"`
	State       string         `json:"state"`
	Progress    string         `json:"progress"`
	CurrentTask *int           `json:"current_task"`
	NextAction  string         `json:"next_action"`
	ContinueAt  string         `json:"continue_at"`
	Blockers    int            `json:"blockers"`
	LastUpdated string         `json:"last_updated"`
	Age         string         `json:"age"`
	Findings    FindingSummary `json:"findings"`
}

// FinishedRecord is a record that is history, and why. Findings are
// lint's on it: in a finished record only a misspelled terminal status and
// "is it really finished?" contradictions are findings (SPEC §0), so any
// question the record's claim to be done.
type FinishedRecord struct {
	Path     string         `json:"path"`
	ID       string         `json:"id"`
	Why      string         `json:"why"`
	Findings FindingSummary `json:"findings"`
}

// RecoveryJSON writes the report as an indented JSON object.
func RecoveryJSON(w io.Writer, r *Recovery, mask func(string) string) error {
	return writeMaskedJSON(w, r, mask)
}

// RecoveryText writes one block per active workflow and project, then the
// finished records on one line.
func RecoveryText(w io.Writer, r *Recovery, mask func(string) string) error {
	safe := func(s string) string { return diag.Escape(mask(s)) }
	// A name shown in quotes is escaped by the quoting alone (as lint's
	// messages quote values), not once more.
	quote := func(s string) string { return strconv.Quote(mask(s)) }
	var sb strings.Builder
	for i := range r.Workflows {
		writeWorkflowText(&sb, &r.Workflows[i], safe, quote)
	}
	for i := range r.Projects {
		writeProjectText(&sb, &r.Projects[i], safe, quote)
	}
	if n := len(r.Finished); n > 0 {
		var names []string
		for _, f := range r.Finished {
			names = append(names, safe(f.Path))
		}
		fmt.Fprintf(&sb, "Finished (history, nothing to resume): %d: %s\n", n, diag.List(names, 5))
		writeQuestioned(&sb, r.Finished, safe)
	}
	if len(r.Workflows)+len(r.Projects) == 0 {
		sb.WriteString("No active workflow, project or build: nothing to resume.\n")
	}
	_, err := io.WriteString(w, diag.NoCommands(sb.String()))
	return err
}

// writeQuestioned names the finished records lint's findings question,
// with their counts: the line above calls them history, and a session
// must not take that on trust for these.
func writeQuestioned(sb *strings.Builder, fin []FinishedRecord, safe func(string) string) {
	var names []string
	for _, f := range fin {
		if f.Findings.Total > 0 {
			names = append(names, fmt.Sprintf("%s (%s)", safe(f.Path), countText(f.Findings)))
		}
	}
	if len(names) > 0 {
		fmt.Fprintf(sb, "Finished, but questioned by lint (resumelint lint says how): %d: %s\n", len(names), diag.List(names, 5))
	}
}

// countText is "1 error", "2 warnings", "1 error, 1 warning".
func countText(s FindingSummary) string {
	var parts []string
	if s.Errors > 0 {
		parts = append(parts, plural(s.Errors, "error", "errors"))
	}
	if s.Warnings > 0 {
		parts = append(parts, plural(s.Warnings, "warning", "warnings"))
	}
	return strings.Join(parts, ", ")
}

func writeWorkflowText(sb *strings.Builder, s *WorkflowState, safe, quote func(string) string) {
	line := func(label, v string) {
		if v != "" {
			fmt.Fprintf(sb, "- %s: %s\n", label, v)
		}
	}
	fmt.Fprintf(sb, "%s\nWORKFLOW: %s (%s)\n", statusRule, safe(orNone(s.ID)), safe(orNone(s.Status)))
	line("File", safe(s.Path))
	line("Resumption", s.ResumptionVersion)
	phase := ""
	if s.CurrentPhase != nil {
		phase = fmt.Sprint(*s.CurrentPhase)
	}
	if s.CurrentPhaseName != "" {
		phase = strings.TrimSpace(phase + " " + quote(s.CurrentPhaseName))
	}
	if s.CurrentPhase != nil {
		if st := phaseDone(s.Pipelines, *s.CurrentPhase); st != "" {
			phase += fmt.Sprintf(" (%s)", safe(st))
		}
	}
	line("Phase", phase)
	gate := safe(s.CurrentGate)
	if gate != "" && s.GateIteration != nil {
		gate += fmt.Sprintf(", iteration %d", *s.GateIteration)
	}
	line("Gate", gate)
	line("Activity", safe(s.CurrentActivity))
	line("Last checkpoint", safe(s.LastCheckpoint))
	line("Next step", safe(s.NextStep))
	if s.UpdatedAt != "" {
		line("Updated", safe(s.UpdatedAt)+ageSuffix(s.Age))
	}
	writeFindingsText(sb, &s.Findings, safe)
}

func writeProjectText(sb *strings.Builder, p *ProjectState, safe, quote func(string) string) {
	line := func(label, v string) {
		if v != "" {
			fmt.Fprintf(sb, "- %s: %s\n", label, v)
		}
	}
	fmt.Fprintf(sb, "%s\n%s: %s", statusRule, strings.ToUpper(p.Kind), safe(orNone(p.ID)))
	if p.Name != "" {
		sb.WriteString(" " + quote(p.Name))
	}
	sb.WriteString("\n")
	line("File", safe(p.Path))
	line("Phase", safe(p.Phase))
	line("Progress", safe(p.Progress))
	if p.CurrentTask != nil {
		line("Current task", fmt.Sprint(*p.CurrentTask))
	}
	line("Next action", safe(p.NextAction))
	line("Continue at", safe(p.ContinueAt))
	if p.Blockers > 0 {
		line("Blockers", fmt.Sprint(p.Blockers))
	}
	if p.LastUpdated != "" {
		line("Updated", safe(p.LastUpdated)+ageSuffix(p.Age))
	}
	writeFindingsText(sb, &p.Findings, safe)
}

func writeFindingsText(sb *strings.Builder, f *FindingSummary, safe func(string) string) {
	if f.Total == 0 {
		sb.WriteString("- Findings: none\n\n")
		return
	}
	fmt.Fprintf(sb, "- Findings: %s, %s; do not trust what they contradict:\n", count(f.Errors, "error"), count(f.Warnings, "warning"))
	for _, l := range f.Top {
		fmt.Fprintf(sb, "  %s:%d: %s: %s [%s]\n", safe(l.Path), l.Line, l.Severity, safe(l.Message), l.Code)
	}
	if more := f.Total - len(f.Top); more > 0 {
		fmt.Fprintf(sb, "  … and %d more (resumelint lint lists them all)\n", more)
	}
	sb.WriteString("\n")
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func ageSuffix(age string) string {
	if age == "" {
		return ""
	}
	return " (" + age + ")"
}

func orNone(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// RecoveryMermaid writes the workflows' pipelines, phases, barriers and
// quality gates, and the projects' phases, as one Mermaid flowchart, each
// node classed by its state.
func RecoveryMermaid(w io.Writer, r *Recovery, mask func(string) string) error {
	var sb strings.Builder
	sb.WriteString("flowchart LR\n")
	for i := range r.Workflows {
		writeWorkflowMermaid(&sb, fmt.Sprintf("w%d", i), &r.Workflows[i], mask)
	}
	for i, p := range r.Projects {
		id := fmt.Sprintf("p%d", i)
		fmt.Fprintf(&sb, "    subgraph %s[\"%s %s\"]\n", id, p.Kind, mermaidText(orNone(p.ID), mask))
		label := "phase: " + orNone(p.Phase)
		if p.Progress != "" {
			label += " · " + p.Progress
		}
		fmt.Fprintf(&sb, "        %sphase[\"%s\"]:::%s\n", id, mermaidText(label, mask), p.State)
		if p.NextAction != "" {
			fmt.Fprintf(&sb, "        %snext[\"next: %s\"]:::pending\n        %sphase --> %snext\n", id, mermaidText(diag.ClipTo(mask(p.NextAction), 80), mask), id, id)
		}
		sb.WriteString("    end\n")
	}
	for _, f := range r.Finished {
		why := f.Why
		if f.Findings.Total > 0 {
			why += "; lint: " + countText(f.Findings)
		}
		fmt.Fprintf(&sb, "    %%%% finished: %s (%s)\n", mermaidText(f.Path, mask), mermaidText(why, mask))
	}
	for _, cd := range mermaidClasses {
		if !strings.Contains(cd, "runnable") {
			sb.WriteString("    " + cd + "\n")
		}
	}
	_, err := io.WriteString(w, mask(sb.String()))
	return err
}

// writeWorkflowMermaid draws one workflow as a subgraph: a subgraph per
// pipeline with its phases in order, then its barriers and gates, linked
// to what they depend on and what they open.
func writeWorkflowMermaid(sb *strings.Builder, id string, s *WorkflowState, mask func(string) string) {
	fmt.Fprintf(sb, "    subgraph %s[\"%s (%s)\"]\n", id, mermaidText(orNone(s.ID), mask), mermaidText(orNone(s.Status), mask))
	refs := map[string]string{} // ids as depends_on writes them → node
	var edges []string
	for pi, p := range s.Pipelines {
		pid := fmt.Sprintf("%s_p%d", id, pi)
		fmt.Fprintf(sb, "        subgraph %s[\"%s\"]\n", pid, mermaidText(p.ID, mask))
		prev := ""
		for j, ph := range p.Phases {
			nid := fmt.Sprintf("%s_%d", pid, j)
			label := fmt.Sprintf("Phase %d", ph.Num)
			if ph.Name != "" {
				label += " - " + ph.Name
			}
			fmt.Fprintf(sb, "            %s[\"%s<br/>%s\"]:::%s\n", nid, mermaidText(label, mask), mermaidText(ph.Status, mask), ph.State)
			for _, k := range []string{ph.ID, fmt.Sprintf("phase-%d", ph.Num), fmt.Sprintf("%s.phase.%d", p.ID, ph.Num), fmt.Sprintf("%s.phase.%d", p.Key, ph.Num), fmt.Sprint(ph.Num)} {
				if _, seen := refs[k]; !seen && k != "" {
					refs[k] = nid
				}
			}
			if prev != "" {
				edges = append(edges, prev+" --> "+nid)
			}
			prev = nid
		}
		sb.WriteString("        end\n")
	}
	draw := func(kind string, gs []GateState, open, close string) {
		for i, g := range gs {
			nid := fmt.Sprintf("%s_%s%d", id, kind, i)
			label := g.ID
			if g.Name != "" {
				label += " - " + g.Name
			}
			fmt.Fprintf(sb, "        %s%s\"%s<br/>%s\"%s:::%s\n", nid, open, mermaidText(label, mask), mermaidText(g.Status, mask), close, g.State)
			refs[g.ID] = nid
		}
		for i, g := range gs {
			nid := fmt.Sprintf("%s_%s%d", id, kind, i)
			for _, a := range g.After {
				if from, ok := refs[a]; ok && from != nid {
					edges = append(edges, from+" --> "+nid)
				}
			}
			for _, b := range g.Before {
				if to, ok := refs[b]; ok && to != nid {
					edges = append(edges, nid+" --> "+to)
				}
			}
		}
	}
	draw("b", s.Barriers, "[/", "/]")
	draw("g", s.Gates, "{{", "}}")
	for _, e := range edges {
		sb.WriteString("        " + e + "\n")
	}
	sb.WriteString("    end\n")
}

// phaseDone returns the recorded status of phase num when every phase
// numbered so is done, else "": a workflow between phases records the
// last one it completed (RL105), which the report then says is done.
func phaseDone(pipes []PipelineState, num int) string {
	status := ""
	for _, p := range pipes {
		for _, ph := range p.Phases {
			if ph.Num != num {
				continue
			}
			if ph.State != "done" {
				return ""
			}
			if status == "" {
				status = ph.Status
			}
		}
	}
	return status
}
