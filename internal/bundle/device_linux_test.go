package bundle_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/resumelint/resumelint/internal/bundle"
)

// A device declared as an output is reported as what it is, never read.
func TestDeviceOutput(t *testing.T) {
	dir, a := newBundle(t, reportOutputs)
	dev := filepath.Join(dir, "out", "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, int(1<<8|3)); err != nil { // 1:3 is /dev/null
		t.Skipf("mknod: %v", err)
	}
	a.hashes["hashes"].(map[string]any)["out/null"] = digest("")
	a.write(t, dir)
	v := verify(t, dir, opts())
	wantCodes(t, v, bundle.OutputMissing)
	if p := problem(t, v, bundle.OutputMissing, "out/null"); !strings.Contains(p.Message, "device") {
		t.Errorf("message %q does not say it is a device", p.Message)
	}
}
