package fix

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// copyXattrs copies rel's extended attributes to tmp. The SELinux label
// is the one the policy gives the new file, not copied.
func copyXattrs(r *os.Root, rel string, tmp *os.File) error {
	f, err := r.OpenFile(rel, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return rootErr(err)
	}
	defer f.Close()
	names, err := listXattrs(int(f.Fd()))
	if err != nil || len(names) == 0 {
		return nil // none, or a filesystem without them
	}
	var lost []string
	for _, name := range names {
		if name == "security.selinux" {
			continue
		}
		val, err := getXattr(int(f.Fd()), name)
		if err == nil {
			err = unix.Fsetxattr(int(tmp.Fd()), name, val, 0)
		}
		if err != nil {
			lost = append(lost, name)
		}
	}
	if len(lost) > 0 {
		return fmt.Errorf("has extended attributes a rewrite cannot keep (%s); not written", strings.Join(lost, ", "))
	}
	return nil
}

func listXattrs(fd int) ([]string, error) {
	n, err := unix.Flistxattr(fd, nil)
	if err != nil || n == 0 {
		return nil, err
	}
	buf := make([]byte, n)
	if n, err = unix.Flistxattr(fd, buf); err != nil {
		return nil, err
	}
	var names []string
	for _, b := range bytes.Split(buf[:n], []byte{0}) {
		if len(b) > 0 {
			names = append(names, string(b))
		}
	}
	return names, nil
}

func getXattr(fd int, name string) ([]byte, error) {
	n, err := unix.Fgetxattr(fd, name, nil)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, n)
	n, err = unix.Fgetxattr(fd, name, buf)
	return buf[:n], err
}
