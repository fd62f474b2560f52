package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stolik-bot/stolik/store/sqlite"
	"github.com/stolik-bot/stolik/store/storetest"
)

// sqliteBackend is the SQLite store with the hooks the conformance suite
// uses to change its file behind its back.
type sqliteBackend struct {
	*sqlite.DB
	path string
}

var (
	_ storetest.Backend    = sqliteBackend{}
	_ storetest.RawDeleter = sqliteBackend{}
	_ storetest.RawEditor  = sqliteBackend{}
	_ storetest.Reopener   = sqliteBackend{}
)

func openSQLite(t *testing.T, path string) sqliteBackend {
	t.Helper()
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return sqliteBackend{DB: db, path: path}
}

func (b sqliteBackend) Reopen(t *testing.T) storetest.Backend { return openSQLite(t, b.path) }

// raw runs a statement on the file through a connection of its own.
func (b sqliteBackend) raw(ctx context.Context, q string, args ...any) error {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(b.path)
	db, err := sql.Open("sqlite3", "file:"+esc+"?_busy_timeout=5000")
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, q, args...)
	return err
}

func (b sqliteBackend) DeleteLogRows(ctx context.Context, id string, from, to int) error {
	return b.raw(ctx, `DELETE FROM actions WHERE table_id = ? AND n >= ? AND n < ?`, id, from, to)
}

func (b sqliteBackend) UpdateLogRow(ctx context.Context, id string, n int, action string) error {
	return b.raw(ctx, `UPDATE actions SET action = ? WHERE table_id = ? AND n = ?`, action, id, n)
}

func (b sqliteBackend) SetLogLen(ctx context.Context, id string, n int) error {
	return b.raw(ctx, `UPDATE tables SET log_len = ? WHERE id = ?`, n, id)
}

// TestConformance runs the backend-neutral store suite on SQLite.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Backend {
		return openSQLite(t, filepath.Join(t.TempDir(), "stolik.db"))
	})
}
