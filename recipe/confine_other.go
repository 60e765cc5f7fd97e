// Opening on systems without O_NONBLOCK (Windows): named pipes and devices are refused by fstat instead.

//go:build !unix

package recipe

// OpenNonBlocking is the open flag that keeps opening a FIFO or a device from blocking (0 where there is none).
const OpenNonBlocking = 0
