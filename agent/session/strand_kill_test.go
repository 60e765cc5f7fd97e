//go:build unix

// A move of goose-ls's own store into goose's, killed half way, loses nothing and finishes on the next start.
package session

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStrandedMoveKilledHalfWay: the move is killed (SIGKILL) after its first session; nothing is lost,
// the old file stays, and the next start finishes the move without copying anything twice.
func TestStrandedMoveKilledHalfWay(t *testing.T) {
	if dir := os.Getenv("GOOSE_LS_TEST_MOVE_IN"); dir != "" { // the process that is killed
		movedSession = func(string, string) { syscall.Kill(os.Getpid(), syscall.SIGKILL) }
		Open(DefaultPath(dir), nil)
		os.Exit(3) // not reached: the first moved session kills the process
	}
	dataDir := t.TempDir()
	path := DefaultPath(dataDir)
	gooseStoreAt15(t, path)
	own := ownStore(t, filepath.Dir(path), 13)
	ownPath := filepath.Join(filepath.Dir(path), OwnStoreName)
	ownDB := openAsGoose(t, ownPath)
	want := map[string]string{}
	for _, id := range own {
		want[id] = ownRows(t, ownDB, id)
	}
	ownDB.Close()

	cmd := exec.Command(os.Args[0], "-test.run=^TestStrandedMoveKilledHalfWay$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOOSE_LS_TEST_MOVE_IN="+dataDir)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the moving process was not killed: %v\n%s", err, out)
	}
	goose := openAsGoose(t, path)
	if copies := copiesOf(t, goose); len(copies) != 1 {
		t.Fatalf("after the kill, copies %v (want the first session only)", copies)
	}
	goose.Close()
	if _, err := os.Stat(ownPath); err != nil {
		t.Fatalf("the own store is gone after a move cut short: %v", err)
	}

	start := time.Now()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Notice() == nil || !strings.Contains(s.Notice().Error(), "the 4 sessions goose-ls kept in") {
		t.Errorf("notice %v", s.Notice())
	}
	s.Close()
	goose = openAsGoose(t, path)
	copies := copiesOf(t, goose)
	for _, id := range own {
		if len(copies[id]) != 1 {
			t.Errorf("session %s has copies %v", id, copies[id])
			continue
		}
		if got := ownRows(t, goose, copies[id][0]); got != want[id] {
			t.Errorf("session %s:\n%s\nwant\n%s", id, got, want[id])
		}
	}
	if _, err := os.Stat(ownPath + MovedSuffix); err != nil {
		t.Errorf("the old file was not kept as %s: %v", OwnStoreName+MovedSuffix, err)
	}
	t.Logf("finishing the move took %v", time.Since(start))
}
