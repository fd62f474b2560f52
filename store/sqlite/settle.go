package sqlite

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/mattn/go-sqlite3"
)

// unsettled is set when a commit failed with an I/O error (a failed sync
// of the write-ahead log): SQLite rolled the transaction back in this
// process, yet its frames may be in the log file, and a restart's recovery
// would take them. What this process reads could then differ from what a
// restart reads, so loads fail (the caller keeps saying it is checking)
// until settleWAL has made the two agree.
type unsettled struct{ flag atomic.Bool }

// afterCommitFailure is called with a commit's error: after an I/O error
// the log is settled at once, or marked unsettled when that fails too.
func (d *DB) afterCommitFailure(ctx context.Context, err error) {
	var se sqlite3.Error
	if !errors.As(err, &se) || se.Code != sqlite3.ErrIoErr {
		return
	}
	d.unsettled.flag.Store(true)
	_ = d.settleWAL(ctx)
}

// settleWAL makes what this process reads of the database what a restart
// would read: a TRUNCATE checkpoint copies the committed frames into the
// file and empties the log, dropping the frames of a transaction SQLite
// rolled back here. Until it succeeds (the disk may still fail), loads
// fail.
func (d *DB) settleWAL(ctx context.Context) error {
	if !d.unsettled.flag.Load() {
		return nil
	}
	var busy, logFrames, done int
	if err := d.w.DB.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
		return fmt.Errorf("store: settling the write-ahead log after a failed sync: %w", err)
	}
	if busy != 0 {
		return errors.New("store: settling the write-ahead log after a failed sync: readers kept the checkpoint from finishing")
	}
	d.unsettled.flag.Store(false)
	return nil
}
