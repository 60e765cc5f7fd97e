// Benchmark of compiling and indexing the embedded schema: the cost every `goose-ls check` process pays once.

package schema

import "testing"

func BenchmarkLoad(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := load(); err != nil {
			b.Fatal(err)
		}
	}
}
