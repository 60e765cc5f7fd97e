// readSized: a read sized by fstat returns the whole file whatever the size hint says, and stops at the limit.

package recipe

import (
	"bytes"
	"strings"
	"testing"
)

func TestReadSizedIgnoresAWrongHint(t *testing.T) {
	text := strings.Repeat("0123456789", 100) // 1,000 bytes
	for _, tc := range []struct {
		name  string
		hint  int64
		limit int
		want  int
	}{
		{"exact size", 1000, 2000, 1000},
		{"file grew after fstat", 10, 2000, 1000},
		{"file shrank after fstat", 5000, 2000, 1000},
		{"unknown size", -1, 2000, 1000},
		{"empty hint", 0, 2000, 1000},
		{"limit below the size", 1000, 300, 300},
		{"limit equals the size", 1000, 1000, 1000},
	} {
		got, err := readSized(bytes.NewReader([]byte(text)), tc.hint, tc.limit)
		if err != nil || len(got) != tc.want || string(got) != text[:tc.want] {
			t.Errorf("%s: %d bytes, %v; want the first %d bytes", tc.name, len(got), err, tc.want)
		}
	}
}

func BenchmarkReadSized(b *testing.B) {
	data := bytes.Repeat([]byte("x"), 60<<10)
	for b.Loop() {
		if _, err := readSized(bytes.NewReader(data), int64(len(data)), MaxLinkedFileSize+1); err != nil {
			b.Fatal(err)
		}
	}
}
