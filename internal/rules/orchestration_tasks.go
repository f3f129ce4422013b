package rules

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/resumelint/resumelint/internal/lazyre"
	"github.com/resumelint/resumelint/internal/model"
)

// RL118 on tasks: the resumption prose saying tasks are executing, or are
// to be awaited, when the tasks the file records are ACCEPTED or COMPLETE.
// Text is read in claimsIn's normal form (lower case, '-' and '_' as
// spaces: TASK-002-005 reads "task 002 005").

var (
	// taskList is "task 2", "task 002 005" (TASK-002-005), "tasks 2, 3 and 4".
	taskList     = `tasks?\s+(\d+(?:\s*(?:,|and|&|\+|to|through|–)?\s*(?:tasks?\s+)?\d+)*)`
	tasksRunning = lazyre.New(`\b` + taskList + `\s+(?:(?:are|is|still|now)\s+)*(?:executing|running|in\s+progress|underway)\b`)
	tasksAwaited = lazyre.New(`\bawait(?:ing)?\s+(?:for\s+)?` + taskList)
	// the tasks as a whole: "await task completion", "tasks executing".
	allTasksClaim = []*lazyre.RE{
		lazyre.New(`\bawait(?:ing)?\s+(?:for\s+)?(?:the\s+)?(?:remaining\s+)?tasks?(?:\s+(?:completion|results))?\b`),
		lazyre.New(`\btasks\s+(?:(?:are|still|now)\s+)*(?:executing|running|in\s+progress|underway)\b`),
	}
	taskNumber = lazyre.New(`\d+`)
)

// taskClaimsIn finds the task phrases of s (norm is its normal form, of
// the same length).
func taskClaimsIn(s, norm string) []textClaim {
	if !strings.Contains(norm, "task") {
		return nil // every phrase names a task
	}
	var out []textClaim
	named := map[int]bool{}
	for _, re := range []*lazyre.RE{tasksRunning, tasksAwaited} {
		for _, m := range re.FindAllStringSubmatchIndex(norm, -1) {
			named[m[0]] = true
			out = append(out, textClaim{kind: claimTasksRunning, text: s[m[0]:m[1]], start: m[0], tasks: taskNumbers(s[m[2]:m[3]])})
		}
	}
	for _, re := range allTasksClaim {
		for _, m := range re.FindAllStringIndex(norm, -1) {
			rest := strings.TrimLeft(norm[m[1]:], " ")
			if named[m[0]] || rest != "" && rest[0] >= '0' && rest[0] <= '9' {
				continue // a numbered list: read above
			}
			out = append(out, textClaim{kind: claimTasksRunning, text: s[m[0]:m[1]], start: m[0]})
		}
	}
	return out
}

// taskNumbers reads "002-005" as 2 to 5 and "2, 3 and 4" as each.
func taskNumbers(list string) []int {
	idx := taskNumber.FindAllStringIndex(list, -1)
	var out []int
	for i, m := range idx {
		n, _ := strconv.Atoi(list[m[0]:m[1]])
		if i > 0 {
			sep := strings.ToLower(strings.TrimSpace(list[idx[i-1][1]:m[0]]))
			if prev := out[len(out)-1]; (sep == "-" || sep == "–" || sep == "to" || sep == "through") && n > prev && n-prev <= 50 {
				for k := prev + 1; k < n; k++ {
					out = append(out, k)
				}
			}
		}
		out = append(out, n)
	}
	return out
}

// recordedTask is one task the file records with a status.
type recordedTask struct {
	ID       string
	Num      int
	Status   string
	StatusAt *yaml.Node
	InPhase  bool // of a phase in progress
}

// recordedTasks are the tasks of the phases and of a top-level tasks
// section, read once per file.
func recordedTasks(p *Pass) []recordedTask { return recordedTasksResult.Of(p) }

var recordedTasksResult = NewResult("recorded-tasks", func(p *Pass) []recordedTask {
	var out []recordedTask
	add := func(list model.Coll[*model.Task], running bool) {
		for i, t := range list.Items {
			if t == nil {
				continue
			}
			id := list.KeyAt(i)
			if t.ID.OK {
				id = t.ID.Value
			}
			if !t.Status.OK || !trailingDigits.MatchString(id) {
				continue
			}
			n, _ := strconv.Atoi(strings.TrimSpace(trailingDigits.Regexp().FindString(id)))
			out = append(out, recordedTask{ID: id, Num: n, Status: t.Status.Value, StatusAt: t.Status.Node, InPhase: running})
		}
	}
	for _, ph := range recordPhases(p) {
		add(ph.View.Tasks, isInProgress(ph.Status))
	}
	add(OrchestrationOf(p).Doc.Tasks, false)
	return out
})

var tasksByNumResult = NewResult("tasks-by-num", func(p *Pass) map[int][]recordedTask {
	out := map[int][]recordedTask{}
	for _, t := range recordedTasks(p) {
		out[t.Num] = append(out[t.Num], t)
	}
	return out
})

// contradictTasks checks a task claim: every task it names (or, for "the
// tasks", every task of the phase in progress, else of the file) is done.
func contradictTasks(p *Pass, c textClaim) *contradiction {
	all := recordedTasks(p)
	var scope []recordedTask
	if len(c.tasks) > 0 {
		byNum := tasksByNumResult.Of(p)
		for _, n := range c.tasks {
			if len(byNum[n]) == 0 {
				return nil
			}
			scope = append(scope, byNum[n]...)
		}
	} else {
		for _, t := range all {
			if t.InPhase {
				scope = append(scope, t)
			}
		}
		if len(scope) == 0 {
			scope = all
		}
	}
	if len(scope) == 0 {
		return nil
	}
	for _, t := range scope {
		if !isWorkDone(t.Status) {
			return nil
		}
	}
	t := scope[0]
	what := fmt.Sprintf("%s is %s (line %d)", t.ID, t.Status, lineOf(t.StatusAt))
	if len(scope) > 1 {
		what = fmt.Sprintf("%s to %s are all done (%s, line %d)", scope[0].ID, scope[len(scope)-1].ID, t.Status, lineOf(t.StatusAt))
	}
	return &contradiction{why: what, at: t.StatusAt, msg: t.ID + ".status"}
}
