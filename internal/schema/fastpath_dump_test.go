package schema

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cuelang.org/go/cue"
)

// dumpDir holds one text file per top-level definition: what the fast
// path makes of it, field by field, and what it leaves to CUE and why. A
// schema change shows in these files which definitions left the fast path.
const dumpDir = "testdata/fastpath"

// TestFastpathDump compares the dumps with the compiler's output; -update
// rewrites them (go generate does).
func TestFastpathDump(t *testing.T) {
	want := map[string]string{}
	for _, name := range embedded().order {
		want[strings.TrimPrefix(name, "#")+".txt"] = dumpDef(name, embedded().def(name))
	}
	if *updateGenerated {
		if err := os.RemoveAll(dumpDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dumpDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for file, text := range want {
			if err := os.WriteFile(filepath.Join(dumpDir, file), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	entries, err := os.ReadDir(dumpDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; !ok {
			t.Errorf("%s/%s: no such definition (run go generate ./internal/schema)", dumpDir, e.Name())
		}
	}
	for _, file := range slices.Sorted(maps.Keys(want)) {
		got, err := os.ReadFile(filepath.Join(dumpDir, file))
		if err != nil || string(got) != want[file] {
			t.Errorf("%s/%s is stale (run go generate ./internal/schema); the compiler now makes:\n%s", dumpDir, file, want[file])
		}
	}
}

// dumpDef renders one definition's checker: a summary line, then one line
// per node, nested by indentation.
func dumpDef(name string, c *checker) string {
	var out []string
	unknowns(c, name, &out, 0)
	var b strings.Builder
	if len(out) == 0 {
		fmt.Fprintf(&b, "%s: on the fast path throughout\n", name)
	} else {
		fmt.Fprintf(&b, "%s: %d %s left to CUE\n", name, len(out), plural(len(out), "place"))
	}
	b.WriteByte('\n')
	dumpNode(&b, c, name, 0, 0)
	return b.String()
}

func dumpNode(b *strings.Builder, c *checker, label string, indent, depth int) {
	pad := strings.Repeat("  ", indent)
	if depth > 50 {
		fmt.Fprintf(b, "%s%s  ...\n", pad, label)
		return
	}
	if s, ok := inline(c); ok {
		fmt.Fprintf(b, "%s%s  %s\n", pad, label, s)
		return
	}
	switch c.op {
	case opUnknown:
		fmt.Fprintf(b, "%s%s  CUE: %s\n", pad, label, c.why)
	case opStruct:
		kind := "closed struct"
		if c.open {
			kind = "open struct (...)"
		}
		fmt.Fprintf(b, "%s%s  %s\n", pad, label, kind)
		for i, name := range c.names {
			mark := "?"
			if c.reqMask&(1<<i) != 0 {
				mark = "!"
			}
			dumpNode(b, c.vals[i], name+mark, indent+1, depth+1)
		}
		for _, p := range c.patterns {
			key, _ := inline(p.key)
			dumpNode(b, p.val, "["+key+"]", indent+1, depth+1)
		}
	case opList:
		fmt.Fprintf(b, "%s%s  list\n", pad, label)
		dumpNode(b, c.elem, "[...]", indent+1, depth+1)
	case opAnd, opOr:
		word := map[checkOp]string{opAnd: "all of", opOr: "one of"}[c.op]
		fmt.Fprintf(b, "%s%s  %s\n", pad, label, word)
		for _, s := range c.subs {
			dumpNode(b, s, map[checkOp]string{opAnd: "&", opOr: "|"}[c.op], indent+1, depth+1)
		}
	}
}

// inline renders a checker that fits on one line: scalars, and conjunctions
// and disjunctions of them.
func inline(c *checker) (string, bool) {
	switch c.op {
	case opAny:
		return "_", true
	case opKinds:
		return kindNames(c.allow), true
	case opLit:
		switch c.lit.kind {
		case kString:
			return strconv.Quote(c.lit.s), true
		case kInt:
			return strconv.FormatInt(c.lit.i, 10), true
		case kBool:
			return strconv.FormatBool(c.lit.b), true
		}
		return "null", true
	case opBound:
		ops := map[cue.Op]string{cue.LessThanOp: "<", cue.LessThanEqualOp: "<=", cue.GreaterThanOp: ">", cue.GreaterThanEqualOp: ">="}
		return ops[c.cmp] + strconv.FormatInt(c.bound, 10), true
	case opRegex:
		return "=~" + strconv.Quote(c.re.String()), true
	case opList:
		return "[]", c.elem == nil
	case opAnd, opOr:
		var parts []string
		for _, s := range c.subs {
			p, ok := inline(s)
			if !ok {
				return "", false
			}
			if s.op == opOr && c.op == opAnd {
				p = "(" + p + ")"
			}
			parts = append(parts, p)
		}
		return strings.Join(parts, map[checkOp]string{opAnd: " & ", opOr: " | "}[c.op]), true
	}
	return "", false
}

func kindNames(k kinds) string {
	var names []string
	if k&(kInt|kFloat) == kInt|kFloat {
		names = append(names, "number")
		k &^= kInt | kFloat
	}
	for _, n := range []struct {
		k    kinds
		name string
	}{{kNull, "null"}, {kBool, "bool"}, {kInt, "int"}, {kFloat, "float"}, {kString, "string"}, {kStruct, "struct"}, {kList, "list"}} {
		if k&n.k != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, " | ")
}
