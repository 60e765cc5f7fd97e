// Opening without blocking on Unix: O_NONBLOCK makes opening a FIFO return at once (then fstat refuses it).

//go:build unix

package recipe

import "syscall"

// OpenNonBlocking is the open flag that keeps opening a FIFO or a device from blocking (0 where there is none).
const OpenNonBlocking = syscall.O_NONBLOCK
