// Package storetest is the conformance suite every store backend passes:
// the SQLite store (package store/sqlite) and the PostgreSQL store
// (package store/postgres) run it from their tests.
//
//	storetest.Run(t, func(t *testing.T) storetest.Backend { ... a new, empty store ... })
//
// Backend lists the methods a backend offers: table.Store, everything the
// bot's Store needs, and what the commands use (integrity checks, marks,
// the schema version): store.Backend, the backend-neutral contract.
//
// Backends may keep times less precisely than the SQLite store (which keeps
// nanoseconds): PostgreSQL keeps microseconds. The suite compares times at
// Precision and requires a stored time to come back in UTC, truncated
// (never rounded up) to at most that precision.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/stolik-bot/stolik/store"
)

// Precision is the coarsest precision at which a backend may keep times.
const Precision = time.Microsecond

// Backend is the backend-neutral store contract the suite checks
// (store.Backend).
type Backend = store.Backend

// RawDeleter is offered by a backend's test adapter to delete log rows
// behind the store's back — what a damaged disk, a restore that missed
// rows or a stray DELETE does. The suite checks that the store then
// refuses the table instead of serving a shorter log.
type RawDeleter interface {
	// DeleteLogRows deletes the entries of table id at positions from <= n < to.
	DeleteLogRows(ctx context.Context, id string, from, to int) error
}

// RawEditor is offered by a backend's test adapter to change rows behind
// the store's back.
type RawEditor interface {
	// UpdateLogRow changes the action of entry n of table id in place, as
	// SQL's UPDATE would: the backend's schema must refuse it (the log is
	// append-only) and the error says "append-only".
	UpdateLogRow(ctx context.Context, id string, n int, action string) error
	// SetLogLen sets the recorded log length of table id.
	SetLogLen(ctx context.Context, id string, n int) error
}

// Reopener is offered by a backend's test adapter to open another handle
// on the same database, as another process would (or as the same process
// after a restart). The handle is closed when the test ends.
type Reopener interface {
	Reopen(t *testing.T) Backend
}
