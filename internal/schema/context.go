package schema

//lint:file-ignore SA1019 cue.Runtime is the one way to a context without cuecontext's imports

import "cuelang.org/go/cue"

// NewContext returns a fresh CUE context without cuelang.org/go/cue/cuecontext.
// That package links every CUE builtin package (pkg/tool/http and its
// net/http among them) and every encoding CUE can embed (protobuf, XML,
// TOML), whose package initialisers run before main in every process —
// several milliseconds of a one-file lint. The schemas import no builtin
// package and embed nothing, and cue.Runtime initialises the same runtime
// cuecontext.New does, without those injections.
func NewContext() *cue.Context {
	r := new(cue.Runtime)
	// A Runtime initialises itself on first use; a Context made of one
	// must not be used before.
	if _, err := r.Compile("init.cue", ""); err != nil {
		panic("cue: initialising a runtime: " + err.Error())
	}
	return (*cue.Context)(r)
}
