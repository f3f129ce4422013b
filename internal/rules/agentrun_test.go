package rules

import (
	"fmt"
	"strings"
	"testing"
)

func chain(n int, closing bool) []*graphTask {
	ts := make([]*graphTask, n)
	for i := range ts {
		ts[i] = &graphTask{id: fmt.Sprint("T", i)}
		if i > 0 {
			ts[i].deps = []int{i - 1}
		}
	}
	if closing {
		ts[0].deps = []int{n - 1}
	}
	return ts
}

// A long dependency chain must not overflow the stack, and a cycle through
// all of it is found once.
func TestCyclesLongChain(t *testing.T) {
	if got := cycles(chain(200_000, false)); len(got) != 0 {
		t.Fatalf("acyclic chain: %d cycles", len(got))
	}
	got := cycles(chain(200_000, true))
	if len(got) != 1 || len(got[0]) != 200_000 || got[0][0] != 0 {
		t.Fatalf("closed chain: %d cycles", len(got))
	}
}

func TestCyclesNamesEachComponent(t *testing.T) {
	// a→b→a, c→c, d→e (acyclic), f→g→h→f
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	deps := map[string][]int{"a": {1}, "b": {0}, "c": {2}, "d": {4}, "f": {6}, "g": {7}, "h": {5}}
	var ts []*graphTask
	for _, id := range ids {
		ts = append(ts, &graphTask{id: id, deps: deps[id]})
	}
	var names []string
	for _, c := range cycles(ts) {
		var s []string
		for _, i := range c {
			s = append(s, ts[i].id)
		}
		names = append(names, strings.Join(s, ","))
	}
	if got := strings.Join(names, " | "); got != "a,b | c | f,g,h" {
		t.Errorf("cycles %q", got)
	}
}
