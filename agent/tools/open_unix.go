//go:build unix

// The open flag that keeps opening a FIFO or a device from blocking (Unix).

package tools

import "syscall"

const openNonblock = syscall.O_NONBLOCK
