//go:build unix

// tom's caps on each part and its non-blocking read of GOOSE_MOIM_MESSAGE_FILE (a FIFO is skipped).

package platform

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

func TestTomCapsAndDoesNotBlock(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	// 'é' is two bytes: 65,536 bytes end on a boundary, so cut one byte earlier with a leading 'x'
	if err := os.WriteFile(big, []byte("x"+strings.Repeat("é", 40000)), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("é", 40000)
	tom := &Tom{Getenv: env(map[string]string{"GOOSE_MOIM_MESSAGE_TEXT": long, "GOOSE_MOIM_MESSAGE_FILE": big})}
	parts := strings.SplitN(tom.TurnContext(), "\n", 2)
	if len(parts) != 2 || len(parts[0]) != TomMaxBytes || len(parts[1]) != TomMaxBytes-1 || !utf8.ValidString(parts[0]) || !utf8.ValidString(parts[1]) {
		t.Fatalf("parts of %d and %d bytes", len(parts[0]), len(parts[len(parts)-1]))
	}
	// a FIFO with no writer would block an ordinary open: it is skipped
	tom = &Tom{Getenv: env(map[string]string{"GOOSE_MOIM_MESSAGE_FILE": fifo})}
	if got := tom.TurnContext(); got != "" {
		t.Errorf("fifo %q", got)
	}
}
