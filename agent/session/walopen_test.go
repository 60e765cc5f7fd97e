// A store opened while another connection writes the same new file waits for it instead of failing.
package session

import (
	"context"
	"database/sql"
	"testing"

	"github.com/goose-ls/goose-ls/agent/provider"
)

// TestOpenWaitsForAWriterOfTheNewFile: another connection holds a write transaction on the new store file
// (rollback mode, as a store being created is); Open's switch to WAL fails with SQLITE_BUSY at once, is
// retried, and succeeds once the writer is done. Before openWAL this was TestConcurrentWriters' flake:
// "creating goose's schema: database is locked (5) (SQLITE_BUSY)".
func TestOpenWaitsForAWriterOfTheNewFile(t *testing.T) {
	ctx := context.Background()
	path := DefaultPath(t.TempDir())
	if _, err := Open(path, nil); err != nil { // makes the folder; the file is replaced below
		t.Fatal(err)
	}
	path = path + ".new"
	writer, err := sql.Open("sqlite", fileDSN(path, "_txlock=immediate"))
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	tx, err := writer.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the file exists, empty, and is reserved
	if err != nil {
		t.Fatal(err)
	}
	retried := make(chan struct{}, 1)
	busyRetried = func() {
		select {
		case retried <- struct{}{}:
		default:
		}
	}
	defer func() { busyRetried = func() {} }()
	type opened struct {
		s   *Store
		err error
	}
	done := make(chan opened, 1)
	go func() {
		s, err := Open(path, nil)
		done <- opened{s, err}
	}()
	select {
	case <-retried: // Open met the writer and waits for it
	case o := <-done:
		t.Fatalf("Open returned while another connection held the new file: %v", o.err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	o := <-done
	if o.err != nil {
		t.Fatalf("Open after the writer finished: %v", o.err)
	}
	defer o.s.Close()
	if o.s.Path() != path || o.s.Notice() != nil {
		t.Fatalf("store %s, notice %v", o.s.Path(), o.s.Notice())
	}
	id, err := o.s.Create(ctx, Session{Name: "n", WorkingDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.s.Append(ctx, id, provider.Message{Role: provider.User, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
}
