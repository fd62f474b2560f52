package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"

	"github.com/mattn/go-sqlite3"

	"github.com/stolik-bot/stolik/store"
)

// OpenReadOnly opens an existing database file only to read it (replay,
// check, the source of migrate-db): it never creates, migrates or writes
// the file, and works on a file, a directory or a mount the user may only
// read. SQLite opens the file with mode=ro; when it cannot (a database in
// WAL mode whose -shm file is missing and cannot be made beside it), it
// reads the file as immutable, which is right as long as no other process
// writes it meanwhile. Writes through the DB fail. It fails with
// store.ErrNoDatabase when there is no file and store.ErrSchemaTooNew when a
// newer program migrated it; a file that is not a SQLite database fails
// with SQLite's own error (sqlite3.ErrNotADB), which IsNotADatabase tells.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", store.ErrNoDatabase, path)
	} else if err != nil {
		return nil, fmt.Errorf("store: opening %s: %w", path, err)
	}
	w, err := openRO(ctx, path, false)
	if err != nil && (isReadOnly(err) || errors.Is(err, errCantOpen)) {
		w, err = openRO(ctx, path, true)
	}
	if err != nil {
		return nil, err
	}
	// The "writer" is a second read-only pool: what writes through it is
	// refused by SQLite.
	r, err := openRO(ctx, path, w.immutable)
	if err != nil {
		_ = w.Close()
		return nil, err
	}
	w.SetMaxOpenConns(1)
	return &DB{w: newPreparedDB(w.DB), r: newPreparedDB(r.DB), noGroup: true}, nil
}

// errCantOpen is SQLite unable to open the file (SQLITE_CANTOPEN).
var errCantOpen = errors.New("store: SQLite cannot open the file")

// roPool is a read-only connection pool.
type roPool struct {
	*sql.DB
	immutable bool
}

// openRO opens a read-only pool on path and reads its schema version.
func openRO(ctx context.Context, path string, immutable bool) (roPool, error) {
	q := url.Values{}
	q.Set("mode", "ro")
	if immutable {
		q.Set("immutable", "1")
	}
	db, err := sql.Open("sqlite3", dsnWith(path, false, q))
	if err != nil {
		return roPool{}, fmt.Errorf("store: opening %s: %w", path, err)
	}
	fail := func(err error) (roPool, error) {
		_ = db.Close()
		var se sqlite3.Error
		if errors.As(err, &se) && se.Code == sqlite3.ErrCantOpen {
			return roPool{}, fmt.Errorf("%w: %s: %v", errCantOpen, path, se)
		}
		return roPool{}, fmt.Errorf("store: reading %s: %w", path, err)
	}
	var exists int
	if err := db.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&exists); err != nil {
		return fail(err)
	}
	if exists > 0 {
		cur, err := schemaVersion(ctx, db)
		if err != nil {
			return fail(err)
		}
		ms, err := store.LoadMigrations(embedded, "migrations")
		if err != nil {
			return fail(err)
		}
		if _, err := store.NextMigration(ms, cur); err != nil {
			_ = db.Close()
			return roPool{}, fmt.Errorf("%w (database %s)", err, path)
		}
	}
	return roPool{DB: db, immutable: immutable}, nil
}

// IsNotADatabase reports whether err is SQLite finding that the file is not
// a database at all.
func IsNotADatabase(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.Code == sqlite3.ErrNotADB
}
