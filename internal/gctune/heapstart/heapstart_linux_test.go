package heapstart

import (
	"go/parser"
	"go/token"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// mappingOf returns the VmFlags and AnonHugePages (KiB) of the mapping
// of /proc/self/smaps that holds addr.
func mappingOf(t *testing.T, addr uintptr) (flags string, hugeKiB int) {
	t.Helper()
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	in := false
	for line := range strings.Lines(string(smaps)) {
		line = strings.TrimSuffix(line, "\n")
		if lo, hi, ok := rangeOf(line); ok {
			if in {
				break
			}
			in = lo <= addr && addr < hi
			continue
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			hugeKiB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			flags = strings.TrimSpace(v)
		}
	}
	if !in {
		t.Fatalf("no mapping holds %#x", addr)
	}
	return flags, hugeKiB
}

// rangeOf parses the address range that starts a mapping's header line.
func rangeOf(line string) (lo, hi uintptr, ok bool) {
	span, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(span, "-")
	if !found {
		return 0, 0, false
	}
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(l), uintptr(h), true
}

// TestInitAdvisedTheHeap reads the test process's own mappings: init ran
// in it as in the program, and the mapping that holds the probe must be
// marked for huge pages ("hg"), and hold one where the kernel collapsed
// the page being filled.
func TestInitAdvisedTheHeap(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("this kernel gives no transparent huge pages")
	}
	flags, hugeKiB := mappingOf(t, uintptr(unsafe.Pointer(probe)))
	advisedHere := strings.Contains(" "+flags+" ", " hg ")
	switch {
	case adviseErr == 0 && !advisedHere:
		t.Errorf("MADV_HUGEPAGE succeeded but the heap mapping holding the probe has flags %q, want hg among them", flags)
	case adviseErr != 0 && !advisedHere:
		// The kernel may refuse the advice (ENOMEM when it cannot split
		// the mapping, or a range that ends past it; EINVAL without huge
		// page support): init then leaves ordinary pages, which is what
		// the program must do, and there is nothing more to check here.
		t.Skipf("the kernel refused MADV_HUGEPAGE (%v); the heap keeps ordinary pages", adviseErr)
	}
	switch collapseErr {
	case 0:
		if hugeKiB < hugePage>>10 {
			t.Errorf("MADV_COLLAPSE succeeded but the mapping holds %d KiB of huge pages", hugeKiB)
		}
	case syscall.EINVAL, syscall.EAGAIN, syscall.ENOMEM:
		// A kernel before 6.1, or no huge page free: ordinary pages.
	default:
		t.Errorf("MADV_COLLAPSE: %v", collapseErr)
	}
}

// TestImportsStayEarly keeps the package among the first Go initialises:
// an import such as fmt would start it after the packages whose
// allocations it is for.
func TestImportsStayEarly(t *testing.T) {
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range files {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path != "os" && path != "syscall" && path != "unsafe" {
				t.Errorf("%s imports %s: heapstart may import only os, syscall and unsafe", name, path)
			}
		}
	}
}
