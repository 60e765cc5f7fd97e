// Opening without blocking on Unix: O_NONBLOCK makes opening a FIFO return at once (then fstat refuses it).

//go:build unix

package recipe

import "syscall"

const openNonBlocking = syscall.O_NONBLOCK
