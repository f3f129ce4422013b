package filter

import (
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/resumelint/resumelint/internal/config"
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/engine"
	"github.com/resumelint/resumelint/internal/load"
	"github.com/resumelint/resumelint/internal/rules"
)

// One pass over raw findings: a severity override, an inline suppression,
// an ignore glob, and the suppression that hid nothing (RL007).
func TestStageOrder(t *testing.T) {
	f := &load.File{Path: "ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(
		"a: 1 # resumelint:ignore RL006 -- same line\nb: 2 # resumelint:ignore RL102 -- nothing here\nc: 3\n")}
	load.CheckBytes(f, load.DefaultLimits)
	res := &engine.Result{
		Findings: []diag.Finding{
			{Code: "RL006", Path: f.Path, Start: diag.Pos{Line: 1, Col: 4}, Severity: diag.SevWarning},
			{Code: "RL108", Path: f.Path, Start: diag.Pos{Line: 3, Col: 4}, Severity: diag.SevWarning},
			{Code: "RL107", Path: f.Path, Start: diag.Pos{Line: 3, Col: 4}, Severity: diag.SevError},
			{Code: "RL107", Path: "old/ORCHESTRATION.yaml", Start: diag.Pos{Line: 1, Col: 1}, Severity: diag.SevError},
		},
		Directives: map[string][]load.Directive{f.Path: f.Directives},
	}
	cfg := &config.Config{Ignore: []config.Ignore{{Path: "old/**"}}}
	s := &engine.Settings{Selection: rules.Selection{Severity: map[string]diag.Severity{"RL108": diag.SevOff, "RL107": diag.SevWarning}}}
	scope := &Scope{Settings: s, Config: cfg}
	(&Stage{For: func(string) *Scope { return scope }}).Apply(res)
	var got []string
	for _, fd := range res.Findings {
		got = append(got, fd.Code+"@"+fd.Severity.String())
	}
	want := []string{"RL007@warning", "RL107@warning"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %v, want %v", got, want)
	}
}

// The filter gives the same findings, in the same order, on every core as
// on one: suppressed, ignored, switched-off and unchecked findings over
// hundreds of files.
func TestStageOnEveryCoreAsOnOne(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	build := func() *engine.Result {
		res := &engine.Result{Directives: map[string][]load.Directive{}}
		for i := range 300 {
			dir := "p" + strconv.Itoa(i)
			if i%7 == 0 {
				dir = "old/" + dir
			}
			f := &load.File{Path: dir + "/ORCHESTRATION.yaml", Kind: load.KindOrchestration, Data: []byte(
				"a: 1 # resumelint:ignore RL006 -- same line\nb: 2 # resumelint:ignore RL102 -- nothing here\nc: 3\n")}
			load.CheckBytes(f, load.DefaultLimits)
			if i%3 == 0 {
				res.Directives[f.Path] = f.Directives
			}
			res.Findings = append(res.Findings,
				diag.Finding{Code: "RL001", Path: f.Path, Start: diag.Pos{Line: 1, Col: 1}, Severity: diag.SevError},
				diag.Finding{Code: "RL006", Path: f.Path, Start: diag.Pos{Line: 1, Col: 4}, Severity: diag.SevWarning},
				diag.Finding{Code: "RL108", Path: f.Path, Start: diag.Pos{Line: 3, Col: 4}, Severity: diag.SevWarning},
				diag.Finding{Code: "RL107", Path: f.Path, Start: diag.Pos{Line: 3, Col: 4}, Severity: diag.SevError, Message: strconv.Itoa(i)})
		}
		diag.Sort(res.Findings)
		return res
	}
	cfg := &config.Config{Ignore: []config.Ignore{{Path: "old/**"}}}
	s := &engine.Settings{Selection: rules.Selection{Severity: map[string]diag.Severity{"RL108": diag.SevOff, "RL107": diag.SevWarning}}}
	scope := &Scope{Settings: s, Config: cfg}
	apply := func(onEveryCore int) *engine.Result {
		was := onEveryCoreFindings
		onEveryCoreFindings = onEveryCore
		defer func() { onEveryCoreFindings = was }()
		res := build()
		(&Stage{For: func(string) *Scope { return scope }}).Apply(res)
		return res
	}
	one := apply(1 << 30)
	if len(one.Findings) == 0 || len(one.Unchecked) == 0 {
		t.Fatalf("the case filters nothing interesting: %d findings, %d unchecked", len(one.Findings), len(one.Unchecked))
	}
	for range 3 {
		every := apply(1)
		if !reflect.DeepEqual(one.Findings, every.Findings) || !reflect.DeepEqual(one.Unchecked, every.Unchecked) {
			t.Fatalf("on every core: %d findings, %d unchecked; on one: %d, %d", len(every.Findings), len(every.Unchecked), len(one.Findings), len(one.Unchecked))
		}
	}
}
