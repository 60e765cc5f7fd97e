//go:build unix

// Process CPU time for benchmarks: on a shared, loaded machine wall time says little about growth.

package recipe_test

import (
	"syscall"
	"time"
)

func processCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
