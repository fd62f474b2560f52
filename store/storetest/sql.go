package storetest

import (
	"context"
	"testing"
)

// SQL is the test adapter of a backend on an SQL database with the store's
// schema: it opens stores that offer RawDeleter, RawEditor and Reopener.
type SQL struct {
	// Open is the backend's Open (see OpenFunc).
	Open func(ctx context.Context, dsn string) (Backend, error)
	// Exec runs one statement on the database dsn names through a
	// connection of its own, behind the store's back. Its placeholders are
	// $1, $2… in the order they appear (SQLite takes them too).
	Exec func(ctx context.Context, dsn, q string, args ...any) error
}

// OpenFunc is a backend's Open, which returns its own type, as SQL.Open:
// a failed Open gives a nil Backend, not one holding a nil pointer.
func OpenFunc[T Backend](open func(ctx context.Context, dsn string) (T, error)) func(ctx context.Context, dsn string) (Backend, error) {
	return func(ctx context.Context, dsn string) (Backend, error) {
		b, err := open(ctx, dsn)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
}

// Backend opens the store at dsn, closed when the test ends.
func (s SQL) Backend(t *testing.T, dsn string) Backend {
	t.Helper()
	b, err := s.Open(context.Background(), dsn)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return sqlBackend{Backend: b, sql: s, dsn: dsn}
}

// sqlBackend is a store with the hooks of its test adapter.
type sqlBackend struct {
	Backend
	sql SQL
	dsn string
}

var (
	_ RawDeleter = sqlBackend{}
	_ RawEditor  = sqlBackend{}
	_ Reopener   = sqlBackend{}
)

func (b sqlBackend) Reopen(t *testing.T) Backend { return b.sql.Backend(t, b.dsn) }

func (b sqlBackend) DeleteLogRows(ctx context.Context, id string, from, to int) error {
	return b.sql.Exec(ctx, b.dsn, `DELETE FROM actions WHERE table_id = $1 AND n >= $2 AND n < $3`, id, from, to)
}

func (b sqlBackend) UpdateLogRow(ctx context.Context, id string, n int, action string) error {
	return b.sql.Exec(ctx, b.dsn, `UPDATE actions SET action = $1 WHERE table_id = $2 AND n = $3`, action, id, n)
}

func (b sqlBackend) SetLogLen(ctx context.Context, id string, n int) error {
	return b.sql.Exec(ctx, b.dsn, `UPDATE tables SET log_len = $1 WHERE id = $2`, n, id)
}
