package gctune

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestHugeAdviseMarksTheRange reads the kernel's flags of the mapping
// holding an advised buffer: "hg" is MADV_HUGEPAGE.
func TestHugeAdviseMarksTheRange(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	b := make([]byte, 4*hugePage)
	hugeAdvise(b)
	base := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	inside := (base + hugePage) &^ (hugePage - 1) // a whole huge page of b
	flags, err := vmFlags(inside)
	if err != nil {
		t.Skip(err)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("mapping of %#x has flags %q, want hg among them", inside, flags)
	}
}

// vmFlags returns the VmFlags line of the mapping of /proc/self/smaps
// that holds addr.
func vmFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), nil
		}
	}
	return "", fmt.Errorf("no mapping holds %#x", addr)
}
