package diag

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

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
// The node path leaves out which item of a list it goes through
// (resumption.decision_log[].timestamp): a fix that gives entries their id
// renames the items (a list item is named by its id, else its index), and
// the findings inside them are the same findings after it.
//
// A credential's finding leaves out the node path too: the credential is
// what it is about, and a fix that moves it (prose kept as a comment)
// neither adds one nor takes one away.
func EditKey(f *Finding, path string) string {
	np := listFree(f.NodePath)
	if f.Secret {
		np = ""
	}
	return f.Code + "\x00" + path + "\x00" + np + "\x00" + StableMessage(f.Message)
}

// listFree is a node path with each list step's item left out: "[2]" and
// "[=3f…]" become "[]".
func listFree(p string) string {
	i := strings.IndexByte(p, '[')
	if i < 0 {
		return p
	}
	var sb strings.Builder
	for i >= 0 {
		j := strings.IndexByte(p[i:], ']')
		if j < 0 {
			break
		}
		sb.WriteString(p[:i+1])
		p = p[i+j:]
		i = strings.IndexByte(p[1:], '[')
		if i >= 0 {
			i++
		}
	}
	sb.WriteString(p)
	return sb.String()
}
