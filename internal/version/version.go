// Package version reports resumelint's version: set at release with
// -ldflags "-X .../internal/version.Version=v1.2.3", else the module's.
package version

import "runtime/debug"

// Version is overridden at link time by releases.
var Version = ""

// String returns the version of this binary.
func String() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
