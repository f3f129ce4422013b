package fix

import (
	"github.com/resumelint/resumelint/internal/diag"
	"github.com/resumelint/resumelint/internal/load"
)

// Candidates returns the display paths of the files that carry a safe fix
// `fix` could apply (an edit or a rename): the only files Settle must run
// the Fixer over. A lint without any pays for no dry run.
func Candidates(fds []diag.Finding) map[string]bool {
	var out map[string]bool
	for i := range fds {
		f := fds[i].Fix
		if f == nil || f.Applicability != diag.FixSafe || len(f.Edits) == 0 && f.RenameTo == "" {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[fds[i].Path] = true
	}
	return out
}

// Settle answers, for every safe fix among fds, "would `resumelint fix`
// apply it?", so that every client (the lint summary, --statistics, JSON,
// markdown, the language server's code actions and fix-all, the hooks)
// counts and offers exactly what `fix` applies. It runs fx (not Unsafe)
// in memory over files, the files Candidates names with the bytes fds were
// found in, under the same never-worse check `fix` uses, and writes
// nothing. Each safe fix it would not apply is settled in place (the Fix
// is shared by every finding that carries it):
//
//   - turned down by the never-worse check: unsafe, with the reason
//     (`--unsafe-fixes` applies it);
//   - not applicable at all (a rename whose folder does not exist or whose
//     name is taken, a result that would lose a value): no fix.
func Settle(fx *Fixer, files []*load.File, fds []diag.Finding) {
	if len(files) == 0 {
		return
	}
	fx.Unsafe = false
	out := fx.Run(files, fds)
	byPath := map[string]*File{}
	for _, ff := range out {
		byPath[ff.File.Path] = ff
	}
	type verdict struct {
		f      *diag.Fix
		refuse string // why the never-worse check turned it down
		none   bool   // it cannot apply at all
	}
	var settled []verdict
	seen := map[*diag.Fix]bool{}
	for i := range fds {
		fd := &fds[i]
		f := fd.Fix
		ff := byPath[fd.Path]
		if f == nil || seen[f] || f.Applicability != diag.FixSafe || len(f.Edits) == 0 && f.RenameTo == "" {
			continue
		}
		seen[f] = true
		if ff == nil { // a folder's file, or one that could not be read: `fix` edits neither
			settled = append(settled, verdict{f: f, refuse: "resumelint fix does not edit this file", none: true})
			continue
		}
		k := fixKey(fd.Code, f)
		switch {
		case ff.applied[k]:
		case ff.rejected[k] != "":
			settled = append(settled, verdict{f: f, refuse: ff.rejected[k]})
		default:
			why := ff.Skipped[offer{code: fd.Code, fix: f}.label()]
			settled = append(settled, verdict{f: f, refuse: why, none: true})
		}
	}
	// Only now: the Fixer read the fixes while it ran.
	for _, v := range settled {
		if v.none {
			v.f.Applicability, v.f.Reason = diag.FixNone, v.refuse
			continue
		}
		v.f.Applicability, v.f.Reason = diag.FixUnsafe, trimUnsafeHint(v.refuse)
	}
}

// trimUnsafeHint drops the "; --unsafe-fixes applies it" the Fixer's
// report adds: an unsafe fix's Reason says why it is unsafe, and `fix`
// adds the hint itself.
func trimUnsafeHint(why string) string {
	const hint = "; --unsafe-fixes applies it"
	if len(why) >= len(hint) && why[len(why)-len(hint):] == hint {
		return why[:len(why)-len(hint)]
	}
	return why
}
