//go:build !unix

// The open flag that keeps opening a FIFO or a device from blocking: none off Unix.

package tools

const openNonblock = 0
