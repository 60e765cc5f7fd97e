// Opening a store with goose's settings when another process converts the same new file to WAL.

package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// walOpenTimeout bounds the retries of openWAL: goose's busy timeout.
const walOpenTimeout = 30 * time.Second

// busyRetried is called before each retry of openWAL (tests await it).
var busyRetried = func() {}

// openWAL opens the database at path with goose's settings (dsn) on one connection, made at once.
//
// The connection's `PRAGMA journal_mode=WAL` turns a file still in rollback mode — a store being created —
// into WAL. SQLite does that by upgrading a read transaction to an exclusive one, and an upgrade never
// waits (the busy timeout does not apply: waiting could deadlock), so while another connection writes
// the new file (another goose-ls or goose creating its schema at the same moment) the pragma fails at
// once with SQLITE_BUSY. The connection is then made again, after a short pause, until the other side
// is done (the file is WAL by then and the pragma has nothing to do), for up to goose's busy timeout.
func openWAL(ctx context.Context, path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	pause, deadline := time.Millisecond, time.Now().Add(walOpenTimeout)
	for {
		err := db.PingContext(ctx) // the connection, with its pragmas, stays in the pool for the caller
		if err == nil {
			return db, nil
		}
		if !isBusy(err) || time.Now().After(deadline) {
			db.Close()
			return nil, fmt.Errorf("opening %s: %w", path, err)
		}
		busyRetried()
		select {
		case <-ctx.Done():
			db.Close()
			return nil, ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// isBusy reports SQLite's SQLITE_BUSY (any extended code of it).
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}
