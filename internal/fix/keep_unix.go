//go:build unix

package fix

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// keepAttributes gives tmp, the replacement of rel, the owner and group
// and the extended attributes rel has, or fails: a fix that cannot keep
// them leaves the file as it is rather than change who owns it or what
// labels it carries.
func keepAttributes(r *os.Root, rel string, fi fs.FileInfo, tmp *os.File) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	tfi, err := tmp.Stat()
	if err != nil {
		return err
	}
	if tst, ok := tfi.Sys().(*syscall.Stat_t); ok && (tst.Uid != st.Uid || tst.Gid != st.Gid) {
		if err := tmp.Chown(int(st.Uid), int(st.Gid)); err != nil {
			return fmt.Errorf("belongs to user %d, group %d, which a rewrite cannot keep; not written", st.Uid, st.Gid)
		}
	}
	return copyXattrs(r, rel, tmp)
}
