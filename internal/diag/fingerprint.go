package diag

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/resumelint/resumelint/internal/lazyre"
)

var (
	lineRefRe = lazyre.New(`(?i)\b(?:lines?|col(?:umn)?s?)\s+\d+(?:\s*(?:-|–|,|and|to)\s*\d+)*`)
	digitsRe  = lazyre.New(`[0-9]+`)
)

// StableMessage strips line references and numbers from a message, so a
// finding whose message names a line keeps its identity when lines move.
func StableMessage(msg string) string {
	msg = lineRefRe.ReplaceAllString(msg, "line")
	return digitsRe.ReplaceAllString(msg, "0")
}

// Fingerprint identifies a finding without its line: the code, the given
// path (callers pass a repository-relative one), and the offending node's
// document path and content hash when the engine located the node, else
// the message without numbers. Baselines and SARIF partialFingerprints use it.
func Fingerprint(f *Finding, path string) string {
	h := sha256.New()
	h.Write([]byte(f.Code))
	h.Write([]byte{0})
	h.Write([]byte(path))
	h.Write([]byte{0})
	if f.NodePath != "" || f.NodeHash != "" {
		h.Write([]byte(f.NodePath))
		h.Write([]byte{0})
		h.Write([]byte(f.NodeHash))
	} else {
		h.Write([]byte(StableMessage(f.Message)))
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// EditKey identifies a finding across an edit of its file, as the fixes'
// never-worse check compares them: the code, the given path, the node's
// document path and the message without line references and numbers.
// Unlike Fingerprint it leaves out the node's content hash: a finding on
// a mapping that a fix edits inside (a missing key reported on the
// document root) is the same finding after the edit, and a message that
// quotes a line another fix moved ("(line 317)") is too.
//
// A credential's finding leaves out the node path too: the credential is
// what it is about, and a fix that moves it (prose kept as a comment)
// neither adds one nor takes one away.
func EditKey(f *Finding, path string) string {
	np := f.NodePath
	if f.Secret {
		np = ""
	}
	return f.Code + "\x00" + path + "\x00" + np + "\x00" + StableMessage(f.Message)
}
