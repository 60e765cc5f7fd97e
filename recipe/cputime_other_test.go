//go:build !unix

// Process CPU time for benchmarks: not measured on this platform (the metric reads 0).

package recipe_test

import "time"

func processCPUTime() time.Duration { return 0 }
