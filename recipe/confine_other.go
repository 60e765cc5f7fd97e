// Opening on systems without O_NONBLOCK (Windows): named pipes and devices are refused by fstat instead.

//go:build !unix

package recipe

const openNonBlocking = 0
