// Linux pseudo file systems: /proc and /sys files say they are regular files; statfs on the handle tells.

//go:build linux

package recipe

import (
	"os"
	"syscall"
)

const (
	procSuperMagic = 0x9fa0
	sysfsMagic     = 0x62656572
)

// isPseudoFS reports whether f lives on procfs or sysfs (fstatfs on the open handle).
func isPseudoFS(f *os.File) bool {
	conn, err := f.SyscallConn()
	if err != nil {
		return true
	}
	var st syscall.Statfs_t
	var serr error
	if err := conn.Control(func(fd uintptr) { serr = syscall.Fstatfs(int(fd), &st) }); err != nil || serr != nil {
		return true
	}
	return st.Type == procSuperMagic || st.Type == sysfsMagic
}
