//go:build linux

// Package watch lets tests see which files a run opened, through inotify.
package watch

import (
	"syscall"
	"testing"
	"unsafe"
)

// Opens reports, when the returned function is called, whether any
// file or folder directly inside dir was opened or read since: the proof
// that verification never touched it.
func Opens(t testing.TB, dir string) (opened func() []string) {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify unavailable: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if _, err := syscall.InotifyAddWatch(fd, dir, syscall.IN_OPEN|syscall.IN_ACCESS); err != nil {
		t.Skipf("inotify watch: %v", err)
	}
	return func() []string {
		var out []string
		buf := make([]byte, 64*1024)
		for {
			n, err := syscall.Read(fd, buf)
			if n <= 0 || err != nil {
				return out
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := buf[off+syscall.SizeofInotifyEvent : off+syscall.SizeofInotifyEvent+int(ev.Len)]
				for len(name) > 0 && name[len(name)-1] == 0 {
					name = name[:len(name)-1]
				}
				what := string(name)
				if what == "" {
					what = "."
				}
				out = append(out, what)
				off += syscall.SizeofInotifyEvent + int(ev.Len)
			}
		}
	}
}
